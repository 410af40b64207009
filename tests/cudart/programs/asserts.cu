// A kernel whose assert fails in two threads: the launch stops with cudaErrorAssert, the
// error is sticky (later calls fail too), and warpsim prints the driver's assert lines.
#include <cassert>
#include <cstdio>
#include <cuda_runtime.h>

__global__ void positive(const int* x) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    assert(x[i] > 0);
}

int main() {
    int h[64], *d;
    for (int i = 0; i < 64; i++) h[i] = (i == 7 || i == 40) ? 0 : 1;
    if (cudaMalloc(&d, sizeof h) != cudaSuccess) return 2;
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    positive<<<2, 32>>>(d);
    cudaError_t e = cudaDeviceSynchronize();
    printf("sync: %s (%d): %s\n", cudaGetErrorName(e), (int)e, cudaGetErrorString(e));
    e = cudaMalloc(&d, 16);
    printf("later: %s\n", cudaGetErrorName(e));
    return 0;
}
