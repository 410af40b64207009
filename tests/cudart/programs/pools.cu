// Stream-ordered allocation: the default pool and a pool of our own, their attributes and
// usage counters around cudaMallocAsync / cudaMallocFromPoolAsync / cudaFreeAsync.
#include <cstdint>
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
    printf("FAIL %s: %s\n", #call, cudaGetErrorName(e_)); return 1; } } while (0)

__global__ void fill(int* p, int n, int v) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = v + i;
}

static unsigned long long used(cudaMemPool_t pool, cudaMemPoolAttr a) {
    uint64_t v = 0;
    cudaMemPoolGetAttribute(pool, a, &v);
    return (unsigned long long)v;
}

int main() {
    int supported = 0;
    CHECK(cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, 0));
    cudaMemPool_t def;
    CHECK(cudaDeviceGetDefaultMemPool(&def, 0));
    uint64_t threshold = UINT64_MAX;
    CHECK(cudaMemPoolSetAttribute(def, cudaMemPoolAttrReleaseThreshold, &threshold));
    uint64_t back = 0;
    CHECK(cudaMemPoolGetAttribute(def, cudaMemPoolAttrReleaseThreshold, &back));
    printf("supported %d, threshold kept %d\n", supported, back == UINT64_MAX);
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    int *a, *b;
    CHECK(cudaMallocAsync(&a, 1000 * sizeof(int), s));
    CHECK(cudaMallocAsync(&b, 24, s));
    printf("used %llu high %llu\n", used(def, cudaMemPoolAttrUsedMemCurrent),
           used(def, cudaMemPoolAttrUsedMemHigh));
    fill<<<8, 128, 0, s>>>(a, 1000, 7);
    int h[1000];
    CHECK(cudaMemcpyAsync(h, a, sizeof h, cudaMemcpyDeviceToHost, s));
    CHECK(cudaFreeAsync(a, s));
    CHECK(cudaStreamSynchronize(s));
    printf("h[0] %d h[999] %d, used %llu high %llu\n", h[0], h[999],
           used(def, cudaMemPoolAttrUsedMemCurrent), used(def, cudaMemPoolAttrUsedMemHigh));

    cudaMemPoolProps props = {};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = 0;
    cudaMemPool_t mine;
    CHECK(cudaMemPoolCreate(&mine, &props));
    int* c;
    CHECK(cudaMallocFromPoolAsync(&c, 4096, mine, s));
    CHECK(cudaDeviceSetMemPool(0, mine));
    int* d;
    CHECK(cudaMallocAsync(&d, 100, s));                  // from the current pool: mine
    printf("mine %llu, default %llu\n", used(mine, cudaMemPoolAttrUsedMemCurrent),
           used(def, cudaMemPoolAttrUsedMemCurrent));
    cudaMemLocation loc = {cudaMemLocationTypeDevice, 0};
    cudaMemAccessFlags flags;
    CHECK(cudaMemPoolGetAccess(&flags, mine, &loc));
    printf("access read-write %d\n", flags == cudaMemAccessFlagsProtReadWrite);
    CHECK(cudaFreeAsync(c, s));
    CHECK(cudaFreeAsync(d, s));
    CHECK(cudaFreeAsync(b, s));
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaMemPoolDestroy(mine));
    cudaMemPool_t now;
    CHECK(cudaDeviceGetMemPool(&now, 0));
    printf("back to the default %d, destroy default: %s\n", now == def,
           cudaGetErrorName(cudaMemPoolDestroy(def)));
    return 0;
}
