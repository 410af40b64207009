// CUDA graphs: a captured sequence (memset, copy in, two kernels, a host function, copy out)
// replayed three times, and the same work as an explicit graph.
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
    printf("FAIL %s: %s\n", #call, cudaGetErrorName(e_)); return 1; } } while (0)

__global__ void add(int* x, int v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] += v;
}
__global__ void twice(int* x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= 2;
}
static int host_calls = 0;
static void CUDART_CB note(void*) { host_calls++; }

int main() {
    const int n = 100;
    int h[n], out[n], *d;
    for (int i = 0; i < n; i++) h[i] = i;
    CHECK(cudaMalloc(&d, sizeof h));
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    cudaGraph_t g;
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    cudaStreamCaptureStatus st;
    CHECK(cudaStreamIsCapturing(s, &st));
    CHECK(cudaMemsetAsync(d, 0, sizeof h, s));
    CHECK(cudaMemcpyAsync(d, h, sizeof h, cudaMemcpyHostToDevice, s));
    add<<<1, 128, 0, s>>>(d, 5, n);
    twice<<<1, 128, 0, s>>>(d, n);
    CHECK(cudaLaunchHostFunc(s, note, nullptr));
    CHECK(cudaMemcpyAsync(out, d, sizeof h, cudaMemcpyDeviceToHost, s));
    CHECK(cudaStreamEndCapture(s, &g));
    printf("capturing: %d, ran during capture: %d\n", st == cudaStreamCaptureStatusActive,
           host_calls);
    size_t nodes = 0;
    CHECK(cudaGraphGetNodes(g, nullptr, &nodes));
    cudaGraphExec_t ex;
    CHECK(cudaGraphInstantiate(&ex, g, 0));
    for (int k = 0; k < 3; k++) {
        h[0] = k;  // host data is read when the graph runs
        CHECK(cudaGraphLaunch(ex, s));
    }
    CHECK(cudaStreamSynchronize(s));
    printf("nodes %zu, host calls %d, out[0] %d, out[99] %d\n", nodes, host_calls, out[0],
           out[99]);
    // the explicit API: memset to 1 (4-byte elements), then add 3
    cudaGraph_t g2;
    CHECK(cudaGraphCreate(&g2, 0));
    cudaGraphNode_t set, kern;
    cudaMemsetParams mp = {};
    mp.dst = d; mp.value = 1; mp.elementSize = 4; mp.width = n; mp.height = 1;
    CHECK(cudaGraphAddMemsetNode(&set, g2, nullptr, 0, &mp));
    int v = 3, nn = n;
    void* args[] = {&d, &v, &nn};
    cudaKernelNodeParams kp = {};
    kp.func = (void*)add; kp.gridDim = dim3(1); kp.blockDim = dim3(128); kp.kernelParams = args;
    CHECK(cudaGraphAddKernelNode(&kern, g2, &set, 1, &kp));
    v = 1000;  // the node copied the arguments
    cudaGraphExec_t ex2;
    CHECK(cudaGraphInstantiate(&ex2, g2, 0));
    CHECK(cudaGraphLaunch(ex2, s));
    CHECK(cudaMemcpy(out, d, sizeof h, cudaMemcpyDeviceToHost));
    printf("explicit: out[0] %d, out[99] %d\n", out[0], out[99]);
    cudaGraphExecDestroy(ex); cudaGraphExecDestroy(ex2);
    cudaGraphDestroy(g); cudaGraphDestroy(g2);
    printf("legacy stream capture: %s\n",
           cudaGetErrorName(cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal)));
    return 0;
}
