// matvec: dense y = A x, one thread per row (the dissertation's MV, a high-TLP single kernel).
// A is stored column-major so that the threads of a warp read consecutive rows of one column
// (coalesced); each block stages x in shared memory one tile of TILE columns at a time.
#define TILE 256

extern "C" __global__ void matvec(float* y, const float* a, const float* x, int rows, int cols)
{
    __shared__ float xs[TILE];
    const int row = blockIdx.x * blockDim.x + threadIdx.x;
    float sum = 0.0f;
    for (int c0 = 0; c0 < cols; c0 += TILE) {
        const int n = min(TILE, cols - c0);
        for (int i = threadIdx.x; i < n; i += blockDim.x) xs[i] = x[c0 + i];
        __syncthreads();
        if (row < rows)
            for (int j = 0; j < n; ++j) sum += a[(size_t)(c0 + j) * rows + row] * xs[j];
        __syncthreads();
    }
    if (row < rows) y[row] = sum;
}
