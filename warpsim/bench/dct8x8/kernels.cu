// dct8x8: JPEG-style 8x8 block DCT, quantisation and inverse DCT (the shape of SDK dct8x8's
// CUDAkernel1DCT / quantisation / CUDAkernel1IDCT): 8x8 threads per image block, the source read
// through a texture, the DCT basis and the quantisation table in constant memory, two
// matrix-product passes through a shared 8x8 tile.
#define B 8

__constant__ float c_dct[B * B];   // c_dct[u * 8 + k] = c(u) cos((2k + 1) u pi / 16)
__constant__ float c_quant[B * B];

extern "C" __global__ void dct8x8_forward(cudaTextureObject_t src, float* dst, int width)
{
    __shared__ float tile[B][B + 1];
    __shared__ float tmp[B][B + 1];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int x = blockIdx.x * B + tx, y = blockIdx.y * B + ty;
    tile[ty][tx] = tex1Dfetch<float>(src, y * width + x);
    __syncthreads();
    float acc = 0.0f;
#pragma unroll
    for (int k = 0; k < B; k++) acc += c_dct[tx * B + k] * tile[ty][k];
    tmp[ty][tx] = acc;
    __syncthreads();
    acc = 0.0f;
#pragma unroll
    for (int k = 0; k < B; k++) acc += c_dct[ty * B + k] * tmp[k][tx];
    dst[y * width + x] = acc;
}

extern "C" __global__ void quantize(float* coef, int width)
{
    const int x = blockIdx.x * B + threadIdx.x, y = blockIdx.y * B + threadIdx.y;
    const float q = c_quant[threadIdx.y * B + threadIdx.x];
    const int i = y * width + x;
    coef[i] = rintf(coef[i] / q) * q;
}

extern "C" __global__ void dct8x8_inverse(const float* src, float* dst, int width)
{
    __shared__ float tile[B][B + 1];
    __shared__ float tmp[B][B + 1];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int x = blockIdx.x * B + tx, y = blockIdx.y * B + ty;
    tile[ty][tx] = src[y * width + x];
    __syncthreads();
    float acc = 0.0f;
#pragma unroll
    for (int u = 0; u < B; u++) acc += c_dct[u * B + tx] * tile[ty][u];
    tmp[ty][tx] = acc;
    __syncthreads();
    acc = 0.0f;
#pragma unroll
    for (int v = 0; v < B; v++) acc += c_dct[v * B + ty] * tmp[v][tx];
    dst[y * width + x] = acc;
}
