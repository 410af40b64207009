// matrix_mul: C = A * B with 16x16 shared-memory tiles (the shape of SDK matrixMul<16>).
#define TILE 16

extern "C" __global__ void matrix_mul(float* C, const float* A, const float* B, int wA, int wB)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int bx = blockIdx.x, by = blockIdx.y;
    int tx = threadIdx.x, ty = threadIdx.y;
    int aBegin = wA * TILE * by;
    int aEnd = aBegin + wA - 1;
    int bBegin = TILE * bx;
    float acc = 0.0f;
    for (int a = aBegin, b = bBegin; a <= aEnd; a += TILE, b += TILE * wB) {
        As[ty][tx] = A[a + wA * ty + tx];
        Bs[ty][tx] = B[b + wB * ty + tx];
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; ++k) acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[wB * TILE * by + TILE * bx + wB * ty + tx] = acc;
}
