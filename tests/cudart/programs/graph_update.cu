// Editing graphs: memcpy nodes from cudaMemcpy3DParms (host to device and back, a pitched
// 2-D box), a clone, a kernel node's arguments replaced in the instantiated graph between
// launches (a Jacobi-style ping-pong), and cudaGraphExecUpdate with the same and with a
// changed topology.
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
    printf("FAIL %s: %s\n", #call, cudaGetErrorName(e_)); return 1; } } while (0)

__global__ void step(const int* in, int* out, int add, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] + add;
}

int main() {
    const int n = 64;
    int h[n], back[n], *a, *b;
    for (int i = 0; i < n; i++) h[i] = 10 * i;
    CHECK(cudaMalloc(&a, sizeof h));
    CHECK(cudaMalloc(&b, sizeof h));
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    cudaGraph_t g;
    CHECK(cudaGraphCreate(&g, 0));
    // copy in as 8 rows of 8 ints (host pitch 32 bytes, device pitch 32 bytes)
    cudaMemcpy3DParms in = {};
    in.srcPtr = make_cudaPitchedPtr(h, 8 * sizeof(int), 8, 8);
    in.dstPtr = make_cudaPitchedPtr(a, 8 * sizeof(int), 8, 8);
    in.extent = make_cudaExtent(8 * sizeof(int), 8, 1);
    in.kind = cudaMemcpyHostToDevice;
    cudaGraphNode_t cin, kern, cout;
    CHECK(cudaGraphAddMemcpyNode(&cin, g, nullptr, 0, &in));
    int add = 1, nn = n;
    void* args0[] = {&a, &b, &add, &nn};
    cudaKernelNodeParams kp = {};
    kp.func = (void*)step; kp.gridDim = dim3(1); kp.blockDim = dim3(64); kp.kernelParams = args0;
    CHECK(cudaGraphAddKernelNode(&kern, g, &cin, 1, &kp));
    cudaMemcpy3DParms out = {};
    out.srcPtr = make_cudaPitchedPtr(b, n * sizeof(int), n, 1);
    out.dstPtr = make_cudaPitchedPtr(back, n * sizeof(int), n, 1);
    out.extent = make_cudaExtent(n * sizeof(int), 1, 1);
    out.kind = cudaMemcpyDeviceToHost;
    CHECK(cudaGraphAddMemcpyNode(&cout, g, &kern, 1, &out));
    cudaGraph_t clone;
    CHECK(cudaGraphClone(&clone, g));
    cudaGraphExec_t ex;
    CHECK(cudaGraphInstantiate(&ex, clone, 0));
    CHECK(cudaGraphLaunch(ex, s));
    CHECK(cudaStreamSynchronize(s));
    printf("clone: back[0] %d, back[63] %d\n", back[0], back[63]);
    // replace the kernel's arguments: b = a + 5 (launch 1), then b = a + 7 (launch 2)
    for (int k = 0; k < 2; k++) {
        int add2 = 5 + 2 * k;
        void* args[] = {&a, &b, &add2, &nn};
        kp.kernelParams = args;
        CHECK(cudaGraphExecKernelNodeSetParams(ex, kern, &kp));
        CHECK(cudaGraphLaunch(ex, s));
        CHECK(cudaStreamSynchronize(s));
        printf("set params %d: back[0] %d, back[63] %d\n", k, back[0], back[63]);
    }
    // update from a graph with the same nodes (add 100), then from one with another topology
    cudaGraph_t g2;
    CHECK(cudaGraphCreate(&g2, 0));
    int add3 = 100;
    void* args3[] = {&a, &b, &add3, &nn};
    kp.kernelParams = args3;
    CHECK(cudaGraphAddMemcpyNode(&cin, g2, nullptr, 0, &in));
    CHECK(cudaGraphAddKernelNode(&kern, g2, &cin, 1, &kp));
    CHECK(cudaGraphAddMemcpyNode(&cout, g2, &kern, 1, &out));
    cudaGraphExecUpdateResultInfo info;
    CHECK(cudaGraphExecUpdate(ex, g2, &info));
    CHECK(cudaGraphLaunch(ex, s));
    CHECK(cudaStreamSynchronize(s));
    printf("updated (%d): back[0] %d, back[63] %d\n", info.result == cudaGraphExecUpdateSuccess,
           back[0], back[63]);
    cudaGraph_t g3;
    CHECK(cudaGraphCreate(&g3, 0));
    CHECK(cudaGraphAddKernelNode(&kern, g3, nullptr, 0, &kp));
    cudaError_t e = cudaGraphExecUpdate(ex, g3, &info);
    printf("other topology: %s, topology changed %d\n", cudaGetErrorName(e),
           info.result == cudaGraphExecUpdateErrorTopologyChanged);
    CHECK(cudaGraphExecDestroy(ex));
    CHECK(cudaGraphDestroy(g));
    CHECK(cudaGraphDestroy(clone));
    return 0;
}
