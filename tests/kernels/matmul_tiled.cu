// matmul_tiled.cu: shared-memory tiled matrix multiply with __syncthreads.
// Exercises: 2-D blocks (tid.x, tid.y) and 2-D grids (ctaid.x, ctaid.y), static shared
// memory (two 16x16 f32 tiles = 2048 bytes), bar.sync twice per tile, fma chains,
// boundary handling by zero padding.
//
// Kernels:
//   extern "C" __global__ void matmul_tiled(const float* A, const float* B, float* C,
//                                           int M, int N, int K)
//       C[M,N] = A[M,K] @ B[K,N], row-major. Launch with block (16, 16) and grid
//       (ceil(N/16), ceil(M/16)); any M, N, K >= 1. Static shared: 2048 bytes.

#define TILE 16

extern "C" __global__ void matmul_tiled(const float* A, const float* B, float* C, int M, int N,
                                        int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (int t = 0; t < K; t += TILE) {
        As[ty][tx] = (row < M && t + tx < K) ? A[row * K + t + tx] : 0.0f;
        Bs[ty][tx] = (t + ty < K && col < N) ? B[(t + ty) * N + col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; ++k) {
            acc += As[ty][k] * Bs[k][tx];
        }
        __syncthreads();
    }
    if (row < M && col < N) {
        C[row * N + col] = acc;
    }
}
