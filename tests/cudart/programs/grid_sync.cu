// Cooperative launches: a grid-wide barrier (cooperative_groups::this_grid().sync()) between
// two phases that read other blocks' writes, the launch-attribute path, the too-large grid
// error, and a grid sync in a plain launch (the kernel traps, as on hardware).
#include <cooperative_groups.h>
#include <cstdio>
#include <cuda_runtime.h>
namespace cg = cooperative_groups;

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
    printf("FAIL %s: %s\n", #call, cudaGetErrorName(e_)); return 1; } } while (0)

__global__ void phases(int* a, int* out, int* partial, int* total, int n) {
    cg::grid_group grid = cg::this_grid();
    int i = grid.thread_rank();
    a[i] = i;
    atomicAdd(&partial[blockIdx.x], i);
    grid.sync();                                  // every block's writes are visible now
    out[i] = a[(i + 1) % n];                      // the last thread reads block 0's first
    if (i == 0) {
        int s = 0;
        for (int b = 0; b < gridDim.x; b++) s += partial[b];
        *total = s;
    }
}

int main() {
    const int blocks = 4, threads = 128, n = blocks * threads;
    int coop = 0;
    CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, 0));
    printf("cooperativeLaunch %d\n", coop);
    int *a, *out, *partial, *total;
    CHECK(cudaMalloc(&a, n * sizeof(int)));
    CHECK(cudaMalloc(&out, n * sizeof(int)));
    CHECK(cudaMalloc(&partial, blocks * sizeof(int)));
    CHECK(cudaMalloc(&total, sizeof(int)));
    CHECK(cudaMemset(partial, 0, blocks * sizeof(int)));
    int nn = n;
    void* args[] = {&a, &out, &partial, &total, &nn};
    CHECK(cudaLaunchCooperativeKernel((void*)phases, dim3(blocks), dim3(threads), args, 0, 0));
    int h[n], t = 0;
    CHECK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&t, total, sizeof t, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; i++) bad += h[i] != (i + 1) % n;
    printf("neighbours wrong: %d, total %d\n", bad, t);

    // the same through cudaLaunchKernelEx with the cooperative attribute
    CHECK(cudaMemset(partial, 0, blocks * sizeof(int)));
    cudaLaunchAttribute attr;
    attr.id = cudaLaunchAttributeCooperative;
    attr.val.cooperative = 1;
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(blocks);
    cfg.blockDim = dim3(threads);
    cfg.attrs = &attr;
    cfg.numAttrs = 1;
    CHECK(cudaLaunchKernelEx(&cfg, phases, a, out, partial, total, n));
    CHECK(cudaMemcpy(&t, total, sizeof t, cudaMemcpyDeviceToHost));
    printf("launch attribute: total %d\n", t);

    cudaError_t e = cudaLaunchCooperativeKernel((void*)phases, dim3(1 << 20), dim3(threads),
                                                args, 0, 0);
    printf("a million blocks: %s\n", cudaGetErrorName(e));
    phases<<<blocks, threads>>>(a, out, partial, total, n);   // not cooperative: traps
    cudaError_t launched = cudaGetLastError(), synced = cudaDeviceSynchronize();
    printf("plain launch: %s\n", cudaGetErrorName(launched ? launched : synced));
    return 0;
}
