// A kernel that counts to 2^62 (no repeated state, so only a wall-clock limit stops it):
// `warpsim exec --launch-timeout` must stop the launch and the program must see the failure.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void count(unsigned long long* out, unsigned long long n) {
    unsigned long long acc = 0;
    for (unsigned long long i = 0; i < n; i++) acc += i ^ threadIdx.x;
    out[threadIdx.x] = acc;
}

int main() {
    unsigned long long* d;
    if (cudaMalloc(&d, 32 * sizeof *d) != cudaSuccess) return 2;
    count<<<1, 32>>>(d, 1ull << 62);
    cudaError_t e = cudaDeviceSynchronize();
    printf("launch: %s\n", e == cudaSuccess ? "completed" : "failed");
    return e == cudaSuccess ? 0 : 1;
}
