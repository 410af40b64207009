// atomics: global and shared-memory atomics under contention. Final values are independent of
// the order in which the hardware serialises the operations (integer arithmetic, bitwise ops,
// min/max, inc/dec with wrap, CAS loops, float/double sums of small integers, which are exact);
// the values returned by atomicAdd are stored too and compared as sorted multisets.
// Kernels:
//   k_atomics_global(in, g32, gf, g64, hist, tickets, n): grid 8 x 256 threads
//   k_atomics_shared(in, out, n): grid 4 x 256 threads, results per block (NSH words each)
#define NG32 16
#define NSH 48
typedef unsigned long long u64;

extern "C" __global__ void k_atomics_global(const unsigned* __restrict__ in, unsigned* g32, float* gf,
                                            double* gd, u64* g64, unsigned* hist,
                                            unsigned* tickets, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned x = in[i];
    tickets[i] = atomicAdd(&g32[0], 1u);
    atomicAdd(&g32[1], x & 0xFFFFu);
    atomicSub(&g32[2], x >> 20);
    atomicMin((int*)&g32[3], (int)x);
    atomicMax((int*)&g32[4], (int)x);
    atomicMin(&g32[5], x);
    atomicMax(&g32[6], x);
    atomicAnd(&g32[7], ~(1u << (x & 31u)) | (x & 0x10000000u));
    atomicOr(&g32[8], 1u << (x % 29u));
    atomicXor(&g32[9], x);
    atomicInc(&g32[10], 100u);        // wraps to 0 after 100
    atomicDec(&g32[11], 77u);         // wraps to 77 below 0
    unsigned old = g32[12], assumed;  // CAS loop: += 3
    do { assumed = old; old = atomicCAS(&g32[12], assumed, assumed + 3u); } while (old != assumed);
    atomicAdd_block(&g32[13 + (blockIdx.x & 1)], 1u);
    if ((x & 7u) == 0) atomicExch(&g32[15], 0xC0FFEEu);
    atomicAdd(&gf[0], (float)(x & 0xFFu));
    atomicAdd(&gf[1], -0.5f * (float)(x & 0x7u));
    atomicAdd(&gd[0], (double)(x >> 8));
    atomicAdd(&g64[0], (u64)x << 20);
    atomicMax((long long*)&g64[1], (long long)((u64)x << 32 | x));
    atomicMin(&g64[2], (u64)x * 0x100000001ull);
    atomicAdd(&hist[x % 64u], 1u);
}

extern "C" __global__ void k_atomics_shared(const unsigned* __restrict__ in, unsigned* out, int n)
{
    __shared__ unsigned s_hist[32];
    __shared__ unsigned s_cnt[8];
    __shared__ float s_f;
    __shared__ unsigned s_tick[256];
    const int t = threadIdx.x;
    if (t < 32) s_hist[t] = 0;
    if (t < 8) s_cnt[t] = (t == 2 || t == 5) ? 0xFFFFFFFFu : 0u;
    if (t == 0) s_f = 0.0f;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + t;
    unsigned x = i < n ? in[i] : 0u;
    atomicAdd(&s_hist[x & 31u], 1u);
    s_tick[t] = atomicAdd(&s_cnt[0], 1u);
    atomicMax(&s_cnt[1], x);
    atomicMin(&s_cnt[2], x);
    atomicOr(&s_cnt[3], 1u << (x >> 27));
    atomicXor(&s_cnt[4], x);
    atomicAnd(&s_cnt[5], x | 0x80402010u);
    unsigned old = s_cnt[6], assumed;
    do { assumed = old; old = atomicCAS(&s_cnt[6], assumed, assumed ^ (x | 1u)); } while (old != assumed);
    atomicInc(&s_cnt[7], 37u);
    atomicAdd(&s_f, (float)(x & 0x3FFu) * 0.25f);
    __syncthreads();
    unsigned* o = out + (size_t)blockIdx.x * NSH;
    if (t < 32) o[t] = s_hist[t];
    if (t < 8) o[32 + t] = s_cnt[t];
    if (t == 0) o[40] = __float_as_uint(s_f);
    // a sum over all tickets checks that they are a permutation of 0..blockDim-1
    if (t == 0) {
        unsigned sum = 0, x2 = 0;
        for (int k = 0; k < blockDim.x; ++k) { sum += s_tick[k]; x2 += s_tick[k] * s_tick[k]; }
        o[41] = sum;
        o[42] = x2;
        for (int k = 43; k < NSH; ++k) o[k] = 0u;
    }
}

#ifndef __CUDACC_RTC__
#include "vcommon.h"

int main(int argc, char** argv)
{
    const int ng = 8 * 256, nsb = 4;
    std::vector<unsigned> in(ng);
    Lcg g(8);
    for (int i = 0; i < ng; ++i) in[i] = g.next32();
    unsigned* din = to_dev(in);
    std::vector<unsigned> g32_init(NG32, 0u);
    g32_init[3] = 0x7FFFFFFFu; g32_init[5] = 0xFFFFFFFFu; g32_init[4] = 0x80000000u;
    g32_init[7] = 0xFFFFFFFFu; g32_init[11] = 5u;
    unsigned* dg32 = to_dev(g32_init);
    float* dgf = dev_alloc<float>(4);
    double* dgd = dev_alloc<double>(2);
    std::vector<unsigned long long> g64_init = {0ull, 0x8000000000000000ull, ~0ull, 0ull};
    unsigned long long* dg64 = to_dev(g64_init);
    unsigned* dhist = dev_alloc<unsigned>(64);
    unsigned* dtick = dev_alloc<unsigned>(ng);
    k_atomics_global<<<8, 256>>>(din, dg32, dgf, dgd, dg64, dhist, dtick, ng);
    CK_LAUNCH();
    unsigned* dsh = dev_alloc<unsigned>((size_t)nsb * NSH);
    k_atomics_shared<<<nsb, 256>>>(din, dsh, ng);
    CK_LAUNCH();
    VOut o(out_path(argc, argv, "atomics.bin"));
    put_device_info(o);
    o.put("in", in);
    o.put("g32_init", g32_init);
    o.put("g64_init", g64_init);
    o.put("g32", to_host(dg32, NG32));
    o.put("gf", to_host(dgf, 2));
    o.put("gd", to_host(dgd, 1));
    o.put("g64", to_host(dg64, 3));
    o.put("hist", to_host(dhist, 64));
    o.put("tickets", to_host(dtick, ng));
    o.put("shared", to_host(dsh, (size_t)nsb * NSH));
    printf("atomics: done\n");
    return 0;
}
#endif
