/* warpsim's libcudart, part 5 (included by shim.c): stream-ordered memory pools.
 *
 * Follows: the CUDA runtime's memory pool API (cudaDeviceGetDefaultMemPool, cudaMemPoolCreate,
 * cudaMallocFromPoolAsync, cudaMemPoolSet/GetAttribute, cudaMemPoolTrimTo). Allocations are
 * ordinary device allocations made when the call runs (every stream operation completes in
 * order); a pool keeps its attributes and counts the bytes its live allocations hold: freed
 * memory goes back to the simulator at once, so reserved memory equals used memory whatever
 * the release threshold says (a pool that trims eagerly).
 */

typedef struct ws_pool {
    uint64_t attr[9];            /* by cudaMemPoolAttr: 1-3 reuse flags, 4 release threshold */
    uint64_t used, used_high;
    struct ws_pool *next;
} ws_pool;

typedef struct ws_pool_block {
    uint64_t ptr, size;
    ws_pool *pool;
    struct ws_pool_block *next;
} ws_pool_block;

static ws_pool ws_default_pool = {{0, 1, 1, 1, 0, 0, 0, 0, 0}, 0, 0, NULL};
static ws_pool *ws_current_pool = &ws_default_pool;
static ws_pool *ws_pools = NULL;
static ws_pool_block *ws_pool_blocks = NULL;
static pthread_mutex_t ws_plock = PTHREAD_MUTEX_INITIALIZER;

static int ws_pool_live(ws_pool *p) {
    if (p == &ws_default_pool) return 1;
    for (ws_pool *q = ws_pools; q; q = q->next)
        if (q == p) return 1;
    return 0;
}

WS_EXPORT cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *pool, int device) {
    if (!pool || device != 0) return ws_ret(cudaErrorInvalidValue);
    *pool = (cudaMemPool_t)&ws_default_pool;
    return cudaSuccess;
}

WS_EXPORT cudaError_t cudaDeviceGetMemPool(cudaMemPool_t *pool, int device) {
    if (!pool || device != 0) return ws_ret(cudaErrorInvalidValue);
    *pool = (cudaMemPool_t)ws_current_pool;
    return cudaSuccess;
}

WS_EXPORT cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t pool) {
    if (device != 0 || !ws_pool_live((ws_pool *)pool)) return ws_ret(cudaErrorInvalidValue);
    ws_current_pool = (ws_pool *)pool;
    return cudaSuccess;
}

WS_EXPORT cudaError_t cudaMemPoolCreate(cudaMemPool_t *pool, const struct cudaMemPoolProps *props) {
    if (!pool || !props) return ws_ret(cudaErrorInvalidValue);
    if (props->allocType != cudaMemAllocationTypePinned ||
        props->location.type != cudaMemLocationTypeDevice || props->location.id != 0)
        return ws_ret(warpsim_unsupported("cudaMemPoolCreate (only pinned pools on device 0)"));
    ws_pool *p = calloc(1, sizeof *p);
    p->attr[1] = p->attr[2] = p->attr[3] = 1;
    pthread_mutex_lock(&ws_plock);
    p->next = ws_pools;
    ws_pools = p;
    pthread_mutex_unlock(&ws_plock);
    *pool = (cudaMemPool_t)p;
    return cudaSuccess;
}

WS_EXPORT cudaError_t cudaMemPoolDestroy(cudaMemPool_t pool) {
    ws_pool *p = (ws_pool *)pool;
    if (p == &ws_default_pool) return ws_ret(cudaErrorInvalidValue);
    pthread_mutex_lock(&ws_plock);
    for (ws_pool **pp = &ws_pools; *pp; pp = &(*pp)->next)
        if (*pp == p) {
            *pp = p->next;
            if (ws_current_pool == p) ws_current_pool = &ws_default_pool;
            pthread_mutex_unlock(&ws_plock);
            free(p);  /* live allocations stay valid until freed, as in CUDA */
            return cudaSuccess;
        }
    pthread_mutex_unlock(&ws_plock);
    return ws_ret(cudaErrorInvalidValue);
}

WS_EXPORT cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t pool, enum cudaMemPoolAttr attr,
                                              void *value) {
    ws_pool *p = (ws_pool *)pool;
    if (!value || !ws_pool_live(p)) return ws_ret(cudaErrorInvalidValue);
    if (attr >= 1 && attr <= 3) p->attr[attr] = *(int *)value != 0;
    else if (attr == cudaMemPoolAttrReleaseThreshold) p->attr[attr] = *(uint64_t *)value;
    else if (attr == cudaMemPoolAttrReservedMemHigh || attr == cudaMemPoolAttrUsedMemHigh) {
        if (*(uint64_t *)value != 0) return ws_ret(cudaErrorInvalidValue);  /* only resets */
        p->used_high = p->used;
    } else return ws_ret(cudaErrorInvalidValue);
    return cudaSuccess;
}

WS_EXPORT cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t pool, enum cudaMemPoolAttr attr,
                                              void *value) {
    ws_pool *p = (ws_pool *)pool;
    if (!value || !ws_pool_live(p)) return ws_ret(cudaErrorInvalidValue);
    if (attr >= 1 && attr <= 3) *(int *)value = (int)p->attr[attr];
    else if (attr == cudaMemPoolAttrReleaseThreshold) *(uint64_t *)value = p->attr[attr];
    else if (attr == cudaMemPoolAttrReservedMemCurrent || attr == cudaMemPoolAttrUsedMemCurrent)
        *(uint64_t *)value = p->used;
    else if (attr == cudaMemPoolAttrReservedMemHigh || attr == cudaMemPoolAttrUsedMemHigh)
        *(uint64_t *)value = p->used_high;
    else return ws_ret(cudaErrorInvalidValue);
    return cudaSuccess;
}

WS_EXPORT cudaError_t cudaMemPoolTrimTo(cudaMemPool_t pool, size_t minBytesToKeep) {
    (void)minBytesToKeep;  /* nothing is kept beyond live allocations */
    return ws_pool_live((ws_pool *)pool) ? cudaSuccess : ws_ret(cudaErrorInvalidValue);
}

WS_EXPORT cudaError_t cudaMemPoolSetAccess(cudaMemPool_t pool, const struct cudaMemAccessDesc *descs,
                                           size_t count) {
    (void)descs; (void)count;  /* one device: it always has read-write access */
    return ws_pool_live((ws_pool *)pool) ? cudaSuccess : ws_ret(cudaErrorInvalidValue);
}

WS_EXPORT cudaError_t cudaMemPoolGetAccess(enum cudaMemAccessFlags *flags, cudaMemPool_t pool,
                                           struct cudaMemLocation *location) {
    (void)location;
    if (!flags || !ws_pool_live((ws_pool *)pool)) return ws_ret(cudaErrorInvalidValue);
    *flags = cudaMemAccessFlagsProtReadWrite;
    return cudaSuccess;
}

WS_EXPORT cudaError_t cudaMallocFromPoolAsync(void **ptr, size_t size, cudaMemPool_t pool,
                                              cudaStream_t stream) {
    (void)stream;
    ws_pool *p = (ws_pool *)pool;
    if (!ptr || !ws_pool_live(p)) return ws_ret(cudaErrorInvalidValue);
    cudaError_t e = cudaMalloc(ptr, size);
    if (e != cudaSuccess) return e;
    ws_pool_block *b = calloc(1, sizeof *b);
    b->ptr = U(*ptr); b->size = size; b->pool = p;
    pthread_mutex_lock(&ws_plock);
    b->next = ws_pool_blocks;
    ws_pool_blocks = b;
    p->used += size;
    if (p->used > p->used_high) p->used_high = p->used;
    pthread_mutex_unlock(&ws_plock);
    return cudaSuccess;
}

/* Graph allocations (shim_graph.c): what a capturing stream allocates, and alloc nodes. */
static cudaError_t ws_graph_malloc(void **devPtr, size_t size);

WS_EXPORT cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t stream) {
    if (ws_is_capturing(stream)) return ws_ret(ws_graph_malloc(devPtr, size));
    return cudaMallocFromPoolAsync(devPtr, size, (cudaMemPool_t)ws_current_pool, stream);
}

WS_EXPORT cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t stream) {
    if (ws_is_capturing(stream) || ws_graph_owns(devPtr)) return cudaSuccess;
    pthread_mutex_lock(&ws_plock);
    for (ws_pool_block **pb = &ws_pool_blocks; *pb; pb = &(*pb)->next)
        if ((*pb)->ptr == U(devPtr)) {
            ws_pool_block *b = *pb;
            *pb = b->next;
            if (ws_pool_live(b->pool)) b->pool->used -= b->size;
            free(b);
            break;
        }
    pthread_mutex_unlock(&ws_plock);
    return cudaFree(devPtr);
}
