/* CUDA graphs, continued (included by shim.c after shim_graph.c): conditional nodes, the
 * generic cudaGraphAddNode, and capture into an existing graph.
 *
 * Follows the CUDA Programming Guide, "Conditional Graph Nodes" (CUDA 12.4+: IF with an
 * optional ELSE body, WHILE, SWITCH). A conditional handle (cudaGraphConditionalHandleCreate)
 * is the device address of a 4-byte word: the device-side cudaGraphSetConditional(handle, v)
 * stores v there (warpsim/functional/graph_conditional.py), and the conditional node reads it
 * when the graph reaches it (every call is synchronous). With cudaGraphCondAssignDefault the
 * default is written at the start of each run of the graph that owns the handle; without it
 * the value is the default at creation and then whatever was last set (CUDA leaves it
 * undefined). A WHILE node reads the value before each run of its body; IF runs body 0 on a
 * non-zero value and body 1 (size 2) on zero; SWITCH runs body[value] when value < size.
 * Bodies are graphs owned by the node, filled with the graph API or
 * cudaStreamBeginCaptureToGraph; they are copied with the graph at instantiation.
 * Dependencies are not kept: nodes run in the order they were added (valid topological order,
 * as in shim_graph.c), so cudaStreamGetCaptureInfo reports the last captured node and
 * cudaStreamUpdateCaptureDependencies only checks its stream. */

static cudaError_t ws_cond_defaults(const ws_graph *g, cudaStream_t s) {
    for (size_t i = 0; i < g->nh; i++) {
        if (!(g->handles[i].flags & cudaGraphCondAssignDefault)) continue;
        cudaError_t e = cudaMemcpyAsync((void *)(uintptr_t)g->handles[i].addr,
                                        &g->handles[i].def, 4, cudaMemcpyHostToDevice, s);
        if (e != cudaSuccess) return e;
    }
    return cudaSuccess;
}

static cudaError_t ws_cond_value(const ws_gnode *n, cudaStream_t s, unsigned int *v) {
    return cudaMemcpyAsync(v, (const void *)(uintptr_t)n->cond, 4, cudaMemcpyDeviceToHost, s);
}

static cudaError_t ws_run_conditional(const ws_gnode *n, cudaStream_t s) {
    unsigned int v = 0;
    cudaError_t e = ws_cond_value(n, s, &v);
    if (e != cudaSuccess) return e;
    switch (n->ctype) {
    case cudaGraphCondTypeIf:
        if (v) return ws_graph_run(n->body[0], s);
        return n->nbody == 2 ? ws_graph_run(n->body[1], s) : cudaSuccess;
    case cudaGraphCondTypeWhile:
        while (v && e == cudaSuccess) {
            e = ws_graph_run(n->body[0], s);
            if (e == cudaSuccess) e = ws_cond_value(n, s, &v);
        }
        return e;
    case cudaGraphCondTypeSwitch:
        return v < n->nbody ? ws_graph_run(n->body[v], s) : cudaSuccess;
    default:
        return cudaErrorInvalidValue;
    }
}

WS_EXPORT cudaError_t cudaGraphConditionalHandleCreate(cudaGraphConditionalHandle *pHandle_out,
                                                       cudaGraph_t graph,
                                                       unsigned int defaultLaunchValue,
                                                       unsigned int flags) {
    ws_graph *g = (ws_graph *)graph;
    if (!pHandle_out || !g || (flags & ~(unsigned int)cudaGraphCondAssignDefault))
        return ws_ret(cudaErrorInvalidValue);
    void *addr = NULL;
    cudaError_t e = cudaMalloc(&addr, 4);
    if (e == cudaSuccess)
        e = cudaMemcpy(addr, &defaultLaunchValue, 4, cudaMemcpyHostToDevice);
    if (e != cudaSuccess) return ws_ret(e);
    ws_cond_handle *h = realloc(g->handles, (g->nh + 1) * sizeof *h);
    if (!h) return ws_ret(cudaErrorMemoryAllocation);
    g->handles = h;
    h[g->nh++] = (ws_cond_handle){U(addr), defaultLaunchValue, flags};
    *pHandle_out = U(addr);
    return cudaSuccess;
}

/* The CUDA 13 form with an execution context: warpsim has one device and one context. */
WS_EXPORT cudaError_t cudaGraphConditionalHandleCreate_v2(cudaGraphConditionalHandle *pHandle_out,
                                                          cudaGraph_t graph,
                                                          cudaExecutionContext_t ctx,
                                                          unsigned int defaultLaunchValue,
                                                          unsigned int flags) {
    if (ctx) {
        fprintf(stderr, "warpsim: cudaGraphConditionalHandleCreate_v2: execution contexts "
                "(green contexts) are not supported; pass NULL\n");
        return ws_ret(cudaErrorNotSupported);
    }
    return cudaGraphConditionalHandleCreate(pHandle_out, graph, defaultLaunchValue, flags);
}

static const char *ws_node_type_name(int t) {
    static const char *names[] = {
        "cudaGraphNodeTypeKernel", "cudaGraphNodeTypeMemcpy", "cudaGraphNodeTypeMemset",
        "cudaGraphNodeTypeHost", "cudaGraphNodeTypeGraph", "cudaGraphNodeTypeEmpty",
        "cudaGraphNodeTypeWaitEvent", "cudaGraphNodeTypeEventRecord",
        "cudaGraphNodeTypeExtSemaphoreSignal", "cudaGraphNodeTypeExtSemaphoreWait",
        "cudaGraphNodeTypeMemAlloc", "cudaGraphNodeTypeMemFree", "(0x0c)",
        "cudaGraphNodeTypeConditional", "cudaGraphNodeTypeMemcpyBatch"};
    return t >= 0 && t < (int)(sizeof names / sizeof *names) ? names[t] : "(unknown)";
}

static cudaError_t ws_add_conditional(cudaGraphNode_t *node, ws_graph *g,
                                      struct cudaConditionalNodeParams *p) {
    unsigned int most = p->type == cudaGraphCondTypeIf ? 2
                        : p->type == cudaGraphCondTypeWhile ? 1
                        : p->type == cudaGraphCondTypeSwitch ? 0xFFFFu : 0;
    if (p->size < 1 || p->size > most) {
        fprintf(stderr, "warpsim: cudaGraphAddNode: a conditional node of type %d with size %u "
                "(IF takes 1 or 2 bodies, WHILE 1, SWITCH 1 or more)\n", (int)p->type, p->size);
        return ws_ret(cudaErrorInvalidValue);
    }
    ws_gnode n = {0};
    n.kind = WS_G_COND; n.cond = p->handle; n.ctype = p->type; n.nbody = p->size;
    n.body = calloc(p->size, sizeof *n.body);
    int ok = n.body != NULL;
    for (unsigned int k = 0; ok && k < p->size; k++)
        ok = (n.body[k] = calloc(1, sizeof(ws_graph))) != NULL;
    if (!ok) return ws_ret(cudaErrorMemoryAllocation);
    cudaError_t e = ws_add_proto(node, (cudaGraph_t)g, &n);
    if (e != cudaSuccess) return ws_ret(e);
    p->phGraph_out = (cudaGraph_t *)n.body;
    return cudaSuccess;
}

WS_EXPORT cudaError_t cudaGraphAddNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                       const cudaGraphNode_t *pDependencies,
                                       const cudaGraphEdgeData *dependencyData,
                                       size_t numDependencies,
                                       struct cudaGraphNodeParams *np) {
    (void)dependencyData;
    ws_graph *g = (ws_graph *)graph;
    if (!g || !np) return ws_ret(cudaErrorInvalidValue);
    switch (np->type) {
    case cudaGraphNodeTypeKernel: {
        const struct cudaKernelNodeParamsV2 *k = &np->kernel;
        if (k->functionType != cudaKernelFunctionTypeUnspecified &&
            k->functionType != cudaKernelFunctionTypeDeviceEntry) break;
        if (k->extra) {
            fprintf(stderr, "warpsim: cudaGraphAddNode: kernel arguments in the 'extra' form "
                    "are not supported (pass kernelParams)\n");
            return ws_ret(cudaErrorNotSupported);
        }
        struct cudaKernelNodeParams p = {k->func, k->gridDim, k->blockDim, k->sharedMemBytes,
                                         k->kernelParams, NULL};
        return cudaGraphAddKernelNode(pGraphNode, graph, pDependencies, numDependencies, &p);
    }
    case cudaGraphNodeTypeMemcpy:
        return cudaGraphAddMemcpyNode(pGraphNode, graph, pDependencies, numDependencies,
                                      &np->memcpy.copyParams);
    case cudaGraphNodeTypeMemset: {
        const struct cudaMemsetParamsV2 *m = &np->memset;
        struct cudaMemsetParams p = {m->dst, m->pitch, m->value, m->elementSize, m->width,
                                     m->height};
        return cudaGraphAddMemsetNode(pGraphNode, graph, pDependencies, numDependencies, &p);
    }
    case cudaGraphNodeTypeHost: {
        struct cudaHostNodeParams p = {np->host.fn, np->host.userData};
        return cudaGraphAddHostNode(pGraphNode, graph, pDependencies, numDependencies, &p);
    }
    case cudaGraphNodeTypeEmpty:
        return cudaGraphAddEmptyNode(pGraphNode, graph, pDependencies, numDependencies);
    case cudaGraphNodeTypeMemAlloc: {
        struct cudaMemAllocNodeParams p = {0};
        p.poolProps = np->alloc.poolProps;
        p.bytesize = np->alloc.bytesize;
        cudaError_t e = cudaGraphAddMemAllocNode(pGraphNode, graph, pDependencies,
                                                 numDependencies, &p);
        np->alloc.dptr = p.dptr;
        return e;
    }
    case cudaGraphNodeTypeMemFree:
        return cudaGraphAddMemFreeNode(pGraphNode, graph, pDependencies, numDependencies,
                                       np->free.dptr);
    case cudaGraphNodeTypeConditional:
        return ws_add_conditional(pGraphNode, g, &np->conditional);
    default:
        break;
    }
    fprintf(stderr, "warpsim: cudaGraphAddNode: node type %s (%d) is not supported (supported: "
            "kernel, memcpy, memset, host, empty, memory alloc/free, conditional)\n",
            ws_node_type_name((int)np->type), (int)np->type);
    return ws_ret(cudaErrorNotSupported);
}

WS_EXPORT cudaError_t cudaStreamBeginCaptureToGraph(cudaStream_t stream, cudaGraph_t graph,
                                                    const cudaGraphNode_t *dependencies,
                                                    const cudaGraphEdgeData *dependencyData,
                                                    size_t numDependencies,
                                                    enum cudaStreamCaptureMode mode) {
    (void)dependencies; (void)dependencyData; (void)numDependencies; (void)mode;
    if (!stream || !graph) {
        fprintf(stderr, "warpsim: cudaStreamBeginCaptureToGraph: %s\n", stream
                ? "no graph given" : "the legacy default stream cannot be captured (as in "
                  "CUDA); capture a stream made with cudaStreamCreate");
        return ws_ret(stream ? cudaErrorInvalidValue : cudaErrorStreamCaptureUnsupported);
    }
    pthread_mutex_lock(&ws_graph_lock);
    cudaError_t e = cudaErrorIllegalState;
    if (!ws_capture_of(stream))
        for (int i = 0; i < WS_MAX_CAPTURES; i++)
            if (!ws_captures[i].graph) {
                ws_captures[i].graph = (ws_graph *)graph;
                ws_captures[i].stream = stream;
                e = cudaSuccess;
                break;
            }
    pthread_mutex_unlock(&ws_graph_lock);
    return ws_ret(e);
}

WS_EXPORT cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream,
                                               enum cudaStreamCaptureStatus *captureStatus_out,
                                               unsigned long long *id_out, cudaGraph_t *graph_out,
                                               const cudaGraphNode_t **dependencies_out,
                                               const cudaGraphEdgeData **edgeData_out,
                                               size_t *numDependencies_out) {
    static __thread cudaGraphNode_t last;
    pthread_mutex_lock(&ws_graph_lock);
    ws_graph *g = ws_capture_of(stream);
    unsigned long long id = 0;
    for (int i = 0; g && i < WS_MAX_CAPTURES; i++)
        if (ws_captures[i].graph == g && ws_captures[i].stream == stream) id = (unsigned)i + 1;
    last = g && g->n ? ws_node_handle(g) : NULL;
    pthread_mutex_unlock(&ws_graph_lock);
    if (!captureStatus_out) return ws_ret(cudaErrorInvalidValue);
    *captureStatus_out = g ? cudaStreamCaptureStatusActive : cudaStreamCaptureStatusNone;
    if (id_out) *id_out = id;
    if (graph_out) *graph_out = (cudaGraph_t)g;
    if (dependencies_out) *dependencies_out = last ? &last : NULL;
    if (edgeData_out) *edgeData_out = NULL;
    if (numDependencies_out) *numDependencies_out = last ? 1 : 0;
    return cudaSuccess;
}

WS_EXPORT cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t stream,
                                                          cudaGraphNode_t *dependencies,
                                                          const cudaGraphEdgeData *dependencyData,
                                                          size_t numDependencies,
                                                          unsigned int flags) {
    (void)dependencies; (void)dependencyData; (void)numDependencies;
    if (flags != cudaStreamAddCaptureDependencies && flags != cudaStreamSetCaptureDependencies)
        return ws_ret(cudaErrorInvalidValue);
    return ws_ret(ws_is_capturing(stream) ? cudaSuccess : cudaErrorIllegalState);
}
