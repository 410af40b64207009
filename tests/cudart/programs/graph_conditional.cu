// Conditional graph nodes (CUDA 12.4+): IF/ELSE, a WHILE loop counting down with a default
// value set at each launch, SWITCH in a stream-captured graph, the device-side
// cudaGraphSetConditional, and the errors for a bad size and an unsupported node type.
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("%s failed: %s\n", #x, cudaGetErrorName(e_)); return 1; } } while (0)

__global__ void setCond(const int* flag, cudaGraphConditionalHandle h) {
    cudaGraphSetConditional(h, *flag);
}

__global__ void addTo(int* out, int v) { out[threadIdx.x] += v; }

// One loop iteration: counter - 1, a record of the pass, and the loop's end at zero.
__global__ void countDown(int* counter, int* trace, cudaGraphConditionalHandle h) {
    int c = --*counter;
    trace[c] += 10 * c + 1;
    if (c == 0) cudaGraphSetConditional(h, 0);
}

static cudaGraphNodeParams kernelParams(void* func, void** args, unsigned threads) {
    cudaGraphNodeParams p = {cudaGraphNodeTypeKernel};
    p.kernel.func = func;
    p.kernel.gridDim = dim3(1);
    p.kernel.blockDim = dim3(threads);
    p.kernel.kernelParams = args;
    return p;
}

int main() {
    int *flag, *out, *counter, *trace;
    CHECK(cudaMalloc(&flag, sizeof(int)));
    CHECK(cudaMalloc(&out, 4 * sizeof(int)));
    CHECK(cudaMalloc(&counter, sizeof(int)));
    CHECK(cudaMalloc(&trace, 8 * sizeof(int)));
    CHECK(cudaMemset(out, 0, 4 * sizeof(int)));
    CHECK(cudaMemset(trace, 0, 8 * sizeof(int)));

    // IF/ELSE: setCond -> IF [addTo +10] ELSE [addTo +100], launched with flags 1, 0, 7.
    cudaGraph_t g;
    CHECK(cudaGraphCreate(&g, 0));
    cudaGraphConditionalHandle hif;
    CHECK(cudaGraphConditionalHandleCreate(&hif, g));
    void* setArgs[] = {&flag, &hif};
    cudaGraphNodeParams ps = kernelParams((void*)setCond, setArgs, 1);
    cudaGraphNode_t nset, nif, body;
    CHECK(cudaGraphAddNode(&nset, g, NULL, NULL, 0, &ps));
    cudaGraphNodeParams pc = {cudaGraphNodeTypeConditional};
    pc.conditional.handle = hif;
    pc.conditional.type = cudaGraphCondTypeIf;
    pc.conditional.size = 2;
    CHECK(cudaGraphAddNode(&nif, g, &nset, NULL, 1, &pc));
    int ten = 10, hundred = 100;
    void* a10[] = {&out, &ten};
    void* a100[] = {&out, &hundred};
    cudaGraphNodeParams pt = kernelParams((void*)addTo, a10, 4);
    cudaGraphNodeParams pe = kernelParams((void*)addTo, a100, 4);
    CHECK(cudaGraphAddNode(&body, pc.conditional.phGraph_out[0], NULL, NULL, 0, &pt));
    CHECK(cudaGraphAddNode(&body, pc.conditional.phGraph_out[1], NULL, NULL, 0, &pe));
    cudaGraphExec_t x;
    CHECK(cudaGraphInstantiate(&x, g, 0));
    const int flags[3] = {1, 0, 7};
    for (int i = 0; i < 3; i++) {
        CHECK(cudaMemcpy(flag, &flags[i], sizeof(int), cudaMemcpyHostToDevice));
        CHECK(cudaGraphLaunch(x, 0));
    }
    int h[8];
    CHECK(cudaMemcpy(h, out, 4 * sizeof(int), cudaMemcpyDeviceToHost));
    printf("if/else: %d %d %d %d\n", h[0], h[1], h[2], h[3]);
    CHECK(cudaGraphExecDestroy(x));
    CHECK(cudaGraphDestroy(g));

    // WHILE, default 1 assigned at each launch (a do-while); the body is captured into the
    // node's graph. Counters 5 then 3: 8 passes in all.
    CHECK(cudaGraphCreate(&g, 0));
    cudaGraphConditionalHandle hw;
    CHECK(cudaGraphConditionalHandleCreate(&hw, g, 1, cudaGraphCondAssignDefault));
    cudaGraphNodeParams pw = {cudaGraphNodeTypeConditional};
    pw.conditional.handle = hw;
    pw.conditional.type = cudaGraphCondTypeWhile;
    pw.conditional.size = 1;
    cudaGraphNode_t nw;
    CHECK(cudaGraphAddNode(&nw, g, NULL, NULL, 0, &pw));
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    CHECK(cudaStreamBeginCaptureToGraph(s, pw.conditional.phGraph_out[0], NULL, NULL, 0,
                                        cudaStreamCaptureModeGlobal));
    countDown<<<1, 1, 0, s>>>(counter, trace, hw);
    CHECK(cudaStreamEndCapture(s, NULL));
    CHECK(cudaGraphInstantiate(&x, g, 0));
    const int starts[2] = {5, 3};
    for (int i = 0; i < 2; i++) {
        CHECK(cudaMemcpy(counter, &starts[i], sizeof(int), cudaMemcpyHostToDevice));
        CHECK(cudaGraphLaunch(x, s));
    }
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaMemcpy(h, trace, 8 * sizeof(int), cudaMemcpyDeviceToHost));
    printf("while: %d %d %d %d %d %d\n", h[0], h[1], h[2], h[3], h[4], h[5]);
    CHECK(cudaGraphExecDestroy(x));
    CHECK(cudaGraphDestroy(g));

    // SWITCH of 3 bodies (+1, +2, +3) inside a captured graph, then +1000; flags 0, 1, 2, 5.
    CHECK(cudaMemset(out, 0, 4 * sizeof(int)));
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    cudaStreamCaptureStatus st;
    const cudaGraphNode_t* deps;
    size_t ndeps;
    CHECK(cudaStreamGetCaptureInfo(s, &st, NULL, &g, &deps, NULL, &ndeps));
    cudaGraphConditionalHandle hs;
    CHECK(cudaGraphConditionalHandleCreate(&hs, g));
    setCond<<<1, 1, 0, s>>>(flag, hs);
    CHECK(cudaStreamGetCaptureInfo(s, &st, NULL, &g, &deps, NULL, &ndeps));
    printf("capturing: %d, dependencies %zu\n", st == cudaStreamCaptureStatusActive, ndeps);
    cudaGraphNodeParams pw3 = {cudaGraphNodeTypeConditional};
    pw3.conditional.handle = hs;
    pw3.conditional.type = cudaGraphCondTypeSwitch;
    pw3.conditional.size = 3;
    cudaGraphNode_t nsw;
    CHECK(cudaGraphAddNode(&nsw, g, deps, NULL, ndeps, &pw3));
    CHECK(cudaStreamUpdateCaptureDependencies(s, &nsw, NULL, 1,
                                              cudaStreamSetCaptureDependencies));
    addTo<<<1, 4, 0, s>>>(out, 1000);
    CHECK(cudaStreamEndCapture(s, &g));
    int vals[3] = {1, 2, 3};
    void* av[3][2] = {{&out, &vals[0]}, {&out, &vals[1]}, {&out, &vals[2]}};
    for (int k = 0; k < 3; k++) {
        cudaGraphNodeParams pk = kernelParams((void*)addTo, av[k], 4);
        CHECK(cudaGraphAddNode(&body, pw3.conditional.phGraph_out[k], NULL, NULL, 0, &pk));
    }
    CHECK(cudaGraphInstantiate(&x, g, 0));
    const int cases[4] = {0, 1, 2, 5};
    for (int i = 0; i < 4; i++) {
        CHECK(cudaMemcpy(flag, &cases[i], sizeof(int), cudaMemcpyHostToDevice));
        CHECK(cudaGraphLaunch(x, s));
    }
    CHECK(cudaMemcpy(h, out, 4 * sizeof(int), cudaMemcpyDeviceToHost));
    printf("switch: %d %d %d %d\n", h[0], h[1], h[2], h[3]);
    CHECK(cudaGraphExecDestroy(x));

    // A WHILE of two bodies is refused; an event-wait node is not supported by warpsim.
    pw.conditional.size = 2;
    printf("while of size 2: %s\n",
           cudaGetErrorName(cudaGraphAddNode(&nw, g, NULL, NULL, 0, &pw)));
    cudaGraphNodeParams pev = {cudaGraphNodeTypeWaitEvent};
    printf("event wait node: %s\n",
           cudaGetErrorName(cudaGraphAddNode(&nw, g, NULL, NULL, 0, &pev)));
    CHECK(cudaGraphDestroy(g));
    CHECK(cudaStreamDestroy(s));
    return 0;
}
