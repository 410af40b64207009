// fast_walsh_transform: dyadic convolution through the Walsh-Hadamard transform (the shape of SDK
// fastWalshTransform): radix-2 butterfly passes over global memory for the large strides, one
// pass in dynamic shared memory for the strides below the chunk size, and a modulate kernel.
extern "C" __global__ void fwt_global(float* d_data, int stride, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;  // butterfly index, n/2 of them
    if (i >= n / 2) return;
    const int lo = (i / stride) * 2 * stride + (i % stride);
    const float a = d_data[lo];
    const float b = d_data[lo + stride];
    d_data[lo] = a + b;
    d_data[lo + stride] = a - b;
}

extern "C" __global__ void fwt_shared(float* d_data, int chunk)
{
    extern __shared__ float s_data[];
    float* base = d_data + blockIdx.x * chunk;
    for (int pos = threadIdx.x; pos < chunk; pos += blockDim.x) s_data[pos] = base[pos];
    for (int stride = chunk >> 1; stride > 0; stride >>= 1) {
        __syncthreads();
        for (int i = threadIdx.x; i < chunk / 2; i += blockDim.x) {
            const int lo = (i & ~(stride - 1)) * 2 + (i & (stride - 1));
            const float a = s_data[lo];
            const float b = s_data[lo + stride];
            s_data[lo] = a + b;
            s_data[lo + stride] = a - b;
        }
    }
    __syncthreads();
    for (int pos = threadIdx.x; pos < chunk; pos += blockDim.x) base[pos] = s_data[pos];
}

extern "C" __global__ void modulate(float* d_a, const float* d_b, int n)
{
    const int tid = blockIdx.x * blockDim.x + threadIdx.x;
    const int threads = blockDim.x * gridDim.x;
    const float rcp_n = 1.0f / (float)n;
    for (int pos = tid; pos < n; pos += threads) d_a[pos] *= d_b[pos] * rcp_n;
}
