// Device-side printf: integers, floats, device strings, a 64-bit value, a divergent branch and
// printf's return value; the kernels' output reaches stdout at synchronisation points (a
// cudaDeviceSynchronize, a blocking cudaMemcpy), in order with the host's own printf.
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
    printf("FAIL %s:%d %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
    return 1; } } while (0)

__device__ char label[] = "warp";

__global__ void hello(int n, float scale, long long big, int* ret) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    if (i % 2 == 0)  // divergent: only the even threads print here
        ret[i] = printf("even %d: %.2f %lld %s\n", i, scale * i, big + i, label);
    else
        ret[i] = 7;
    printf("thread %u: %#x %c|%-3d|\n", i, i * 255, 'a' + i, -i);
}

__global__ void blocks() {
    printf("block %d thread %d\n", blockIdx.x, threadIdx.x);
}

int main() {
    int *d_ret, h_ret[4];
    CHECK(cudaMalloc(&d_ret, sizeof h_ret));
    printf("host: before launch\n");
    hello<<<1, 4>>>(4, 0.5f, 1LL << 40, d_ret);
    CHECK(cudaGetLastError());
    printf("host: launched\n");
    CHECK(cudaDeviceSynchronize());
    printf("host: synchronised\n");
    blocks<<<2, 2>>>();
    printf("host: second launch\n");
    CHECK(cudaMemcpy(h_ret, d_ret, sizeof h_ret, cudaMemcpyDeviceToHost));
    printf("returns: %d %d %d %d\n", h_ret[0], h_ret[1], h_ret[2], h_ret[3]);
    CHECK(cudaFree(d_ret));
    printf("%s\n", h_ret[0] == 4 && h_ret[1] == 7 ? "PASS" : "FAIL");
    return 0;
}
