// Constant and global memory: cudaMemcpyToSymbol (whole and with an offset),
// cudaMemcpyFromSymbol, cudaGetSymbolAddress / cudaGetSymbolSize, atomics on a __device__
// variable, several kernels in sequence reading the same constants.
#include <cmath>
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
    printf("FAIL %s:%d %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
    return 1; } } while (0)

__constant__ float coef[8];
__constant__ int bias;
__device__ unsigned int hits;
__device__ float table[4] = {10.0f, 20.0f, 30.0f, 40.0f};

__global__ void poly(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float acc = 0.0f, p = 1.0f;
    for (int k = 0; k < 8; ++k) { acc += coef[k] * p; p *= x[i]; }
    y[i] = acc + (float)bias + table[i % 4];
    if (acc > 2.0f) atomicAdd(&hits, 1u);
}

__global__ void bump_table(float delta) {
    if (threadIdx.x < 4) table[threadIdx.x] += delta;
}

int main() {
    const int n = 256;
    float h_x[n], h_y[n];
    for (int i = 0; i < n; ++i) h_x[i] = (float)(i % 16) / 16.0f;
    float h_coef[8] = {1.0f, 1.0f, 0.5f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f};
    CHECK(cudaMemcpyToSymbol(coef, h_coef, sizeof h_coef));
    float tail[2] = {0.25f, 0.125f};   // coef[3], coef[4]
    CHECK(cudaMemcpyToSymbol(coef, tail, sizeof tail, 3 * sizeof(float)));
    int h_bias = 2;
    CHECK(cudaMemcpyToSymbol(bias, &h_bias, sizeof h_bias, 0, cudaMemcpyHostToDevice));
    unsigned int zero = 0;
    CHECK(cudaMemcpyToSymbol(hits, &zero, sizeof zero));

    float *d_x, *d_y;
    CHECK(cudaMalloc(&d_x, sizeof h_x));
    CHECK(cudaMalloc(&d_y, sizeof h_y));
    CHECK(cudaMemcpy(d_x, h_x, sizeof h_x, cudaMemcpyHostToDevice));
    poly<<<n / 64, 64>>>(d_x, d_y, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h_y, d_y, sizeof h_y, cudaMemcpyDeviceToHost));
    unsigned int h_hits = 0;
    CHECK(cudaMemcpyFromSymbol(&h_hits, hits, sizeof h_hits));

    int bad = 0;
    unsigned int want_hits = 0;
    const float tbl[4] = {10.0f, 20.0f, 30.0f, 40.0f};
    float c[8] = {1.0f, 1.0f, 0.5f, 0.25f, 0.125f, 0.0f, 0.0f, 0.0f};
    for (int i = 0; i < n; ++i) {
        float acc = 0.0f, p = 1.0f;
        for (int k = 0; k < 8; ++k) { acc += c[k] * p; p *= h_x[i]; }
        if (fabsf(h_y[i] - (acc + 2.0f + tbl[i % 4])) > 1e-4f) ++bad;
        if (acc > 2.0f) ++want_hits;
    }
    printf("poly: y[0] %.4f y[15] %.4f, %d wrong\n", h_y[0], h_y[15], bad);
    printf("hits: %u (expected %u)\n", h_hits, want_hits);

    bump_table<<<1, 32>>>(1.5f);
    bump_table<<<1, 32>>>(0.25f);
    float h_table[4];
    CHECK(cudaMemcpyFromSymbol(h_table, table, sizeof h_table));
    printf("table: %.2f %.2f %.2f %.2f\n", h_table[0], h_table[1], h_table[2], h_table[3]);
    float second = 0.0f;
    CHECK(cudaMemcpyFromSymbol(&second, table, sizeof second, sizeof(float)));
    printf("table[1] by offset: %.2f\n", second);

    void* addr = nullptr;
    size_t size = 0;
    CHECK(cudaGetSymbolAddress(&addr, coef));
    CHECK(cudaGetSymbolSize(&size, coef));
    float via_ptr[8];
    CHECK(cudaMemcpy(via_ptr, addr, sizeof via_ptr, cudaMemcpyDeviceToHost));
    printf("coef: %zu bytes, coef[3] %.3f coef[4] %.3f\n", size, via_ptr[3], via_ptr[4]);

    CHECK(cudaFree(d_x));
    CHECK(cudaFree(d_y));
    printf(bad == 0 && h_hits == want_hits ? "PASS\n" : "FAIL\n");
    return bad == 0 && h_hits == want_hits ? 0 : 1;
}
