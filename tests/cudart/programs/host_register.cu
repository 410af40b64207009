// Registered (pinned, mapped) host memory read and written by a kernel through the device
// pointer cudaHostGetDevicePointer gives, and the registration's error cases.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
    printf("FAIL %s: %s\n", #call, cudaGetErrorName(e_)); return 1; } } while (0)

__global__ void bump(int* p, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = p[i] * 3 + 1;
}

int main() {
    const int n = 1000;
    int* host = (int*)malloc(n * sizeof(int));
    for (int i = 0; i < n; i++) host[i] = i;
    CHECK(cudaHostRegister(host, n * sizeof(int), cudaHostRegisterMapped));
    int* dev = nullptr;
    CHECK(cudaHostGetDevicePointer((void**)&dev, host + 10, 0));
    bump<<<(n - 10 + 127) / 128, 128>>>(dev, n - 10);     // elements 10 .. n-1
    CHECK(cudaDeviceSynchronize());
    printf("host[9] %d host[10] %d host[999] %d\n", host[9], host[10], host[999]);
    host[10] = 5;                                           // seen by the next launch
    bump<<<1, 1>>>(dev, 1);
    CHECK(cudaDeviceSynchronize());
    printf("host[10] %d\n", host[10]);
    printf("again: %s\n", cudaGetErrorName(cudaHostRegister(host, 16, 0)));
    CHECK(cudaHostUnregister(host));
    printf("twice: %s\n", cudaGetErrorName(cudaHostUnregister(host)));
    free(host);
    return 0;
}
