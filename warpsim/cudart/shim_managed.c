/* warpsim's libcudart, part 2 (included by shim.c): managed (unified) memory.
 *
 * cudaMallocManaged memory is mapped in the host at the very address the simulated heap gives
 * it (page-aligned), so one pointer works on both sides; a __managed__ variable gets a host
 * buffer that nvcc's host code reaches through the pointer it registered; cudaHostRegister'ed
 * host memory gets a device copy that cudaHostGetDevicePointer names. The host copy is
 * the current one between launches: every launch sends all managed bytes to the device first
 * and reads them back afterwards; copies and memsets on managed memory act on the host copy.
 */

typedef struct ws_managed {
    uint64_t host, dev, size;   /* dev == 0: a __managed__ variable not yet resolved */
    uint64_t fatbin;            /* __managed__ variables: the fat binary's id */
    int is_var;
    int is_reg;                 /* cudaHostRegister'ed host memory with a device copy at dev */
    struct ws_managed *next;
} ws_managed;

static ws_managed *ws_managed_list = NULL;
static pthread_mutex_t ws_mlock = PTHREAD_MUTEX_INITIALIZER;

static int ws_is_managed(const void *p, size_t n) {
    uint64_t a = U(p);
    int hit = 0;
    pthread_mutex_lock(&ws_mlock);
    for (ws_managed *m = ws_managed_list; m; m = m->next)
        if (a >= m->host && a + n <= m->host + m->size) { hit = 1; break; }
    pthread_mutex_unlock(&ws_mlock);
    return hit;
}

static void ws_register_managed_var(void **handle, void **host_ptr, const char *name,
                                    size_t size) {
    ws_managed *m = calloc(1, sizeof *m);
    void *buf = calloc(1, size ? size : 1);
    m->host = U(buf); m->size = size; m->is_var = 1; m->fatbin = U(*handle);
    *host_ptr = buf;
    /* the host buffer's address is the key the simulator knows the variable by */
    ws_simple("__register_var", IN(m->fatbin, m->host, size, 0), name, strlen(name));
    pthread_mutex_lock(&ws_mlock);
    m->next = ws_managed_list;
    ws_managed_list = m;
    ws_any_managed = 1;
    pthread_mutex_unlock(&ws_mlock);
}

/* Give __managed__ variables not seen yet their initial value (read from the device). */
static void ws_managed_resolve_locked(void) {
    for (ws_managed *m = ws_managed_list; m; m = m->next) {
        if (m->dev != 0) continue;
        ws_reply r;
        if (ws_call("__symbol", IN(m->host), NULL, 0, &r) == 0 && r.n >= 1) m->dev = r.v[0];
        free(r.blob);
        if (m->dev == 0) continue;
        ws_call("__read", IN(m->dev, m->size), NULL, 0, &r);
        if (r.status == cudaSuccess && r.blob_len == m->size)
            memcpy((void *)(uintptr_t)m->host, r.blob, m->size);
        free(r.blob);
    }
}

/* to_device: host copies -> simulated memory (before a launch); 0: the reverse (after it);
 * -1: only initialise new __managed__ variables (__cudaInitModule). */
static void ws_managed_sync(int to_device) {
    pthread_mutex_lock(&ws_mlock);
    ws_managed_resolve_locked();
    for (ws_managed *m = ws_managed_list; m && to_device >= 0; m = m->next) {
        if (m->dev == 0) continue;
        ws_reply r;
        if (to_device) {
            ws_call("__write", IN(m->dev), (const void *)(uintptr_t)m->host, m->size, &r);
        } else {
            ws_call("__read", IN(m->dev, m->size), NULL, 0, &r);
            if (r.status == cudaSuccess && r.blob_len == m->size)
                memcpy((void *)(uintptr_t)m->host, r.blob, m->size);
        }
        free(r.blob);
    }
    pthread_mutex_unlock(&ws_mlock);
}

WS_EXPORT cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned int flags) {
    (void)flags;
    if (!devPtr) return ws_ret(cudaErrorInvalidValue);
    ws_reply r;
    ws_call("cudaMallocManaged", IN(size), NULL, 0, &r);
    free(r.blob);
    if (r.status != cudaSuccess) return ws_ret(r.status);
    uint64_t addr = r.v[0], mapped = r.v[1];
    void *p = mmap((void *)(uintptr_t)addr, mapped, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    if (p != (void *)(uintptr_t)addr) {
        if (p != MAP_FAILED) munmap(p, mapped);
        fprintf(stderr, "warpsim: cudaMallocManaged: host address %#llx is taken, so the "
                "simulated allocation cannot be shared with the host\n",
                (unsigned long long)addr);
        ws_simple("cudaFree", IN(addr), NULL, 0);
        return ws_ret(cudaErrorMemoryAllocation);
    }
    ws_managed *m = calloc(1, sizeof *m);
    m->host = m->dev = addr; m->size = mapped;
    pthread_mutex_lock(&ws_mlock);
    m->next = ws_managed_list;
    ws_managed_list = m;
    ws_any_managed = 1;
    pthread_mutex_unlock(&ws_mlock);
    *devPtr = p;
    return cudaSuccess;
}

/* Unmaps a cudaMallocManaged block; 1 when ptr was one. */
static int ws_free_managed(void *ptr) {
    ws_managed *found = NULL;
    pthread_mutex_lock(&ws_mlock);
    for (ws_managed **pm = &ws_managed_list; *pm; pm = &(*pm)->next)
        if (!(*pm)->is_var && !(*pm)->is_reg && (*pm)->host == U(ptr)) {
            found = *pm;
            *pm = found->next;
            break;
        }
    pthread_mutex_unlock(&ws_mlock);
    if (!found) return 0;
    munmap(ptr, found->size);
    free(found);
    return 1;
}

WS_EXPORT cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count,
                                           struct cudaMemLocation location, unsigned int flags,
                                           cudaStream_t stream) {
    (void)devPtr; (void)count; (void)location; (void)flags; (void)stream;
    return cudaSuccess;  /* one memory: nothing to move */
}

WS_EXPORT cudaError_t cudaMemAdvise(const void *devPtr, size_t count, enum cudaMemoryAdvise advice,
                                    struct cudaMemLocation location) {
    (void)devPtr; (void)count; (void)advice; (void)location;
    return cudaSuccess;
}

WS_EXPORT cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void *devPtr, size_t length,
                                               unsigned int flags) {
    (void)stream; (void)devPtr; (void)length; (void)flags;
    return cudaSuccess;
}
