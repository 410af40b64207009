// A program whose second kernel writes out of bounds: `warpsim exec --stats` must keep the
// record of the first launch and record the fault. With an argument it waits for a line on
// stdin after the first launch (so a test can read the records while it runs).
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
    printf("FAIL %s: %s\n", #call, cudaGetErrorString(e_)); return 1; } } while (0)

__global__ void scale(float* x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2.0f;
}

__global__ void overrun(float* x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    x[i + n * 1024] = 1.0f;  // far past the allocation
}

int main(int argc, char** argv) {
    const int n = 128;
    float h[n], *d;
    for (int i = 0; i < n; i++) h[i] = (float)i;
    CHECK(cudaMalloc(&d, n * sizeof(float)));
    CHECK(cudaMemcpy(d, h, n * sizeof h[0], cudaMemcpyHostToDevice));
    scale<<<2, 64>>>(d, n);
    CHECK(cudaMemcpy(h, d, n * sizeof h[0], cudaMemcpyDeviceToHost));
    printf("scaled: %s\n", h[5] == 10.0f && h[127] == 254.0f ? "ok" : "wrong");
    if (argc > 1) {
        fflush(stdout);
        char line[8];
        if (!fgets(line, sizeof line, stdin)) return 3;
    }
    overrun<<<1, 32>>>(d, n);
    CHECK(cudaDeviceSynchronize());
    printf("not reached\n");
    return 0;
}
