/* CUDA graphs (included by shim.c): stream capture and the explicit graph API, replayed in
 * order at cudaGraphLaunch.
 *
 * Every call here is synchronous, so a graph is its nodes in the order they were added (a
 * valid topological order: a node's dependencies exist before it). While a stream captures,
 * kernel launches, cudaMemcpyAsync / cudaMemsetAsync and host functions on it are recorded
 * instead of run; a kernel node keeps a copy of its parameter buffer (as CUDA copies the
 * arguments at capture), a copy node keeps its pointers (host data is read at launch, as in
 * CUDA). cudaGraphInstantiate copies the node list; cudaGraphLaunch runs it on the stream.
 * Memory nodes (cudaMallocAsync / cudaFreeAsync while capturing, cudaGraphAddMemAllocNode /
 * cudaGraphAddMemFreeNode): CUDA fixes a graph allocation's address when the node is made and
 * its memory is valid from the alloc node to the free node of each launch; here the memory is
 * allocated when the node is made and stays valid until the program ends (a free node, or a
 * cudaFreeAsync / cudaFree of it, does nothing), which every correct program accepts.
 * cudaGraphAddMemcpyNode keeps its cudaMemcpy3DParms and runs cudaMemcpy3DAsync at launch;
 * cudaGraphClone copies the node list; cudaGraphExecKernelNodeSetParams replaces a kernel
 * node's launch in an instantiated graph; cudaGraphExecUpdate takes a graph of the same
 * nodes (count and kinds, node by node) into the instantiated one, else reports
 * cudaGraphExecUpdateErrorTopologyChanged.
 * Conditional nodes, cudaGraphAddNode and capture into an existing graph: shim_graph_node.c.
 * Not supported (cudaErrorNotSupported from the generated stubs): node queries and other
 * edits, child graphs, event nodes. */

struct ws_graph_s;

typedef struct {
    int kind;  /* WS_G_* */
    const void *func; dim3 g, b; size_t shmem; unsigned char *params; uint64_t nparams;
    void *dst; const void *src; size_t count, pitch, width, height;
    enum cudaMemcpyKind mkind; unsigned int value, elem;
    cudaHostFn_t fn; cudaStreamCallback_t cb; void *user;
    struct cudaMemcpy3DParms p3;
    uint64_t cond; int ctype; unsigned int nbody; struct ws_graph_s **body;  /* WS_G_COND */
} ws_gnode;

enum { WS_G_KERNEL, WS_G_COPY, WS_G_SET, WS_G_HOST, WS_G_CALLBACK, WS_G_EMPTY, WS_G_COPY3D,
       WS_G_COND };

/* A conditional handle: the device address of its 4-byte value (cudaGraphSetConditional
 * stores there), its default, and whether the default is set at each launch of the graph. */
typedef struct { uint64_t addr; unsigned int def, flags; } ws_cond_handle;

typedef struct ws_graph_s {
    ws_gnode *nodes; size_t n, cap;
    ws_cond_handle *handles; size_t nh;
} ws_graph;

#define WS_MAX_CAPTURES 16
static struct { cudaStream_t stream; ws_graph *graph; } ws_captures[WS_MAX_CAPTURES];
static pthread_mutex_t ws_graph_lock = PTHREAD_MUTEX_INITIALIZER;

static ws_graph *ws_capture_of(cudaStream_t s) {
    if (!s) return NULL;
    for (int i = 0; i < WS_MAX_CAPTURES; i++)
        if (ws_captures[i].graph && ws_captures[i].stream == s) return ws_captures[i].graph;
    return NULL;
}

static int ws_is_capturing(cudaStream_t s) {
    pthread_mutex_lock(&ws_graph_lock);
    int on = ws_capture_of(s) != NULL;
    pthread_mutex_unlock(&ws_graph_lock);
    return on;
}

static ws_gnode *ws_graph_add(ws_graph *g) {
    if (g->n == g->cap) {
        size_t cap = g->cap ? 2 * g->cap : 16;
        ws_gnode *nodes = realloc(g->nodes, cap * sizeof *nodes);
        if (!nodes) return NULL;
        g->nodes = nodes;
        g->cap = cap;
    }
    ws_gnode *node = &g->nodes[g->n++];
    memset(node, 0, sizeof *node);
    return node;
}

static cudaError_t ws_add_kernel(ws_graph *g, const void *func, dim3 gd, dim3 bd,
                                 const unsigned char *params, uint64_t n, size_t shmem) {
    ws_gnode *node = ws_graph_add(g);
    if (!node) return cudaErrorMemoryAllocation;
    node->kind = WS_G_KERNEL;
    node->func = func; node->g = gd; node->b = bd; node->shmem = shmem;
    node->params = malloc(n ? n : 1);
    if (!node->params) return cudaErrorMemoryAllocation;
    memcpy(node->params, params, n);
    node->nparams = n;
    return cudaSuccess;
}

/* A kernel launch on a capturing stream (from ws_launch): recorded, not run. */
static cudaError_t ws_capture_kernel(cudaStream_t s, const void *func, dim3 gd, dim3 bd,
                                     const unsigned char *params, uint64_t n, size_t shmem) {
    pthread_mutex_lock(&ws_graph_lock);
    ws_graph *g = ws_capture_of(s);
    cudaError_t e = g ? ws_add_kernel(g, func, gd, bd, params, n, shmem)
                      : cudaErrorIllegalState;
    pthread_mutex_unlock(&ws_graph_lock);
    return e;
}

static cudaError_t ws_capture_node(cudaStream_t s, const ws_gnode *proto) {
    pthread_mutex_lock(&ws_graph_lock);
    ws_graph *g = ws_capture_of(s);
    ws_gnode *node = g ? ws_graph_add(g) : NULL;
    if (node) *node = *proto;
    pthread_mutex_unlock(&ws_graph_lock);
    return node ? cudaSuccess : cudaErrorIllegalState;
}

static cudaError_t ws_capture_copy(cudaStream_t s, void *dst, const void *src, size_t count,
                                   enum cudaMemcpyKind kind) {
    ws_gnode n = {0};
    n.kind = WS_G_COPY; n.dst = dst; n.src = src; n.count = count; n.mkind = kind;
    return ws_capture_node(s, &n);
}

static cudaError_t ws_capture_set(cudaStream_t s, void *dst, int value, size_t count) {
    ws_gnode n = {0};
    n.kind = WS_G_SET; n.dst = dst; n.value = (unsigned int)value & 0xFF; n.elem = 1;
    n.width = count; n.height = 1; n.pitch = count;
    return ws_capture_node(s, &n);
}

static cudaError_t ws_capture_host(cudaStream_t s, cudaHostFn_t fn, cudaStreamCallback_t cb,
                                   void *user) {
    ws_gnode n = {0};
    n.kind = fn ? WS_G_HOST : WS_G_CALLBACK; n.fn = fn; n.cb = cb; n.user = user;
    return ws_capture_node(s, &n);
}

WS_EXPORT cudaError_t cudaStreamBeginCapture(cudaStream_t stream, enum cudaStreamCaptureMode mode) {
    (void)mode;
    if (!stream) {
        fprintf(stderr, "warpsim: cudaStreamBeginCapture: the legacy default stream cannot be "
                "captured (as in CUDA); capture a stream made with cudaStreamCreate\n");
        return ws_ret(cudaErrorStreamCaptureUnsupported);
    }
    pthread_mutex_lock(&ws_graph_lock);
    cudaError_t e = cudaErrorIllegalState;
    if (!ws_capture_of(stream)) {
        for (int i = 0; i < WS_MAX_CAPTURES; i++)
            if (!ws_captures[i].graph) {
                ws_captures[i].graph = calloc(1, sizeof(ws_graph));
                ws_captures[i].stream = stream;
                e = ws_captures[i].graph ? cudaSuccess : cudaErrorMemoryAllocation;
                break;
            }
    }
    pthread_mutex_unlock(&ws_graph_lock);
    return ws_ret(e);
}

WS_EXPORT cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *graph) {
    pthread_mutex_lock(&ws_graph_lock);
    cudaError_t e = cudaErrorIllegalState;
    for (int i = 0; i < WS_MAX_CAPTURES; i++)
        if (ws_captures[i].graph && ws_captures[i].stream == stream) {
            if (graph) *graph = (cudaGraph_t)ws_captures[i].graph;
            ws_captures[i].graph = NULL;
            e = cudaSuccess;
            break;
        }
    pthread_mutex_unlock(&ws_graph_lock);
    return ws_ret(e);
}

WS_EXPORT cudaError_t cudaStreamIsCapturing(cudaStream_t stream,
                                            enum cudaStreamCaptureStatus *status) {
    *status = ws_is_capturing(stream) ? cudaStreamCaptureStatusActive
                                      : cudaStreamCaptureStatusNone;
    return cudaSuccess;
}

WS_EXPORT cudaError_t cudaGraphCreate(cudaGraph_t *graph, unsigned int flags) {
    (void)flags;
    ws_graph *g = calloc(1, sizeof *g);
    if (!g) return ws_ret(cudaErrorMemoryAllocation);
    *graph = (cudaGraph_t)g;
    return cudaSuccess;
}

static cudaGraphNode_t ws_node_handle(const ws_graph *g) {
    return (cudaGraphNode_t)(uintptr_t)g->n;  /* 1-based position */
}

WS_EXPORT cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t *node, cudaGraph_t graph,
                                             const cudaGraphNode_t *deps, size_t ndeps,
                                             const struct cudaKernelNodeParams *p) {
    (void)deps; (void)ndeps;
    int status = 0;
    const ws_layout *l = ws_get_layout(p->func, &status);
    if (!l) return ws_ret(status);
    unsigned char *buf = calloc(1, l->nbytes ? l->nbytes : 1);
    for (int i = 0; i < l->n; i++) memcpy(buf + l->off[i], p->kernelParams[i], l->size[i]);
    ws_graph *g = (ws_graph *)graph;
    cudaError_t e = ws_add_kernel(g, p->func, p->gridDim, p->blockDim, buf, l->nbytes,
                                  p->sharedMemBytes);
    free(buf);
    if (e == cudaSuccess && node) *node = ws_node_handle(g);
    return ws_ret(e);
}

static cudaError_t ws_add_proto(cudaGraphNode_t *node, cudaGraph_t graph, const ws_gnode *n) {
    ws_graph *g = (ws_graph *)graph;
    ws_gnode *slot = ws_graph_add(g);
    if (!slot) return ws_ret(cudaErrorMemoryAllocation);
    *slot = *n;
    if (node) *node = ws_node_handle(g);
    return cudaSuccess;
}

WS_EXPORT cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t *node, cudaGraph_t graph,
                                             const cudaGraphNode_t *deps, size_t ndeps,
                                             const struct cudaMemsetParams *p) {
    (void)deps; (void)ndeps;
    if (p->elementSize != 1 && p->elementSize != 2 && p->elementSize != 4)
        return ws_ret(cudaErrorInvalidValue);
    ws_gnode n = {0};
    n.kind = WS_G_SET; n.dst = p->dst; n.value = p->value; n.elem = p->elementSize;
    n.width = p->width; n.height = p->height ? p->height : 1; n.pitch = p->pitch;
    return ws_add_proto(node, graph, &n);
}

WS_EXPORT cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t *node, cudaGraph_t graph,
                                               const cudaGraphNode_t *deps, size_t ndeps,
                                               void *dst, const void *src, size_t count,
                                               enum cudaMemcpyKind kind) {
    (void)deps; (void)ndeps;
    ws_gnode n = {0};
    n.kind = WS_G_COPY; n.dst = dst; n.src = src; n.count = count; n.mkind = kind;
    return ws_add_proto(node, graph, &n);
}

WS_EXPORT cudaError_t cudaGraphAddHostNode(cudaGraphNode_t *node, cudaGraph_t graph,
                                           const cudaGraphNode_t *deps, size_t ndeps,
                                           const struct cudaHostNodeParams *p) {
    (void)deps; (void)ndeps;
    ws_gnode n = {0};
    n.kind = WS_G_HOST; n.fn = p->fn; n.user = p->userData;
    return ws_add_proto(node, graph, &n);
}

WS_EXPORT cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t *node, cudaGraph_t graph,
                                             const cudaGraphNode_t *deps, size_t ndeps,
                                             const struct cudaMemcpy3DParms *p) {
    (void)deps; (void)ndeps;
    if (!p) return ws_ret(cudaErrorInvalidValue);
    ws_gnode n = {0};
    n.kind = WS_G_COPY3D;
    n.p3 = *p;
    return ws_add_proto(node, graph, &n);
}

WS_EXPORT cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *node, cudaGraph_t graph,
                                            const cudaGraphNode_t *deps, size_t ndeps) {
    (void)deps; (void)ndeps;
    ws_gnode n = {0};
    n.kind = WS_G_EMPTY;
    return ws_add_proto(node, graph, &n);
}

static struct { void **ptr; size_t n, cap, bytes, high; } ws_gmem;

static cudaError_t ws_graph_malloc(void **devPtr, size_t size) {
    cudaError_t e = cudaMalloc(devPtr, size);
    if (e != cudaSuccess) return e;
    pthread_mutex_lock(&ws_graph_lock);
    if (ws_gmem.n == ws_gmem.cap) {
        size_t cap = ws_gmem.cap ? 2 * ws_gmem.cap : 16;
        void **p = realloc(ws_gmem.ptr, cap * sizeof *p);
        if (p) { ws_gmem.ptr = p; ws_gmem.cap = cap; }
    }
    if (ws_gmem.n < ws_gmem.cap) ws_gmem.ptr[ws_gmem.n++] = *devPtr;
    ws_gmem.bytes += size;
    if (ws_gmem.bytes > ws_gmem.high) ws_gmem.high = ws_gmem.bytes;
    pthread_mutex_unlock(&ws_graph_lock);
    return cudaSuccess;
}

static int ws_graph_owns(const void *ptr) {
    int on = 0;
    pthread_mutex_lock(&ws_graph_lock);
    for (size_t i = 0; i < ws_gmem.n && !on; i++) on = ws_gmem.ptr[i] == ptr;
    pthread_mutex_unlock(&ws_graph_lock);
    return on;
}

WS_EXPORT cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t *node, cudaGraph_t graph,
                                               const cudaGraphNode_t *deps, size_t ndeps,
                                               struct cudaMemAllocNodeParams *params) {
    if (!params || params->poolProps.location.type != cudaMemLocationTypeDevice ||
        params->poolProps.location.id != 0) return ws_ret(cudaErrorInvalidValue);
    cudaError_t e = ws_graph_malloc(&params->dptr, params->bytesize);
    if (e != cudaSuccess) return ws_ret(e);
    return cudaGraphAddEmptyNode(node, graph, deps, ndeps);
}

WS_EXPORT cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t *node, cudaGraph_t graph,
                                              const cudaGraphNode_t *deps, size_t ndeps,
                                              void *dptr) {
    if (!ws_graph_owns(dptr)) return ws_ret(cudaErrorInvalidValue);
    return cudaGraphAddEmptyNode(node, graph, deps, ndeps);
}

WS_EXPORT cudaError_t cudaDeviceGraphMemTrim(int device) {
    return ws_ret(device == 0 ? cudaSuccess : cudaErrorInvalidDevice);
}

WS_EXPORT cudaError_t cudaDeviceGetGraphMemAttribute(int device, enum cudaGraphMemAttributeType
                                                     attr, void *value) {
    if (device != 0) return ws_ret(cudaErrorInvalidDevice);
    pthread_mutex_lock(&ws_graph_lock);
    uint64_t v = attr == cudaGraphMemAttrUsedMemCurrent || attr == cudaGraphMemAttrReservedMemCurrent
                 ? ws_gmem.bytes : ws_gmem.high;
    pthread_mutex_unlock(&ws_graph_lock);
    *(uint64_t *)value = v;
    return cudaSuccess;
}

WS_EXPORT cudaError_t cudaDeviceSetGraphMemAttribute(int device, enum cudaGraphMemAttributeType
                                                     attr, void *value) {
    (void)value;
    if (device != 0) return ws_ret(cudaErrorInvalidDevice);
    if (attr != cudaGraphMemAttrUsedMemHigh && attr != cudaGraphMemAttrReservedMemHigh)
        return ws_ret(cudaErrorInvalidValue);
    pthread_mutex_lock(&ws_graph_lock);
    ws_gmem.high = ws_gmem.bytes;  /* reset the high watermark (the only value allowed: 0) */
    pthread_mutex_unlock(&ws_graph_lock);
    return cudaSuccess;
}

WS_EXPORT cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t *nodes,
                                        size_t *numNodes) {
    ws_graph *g = (ws_graph *)graph;
    if (nodes)
        for (size_t i = 0; i < *numNodes && i < g->n; i++)
            nodes[i] = (cudaGraphNode_t)(uintptr_t)(i + 1);
    else
        *numNodes = g->n;
    return cudaSuccess;
}

static void ws_graph_free(ws_graph *g);

/* A deep copy: kernel parameters, conditional bodies (recursively) and handles. */
static ws_graph *ws_graph_copy(const ws_graph *g) {
    ws_graph *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->nodes = calloc(g->n ? g->n : 1, sizeof *c->nodes);
    c->handles = calloc(g->nh ? g->nh : 1, sizeof *c->handles);
    if (!c->nodes || !c->handles) { free(c->nodes); free(c->handles); free(c); return NULL; }
    c->n = c->cap = g->n;
    c->nh = g->nh;
    memcpy(c->handles, g->handles, g->nh * sizeof *c->handles);
    for (size_t i = 0; i < g->n; i++) {
        ws_gnode *d = &c->nodes[i];
        *d = g->nodes[i];
        if (d->kind == WS_G_KERNEL) {
            d->params = malloc(d->nparams ? d->nparams : 1);
            memcpy(d->params, g->nodes[i].params, d->nparams);
        } else if (d->kind == WS_G_COND) {
            d->body = calloc(d->nbody, sizeof *d->body);
            for (unsigned int k = 0; d->body && k < d->nbody; k++)
                d->body[k] = ws_graph_copy(g->nodes[i].body[k]);
        }
    }
    return c;
}

static void ws_graph_free_nodes(ws_graph *g) {
    for (size_t i = 0; i < g->n; i++) {
        ws_gnode *n = &g->nodes[i];
        if (n->kind == WS_G_KERNEL) free(n->params);
        if (n->kind == WS_G_COND && n->body) {
            for (unsigned int k = 0; k < n->nbody; k++) ws_graph_free(n->body[k]);
            free(n->body);
        }
    }
    free(g->nodes);
    g->nodes = NULL; g->n = g->cap = 0;
}

/* (A handle's 4 bytes of device memory are shared by the graph's copies and never freed.) */
static void ws_graph_free(ws_graph *g) {
    if (!g) return;
    ws_graph_free_nodes(g);
    free(g->handles);
    free(g);
}

WS_EXPORT cudaError_t cudaGraphClone(cudaGraph_t *clone, cudaGraph_t graph) {
    if (!clone || !graph) return ws_ret(cudaErrorInvalidValue);
    ws_graph *c = ws_graph_copy((ws_graph *)graph);
    if (!c) return ws_ret(cudaErrorMemoryAllocation);
    *clone = (cudaGraph_t)c;
    return cudaSuccess;
}

WS_EXPORT cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t exec,
                                                       cudaGraphNode_t node,
                                                       const struct cudaKernelNodeParams *p) {
    ws_graph *x = (ws_graph *)exec;
    size_t i = (size_t)(uintptr_t)node;
    if (!x || !p || i < 1 || i > x->n || x->nodes[i - 1].kind != WS_G_KERNEL)
        return ws_ret(cudaErrorInvalidValue);
    ws_graph tmp = {0};  /* build the new kernel node as cudaGraphAddKernelNode does */
    cudaError_t e = cudaGraphAddKernelNode(NULL, (cudaGraph_t)&tmp, NULL, 0, p);
    if (e != cudaSuccess) { ws_graph_free_nodes(&tmp); return e; }
    free(x->nodes[i - 1].params);
    x->nodes[i - 1] = tmp.nodes[0];
    free(tmp.nodes);
    return cudaSuccess;
}

WS_EXPORT cudaError_t cudaGraphExecUpdate(cudaGraphExec_t exec, cudaGraph_t graph,
                                          cudaGraphExecUpdateResultInfo *info) {
    ws_graph *x = (ws_graph *)exec, *g = (ws_graph *)graph;
    if (!x || !g) return ws_ret(cudaErrorInvalidValue);
    int same = x->n == g->n;
    for (size_t i = 0; same && i < g->n; i++) same = x->nodes[i].kind == g->nodes[i].kind;
    if (info) {
        memset(info, 0, sizeof *info);
        info->result = same ? cudaGraphExecUpdateSuccess
                            : cudaGraphExecUpdateErrorTopologyChanged;
    }
    if (!same) return ws_ret(cudaErrorGraphExecUpdateFailure);
    ws_graph *c = ws_graph_copy(g);
    if (!c) return ws_ret(cudaErrorMemoryAllocation);
    ws_graph_free_nodes(x);
    free(x->handles);
    x->nodes = c->nodes; x->n = c->n; x->cap = c->cap;
    x->handles = c->handles; x->nh = c->nh;
    free(c);
    return cudaSuccess;
}

WS_EXPORT cudaError_t cudaGraphInstantiate(cudaGraphExec_t *exec, cudaGraph_t graph,
                                           unsigned long long flags) {
    (void)flags;
    ws_graph *c = ws_graph_copy((ws_graph *)graph);
    if (!c) return ws_ret(cudaErrorMemoryAllocation);
    *exec = (cudaGraphExec_t)c;
    return cudaSuccess;
}

WS_EXPORT cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *exec, cudaGraph_t graph,
                                                    unsigned long long flags) {
    return cudaGraphInstantiate(exec, graph, flags);
}

WS_EXPORT cudaError_t cudaGraphUpload(cudaGraphExec_t exec, cudaStream_t stream) {
    (void)exec; (void)stream;
    return cudaSuccess;
}

static cudaError_t ws_run_set(const ws_gnode *n, cudaStream_t s) {
    if (n->elem == 1 && n->pitch == n->width)
        return cudaMemsetAsync(n->dst, (int)n->value, n->width * n->height, s);
    size_t row = n->width * n->elem;
    unsigned char *buf = malloc(row ? row : 1);
    if (!buf) return cudaErrorMemoryAllocation;
    for (size_t k = 0; k < n->width; k++) memcpy(buf + k * n->elem, &n->value, n->elem);
    cudaError_t e = cudaSuccess;
    for (size_t r = 0; r < n->height && e == cudaSuccess; r++)
        e = cudaMemcpyAsync((char *)n->dst + r * n->pitch, buf, row, cudaMemcpyHostToDevice, s);
    free(buf);
    return e;
}

static cudaError_t ws_run_conditional(const ws_gnode *n, cudaStream_t s);
static cudaError_t ws_cond_defaults(const ws_graph *g, cudaStream_t s);

/* One run of a graph (a launched one, or a conditional node's body): the handles' defaults,
 * then the nodes in order. */
static cudaError_t ws_graph_run(const ws_graph *g, cudaStream_t stream) {
    cudaError_t e0 = ws_cond_defaults(g, stream);
    if (e0 != cudaSuccess) return e0;
    for (size_t i = 0; i < g->n; i++) {
        const ws_gnode *n = &g->nodes[i];
        cudaError_t e = cudaSuccess;
        switch (n->kind) {
        case WS_G_KERNEL:
            e = ws_launch_params(n->func, n->g, n->b, n->params, n->nparams, n->shmem, stream,
                                 0);
            break;
        case WS_G_COPY:
            e = cudaMemcpyAsync(n->dst, n->src, n->count, n->mkind, stream);
            break;
        case WS_G_COPY3D:
            e = cudaMemcpy3DAsync(&n->p3, stream);
            break;
        case WS_G_SET:
            e = ws_run_set(n, stream);
            break;
        case WS_G_HOST:
            ws_printf_flush();
            n->fn(n->user);
            break;
        case WS_G_CALLBACK:
            ws_printf_flush();
            n->cb(stream, cudaSuccess, n->user);
            break;
        case WS_G_COND:
            e = ws_run_conditional(n, stream);
            break;
        default:
            break;
        }
        if (e != cudaSuccess) return e;
    }
    return cudaSuccess;
}

WS_EXPORT cudaError_t cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t stream) {
    return ws_ret(ws_graph_run((const ws_graph *)exec, stream));
}

WS_EXPORT cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec) {
    ws_graph_free((ws_graph *)exec);
    return cudaSuccess;
}

WS_EXPORT cudaError_t cudaGraphDestroy(cudaGraph_t graph) {
    ws_graph_free((ws_graph *)graph);
    return cudaSuccess;
}
