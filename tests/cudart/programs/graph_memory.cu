// Graph memory nodes: cudaMallocAsync / cudaFreeAsync inside a stream capture, explicit alloc
// and free nodes, an allocation the graph leaves to the program (freed with cudaFree after
// the first launch, then the graph launched again), and the graph memory attributes.
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
    printf("FAIL %s: %s\n", #call, cudaGetErrorName(e_)); return 1; } } while (0)

__global__ void square_plus(const int* in, int* out, int k, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] * in[i] + k;
}

int main() {
    const int n = 1000;
    static int h[n], out[n];
    for (int i = 0; i < n; i++) h[i] = i - 500;
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    // captured: alloc a, alloc b, copy in, kernel, copy out, free a, free b
    int *a, *b;
    cudaGraph_t g;
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    CHECK(cudaMallocAsync(&a, sizeof h, s));
    CHECK(cudaMallocAsync(&b, sizeof h, s));
    CHECK(cudaMemcpyAsync(a, h, sizeof h, cudaMemcpyHostToDevice, s));
    square_plus<<<4, 256, 0, s>>>(a, b, 7, n);
    CHECK(cudaMemcpyAsync(out, b, sizeof h, cudaMemcpyDeviceToHost, s));
    CHECK(cudaFreeAsync(a, s));
    CHECK(cudaFreeAsync(b, s));
    CHECK(cudaStreamEndCapture(s, &g));
    cudaGraphExec_t ex;
    CHECK(cudaGraphInstantiate(&ex, g, 0));
    long sum = 0;
    for (int k = 0; k < 2; k++) {
        h[1] = 1000 * k;  // read when the graph runs
        CHECK(cudaGraphLaunch(ex, s));
        CHECK(cudaStreamSynchronize(s));
        sum += out[1];
    }
    printf("captured: out[0] %d, out[999] %d, out[1] summed over 2 launches %ld\n", out[0],
           out[999], sum);
    // explicit: an alloc node, a kernel, and no free node: the program frees c itself
    cudaGraph_t g2;
    CHECK(cudaGraphCreate(&g2, 0));
    cudaMemAllocNodeParams ap = {};
    ap.poolProps.allocType = cudaMemAllocationTypePinned;
    ap.poolProps.location.type = cudaMemLocationTypeDevice;
    ap.poolProps.location.id = 0;
    ap.bytesize = sizeof h;
    cudaGraphNode_t alloc, kern;
    CHECK(cudaGraphAddMemAllocNode(&alloc, g2, nullptr, 0, &ap));
    int* c = (int*)ap.dptr;
    int* d;
    CHECK(cudaMalloc(&d, sizeof h));
    CHECK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
    int k = -1, nn = n;
    void* args[] = {&d, &c, &k, &nn};
    cudaKernelNodeParams kp = {};
    kp.func = (void*)square_plus; kp.gridDim = dim3(4); kp.blockDim = dim3(256);
    kp.kernelParams = args;
    CHECK(cudaGraphAddKernelNode(&kern, g2, &alloc, 1, &kp));
    cudaGraphExec_t ex2;
    CHECK(cudaGraphInstantiate(&ex2, g2, 0));
    for (int rep = 0; rep < 2; rep++) {
        CHECK(cudaGraphLaunch(ex2, s));
        CHECK(cudaMemcpy(out, c, sizeof h, cudaMemcpyDeviceToHost));
        printf("explicit launch %d: c[0] %d, c[999] %d\n", rep, out[0], out[999]);
        CHECK(cudaFree(c));  // the graph's allocation, freed outside it
    }
    cudaGraph_t g3;
    cudaGraphNode_t fr;
    CHECK(cudaGraphCreate(&g3, 0));
    printf("free node of a non-graph pointer: %s\n",
           cudaGetErrorName(cudaGraphAddMemFreeNode(&fr, g3, nullptr, 0, d)));
    unsigned long long used = 0, high = 0;
    CHECK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &used));
    CHECK(cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &high));
    printf("graph memory: used %llu, high %llu\n", used, high);
    CHECK(cudaDeviceGraphMemTrim(0));
    CHECK(cudaGraphExecDestroy(ex));
    CHECK(cudaGraphExecDestroy(ex2));
    CHECK(cudaFree(d));
    return 0;
}
