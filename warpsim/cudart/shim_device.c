/* warpsim's libcudart, part 4 (included by shim.c): device, errors, streams, events,
 * function attributes and occupancy.
 *
 * Properties are fetched once from the simulator (the simulated GPU's configuration);
 * streams and events are handles made here (every call is synchronous, so a stream is always
 * idle); an event records the simulated cycle count on the server.
 */

/* ---------------------------------------------------------------- device properties */

/* Every cudaDeviceAttr value comes from the simulator (attributes.py) in one table indexed
 * by the attribute's number; cudaGetDeviceProperties fills each field that has an attribute
 * from the same table, so the two always agree. Numbers, not the header's enum names, so
 * that the library builds against older headers too. */
#define WS_N_ATTR 256
#define WS_ATTR_UNKNOWN INT64_MIN

static int64_t ws_attr[WS_N_ATTR];
static uint64_t ws_total_mem;
static char ws_name[256];
static int ws_props_ok = 0;

static cudaError_t ws_load_props(void) {
    if (ws_props_ok) return cudaSuccess;
    ws_reply r;
    ws_call("__props", NULL, 0, NULL, 0, &r);
    if (r.status != cudaSuccess || r.n < 1) {
        free(r.blob);
        return ws_ret(r.status ? r.status : cudaErrorUnknown);
    }
    ws_total_mem = r.v[0];
    memset(ws_name, 0, sizeof ws_name);
    memcpy(ws_name, r.blob, r.blob_len < 255 ? r.blob_len : 255);
    free(r.blob);
    ws_call("__attributes", NULL, 0, NULL, 0, &r);
    if (r.status == cudaSuccess) {
        for (int i = 0; i < WS_N_ATTR; i++) ws_attr[i] = WS_ATTR_UNKNOWN;
        uint64_t n = r.blob_len / 8 < WS_N_ATTR ? r.blob_len / 8 : WS_N_ATTR;
        memcpy(ws_attr, r.blob, n * 8);
        ws_props_ok = 1;
    }
    free(r.blob);
    return ws_ret(r.status);
}

#define A(n) ((int)ws_attr[n])

WS_EXPORT cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *p, int device) {
    if (device != 0) return ws_ret(cudaErrorInvalidDevice);
    cudaError_t st = ws_load_props();
    if (st) return st;
    memset(p, 0, sizeof *p);
    memcpy(p->name, ws_name, sizeof ws_name);
    p->totalGlobalMem = ws_total_mem;
    p->sharedMemPerBlock = (size_t)A(8);
    p->regsPerBlock = A(12);
    p->warpSize = A(10);
    p->memPitch = (size_t)A(11);
    p->maxThreadsPerBlock = A(1);
    for (int i = 0; i < 3; i++) {
        p->maxThreadsDim[i] = A(2 + i);
        p->maxGridSize[i] = A(5 + i);
    }
    p->totalConstMem = (size_t)A(9);
    p->major = A(75);
    p->minor = A(76);
    p->textureAlignment = (size_t)A(14);
    p->texturePitchAlignment = (size_t)A(51);
    p->multiProcessorCount = A(16);
    p->integrated = A(18);
    p->canMapHostMemory = A(19);
    p->maxTexture1D = A(21);
    p->maxTexture1DMipmap = A(77);
    p->maxTexture2D[0] = A(22); p->maxTexture2D[1] = A(23);
    p->maxTexture2DMipmap[0] = A(73); p->maxTexture2DMipmap[1] = A(74);
    for (int i = 0; i < 3; i++) {
        p->maxTexture2DLinear[i] = A(70 + i);
        p->maxTexture3D[i] = A(24 + i);
        p->maxTexture3DAlt[i] = A(47 + i);
        p->maxTexture2DLayered[i] = A(27 + i);
        p->maxSurface3D[i] = A(58 + i);
        p->maxSurface2DLayered[i] = A(63 + i);
    }
    p->maxTexture2DGather[0] = A(45); p->maxTexture2DGather[1] = A(46);
    p->maxTextureCubemap = A(52);
    p->maxTexture1DLayered[0] = A(42); p->maxTexture1DLayered[1] = A(43);
    p->maxTextureCubemapLayered[0] = A(53); p->maxTextureCubemapLayered[1] = A(54);
    p->maxSurface1D = A(55);
    p->maxSurface2D[0] = A(56); p->maxSurface2D[1] = A(57);
    p->maxSurface1DLayered[0] = A(61); p->maxSurface1DLayered[1] = A(62);
    p->maxSurfaceCubemap = A(66);
    p->maxSurfaceCubemapLayered[0] = A(67); p->maxSurfaceCubemapLayered[1] = A(68);
    p->surfaceAlignment = (size_t)A(30);
    p->concurrentKernels = A(31);
    p->ECCEnabled = A(32);
    p->pciBusID = A(33);
    p->pciDeviceID = A(34);
    p->pciDomainID = A(50);
    p->tccDriver = A(35);
    p->asyncEngineCount = A(40);
    p->unifiedAddressing = A(41);
    p->memoryBusWidth = A(37);
    p->l2CacheSize = A(38);
    p->persistingL2CacheMaxSize = A(108);
    p->maxThreadsPerMultiProcessor = A(39);
    p->streamPrioritiesSupported = A(78);
    p->globalL1CacheSupported = A(79);
    p->localL1CacheSupported = A(80);
    p->sharedMemPerMultiprocessor = (size_t)A(81);
    p->regsPerMultiprocessor = A(82);
    p->managedMemory = A(83);
    p->isMultiGpuBoard = A(84);
    p->multiGpuBoardGroupID = A(85);
    p->hostNativeAtomicSupported = A(86);
    p->pageableMemoryAccess = A(88);
    p->concurrentManagedAccess = A(89);
    p->computePreemptionSupported = A(90);
    p->canUseHostPointerForRegisteredMem = A(91);
    p->cooperativeLaunch = A(95);
    p->sharedMemPerBlockOptin = (size_t)A(97);
    p->pageableMemoryAccessUsesHostPageTables = A(100);
    p->directManagedMemAccessFromHost = A(101);
    p->maxBlocksPerMultiProcessor = A(106);
    p->accessPolicyMaxWindowSize = A(109);
    p->reservedSharedMemPerBlock = (size_t)A(111);
    p->hostRegisterSupported = A(99);
    p->sparseCudaArraySupported = A(112);
    p->hostRegisterReadOnlySupported = A(113);
    p->timelineSemaphoreInteropSupported = A(114);
    p->memoryPoolsSupported = A(115);
    p->gpuDirectRDMASupported = A(116);
    p->gpuDirectRDMAFlushWritesOptions = (unsigned)A(117);
    p->gpuDirectRDMAWritesOrdering = A(118);
    p->memoryPoolSupportedHandleTypes = (unsigned)A(119);
    p->deferredMappingCudaArraySupported = A(121);
    p->ipcEventSupported = A(125);
    p->clusterLaunch = A(120);
    p->unifiedFunctionPointers = 0;  /* no attribute; indirect calls are not supported */
    p->deviceNumaConfig = A(130);
    p->deviceNumaId = A(131);
    p->mpsEnabled = A(133);
    p->hostNumaId = A(134);
    p->gpuPciDeviceID = (unsigned)A(139);
    p->gpuPciSubsystemID = (unsigned)A(140);
    p->hostNumaMultinodeIpcSupported = A(143);
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
    q->clockRate = A(13); q->totalConstMem = p.totalConstMem;
    q->major = p.major; q->minor = p.minor; q->textureAlignment = p.textureAlignment;
    q->texturePitchAlignment = p.texturePitchAlignment;
    q->deviceOverlap = A(15);
    q->multiProcessorCount = p.multiProcessorCount;
    return cudaSuccess;
}
#endif

WS_EXPORT cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device) {
    if (device != 0) return ws_ret(cudaErrorInvalidDevice);
    cudaError_t st = ws_load_props();
    if (st) return st;
    int n = (int)attr;
    if (n < 0 || n >= WS_N_ATTR || ws_attr[n] == WS_ATTR_UNKNOWN) {
        fprintf(stderr, "warpsim: cudaDeviceGetAttribute: %d is not a cudaDeviceAttr "
                "(the CUDA 12/13 runtime numbers them 1 to 160)\n", n);
        return ws_ret(cudaErrorInvalidValue);
    }
    if (value == NULL) return ws_ret(cudaErrorInvalidValue);
    *value = (int)ws_attr[n];
    return cudaSuccess;
}

#undef A

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
    {401, "cudaErrorIllegalState", "the operation cannot be performed in the present state"},
    {500, "cudaErrorSymbolNotFound", "named symbol not found"},
    {600, "cudaErrorNotReady", "device not ready"},
    {700, "cudaErrorIllegalAddress", "an illegal memory access was encountered"},
    {701, "cudaErrorLaunchOutOfResources", "too many resources requested for launch"},
    {702, "cudaErrorLaunchTimeout", "the launch timed out and was terminated"},
    {710, "cudaErrorAssert", "device-side assert triggered"},
    {712, "cudaErrorHostMemoryAlreadyRegistered", "part or all of the requested memory range is "
                                                  "already mapped"},
    {713, "cudaErrorHostMemoryNotRegistered", "pointer does not correspond to a registered "
                                              "memory region"},
    {719, "cudaErrorLaunchFailure", "unspecified launch failure"},
    {720, "cudaErrorCooperativeLaunchTooLarge", "too many blocks in cooperative launch"},
    {801, "cudaErrorNotSupported", "operation not supported"},
    {900, "cudaErrorStreamCaptureUnsupported", "operation not permitted when stream is "
                                               "capturing"},
    {910, "cudaErrorGraphExecUpdateFailure", "the graph update was not performed because it "
                                             "included changes which violated constraints "
                                             "specific to instantiated graph update"},
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
    if (ws_is_capturing(stream)) return ws_ret(ws_capture_host(stream, NULL, callback, userData));
    ws_printf_flush();
    callback(stream, cudaSuccess, userData);  /* everything before it has completed */
    return cudaSuccess;
}

WS_EXPORT cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *userData) {
    if (ws_is_capturing(stream)) return ws_ret(ws_capture_host(stream, fn, NULL, userData));
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
    return ws_simple("cudaFuncSetAttribute", IN(U(func), (uint64_t)attr, (uint64_t)value), NULL,
                     0);
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
