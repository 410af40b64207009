// sgemm: C = alpha * A * B^T + beta * C, column-major, register-blocked (the shape of Parboil
// mysgemmNT): a 16x8 block computes a 128x16 tile of C; each thread keeps 16 accumulators in
// registers, streams one column of A through a register and reads B^T from an 8x16 shared tile.
#define TILE_N 16
#define TILE_TB_HEIGHT 8
#define TILE_M (TILE_N * TILE_TB_HEIGHT)

extern "C" __global__ void sgemm_nt(const float* A, int lda, const float* B, int ldb, float* C,
                                    int ldc, int k, float alpha, float beta)
{
    __shared__ float b_s[TILE_TB_HEIGHT][TILE_N];
    float c[TILE_N];
#pragma unroll
    for (int i = 0; i < TILE_N; i++) c[i] = 0.0f;
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int m = blockIdx.x * TILE_M + ty * TILE_N + tx;
    const int n = blockIdx.y * TILE_N;
    for (int i = 0; i < k; i += TILE_TB_HEIGHT) {
        b_s[ty][tx] = B[n + tx + (i + ty) * ldb];
        __syncthreads();
#pragma unroll
        for (int j = 0; j < TILE_TB_HEIGHT; j++) {
            const float a = A[m + (i + j) * lda];
#pragma unroll
            for (int kk = 0; kk < TILE_N; kk++) c[kk] += a * b_s[j][kk];
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < TILE_N; i++) {
        float* out = &C[m + (n + i) * ldc];
        *out = alpha * c[i] + beta * (*out);
    }
}
