// srad: speckle-reducing anisotropic diffusion (the shape of Rodinia srad_v2): 16x16 blocks;
// kernel 1 loads the tile and its one-cell halo into shared memory, computes the four
// directional derivatives and the diffusion coefficient; kernel 2 applies the divergence update.
// The host recomputes the statistic q0^2 of a region of interest from the image every iteration.
#define BLOCK_SIZE 16

extern "C" __global__ void srad_1(const float* J, float* dN, float* dS, float* dW, float* dE,
                                  float* C, int cols, int rows, float q0sqr)
{
    __shared__ float s[BLOCK_SIZE + 2][BLOCK_SIZE + 2];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int x = blockIdx.x * BLOCK_SIZE + tx;
    const int y = blockIdx.y * BLOCK_SIZE + ty;
    const int idx = y * cols + x;
    s[ty + 1][tx + 1] = J[idx];
    if (ty == 0) s[0][tx + 1] = J[(y > 0 ? y - 1 : 0) * cols + x];
    if (ty == BLOCK_SIZE - 1) s[BLOCK_SIZE + 1][tx + 1] = J[(y < rows - 1 ? y + 1 : y) * cols + x];
    if (tx == 0) s[ty + 1][0] = J[y * cols + (x > 0 ? x - 1 : 0)];
    if (tx == BLOCK_SIZE - 1) s[ty + 1][BLOCK_SIZE + 1] = J[y * cols + (x < cols - 1 ? x + 1 : x)];
    __syncthreads();
    const float jc = s[ty + 1][tx + 1];
    const float n = s[ty][tx + 1] - jc;
    const float so = s[ty + 2][tx + 1] - jc;
    const float w = s[ty + 1][tx] - jc;
    const float e = s[ty + 1][tx + 2] - jc;
    const float g2 = (n * n + so * so + w * w + e * e) / (jc * jc);
    const float l = (n + so + w + e) / jc;
    const float num = (0.5f * g2) - ((1.0f / 16.0f) * (l * l));
    float den = 1.0f + (0.25f * l);
    const float qsqr = num / (den * den);
    den = (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr));
    float c = 1.0f / (1.0f + den);
    if (c < 0.0f) c = 0.0f;
    else if (c > 1.0f) c = 1.0f;
    dN[idx] = n; dS[idx] = so; dW[idx] = w; dE[idx] = e; C[idx] = c;
}

extern "C" __global__ void srad_2(float* J, const float* dN, const float* dS, const float* dW,
                                  const float* dE, const float* C, int cols, int rows,
                                  float lambda)
{
    __shared__ float s_c[BLOCK_SIZE + 1][BLOCK_SIZE + 1];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int x = blockIdx.x * BLOCK_SIZE + tx;
    const int y = blockIdx.y * BLOCK_SIZE + ty;
    const int idx = y * cols + x;
    s_c[ty][tx] = C[idx];
    if (ty == BLOCK_SIZE - 1) s_c[BLOCK_SIZE][tx] = C[(y < rows - 1 ? y + 1 : y) * cols + x];
    if (tx == BLOCK_SIZE - 1) s_c[ty][BLOCK_SIZE] = C[y * cols + (x < cols - 1 ? x + 1 : x)];
    __syncthreads();
    const float cn = s_c[ty][tx], cw = cn;
    const float cs = s_c[ty + 1][tx], ce = s_c[ty][tx + 1];
    const float d = cn * dN[idx] + cs * dS[idx] + cw * dW[idx] + ce * dE[idx];
    J[idx] = J[idx] + 0.25f * lambda * d;
}
