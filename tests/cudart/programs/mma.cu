// Tensor cores through inline PTX, as CUTLASS-style code writes them: a warp loads a 16x16
// half tile and a 16x8 one from shared memory with ldmatrix (the second transposed on the
// way) and multiplies them with mma.sync.aligned.m16n8k16; the host checks every element.
#include <cstdio>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
    printf("FAIL %s: %s\n", #call, cudaGetErrorName(e_)); return 1; } } while (0)

__global__ void tile(const __half* a, const __half* b, const float* c, float* d) {
    __shared__ __align__(16) __half sa[16 * 16];
    __shared__ __align__(16) __half sb[16 * 8];
    int l = threadIdx.x;
    for (int i = l; i < 256; i += 32) sa[i] = a[i];
    for (int i = l; i < 128; i += 32) sb[i] = b[i];
    __syncwarp();
    unsigned ra[4], rb[2];
    unsigned pa = (unsigned)__cvta_generic_to_shared(&sa[(l % 16) * 16 + (l / 16) * 8]);
    unsigned pb = (unsigned)__cvta_generic_to_shared(&sb[(l % 16) * 8]);
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(ra[0]), "=r"(ra[1]), "=r"(ra[2]), "=r"(ra[3]) : "r"(pa));
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];"
                 : "=r"(rb[0]), "=r"(rb[1]) : "r"(pb));
    int g = l / 4, t = l % 4;
    float c0 = c[g * 8 + 2 * t], c1 = c[g * 8 + 2 * t + 1];
    float c2 = c[(g + 8) * 8 + 2 * t], c3 = c[(g + 8) * 8 + 2 * t + 1];
    float d0, d1, d2, d3;
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                 "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};"
                 : "=f"(d0), "=f"(d1), "=f"(d2), "=f"(d3)
                 : "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]), "r"(rb[0]), "r"(rb[1]),
                   "f"(c0), "f"(c1), "f"(c2), "f"(c3));
    d[g * 8 + 2 * t] = d0;
    d[g * 8 + 2 * t + 1] = d1;
    d[(g + 8) * 8 + 2 * t] = d2;
    d[(g + 8) * 8 + 2 * t + 1] = d3;
}

int main() {
    __half ha[256], hb[128];
    float fa[256], fb[128], hc[128], hd[128];
    for (int i = 0; i < 16; i++)
        for (int k = 0; k < 16; k++) fa[i * 16 + k] = (i * 3 + k) % 7 - 3;
    for (int k = 0; k < 16; k++)
        for (int j = 0; j < 8; j++) fb[k * 8 + j] = (k * 5 + j) % 9 - 4;
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 8; j++) hc[i * 8 + j] = i - j;
    for (int i = 0; i < 256; i++) ha[i] = __float2half(fa[i]);
    for (int i = 0; i < 128; i++) hb[i] = __float2half(fb[i]);
    __half *a, *b;
    float *c, *d;
    CHECK(cudaMalloc(&a, sizeof ha));
    CHECK(cudaMalloc(&b, sizeof hb));
    CHECK(cudaMalloc(&c, sizeof hc));
    CHECK(cudaMalloc(&d, sizeof hd));
    CHECK(cudaMemcpy(a, ha, sizeof ha, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(b, hb, sizeof hb, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(c, hc, sizeof hc, cudaMemcpyHostToDevice));
    tile<<<1, 32>>>(a, b, c, d);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(hd, d, sizeof hd, cudaMemcpyDeviceToHost));
    int ok = 0;
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 8; j++) {
            float want = hc[i * 8 + j];
            for (int k = 0; k < 16; k++) want += fa[i * 16 + k] * fb[k * 8 + j];
            ok += hd[i * 8 + j] == want;
        }
    printf("mma.m16n8k16 from ldmatrix: %d of 128 elements match\n", ok);
    printf("d[0][0] %.0f\n", hd[0]);
    return 0;
}
