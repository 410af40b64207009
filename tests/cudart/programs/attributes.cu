// Device attributes: every number of the runtime's cudaDeviceAttr is answered, an unknown one
// is cudaErrorInvalidValue, each cudaDeviceProp field with an attribute agrees with it, and
// the program then uses what the properties promise (mapped host memory, async copies on
// two streams, managed memory) the way a CUDA sample picks its path from them.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
    printf("FAIL %s:%d %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
    return 1; } } while (0)

static int attr(int number) {
    int v = -12345;
    cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)number, 0);
    return e == cudaSuccess ? v : -12345;
}

__global__ void add_index(int* v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) v[i] += i;
}

int main() {
    // 1. which numbers are answered: the gaps of the enum are refused
    printf("refused below 170:");
    int answered = 0;
    for (int a = 0; a < 170; ++a) {
        int v;
        cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)a, 0);
        if (e == cudaSuccess) {
            ++answered;
        } else {
            printf(" %d", a);
            if (e != cudaErrorInvalidValue) printf("(%s)", cudaGetErrorName(e));
        }
    }
    cudaGetLastError();
    printf("\nanswered: %d\n", answered);
    int v = 7;
    cudaError_t e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)9999, 0);
    printf("attribute 9999: %s, value untouched %d, last error %s\n", cudaGetErrorName(e), v,
           cudaGetErrorName(cudaGetLastError()));

    // 2. cudaGetDeviceProperties agrees with the attributes, field by field
    cudaDeviceProp p;
    CHECK(cudaGetDeviceProperties(&p, 0));
    struct { const char* field; long long prop; int number; } pairs[] = {
        {"maxThreadsPerBlock", p.maxThreadsPerBlock, 1},
        {"maxThreadsDim[0]", p.maxThreadsDim[0], 2}, {"maxThreadsDim[1]", p.maxThreadsDim[1], 3},
        {"maxThreadsDim[2]", p.maxThreadsDim[2], 4}, {"maxGridSize[0]", p.maxGridSize[0], 5},
        {"maxGridSize[1]", p.maxGridSize[1], 6}, {"maxGridSize[2]", p.maxGridSize[2], 7},
        {"sharedMemPerBlock", (long long)p.sharedMemPerBlock, 8},
        {"totalConstMem", (long long)p.totalConstMem, 9}, {"warpSize", p.warpSize, 10},
        {"memPitch", (long long)p.memPitch, 11}, {"regsPerBlock", p.regsPerBlock, 12},
        {"textureAlignment", (long long)p.textureAlignment, 14},
        {"multiProcessorCount", p.multiProcessorCount, 16}, {"integrated", p.integrated, 18},
        {"canMapHostMemory", p.canMapHostMemory, 19}, {"maxTexture1D", p.maxTexture1D, 21},
        {"maxTexture2D[0]", p.maxTexture2D[0], 22}, {"maxTexture2D[1]", p.maxTexture2D[1], 23},
        {"maxTexture3D[0]", p.maxTexture3D[0], 24}, {"maxTexture3D[1]", p.maxTexture3D[1], 25},
        {"maxTexture3D[2]", p.maxTexture3D[2], 26},
        {"maxTexture2DLayered[0]", p.maxTexture2DLayered[0], 27},
        {"maxTexture2DLayered[1]", p.maxTexture2DLayered[1], 28},
        {"maxTexture2DLayered[2]", p.maxTexture2DLayered[2], 29},
        {"surfaceAlignment", (long long)p.surfaceAlignment, 30},
        {"concurrentKernels", p.concurrentKernels, 31}, {"ECCEnabled", p.ECCEnabled, 32},
        {"pciBusID", p.pciBusID, 33}, {"pciDeviceID", p.pciDeviceID, 34},
        {"tccDriver", p.tccDriver, 35}, {"memoryBusWidth", p.memoryBusWidth, 37},
        {"l2CacheSize", p.l2CacheSize, 38},
        {"maxThreadsPerMultiProcessor", p.maxThreadsPerMultiProcessor, 39},
        {"asyncEngineCount", p.asyncEngineCount, 40},
        {"unifiedAddressing", p.unifiedAddressing, 41},
        {"maxTexture1DLayered[0]", p.maxTexture1DLayered[0], 42},
        {"maxTexture1DLayered[1]", p.maxTexture1DLayered[1], 43},
        {"maxTexture2DGather[0]", p.maxTexture2DGather[0], 45},
        {"maxTexture2DGather[1]", p.maxTexture2DGather[1], 46},
        {"maxTexture3DAlt[0]", p.maxTexture3DAlt[0], 47},
        {"maxTexture3DAlt[1]", p.maxTexture3DAlt[1], 48},
        {"maxTexture3DAlt[2]", p.maxTexture3DAlt[2], 49}, {"pciDomainID", p.pciDomainID, 50},
        {"texturePitchAlignment", (long long)p.texturePitchAlignment, 51},
        {"maxTextureCubemap", p.maxTextureCubemap, 52},
        {"maxTextureCubemapLayered[0]", p.maxTextureCubemapLayered[0], 53},
        {"maxTextureCubemapLayered[1]", p.maxTextureCubemapLayered[1], 54},
        {"maxSurface1D", p.maxSurface1D, 55}, {"maxSurface2D[0]", p.maxSurface2D[0], 56},
        {"maxSurface2D[1]", p.maxSurface2D[1], 57}, {"maxSurface3D[0]", p.maxSurface3D[0], 58},
        {"maxSurface3D[1]", p.maxSurface3D[1], 59}, {"maxSurface3D[2]", p.maxSurface3D[2], 60},
        {"maxSurface1DLayered[0]", p.maxSurface1DLayered[0], 61},
        {"maxSurface1DLayered[1]", p.maxSurface1DLayered[1], 62},
        {"maxSurface2DLayered[0]", p.maxSurface2DLayered[0], 63},
        {"maxSurface2DLayered[1]", p.maxSurface2DLayered[1], 64},
        {"maxSurface2DLayered[2]", p.maxSurface2DLayered[2], 65},
        {"maxSurfaceCubemap", p.maxSurfaceCubemap, 66},
        {"maxSurfaceCubemapLayered[0]", p.maxSurfaceCubemapLayered[0], 67},
        {"maxSurfaceCubemapLayered[1]", p.maxSurfaceCubemapLayered[1], 68},
        {"maxTexture2DLinear[0]", p.maxTexture2DLinear[0], 70},
        {"maxTexture2DLinear[1]", p.maxTexture2DLinear[1], 71},
        {"maxTexture2DLinear[2]", p.maxTexture2DLinear[2], 72},
        {"maxTexture2DMipmap[0]", p.maxTexture2DMipmap[0], 73},
        {"maxTexture2DMipmap[1]", p.maxTexture2DMipmap[1], 74}, {"major", p.major, 75},
        {"minor", p.minor, 76}, {"maxTexture1DMipmap", p.maxTexture1DMipmap, 77},
        {"streamPrioritiesSupported", p.streamPrioritiesSupported, 78},
        {"globalL1CacheSupported", p.globalL1CacheSupported, 79},
        {"localL1CacheSupported", p.localL1CacheSupported, 80},
        {"sharedMemPerMultiprocessor", (long long)p.sharedMemPerMultiprocessor, 81},
        {"regsPerMultiprocessor", p.regsPerMultiprocessor, 82},
        {"managedMemory", p.managedMemory, 83}, {"isMultiGpuBoard", p.isMultiGpuBoard, 84},
        {"multiGpuBoardGroupID", p.multiGpuBoardGroupID, 85},
        {"hostNativeAtomicSupported", p.hostNativeAtomicSupported, 86},
        {"pageableMemoryAccess", p.pageableMemoryAccess, 88},
        {"concurrentManagedAccess", p.concurrentManagedAccess, 89},
        {"computePreemptionSupported", p.computePreemptionSupported, 90},
        {"canUseHostPointerForRegisteredMem", p.canUseHostPointerForRegisteredMem, 91},
        {"cooperativeLaunch", p.cooperativeLaunch, 95},
        {"sharedMemPerBlockOptin", (long long)p.sharedMemPerBlockOptin, 97},
        {"hostRegisterSupported", p.hostRegisterSupported, 99},
        {"pageableMemoryAccessUsesHostPageTables", p.pageableMemoryAccessUsesHostPageTables, 100},
        {"directManagedMemAccessFromHost", p.directManagedMemAccessFromHost, 101},
        {"maxBlocksPerMultiProcessor", p.maxBlocksPerMultiProcessor, 106},
        {"persistingL2CacheMaxSize", p.persistingL2CacheMaxSize, 108},
        {"accessPolicyMaxWindowSize", p.accessPolicyMaxWindowSize, 109},
        {"reservedSharedMemPerBlock", (long long)p.reservedSharedMemPerBlock, 111},
        {"sparseCudaArraySupported", p.sparseCudaArraySupported, 112},
        {"hostRegisterReadOnlySupported", p.hostRegisterReadOnlySupported, 113},
        {"timelineSemaphoreInteropSupported", p.timelineSemaphoreInteropSupported, 114},
        {"memoryPoolsSupported", p.memoryPoolsSupported, 115},
        {"gpuDirectRDMASupported", p.gpuDirectRDMASupported, 116},
        {"gpuDirectRDMAFlushWritesOptions", (long long)p.gpuDirectRDMAFlushWritesOptions, 117},
        {"gpuDirectRDMAWritesOrdering", p.gpuDirectRDMAWritesOrdering, 118},
        {"memoryPoolSupportedHandleTypes", (long long)p.memoryPoolSupportedHandleTypes, 119},
        {"clusterLaunch", p.clusterLaunch, 120},
        {"deferredMappingCudaArraySupported", p.deferredMappingCudaArraySupported, 121},
        {"ipcEventSupported", p.ipcEventSupported, 125},
        {"deviceNumaConfig", p.deviceNumaConfig, 130}, {"deviceNumaId", p.deviceNumaId, 131},
        {"mpsEnabled", p.mpsEnabled, 133}, {"hostNumaId", p.hostNumaId, 134},
        {"gpuPciDeviceID", (long long)p.gpuPciDeviceID, 139},
        {"gpuPciSubsystemID", (long long)p.gpuPciSubsystemID, 140},
        {"hostNumaMultinodeIpcSupported", p.hostNumaMultinodeIpcSupported, 143},
    };
    int n_pairs = (int)(sizeof pairs / sizeof pairs[0]), agree = 0;
    for (int i = 0; i < n_pairs; ++i) {
        if (pairs[i].prop == attr(pairs[i].number)) ++agree;
        else printf("MISMATCH %s = %lld, attribute %d = %d\n", pairs[i].field, pairs[i].prop,
                    pairs[i].number, attr(pairs[i].number));
    }
    printf("properties agreeing with their attribute: %d of %d\n", agree, n_pairs);

    // 3. what the simulated GPU reports (one "name value" per line)
    printf("name %s\n", strncmp(p.name, "warpsim", 7) == 0 ? "warpsim ..." : p.name);
    const struct { const char* name; int number; } shown[] = {
        {"computeMode", 20}, {"clockRate", 13}, {"memoryClockRate", 36},
        {"multiProcessorCount", 16}, {"major", 75}, {"minor", 76}, {"warpSize", 10},
        {"maxThreadsPerBlock", 1}, {"maxThreadsPerMultiProcessor", 39},
        {"maxBlocksPerMultiProcessor", 106}, {"regsPerBlock", 12},
        {"regsPerMultiprocessor", 82}, {"sharedMemPerBlock", 8},
        {"sharedMemPerBlockOptin", 97}, {"sharedMemPerMultiprocessor", 81},
        {"l2CacheSize", 38}, {"memoryBusWidth", 37}, {"memPitch", 11},
        {"deviceOverlap", 15}, {"asyncEngineCount", 40}, {"concurrentKernels", 31},
        {"canMapHostMemory", 19}, {"unifiedAddressing", 41}, {"managedMemory", 83},
        {"concurrentManagedAccess", 89}, {"pageableMemoryAccess", 88},
        {"directManagedMemAccessFromHost", 101}, {"hostNativeAtomicSupported", 86},
        {"hostRegisterSupported", 99}, {"canUseHostPointerForRegisteredMem", 91},
        {"cooperativeLaunch", 95}, {"memoryPoolsSupported", 115},
        {"persistingL2CacheMaxSize", 108}, {"maxTexture1D", 21}, {"maxTexture3D", 24},
        {"maxSurface2D", 56}, {"kernelExecTimeout", 17}, {"numaId", 131},
        {"tensorMapLargeTensorMinSize", 160},
    };
    for (const auto& s : shown) printf("%s %d\n", s.name, attr(s.number));

    // 4. use what the properties promise
    const int n = 1000;
    if (p.canMapHostMemory) {
        int *host = nullptr, *dev = nullptr;
        CHECK(cudaHostAlloc(&host, n * sizeof(int), cudaHostAllocMapped));
        CHECK(cudaHostGetDevicePointer(&dev, host, 0));
        for (int i = 0; i < n; ++i) host[i] = 1;
        add_index<<<(n + 127) / 128, 128>>>(dev, n);
        CHECK(cudaDeviceSynchronize());
        printf("zero-copy: host[0] %d host[999] %d\n", host[0], host[999]);
        CHECK(cudaFreeHost(host));
    }
    if (p.asyncEngineCount > 0) {
        int *h = nullptr, *d = nullptr;
        CHECK(cudaMallocHost(&h, 2 * n * sizeof(int)));
        CHECK(cudaMalloc(&d, 2 * n * sizeof(int)));
        for (int i = 0; i < 2 * n; ++i) h[i] = 10;
        cudaStream_t s[2];
        for (int k = 0; k < 2; ++k) {
            CHECK(cudaStreamCreate(&s[k]));
            CHECK(cudaMemcpyAsync(d + k * n, h + k * n, n * sizeof(int),
                                  cudaMemcpyHostToDevice, s[k]));
            add_index<<<(n + 127) / 128, 128, 0, s[k]>>>(d + k * n, n);
            CHECK(cudaMemcpyAsync(h + k * n, d + k * n, n * sizeof(int),
                                  cudaMemcpyDeviceToHost, s[k]));
        }
        CHECK(cudaDeviceSynchronize());
        printf("overlapped streams: h[5] %d h[1005] %d h[1999] %d\n", h[5], h[1005], h[1999]);
        for (int k = 0; k < 2; ++k) CHECK(cudaStreamDestroy(s[k]));
        CHECK(cudaFree(d));
        CHECK(cudaFreeHost(h));
    }
    if (p.managedMemory) {
        int* m = nullptr;
        CHECK(cudaMallocManaged(&m, n * sizeof(int)));
        for (int i = 0; i < n; ++i) m[i] = -i;
        add_index<<<(n + 127) / 128, 128>>>(m, n);
        CHECK(cudaDeviceSynchronize());
        int zeros = 0;
        for (int i = 0; i < n; ++i) zeros += m[i] == 0;
        printf("managed: %d zeros\n", zeros);
        CHECK(cudaFree(m));
    }
    printf("%s\n", agree == n_pairs ? "PASS" : "FAIL");
    return agree == n_pairs ? 0 : 1;
}
