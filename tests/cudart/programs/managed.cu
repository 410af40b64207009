// Unified memory: cudaMallocManaged buffers written and read by host and kernels alike,
// __managed__ variables with initial values, copies and memsets on managed memory, mapped
// (zero-copy) host memory.
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
    printf("FAIL %s:%d %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
    return 1; } } while (0)

__managed__ int launches;
__managed__ float weights[4] = {0.5f, 1.0f, 1.5f, 2.0f};

__global__ void weigh(float* v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] = v[i] * weights[i % 4];
    if (i == 0) launches += 1;
}

__global__ void square(int* a, int n) {
    int i = threadIdx.x;
    if (i < n) a[i] = a[i] * a[i];
}

int main() {
    const int n = 1000;
    float* v = nullptr;
    CHECK(cudaMallocManaged(&v, n * sizeof(float)));
    for (int i = 0; i < n; ++i) v[i] = (float)i;      // the host writes directly
    printf("initial weights: %.1f %.1f, launches %d\n", weights[0], weights[3], launches);
    weigh<<<(n + 255) / 256, 256>>>(v, n);
    CHECK(cudaDeviceSynchronize());
    printf("after one launch: v[1] %.1f v[999] %.1f, launches %d\n", v[1], v[999], launches);

    weights[0] = 10.0f;                                // host writes to a __managed__ variable
    weigh<<<(n + 255) / 256, 256>>>(v, n);
    CHECK(cudaDeviceSynchronize());
    printf("after two launches: v[4] %.1f v[8] %.1f, launches %d\n", v[4], v[8], launches);

    float* plain = nullptr;
    CHECK(cudaMalloc(&plain, n * sizeof(float)));
    CHECK(cudaMemcpy(plain, v, n * sizeof(float), cudaMemcpyDefault));   // managed -> device
    CHECK(cudaMemset(v, 0, n * sizeof(float)));                          // managed memset
    printf("after memset: v[8] %.1f\n", v[8]);
    CHECK(cudaMemcpy(v, plain, n * sizeof(float), cudaMemcpyDeviceToDevice));  // back
    double sum = 0.0;
    for (int i = 0; i < n; ++i) sum += v[i];
    printf("restored sum: %.1f\n", sum);

    cudaPointerAttributes attr;
    CHECK(cudaPointerGetAttributes(&attr, v));
    printf("managed pointer: %s\n", attr.type == cudaMemoryTypeManaged ? "yes" : "no");
    int* mapped = nullptr;
    int* mapped_dev = nullptr;
    CHECK(cudaHostAlloc(&mapped, 64 * sizeof(int), cudaHostAllocMapped));
    CHECK(cudaHostGetDevicePointer(&mapped_dev, mapped, 0));
    for (int i = 0; i < 64; ++i) mapped[i] = i;
    square<<<1, 64>>>(mapped_dev, 64);
    CHECK(cudaDeviceSynchronize());
    printf("zero-copy: mapped[7] %d mapped[63] %d\n", mapped[7], mapped[63]);
    CHECK(cudaFreeHost(mapped));
    CHECK(cudaFree(plain));
    CHECK(cudaFree(v));
    printf("PASS\n");
    return 0;
}
