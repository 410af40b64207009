// A stencil that reads one element before its array in thread 0 (as Rodinia srad_v2 reads
// the row before its first block row): a GPU returns whatever is there; warpsim's exact
// check stops the launch unless `warpsim exec --oob report` is given.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void left_sum(const int* x, int* y, int n) {
    int i = threadIdx.x;
    if (i < n) y[i] = x[i] + x[i - 1];  // x[-1] for thread 0
}

int main() {
    const int n = 32;
    int h[n], *x, *y;
    for (int i = 0; i < n; i++) h[i] = i;
    cudaMalloc(&x, sizeof h);
    cudaMalloc(&y, sizeof h);
    cudaMemcpy(x, h, sizeof h, cudaMemcpyHostToDevice);
    left_sum<<<1, n>>>(x, y, n);
    cudaError_t e = cudaMemcpy(h, y, sizeof h, cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) { printf("failed: %s\n", cudaGetErrorName(e)); return 1; }
    printf("y[1]=%d y[31]=%d\n", h[1], h[31]);
    return 0;
}
