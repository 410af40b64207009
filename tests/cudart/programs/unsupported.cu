// A call warpsim does not implement fails with cudaErrorNotSupported (and a message naming
// it on stderr); the program goes on and reports what it saw.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void twice(int* v) { v[threadIdx.x] *= 2; }

int main() {
    cudaGraphNode_t child;
    cudaError_t err = cudaGraphAddChildGraphNode(&child, nullptr, nullptr, 0, nullptr);
    printf("cudaGraphAddChildGraphNode: %s\n", cudaGetErrorName(err));
    printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));
    int h[4] = {1, 2, 3, 4}, *d;
    cudaMalloc(&d, sizeof h);
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    twice<<<1, 4>>>(d);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("still running: %d %d %d %d\n", h[0], h[1], h[2], h[3]);
    return err == cudaErrorNotSupported ? 0 : 1;
}
