/* warpsim's libcudart, part 4 (included by shim.c): device, errors, streams, events,
 * function attributes and occupancy.
 *
 * Properties are fetched once from the simulator (the simulated GPU's configuration);
 * streams and events are handles made here (every call is synchronous, so a stream is always
 * idle); an event records the simulated cycle count on the server.
 */

/* ---------------------------------------------------------------- device properties */

enum { P_GLOBAL, P_SHMEM_BLOCK, P_REGS_BLOCK, P_WARP, P_MAX_TPB, P_BDX, P_BDY, P_BDZ, P_GDX,
       P_GDY, P_GDZ, P_CONST, P_MAJOR, P_MINOR, P_SMS, P_MAX_TPSM, P_SHMEM_SM, P_REGS_SM,
       P_L2, P_CLOCK_KHZ, P_MEMCLOCK_KHZ, P_BUS_BITS, P_MAX_BPSM, P_SHMEM_OPTIN, P_N };

static uint64_t ws_props[P_N];
static char ws_name[256];
static int ws_props_ok = 0;

static cudaError_t ws_load_props(void) {
    if (ws_props_ok) return cudaSuccess;
    ws_reply r;
    ws_call("__props", NULL, 0, NULL, 0, &r);
    if (r.status == cudaSuccess && r.n >= P_N) {
        memcpy(ws_props, r.v, sizeof ws_props);
        memset(ws_name, 0, sizeof ws_name);
        memcpy(ws_name, r.blob, r.blob_len < 255 ? r.blob_len : 255);
        ws_props_ok = 1;
    }
    free(r.blob);
    return ws_ret(r.status);
}

WS_EXPORT cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *p, int device) {
    if (device != 0) return ws_ret(cudaErrorInvalidDevice);
    cudaError_t st = ws_load_props();
    if (st) return st;
    memset(p, 0, sizeof *p);
    memcpy(p->name, ws_name, sizeof ws_name);
    p->totalGlobalMem = ws_props[P_GLOBAL];
    p->sharedMemPerBlock = ws_props[P_SHMEM_BLOCK];
    p->regsPerBlock = (int)ws_props[P_REGS_BLOCK];
    p->warpSize = (int)ws_props[P_WARP];
    p->memPitch = 1ull << 31;
    p->maxThreadsPerBlock = (int)ws_props[P_MAX_TPB];
    for (int i = 0; i < 3; i++) {
        p->maxThreadsDim[i] = (int)ws_props[P_BDX + i];
        p->maxGridSize[i] = (int)ws_props[P_GDX + i];
    }
    p->totalConstMem = ws_props[P_CONST];
    p->major = (int)ws_props[P_MAJOR];
    p->minor = (int)ws_props[P_MINOR];
    p->textureAlignment = 512;
    p->texturePitchAlignment = 32;
    p->multiProcessorCount = (int)ws_props[P_SMS];
    p->concurrentKernels = 0;
    p->asyncEngineCount = 0;
    p->unifiedAddressing = 1;
    p->memoryBusWidth = (int)ws_props[P_BUS_BITS];
    p->l2CacheSize = (int)ws_props[P_L2];
    p->maxThreadsPerMultiProcessor = (int)ws_props[P_MAX_TPSM];
    p->sharedMemPerMultiprocessor = ws_props[P_SHMEM_SM];
    p->regsPerMultiprocessor = (int)ws_props[P_REGS_SM];
    p->sharedMemPerBlockOptin = ws_props[P_SHMEM_OPTIN];
    p->maxBlocksPerMultiProcessor = (int)ws_props[P_MAX_BPSM];
    return cudaSuccess;
}

#ifdef WS_CUDART_12
/* nvcc 12 programs call the _v2 entry point with CUDA 12's cudaDeviceProp, whose first
 * fields (through multiProcessorCount) are filled here; the rest stays zero. */
struct ws_prop12 {
    char name[256]; char uuid[16]; char luid[8]; unsigned int luidDeviceNodeMask;
    size_t totalGlobalMem, sharedMemPerBlock; int regsPerBlock, warpSize; size_t memPitch;
    int maxThreadsPerBlock, maxThreadsDim[3], maxGridSize[3], clockRate; size_t totalConstMem;
    int major, minor; size_t textureAlignment, texturePitchAlignment;
    int deviceOverlap, multiProcessorCount;
};

WS_EXPORT cudaError_t cudaGetDeviceProperties_v2(void *out, int device) {
    struct cudaDeviceProp p;
    cudaError_t st = cudaGetDeviceProperties(&p, device);
    if (st) return st;
    struct ws_prop12 *q = out;
    memset(q, 0, sizeof *q);
    memcpy(q->name, p.name, 256);
    q->totalGlobalMem = p.totalGlobalMem; q->sharedMemPerBlock = p.sharedMemPerBlock;
    q->regsPerBlock = p.regsPerBlock; q->warpSize = p.warpSize; q->memPitch = p.memPitch;
    q->maxThreadsPerBlock = p.maxThreadsPerBlock;
    for (int i = 0; i < 3; i++) {
        q->maxThreadsDim[i] = p.maxThreadsDim[i];
        q->maxGridSize[i] = p.maxGridSize[i];
    }
    q->clockRate = (int)ws_props[P_CLOCK_KHZ]; q->totalConstMem = p.totalConstMem;
    q->major = p.major; q->minor = p.minor; q->textureAlignment = p.textureAlignment;
    q->texturePitchAlignment = p.texturePitchAlignment;
    q->multiProcessorCount = p.multiProcessorCount;
    return cudaSuccess;
}
#endif

WS_EXPORT cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device) {
    if (device != 0) return ws_ret(cudaErrorInvalidDevice);
    cudaError_t st = ws_load_props();
    if (st) return st;
    uint64_t v;
    switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: v = ws_props[P_MAX_TPB]; break;
    case cudaDevAttrMaxBlockDimX: v = ws_props[P_BDX]; break;
    case cudaDevAttrMaxBlockDimY: v = ws_props[P_BDY]; break;
    case cudaDevAttrMaxBlockDimZ: v = ws_props[P_BDZ]; break;
    case cudaDevAttrMaxGridDimX: v = ws_props[P_GDX]; break;
    case cudaDevAttrMaxGridDimY: v = ws_props[P_GDY]; break;
    case cudaDevAttrMaxGridDimZ: v = ws_props[P_GDZ]; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: v = ws_props[P_SHMEM_BLOCK]; break;
    case cudaDevAttrTotalConstantMemory: v = ws_props[P_CONST]; break;
    case cudaDevAttrWarpSize: v = ws_props[P_WARP]; break;
    case cudaDevAttrMaxRegistersPerBlock: v = ws_props[P_REGS_BLOCK]; break;
    case cudaDevAttrClockRate: v = ws_props[P_CLOCK_KHZ]; break;
    case cudaDevAttrMultiProcessorCount: v = ws_props[P_SMS]; break;
    case cudaDevAttrMemoryClockRate: v = ws_props[P_MEMCLOCK_KHZ]; break;
    case cudaDevAttrGlobalMemoryBusWidth: v = ws_props[P_BUS_BITS]; break;
    case cudaDevAttrL2CacheSize: v = ws_props[P_L2]; break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: v = ws_props[P_MAX_TPSM]; break;
    case cudaDevAttrComputeCapabilityMajor: v = ws_props[P_MAJOR]; break;
    case cudaDevAttrComputeCapabilityMinor: v = ws_props[P_MINOR]; break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: v = ws_props[P_SHMEM_SM]; break;
    case cudaDevAttrMaxRegistersPerMultiprocessor: v = ws_props[P_REGS_SM]; break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: v = ws_props[P_SHMEM_OPTIN]; break;
    case cudaDevAttrMaxBlocksPerMultiprocessor: v = ws_props[P_MAX_BPSM]; break;
    case cudaDevAttrUnifiedAddressing: v = 1; break;
    case cudaDevAttrTextureAlignment: v = 512; break;
    case cudaDevAttrTexturePitchAlignment: v = 32; break;
    case cudaDevAttrMaxPitch: v = 1ull << 31; break;
    case cudaDevAttrConcurrentKernels: case cudaDevAttrManagedMemory:
    case cudaDevAttrAsyncEngineCount: case cudaDevAttrEccEnabled: case cudaDevAttrIntegrated:
    case cudaDevAttrCanMapHostMemory: case cudaDevAttrCooperativeLaunch:
    case cudaDevAttrPciBusId: case cudaDevAttrPciDeviceId: case cudaDevAttrPciDomainId:
        v = 0; break;
    default: {
        char what[96];
        snprintf(what, sizeof what, "cudaDeviceGetAttribute(attribute %d)", (int)attr);
        return ws_ret(warpsim_unsupported(what));
    }
    }
    *value = (int)v;
    return cudaSuccess;
}

WS_EXPORT cudaError_t cudaGetDeviceCount(int *count) { *count = 1; return cudaSuccess; }
WS_EXPORT cudaError_t cudaGetDevice(int *device) { *device = 0; return cudaSuccess; }

WS_EXPORT cudaError_t cudaSetDevice(int device) {
    return device == 0 ? cudaSuccess : ws_ret(cudaErrorInvalidDevice);
}

WS_EXPORT cudaError_t cudaInitDevice(int device, unsigned int deviceFlags, unsigned int flags) {
    (void)deviceFlags; (void)flags;
    return cudaSetDevice(device);
}

WS_EXPORT cudaError_t cudaSetDeviceFlags(unsigned int flags) { (void)flags; return cudaSuccess; }

WS_EXPORT cudaError_t cudaGetDeviceFlags(unsigned int *flags) { *flags = 0; return cudaSuccess; }

WS_EXPORT cudaError_t cudaChooseDevice(int *device, const struct cudaDeviceProp *prop) {
    (void)prop;
    *device = 0;
    return cudaSuccess;
}

WS_EXPORT cudaError_t cudaDeviceSynchronize(void) {
    cudaError_t st = ws_simple("cudaDeviceSynchronize", NULL, 0, NULL, 0);
    ws_printf_flush();
    return st;
}

WS_EXPORT cudaError_t cudaDeviceReset(void) {
    ws_printf_flush();
    return ws_simple("cudaDeviceReset", NULL, 0, NULL, 0);
}

WS_EXPORT cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value) {
    (void)limit; (void)value;
    return cudaSuccess;
}

WS_EXPORT cudaError_t cudaDeviceGetLimit(size_t *pValue, enum cudaLimit limit) {
    switch (limit) {
    case cudaLimitStackSize: *pValue = 1024; break;
    case cudaLimitPrintfFifoSize: *pValue = 1 << 20; break;
    case cudaLimitMallocHeapSize: *pValue = 8 << 20; break;
    default: *pValue = 0;
    }
    return cudaSuccess;
}

WS_EXPORT cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache cacheConfig) {
    (void)cacheConfig;
    return cudaSuccess;
}

WS_EXPORT cudaError_t cudaDeviceGetCacheConfig(enum cudaFuncCache *pCacheConfig) {
    *pCacheConfig = cudaFuncCachePreferNone;
    return cudaSuccess;
}

WS_EXPORT cudaError_t cudaDeviceGetStreamPriorityRange(int *leastPriority,
                                                       int *greatestPriority) {
    if (leastPriority) *leastPriority = 0;
    if (greatestPriority) *greatestPriority = 0;
    return cudaSuccess;
}

WS_EXPORT cudaError_t cudaDeviceCanAccessPeer(int *canAccessPeer, int device, int peerDevice) {
    (void)device; (void)peerDevice;
    *canAccessPeer = 0;
    return cudaSuccess;
}

#ifdef WS_CUDART_12
#define WS_RUNTIME_VERSION 12080
#else
#define WS_RUNTIME_VERSION 13000
#endif

WS_EXPORT cudaError_t cudaRuntimeGetVersion(int *v) { *v = WS_RUNTIME_VERSION; return 0; }
WS_EXPORT cudaError_t cudaDriverGetVersion(int *v) { *v = WS_RUNTIME_VERSION; return 0; }
WS_EXPORT cudaError_t cudaProfilerStart(void) { return cudaSuccess; }
WS_EXPORT cudaError_t cudaProfilerStop(void) { return cudaSuccess; }

/* ---------------------------------------------------------------- errors */

WS_EXPORT cudaError_t cudaGetLastError(void) {
    cudaError_t e = ws_last_error;
    ws_last_error = cudaSuccess;
    return e;
}

WS_EXPORT cudaError_t cudaPeekAtLastError(void) { return ws_last_error; }

static const struct { int code; const char *name, *text; } ws_errors[] = {
    {0, "cudaSuccess", "no error"},
    {1, "cudaErrorInvalidValue", "invalid argument"},
    {2, "cudaErrorMemoryAllocation", "out of memory"},
    {3, "cudaErrorInitializationError", "initialization error"},
    {9, "cudaErrorInvalidConfiguration", "invalid configuration argument"},
    {12, "cudaErrorInvalidPitchValue", "invalid pitch argument"},
    {13, "cudaErrorInvalidSymbol", "invalid device symbol"},
    {17, "cudaErrorInvalidDevicePointer", "invalid device pointer"},
    {18, "cudaErrorInvalidTexture", "invalid texture reference"},
    {21, "cudaErrorInvalidMemcpyDirection", "invalid copy direction for memcpy"},
    {98, "cudaErrorInvalidDeviceFunction", "invalid device function"},
    {100, "cudaErrorNoDevice", "no CUDA-capable device is detected"},
    {101, "cudaErrorInvalidDevice", "invalid device ordinal"},
    {209, "cudaErrorNoKernelImageForDevice", "no kernel image is available for execution on "
                                             "the device"},
    {218, "cudaErrorInvalidPtx", "a PTX JIT compilation failed"},
    {400, "cudaErrorInvalidResourceHandle", "invalid resource handle"},
    {500, "cudaErrorSymbolNotFound", "named symbol not found"},
    {600, "cudaErrorNotReady", "device not ready"},
    {700, "cudaErrorIllegalAddress", "an illegal memory access was encountered"},
    {701, "cudaErrorLaunchOutOfResources", "too many resources requested for launch"},
    {702, "cudaErrorLaunchTimeout", "the launch timed out and was terminated"},
    {719, "cudaErrorLaunchFailure", "unspecified launch failure"},
    {801, "cudaErrorNotSupported", "operation not supported"},
    {999, "cudaErrorUnknown", "unknown error"},
};

WS_EXPORT const char *cudaGetErrorString(cudaError_t error) {
    for (size_t i = 0; i < sizeof ws_errors / sizeof ws_errors[0]; i++)
        if (ws_errors[i].code == (int)error) return ws_errors[i].text;
    return "unrecognized error code";
}

WS_EXPORT const char *cudaGetErrorName(cudaError_t error) {
    for (size_t i = 0; i < sizeof ws_errors / sizeof ws_errors[0]; i++)
        if (ws_errors[i].code == (int)error) return ws_errors[i].name;
    return "cudaErrorUnknown";
}

/* ---------------------------------------------------------------- streams and events */

static uint64_t ws_next_handle = 0x1000;

static void *ws_new_handle(void) {
    pthread_mutex_lock(&ws_lock);
    uint64_t h = (ws_next_handle += 0x10);
    pthread_mutex_unlock(&ws_lock);
    return (void *)(uintptr_t)h;
}

WS_EXPORT cudaError_t cudaStreamCreate(cudaStream_t *s) {
    *s = ws_new_handle();
    return cudaSuccess;
}

WS_EXPORT cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned int flags) {
    (void)flags;
    return cudaStreamCreate(s);
}

WS_EXPORT cudaError_t cudaStreamCreateWithPriority(cudaStream_t *s, unsigned int flags,
                                                   int priority) {
    (void)flags; (void)priority;
    return cudaStreamCreate(s);
}

WS_EXPORT cudaError_t cudaStreamDestroy(cudaStream_t s) { (void)s; return cudaSuccess; }

WS_EXPORT cudaError_t cudaStreamSynchronize(cudaStream_t s) {
    (void)s;
    return cudaDeviceSynchronize();
}

WS_EXPORT cudaError_t cudaStreamQuery(cudaStream_t s) { (void)s; return cudaSuccess; }

WS_EXPORT cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned int flags) {
    (void)s; (void)e; (void)flags;
    return cudaSuccess;
}

WS_EXPORT cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback,
                                            void *userData, unsigned int flags) {
    (void)flags;
    ws_printf_flush();
    callback(stream, cudaSuccess, userData);  /* everything before it has completed */
    return cudaSuccess;
}

WS_EXPORT cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *userData) {
    (void)stream;
    ws_printf_flush();
    fn(userData);
    return cudaSuccess;
}

WS_EXPORT cudaError_t cudaEventCreate(cudaEvent_t *e) {
    *e = ws_new_handle();
    return cudaSuccess;
}

WS_EXPORT cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned int flags) {
    (void)flags;
    return cudaEventCreate(e);
}

WS_EXPORT cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s) {
    (void)s;
    return ws_simple("cudaEventRecord", IN(U(e)), NULL, 0);
}

WS_EXPORT cudaError_t cudaEventRecordWithFlags(cudaEvent_t e, cudaStream_t s,
                                               unsigned int flags) {
    (void)flags;
    return cudaEventRecord(e, s);
}

WS_EXPORT cudaError_t cudaEventSynchronize(cudaEvent_t e) {
    (void)e;
    ws_printf_flush();
    return cudaSuccess;
}
WS_EXPORT cudaError_t cudaEventQuery(cudaEvent_t e) { (void)e; return cudaSuccess; }

WS_EXPORT cudaError_t cudaEventDestroy(cudaEvent_t e) {
    return ws_simple("cudaEventDestroy", IN(U(e)), NULL, 0);
}

WS_EXPORT cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end) {
    ws_reply r;
    ws_call("cudaEventElapsedTime", IN(U(start), U(end)), NULL, 0, &r);
    free(r.blob);
    if (r.status == cudaSuccess) {
        double d;
        memcpy(&d, &r.v[0], 8);
        *ms = (float)d;
    }
    return ws_ret(r.status);
}

/* ---------------------------------------------------------------- functions */

WS_EXPORT cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func) {
    ws_reply r;
    ws_call("cudaFuncGetAttributes", IN(U(func)), NULL, 0, &r);
    free(r.blob);
    if (r.status == cudaSuccess) {
        memset(attr, 0, sizeof *attr);
        attr->sharedSizeBytes = r.v[0];
        attr->constSizeBytes = r.v[1];
        attr->localSizeBytes = r.v[2];
        attr->maxThreadsPerBlock = (int)r.v[3];
        attr->numRegs = (int)r.v[4];
        attr->ptxVersion = (int)r.v[5];
        attr->binaryVersion = (int)r.v[6];
        attr->maxDynamicSharedSizeBytes = (int)r.v[7];
        attr->preferredShmemCarveout = -1;
    }
    return ws_ret(r.status);
}

WS_EXPORT cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr,
                                           int value) {
    (void)func; (void)attr; (void)value;
    return cudaSuccess;
}

WS_EXPORT cudaError_t cudaFuncSetCacheConfig(const void *func, enum cudaFuncCache cacheConfig) {
    (void)func; (void)cacheConfig;
    return cudaSuccess;
}

WS_EXPORT cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int *numBlocks, const void *func, int blockSize, size_t dynamicSMemSize,
    unsigned int flags) {
    (void)flags;
    ws_reply r;
    ws_call("cudaOccupancyMaxActiveBlocksPerMultiprocessor",
            IN(U(func), (uint64_t)blockSize, dynamicSMemSize), NULL, 0, &r);
    free(r.blob);
    if (r.status == cudaSuccess) *numBlocks = (int)r.v[0];
    return ws_ret(r.status);
}

WS_EXPORT cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks,
                                                                    const void *func,
                                                                    int blockSize,
                                                                    size_t dynamicSMemSize) {
    return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, func, blockSize,
                                                                  dynamicSMemSize, 0);
}
