/* warpsim's libcudart, part 3 (included by shim.c): memory, copies, symbols, arrays, textures.
 *
 * Host memory is touched only here: host-to-device copies send the bytes, device-to-host
 * copies receive them. Async copies are synchronous (the stream order holds trivially).
 */

/* ---------------------------------------------------------------- allocation */

WS_EXPORT cudaError_t cudaMalloc(void **devPtr, size_t size) {
    if (!devPtr) return ws_ret(cudaErrorInvalidValue);
    ws_reply r;
    ws_call("cudaMalloc", IN(size), NULL, 0, &r);
    free(r.blob);
    *devPtr = r.status == cudaSuccess ? (void *)(uintptr_t)r.v[0] : NULL;
    return ws_ret(r.status);
}

static int ws_graph_owns(const void *ptr);  /* shim_graph.c: graph allocations stay */

WS_EXPORT cudaError_t cudaFree(void *devPtr) {
    if (!devPtr || ws_graph_owns(devPtr)) return cudaSuccess;
    if (ws_any_managed) ws_free_managed(devPtr);
    return ws_simple("cudaFree", IN(U(devPtr)), NULL, 0);
}

WS_EXPORT cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height) {
    ws_reply r;
    ws_call("cudaMallocPitch", IN(width, height), NULL, 0, &r);
    free(r.blob);
    if (r.status == cudaSuccess) { *devPtr = (void *)(uintptr_t)r.v[0]; *pitch = r.v[1]; }
    return ws_ret(r.status);
}

WS_EXPORT cudaError_t cudaMallocHost(void **ptr, size_t size) {
    if (!ptr) return ws_ret(cudaErrorInvalidValue);
    if (posix_memalign(ptr, 4096, size ? size : 1)) return ws_ret(cudaErrorMemoryAllocation);
    return cudaSuccess;
}

WS_EXPORT cudaError_t cudaHostAlloc(void **pHost, size_t size, unsigned int flags) {
    /* mapped (zero-copy) memory is managed memory: one address on both sides */
    if (flags & cudaHostAllocMapped) return cudaMallocManaged(pHost, size, 0);
    return cudaMallocHost(pHost, size);  /* pinned or not, host memory is host memory */
}

WS_EXPORT cudaError_t cudaFreeHost(void *ptr) {
    if (ws_any_managed && ws_is_managed(ptr, 1)) return cudaFree(ptr);
    free(ptr);
    return cudaSuccess;
}

WS_EXPORT cudaError_t cudaHostGetDevicePointer(void **pDevice, void *pHost, unsigned int flags) {
    (void)flags;
    uint64_t a = U(pHost), dev = 0;
    pthread_mutex_lock(&ws_mlock);
    for (ws_managed *m = ws_managed_list; m; m = m->next)
        if (m->is_reg && a >= m->host && a < m->host + m->size) { dev = m->dev + (a - m->host); break; }
    pthread_mutex_unlock(&ws_mlock);
    if (dev) {
        *pDevice = (void *)(uintptr_t)dev;
        return cudaSuccess;
    }
    if (ws_any_managed && ws_is_managed(pHost, 1)) {
        *pDevice = pHost;
        return cudaSuccess;
    }
    fprintf(stderr, "warpsim: cudaHostGetDevicePointer: %p is neither cudaHostAlloc(Mapped) nor "
            "cudaHostRegister'ed memory\n", pHost);
    return ws_ret(cudaErrorInvalidValue);
}

/* Registered host memory gets a device copy: kernels reach it through the pointer
 * cudaHostGetDevicePointer gives (canUseHostPointerForRegisteredMem is 0); like managed memory
 * it is sent to the device before each launch and read back after it. */
WS_EXPORT cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned int flags) {
    (void)flags;
    if (!ptr || !size) return ws_ret(cudaErrorInvalidValue);
    if (ws_any_managed && ws_is_managed(ptr, 1)) return ws_ret(cudaErrorHostMemoryAlreadyRegistered);
    void *dev = NULL;
    cudaError_t e = cudaMalloc(&dev, size);
    if (e != cudaSuccess) return e;
    ws_managed *m = calloc(1, sizeof *m);
    m->host = U(ptr); m->dev = U(dev); m->size = size; m->is_reg = 1;
    pthread_mutex_lock(&ws_mlock);
    m->next = ws_managed_list;
    ws_managed_list = m;
    ws_any_managed = 1;
    pthread_mutex_unlock(&ws_mlock);
    return cudaSuccess;
}

WS_EXPORT cudaError_t cudaHostUnregister(void *ptr) {
    ws_managed *found = NULL;
    pthread_mutex_lock(&ws_mlock);
    for (ws_managed **pm = &ws_managed_list; *pm; pm = &(*pm)->next)
        if ((*pm)->is_reg && (*pm)->host == U(ptr)) {
            found = *pm;
            *pm = found->next;
            break;
        }
    pthread_mutex_unlock(&ws_mlock);
    if (!found) return ws_ret(cudaErrorHostMemoryNotRegistered);
    cudaFree((void *)(uintptr_t)found->dev);
    free(found);
    return cudaSuccess;
}

WS_EXPORT cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total) {
    ws_reply r;
    ws_call("cudaMemGetInfo", NULL, 0, NULL, 0, &r);
    free(r.blob);
    if (r.status == cudaSuccess) { *free_bytes = r.v[0]; *total = r.v[1]; }
    return ws_ret(r.status);
}

/* ---------------------------------------------------------------- copies */

static int ws_classify(const void *dst, const void *src, int *dst_dev, int *src_dev) {
    ws_reply r;
    ws_call("__classify", IN(U(dst), U(src)), NULL, 0, &r);
    free(r.blob);
    if (r.status == cudaSuccess) { *dst_dev = (int)r.v[0]; *src_dev = (int)r.v[1]; }
    return r.status;
}

static cudaError_t ws_resolve_kind(const void *dst, const void *src, enum cudaMemcpyKind *kind) {
    if (*kind != cudaMemcpyDefault) return cudaSuccess;
    int dd = 0, sd = 0;
    int st = ws_classify(dst, src, &dd, &sd);
    if (st) return ws_ret(st);
    *kind = dd ? (sd ? cudaMemcpyDeviceToDevice : cudaMemcpyHostToDevice)
               : (sd ? cudaMemcpyDeviceToHost : cudaMemcpyHostToHost);
    return cudaSuccess;
}

/* Managed memory is copied through its host mapping (the current copy between launches). */
static enum cudaMemcpyKind ws_managed_kind(enum cudaMemcpyKind kind, const void *dst,
                                           const void *src, size_t n) {
    if (!ws_any_managed) return kind;
    int dd = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
    int sd = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
    if (dd && ws_is_managed(dst, n)) dd = 0;
    if (sd && ws_is_managed(src, n)) sd = 0;
    return dd ? (sd ? cudaMemcpyDeviceToDevice : cudaMemcpyHostToDevice)
              : (sd ? cudaMemcpyDeviceToHost : cudaMemcpyHostToHost);
}

static cudaError_t ws_copy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind) {
    ws_printf_flush();  /* copies synchronise (warpsim's async ones too) */
    if (count == 0) return cudaSuccess;
    cudaError_t st = ws_resolve_kind(dst, src, &kind);
    if (st) return st;
    if (kind >= cudaMemcpyHostToHost && kind <= cudaMemcpyDeviceToDevice)
        kind = ws_managed_kind(kind, dst, src, count);
    switch (kind) {
    case cudaMemcpyHostToHost:
        memmove(dst, src, count);
        return cudaSuccess;
    case cudaMemcpyHostToDevice:
        return ws_simple("__write", IN(U(dst)), src, count);
    case cudaMemcpyDeviceToHost: {
        ws_reply r;
        ws_call("__read", IN(U(src), count), NULL, 0, &r);
        if (r.status == cudaSuccess && r.blob_len == count) memcpy(dst, r.blob, count);
        free(r.blob);
        return ws_ret(r.status);
    }
    case cudaMemcpyDeviceToDevice:
        return ws_simple("__copy", IN(U(dst), U(src), count), NULL, 0);
    default:
        return ws_ret(cudaErrorInvalidMemcpyDirection);
    }
}

static cudaError_t ws_copy2d(void *dst, size_t dpitch, const void *src, size_t spitch,
                             size_t width, size_t height, enum cudaMemcpyKind kind) {
    ws_printf_flush();
    if (width == 0 || height == 0) return cudaSuccess;
    if (width > dpitch || width > spitch) return ws_ret(cudaErrorInvalidPitchValue);
    cudaError_t st = ws_resolve_kind(dst, src, &kind);
    if (st) return st;
    if (ws_any_managed && kind >= cudaMemcpyHostToHost && kind <= cudaMemcpyDeviceToDevice) {
        size_t dn = dpitch * (height - 1) + width, sn = spitch * (height - 1) + width;
        int dd = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
        int sd = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
        dd = dd && !ws_is_managed(dst, dn);
        sd = sd && !ws_is_managed(src, sn);
        kind = dd ? (sd ? cudaMemcpyDeviceToDevice : cudaMemcpyHostToDevice)
                  : (sd ? cudaMemcpyDeviceToHost : cudaMemcpyHostToHost);
    }
    switch (kind) {
    case cudaMemcpyHostToHost:
        for (size_t y = 0; y < height; y++)
            memmove((char *)dst + y * dpitch, (const char *)src + y * spitch, width);
        return cudaSuccess;
    case cudaMemcpyHostToDevice: {
        char *buf = malloc(width * height);
        if (!buf) return ws_ret(cudaErrorMemoryAllocation);
        for (size_t y = 0; y < height; y++)
            memcpy(buf + y * width, (const char *)src + y * spitch, width);
        st = ws_simple("__write2d", IN(U(dst), dpitch, width, height), buf, width * height);
        free(buf);
        return st;
    }
    case cudaMemcpyDeviceToHost: {
        ws_reply r;
        ws_call("__read2d", IN(U(src), spitch, width, height), NULL, 0, &r);
        if (r.status == cudaSuccess && r.blob_len == width * height)
            for (size_t y = 0; y < height; y++)
                memcpy((char *)dst + y * dpitch, r.blob + y * width, width);
        free(r.blob);
        return ws_ret(r.status);
    }
    case cudaMemcpyDeviceToDevice:
        return ws_simple("__copy2d", IN(U(dst), dpitch, U(src), spitch, width, height), NULL, 0);
    default:
        return ws_ret(cudaErrorInvalidMemcpyDirection);
    }
}

WS_EXPORT cudaError_t cudaMemcpy(void *dst, const void *src, size_t count,
                                 enum cudaMemcpyKind kind) {
    return ws_copy(dst, src, count, kind);
}

WS_EXPORT cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count,
                                      enum cudaMemcpyKind kind, cudaStream_t stream) {
    if (ws_is_capturing(stream)) return ws_ret(ws_capture_copy(stream, dst, src, count, kind));
    return ws_copy(dst, src, count, kind);
}

WS_EXPORT cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch,
                                   size_t width, size_t height, enum cudaMemcpyKind kind) {
    return ws_copy2d(dst, dpitch, src, spitch, width, height, kind);
}

WS_EXPORT cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src,
                                        size_t spitch, size_t width, size_t height,
                                        enum cudaMemcpyKind kind, cudaStream_t stream) {
    (void)stream;
    return ws_copy2d(dst, dpitch, src, spitch, width, height, kind);
}

WS_EXPORT cudaError_t cudaMemcpyPeer(void *dst, int dstDevice, const void *src, int srcDevice,
                                     size_t count) {
    if (dstDevice != 0 || srcDevice != 0) return ws_ret(cudaErrorInvalidDevice);
    return ws_copy(dst, src, count, cudaMemcpyDeviceToDevice);
}

WS_EXPORT cudaError_t cudaMemset(void *devPtr, int value, size_t count) {
    if (count == 0) return cudaSuccess;
    if (ws_any_managed && ws_is_managed(devPtr, count)) {
        memset(devPtr, value, count);
        return cudaSuccess;
    }
    return ws_simple("__memset", IN(U(devPtr), (uint64_t)(value & 0xFF), count), NULL, 0);
}

WS_EXPORT cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count,
                                      cudaStream_t stream) {
    if (ws_is_capturing(stream)) return ws_ret(ws_capture_set(stream, devPtr, value, count));
    return cudaMemset(devPtr, value, count);
}

WS_EXPORT cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width,
                                   size_t height) {
    for (size_t y = 0; y < height; y++) {
        cudaError_t st = cudaMemset((char *)devPtr + y * pitch, value, width);
        if (st) return st;
    }
    return cudaSuccess;
}

WS_EXPORT cudaError_t cudaMemset2DAsync(void *devPtr, size_t pitch, int value, size_t width,
                                        size_t height, cudaStream_t stream) {
    (void)stream;
    return cudaMemset2D(devPtr, pitch, value, width, height);
}

WS_EXPORT cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attributes,
                                               const void *ptr) {
    int dev = 0, unused = 0;
    int st = ws_classify(ptr, ptr, &dev, &unused);
    if (st) return ws_ret(st);
    memset(attributes, 0, sizeof *attributes);
    attributes->type = ws_any_managed && ws_is_managed(ptr, 1) ? cudaMemoryTypeManaged
                     : dev ? cudaMemoryTypeDevice : cudaMemoryTypeUnregistered;
    attributes->device = 0;
    attributes->devicePointer = dev ? (void *)ptr : NULL;
    attributes->hostPointer = dev ? NULL : (void *)ptr;
    return cudaSuccess;
}

/* ---------------------------------------------------------------- symbols */

static cudaError_t ws_symbol(const void *symbol, uint64_t *address, uint64_t *size) {
    ws_reply r;
    ws_call("__symbol", IN(U(symbol)), NULL, 0, &r);
    free(r.blob);
    if (r.status == cudaSuccess) { *address = r.v[0]; *size = r.v[1]; }
    return ws_ret(r.status);
}

WS_EXPORT cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count,
                                         size_t offset, enum cudaMemcpyKind kind) {
    uint64_t addr, size;
    cudaError_t st = ws_symbol(symbol, &addr, &size);
    if (st) return st;
    if (offset + count > size) {
        fprintf(stderr, "warpsim: cudaMemcpyToSymbol: %zu bytes at offset %zu do not fit in "
                "the symbol's %llu bytes\n", count, offset, (unsigned long long)size);
        return ws_ret(cudaErrorInvalidValue);
    }
    if (kind == cudaMemcpyDefault) kind = cudaMemcpyHostToDevice;
    if (kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice)
        return ws_ret(cudaErrorInvalidMemcpyDirection);
    return ws_copy((void *)(uintptr_t)(addr + offset), src, count, kind);
}

WS_EXPORT cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count,
                                              size_t offset, enum cudaMemcpyKind kind,
                                              cudaStream_t stream) {
    (void)stream;
    return cudaMemcpyToSymbol(symbol, src, count, offset, kind);
}

WS_EXPORT cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count,
                                           size_t offset, enum cudaMemcpyKind kind) {
    uint64_t addr, size;
    cudaError_t st = ws_symbol(symbol, &addr, &size);
    if (st) return st;
    if (offset + count > size) {
        fprintf(stderr, "warpsim: cudaMemcpyFromSymbol: %zu bytes at offset %zu do not fit in "
                "the symbol's %llu bytes\n", count, offset, (unsigned long long)size);
        return ws_ret(cudaErrorInvalidValue);
    }
    if (kind == cudaMemcpyDefault) kind = cudaMemcpyDeviceToHost;
    if (kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice)
        return ws_ret(cudaErrorInvalidMemcpyDirection);
    return ws_copy(dst, (const void *)(uintptr_t)(addr + offset), count, kind);
}

WS_EXPORT cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count,
                                                size_t offset, enum cudaMemcpyKind kind,
                                                cudaStream_t stream) {
    (void)stream;
    return cudaMemcpyFromSymbol(dst, symbol, count, offset, kind);
}

WS_EXPORT cudaError_t cudaGetSymbolAddress(void **devPtr, const void *symbol) {
    uint64_t addr, size;
    cudaError_t st = ws_symbol(symbol, &addr, &size);
    if (!st) *devPtr = (void *)(uintptr_t)addr;
    return st;
}

WS_EXPORT cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol) {
    uint64_t addr, n;
    cudaError_t st = ws_symbol(symbol, &addr, &n);
    if (!st) *size = n;
    return st;
}

/* ---------------------------------------------------------------- arrays and textures */

WS_EXPORT struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w,
                                                             enum cudaChannelFormatKind f) {
    struct cudaChannelFormatDesc d = {x, y, z, w, f};
    return d;
}

WS_EXPORT cudaError_t cudaMallocArray(cudaArray_t *array, const struct cudaChannelFormatDesc *d,
                                      size_t width, size_t height, unsigned int flags) {
    (void)flags;
    ws_reply r;
    ws_call("cudaMallocArray", IN((uint64_t)d->x, (uint64_t)d->y, (uint64_t)d->z,
                                  (uint64_t)d->w, (uint64_t)d->f, width, height),
            NULL, 0, &r);
    free(r.blob);
    if (r.status == cudaSuccess) *array = (cudaArray_t)(uintptr_t)r.v[0];
    return ws_ret(r.status);
}

WS_EXPORT cudaError_t cudaMalloc3DArray(cudaArray_t *array,
                                        const struct cudaChannelFormatDesc *d,
                                        struct cudaExtent extent, unsigned int flags) {
    ws_reply r;
    ws_call("cudaMalloc3DArray", IN((uint64_t)d->x, (uint64_t)d->y, (uint64_t)d->z,
                                    (uint64_t)d->w, (uint64_t)d->f, extent.width, extent.height,
                                    extent.depth, (uint64_t)flags),
            NULL, 0, &r);
    free(r.blob);
    if (r.status == cudaSuccess) *array = (cudaArray_t)(uintptr_t)r.v[0];
    return ws_ret(r.status);
}

WS_EXPORT cudaError_t cudaMallocMipmappedArray(cudaMipmappedArray_t *mipmappedArray,
                                               const struct cudaChannelFormatDesc *d,
                                               struct cudaExtent extent, unsigned int numLevels,
                                               unsigned int flags) {
    ws_reply r;
    ws_call("cudaMallocMipmappedArray",
            IN((uint64_t)d->x, (uint64_t)d->y, (uint64_t)d->z, (uint64_t)d->w, (uint64_t)d->f,
               extent.width, extent.height, extent.depth, (uint64_t)numLevels, (uint64_t)flags),
            NULL, 0, &r);
    free(r.blob);
    if (r.status == cudaSuccess) *mipmappedArray = (cudaMipmappedArray_t)(uintptr_t)r.v[0];
    return ws_ret(r.status);
}

WS_EXPORT cudaError_t cudaGetMipmappedArrayLevel(cudaArray_t *levelArray,
                                                 cudaMipmappedArray_const_t mipmappedArray,
                                                 unsigned int level) {
    ws_reply r;
    ws_call("cudaGetMipmappedArrayLevel", IN(U(mipmappedArray), (uint64_t)level), NULL, 0, &r);
    free(r.blob);
    if (r.status == cudaSuccess) *levelArray = (cudaArray_t)(uintptr_t)r.v[0];
    return ws_ret(r.status);
}

WS_EXPORT cudaError_t cudaFreeMipmappedArray(cudaMipmappedArray_t mipmappedArray) {
    if (!mipmappedArray) return cudaSuccess;
    return ws_simple("cudaFreeMipmappedArray", IN(U(mipmappedArray)), NULL, 0);
}

WS_EXPORT cudaError_t cudaFreeArray(cudaArray_t array) {
    if (!array) return cudaSuccess;
    return ws_simple("cudaFreeArray", IN(U(array)), NULL, 0);
}

/* (device address, bytes per row, rows) of a cudaArray, and its element size */
/* (device address, bytes per row, rows, element size, slices or layers) of a cudaArray */
static cudaError_t ws_array_info3(const void *array, uint64_t *addr, uint64_t *row,
                                  uint64_t *rows, uint64_t *elem, uint64_t *depth) {
    ws_reply r;
    ws_call("__array_info", IN(U(array)), NULL, 0, &r);
    free(r.blob);
    if (r.status == cudaSuccess) {
        *addr = r.v[0]; *row = r.v[1]; *rows = r.v[2]; *elem = r.v[3];
        if (depth) *depth = r.v[4];
    }
    return ws_ret(r.status);
}

static cudaError_t ws_array_info2(const void *array, uint64_t *addr, uint64_t *row,
                                  uint64_t *rows, uint64_t *elem) {
    return ws_array_info3(array, addr, row, rows, elem, NULL);
}

static cudaError_t ws_array_info(const void *array, uint64_t *addr, uint64_t *row,
                                 uint64_t *rows) {
    uint64_t elem;
    return ws_array_info2(array, addr, row, rows, &elem);
}

WS_EXPORT cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                          const void *src, size_t spitch, size_t width,
                                          size_t height, enum cudaMemcpyKind kind) {
    uint64_t addr, row, rows;
    cudaError_t st = ws_array_info(dst, &addr, &row, &rows);
    if (st) return st;
    if (wOffset + width > row || hOffset + height > rows) return ws_ret(cudaErrorInvalidValue);
    if (kind == cudaMemcpyDefault) kind = cudaMemcpyHostToDevice;
    return ws_copy2d((void *)(uintptr_t)(addr + hOffset * row + wOffset), row, src, spitch,
                     width, height, kind);
}

WS_EXPORT cudaError_t cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                               const void *src, size_t spitch, size_t width,
                                               size_t height, enum cudaMemcpyKind kind,
                                               cudaStream_t stream) {
    (void)stream;
    return cudaMemcpy2DToArray(dst, wOffset, hOffset, src, spitch, width, height, kind);
}

WS_EXPORT cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_const_t src,
                                            size_t wOffset, size_t hOffset, size_t width,
                                            size_t height, enum cudaMemcpyKind kind) {
    uint64_t addr, row, rows;
    cudaError_t st = ws_array_info(src, &addr, &row, &rows);
    if (st) return st;
    if (wOffset + width > row || hOffset + height > rows) return ws_ret(cudaErrorInvalidValue);
    if (kind == cudaMemcpyDefault) kind = cudaMemcpyDeviceToHost;
    return ws_copy2d(dst, dpitch, (const void *)(uintptr_t)(addr + hOffset * row + wOffset),
                     row, width, height, kind);
}

WS_EXPORT cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                        const void *src, size_t count, enum cudaMemcpyKind kind) {
    uint64_t addr, row, rows;
    cudaError_t st = ws_array_info(dst, &addr, &row, &rows);
    if (st) return st;
    if (hOffset * row + wOffset + count > row * rows) return ws_ret(cudaErrorInvalidValue);
    if (kind == cudaMemcpyDefault) kind = cudaMemcpyHostToDevice;
    return ws_copy((void *)(uintptr_t)(addr + hOffset * row + wOffset), src, count, kind);
}

WS_EXPORT cudaError_t cudaMemcpyFromArray(void *dst, cudaArray_const_t src, size_t wOffset,
                                          size_t hOffset, size_t count,
                                          enum cudaMemcpyKind kind) {
    uint64_t addr, row, rows;
    cudaError_t st = ws_array_info(src, &addr, &row, &rows);
    if (st) return st;
    if (hOffset * row + wOffset + count > row * rows) return ws_ret(cudaErrorInvalidValue);
    if (kind == cudaMemcpyDefault) kind = cudaMemcpyDeviceToHost;
    return ws_copy(dst, (const void *)(uintptr_t)(addr + hOffset * row + wOffset), count, kind);
}

WS_EXPORT cudaError_t cudaCreateTextureObject(cudaTextureObject_t *pTexObject,
                                              const struct cudaResourceDesc *res,
                                              const struct cudaTextureDesc *tex,
                                              const struct cudaResourceViewDesc *view) {
    (void)view;
    uint64_t ptr = 0, size = 0, height = 0, pitch = 0;
    struct cudaChannelFormatDesc d = {0, 0, 0, 0, cudaChannelFormatKindNone};
    switch (res->resType) {
    case cudaResourceTypeArray:
        ptr = U(res->res.array.array);
        break;
    case cudaResourceTypeMipmappedArray:
        ptr = U(res->res.mipmap.mipmap);
        break;
    case cudaResourceTypeLinear:
        ptr = U(res->res.linear.devPtr); d = res->res.linear.desc;
        size = res->res.linear.sizeInBytes;
        break;
    case cudaResourceTypePitch2D:
        ptr = U(res->res.pitch2D.devPtr); d = res->res.pitch2D.desc;
        size = res->res.pitch2D.width; height = res->res.pitch2D.height;
        pitch = res->res.pitch2D.pitchInBytes;
        break;
    default:
        return ws_ret(cudaErrorInvalidValue);
    }
    float mip[3] = {tex->mipmapLevelBias, tex->minMipmapLevelClamp, tex->maxMipmapLevelClamp};
    uint32_t mipbits[3];
    memcpy(mipbits, mip, sizeof mip);
    ws_reply r;
    ws_call("cudaCreateTextureObject",
            IN((uint64_t)res->resType, ptr, (uint64_t)d.x, (uint64_t)d.y, (uint64_t)d.z,
               (uint64_t)d.w, (uint64_t)d.f, size, height, pitch, (uint64_t)tex->addressMode[0],
               (uint64_t)tex->filterMode, (uint64_t)tex->readMode,
               (uint64_t)tex->normalizedCoords, (uint64_t)tex->mipmapFilterMode,
               (uint64_t)mipbits[0], (uint64_t)mipbits[1], (uint64_t)mipbits[2]),
            NULL, 0, &r);
    free(r.blob);
    if (r.status == cudaSuccess) *pTexObject = r.v[0];
    return ws_ret(r.status);
}

WS_EXPORT cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texObject) {
    return ws_simple("cudaDestroyTextureObject", IN(texObject), NULL, 0);
}

WS_EXPORT cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *pSurfObject,
                                              const struct cudaResourceDesc *res) {
    if (res->resType != cudaResourceTypeArray)
        return ws_ret(cudaErrorInvalidValue);  /* CUDA: surfaces are made over arrays */
    ws_reply r;
    ws_call("cudaCreateSurfaceObject", IN(U(res->res.array.array)), NULL, 0, &r);
    free(r.blob);
    if (r.status == cudaSuccess) *pSurfObject = r.v[0];
    return ws_ret(r.status);
}

WS_EXPORT cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject) {
    return ws_simple("cudaDestroyTextureObject", IN(surfObject), NULL, 0);
}

/* ---------------------------------------------------------------- 3-D (slices of 2-D; 3-D and
 * layered cudaArrays are slices of rows too) */

WS_EXPORT cudaError_t cudaMalloc3D(struct cudaPitchedPtr *pitchedDevPtr,
                                   struct cudaExtent extent) {
    void *p = NULL;
    size_t pitch = 0;
    cudaError_t st = cudaMallocPitch(&p, &pitch, extent.width, extent.height * extent.depth);
    if (st) return st;
    pitchedDevPtr->ptr = p;
    pitchedDevPtr->pitch = pitch;
    pitchedDevPtr->xsize = extent.width;
    pitchedDevPtr->ysize = extent.height;
    return cudaSuccess;
}

/* One side of a 3-D copy: first byte, row pitch, slice pitch. */
static cudaError_t ws_side3d(cudaArray_const_t arr, struct cudaPitchedPtr ptr,
                             struct cudaPos pos, size_t elem, size_t extent_depth, char **base,
                             size_t *pitch, size_t *slice) {
    if (arr) {
        uint64_t addr, row, rows, e, depth;
        cudaError_t st = ws_array_info3(arr, &addr, &row, &rows, &e, &depth);
        if (st) return st;
        if (pos.z + extent_depth > depth) return ws_ret(cudaErrorInvalidValue);
        *base = (char *)(uintptr_t)(addr + pos.z * row * rows + pos.y * row + pos.x * e);
        *pitch = row;
        *slice = row * rows;
        return cudaSuccess;
    }
    *base = (char *)ptr.ptr + (pos.z * ptr.ysize + pos.y) * ptr.pitch + pos.x * elem;
    *pitch = ptr.pitch;
    *slice = ptr.pitch * ptr.ysize;
    return cudaSuccess;
}

WS_EXPORT cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p) {
    uint64_t elem = 1;  /* extents count bytes unless a cudaArray takes part */
    if (p->srcArray || p->dstArray) {
        uint64_t addr, row, rows;
        cudaError_t st = ws_array_info2(p->srcArray ? (const void *)p->srcArray
                                                    : (const void *)p->dstArray,
                                        &addr, &row, &rows, &elem);
        if (st) return st;
    }
    char *src, *dst;
    size_t spitch, dpitch, sslice, dslice;
    size_t depth = p->extent.depth;
    cudaError_t st = ws_side3d(p->srcArray, p->srcPtr, p->srcPos, elem, depth, &src, &spitch,
                               &sslice);
    if (st) return st;
    st = ws_side3d(p->dstArray, p->dstPtr, p->dstPos, elem, depth, &dst, &dpitch, &dslice);
    if (st) return st;
    for (size_t z = 0; z < p->extent.depth; z++) {
        st = ws_copy2d(dst + z * dslice, dpitch, src + z * sslice, spitch,
                       p->extent.width * elem, p->extent.height, p->kind);
        if (st) return st;
    }
    return cudaSuccess;
}

WS_EXPORT cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p, cudaStream_t stream) {
    (void)stream;
    return cudaMemcpy3D(p);
}

WS_EXPORT cudaError_t cudaMemset3D(struct cudaPitchedPtr pitchedDevPtr, int value,
                                   struct cudaExtent extent) {
    for (size_t z = 0; z < extent.depth; z++) {
        cudaError_t st = cudaMemset2D((char *)pitchedDevPtr.ptr +
                                      z * pitchedDevPtr.pitch * pitchedDevPtr.ysize,
                                      pitchedDevPtr.pitch, value, extent.width, extent.height);
        if (st) return st;
    }
    return cudaSuccess;
}

WS_EXPORT cudaError_t cudaMemset3DAsync(struct cudaPitchedPtr pitchedDevPtr, int value,
                                        struct cudaExtent extent, cudaStream_t stream) {
    (void)stream;
    return cudaMemset3D(pitchedDevPtr, value, extent);
}
