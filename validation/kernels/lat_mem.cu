// lat_mem: load-to-use latency by pointer chasing (each load's address is the previous load's
// value: global chains store 64-bit addresses, the shared ring shared-window addresses, the
// constant ring byte offsets), one thread, in SM cycles (clock64).
//   shared       ld.shared chain in a 4 KiB ring
//   const        ld.const chain through a __constant__ ring (after a warm pass)
//   l1_ca        ld.global (default caching, L1), 8 KiB footprint, warm pass first: L1 hits
//   l2_cg        ld.global.cg (L1 bypassed), 4 MiB footprint, warm pass first: L2 hits
//   l2_ca_miss   ld.global, 4 MiB footprint (> L1), warm pass first: L1 miss, L2 hit
//   dram_64m     ld.global.cg, 2048 distinct random 128-byte lines in 64 MiB, after writing a
//                512 MiB buffer to flush L2: L2 misses (few TLB misses)
//   dram_stride64k  ld.global.cg, 2048 lines 64 KiB apart (a 128 MiB span), cold
//   dram_768m    the same as dram_64m over 768 MiB (TLB misses likely)
// "bulk" records: total cycles for `steps` dependent loads (cycles per load = total / steps).
// "step" records: a per-load latency array: t1 - t0 around one load plus a shared store that
// consumes its value (includes ~a clock read and a store; compare the l1 step with l1 bulk).
typedef unsigned u32;
typedef unsigned long long u64;
#define MAXSTEPS 2048

__constant__ u32 c_ring[1024];   // byte offsets of the next element

// Global chains hold absolute 64-bit addresses, so each step is exactly one load (no address
// arithmetic on the critical path).
template <int CG> __device__ __forceinline__ u64 ld(u64 p)
{
    // volatile asm: the warm-up passes must not be optimised away
    if (CG) asm volatile("ld.global.cg.u64 %0, [%0];" : "+l"(p));   // L2 only
    else asm volatile("ld.global.u64 %0, [%0];" : "+l"(p));         // default: L1-cached
    return p;
}

template <int CG>
__device__ void chase_bulk(u64 start, int steps, int warm, long long* res)
{
    u64 p = start;
    if (warm)
        for (int s = 0; s < steps; ++s) p = ld<CG>(p);
    if (p == 1) res[3] = 1;   // keeps the warm-up loads alive (ptxas drops dead loads)
    p = start;
    unsigned long long g0, g1;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g0));
    long long t0 = clock64();
    for (int s = 0; s < steps; ++s) p = ld<CG>(p);
    long long t1 = clock64();
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g1) : "l"(p));
    res[0] = t1 - t0;
    res[1] = (long long)(g1 - g0);
    res[2] = (long long)p;
}

template <int CG>
__device__ void chase_steps(u64 start, int steps, int warm, u32* lat, long long* res)
{
    __shared__ u32 s_lat[MAXSTEPS];
    __shared__ u32 s_idx[MAXSTEPS];
    u64 p = start;
    if (warm)
        for (int s = 0; s < steps; ++s) p = ld<CG>(p);
    if (p == 1) res[3] = 1;   // keeps the warm-up loads alive (ptxas drops dead loads)
    p = start;
    for (int s = 0; s < steps; ++s) {
        long long t0 = clock64();
        p = ld<CG>(p);
        s_idx[s] = (u32)p;            // consumes the loaded value before the second clock read
        long long t1 = clock64();
        s_lat[s] = (u32)(t1 - t0);
    }
    for (int s = 0; s < steps; ++s) lat[s] = s_lat[s];
    res[2] = s_idx[steps - 1];
}

extern "C" __global__ void k_bulk_ca(u64 st, int n, int w, long long* r) { chase_bulk<0>(st, n, w, r); }
extern "C" __global__ void k_bulk_cg(u64 st, int n, int w, long long* r) { chase_bulk<1>(st, n, w, r); }
extern "C" __global__ void k_steps_ca(u64 st, int n, int w, u32* l, long long* r) { chase_steps<0>(st, n, w, l, r); }
extern "C" __global__ void k_steps_cg(u64 st, int n, int w, u32* l, long long* r) { chase_steps<1>(st, n, w, l, r); }

// shared ring: each entry is the shared-window address of the next one (one LDS per step)
extern "C" __global__ void k_shared(int steps, long long* res)
{
    __shared__ u32 ring[1024];
    for (int k = threadIdx.x; k < 1024; k += blockDim.x)
        ring[k] = (u32)__cvta_generic_to_shared(&ring[(k * 33 + 17) & 1023]);
    __syncthreads();
    if (threadIdx.x) return;
    u32 j = (u32)__cvta_generic_to_shared(&ring[0]);
    const u32 j0 = j;
    for (int s = 0; s < steps; ++s) asm volatile("ld.shared.u32 %0, [%0];" : "+r"(j));
    j = j0;
    long long t0 = clock64();
    for (int s = 0; s < steps; ++s) asm volatile("ld.shared.u32 %0, [%0];" : "+r"(j));
    long long t1 = clock64();
    res[0] = t1 - t0;
    res[1] = 0;
    res[2] = j;
}

// constant ring: byte offsets, so the load is LDC with a register offset
extern "C" __global__ void k_const(int steps, long long* res)
{
    const char* base = (const char*)c_ring;
    u32 j = 0;
    for (int s = 0; s < steps; ++s) j = *(const u32*)(base + j);
    j = 0;
    long long t0 = clock64();
    for (int s = 0; s < steps; ++s) j = *(const u32*)(base + j);
    long long t1 = clock64();
    res[0] = t1 - t0;
    res[1] = 0;
    res[2] = j;
}

extern "C" __global__ void k_scatter(u64* arr, const u32* pos, int m)
{
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < m) arr[pos[k]] = (u64)(arr + pos[(k + 1) % m]);
}

extern "C" __global__ void k_flush(u32* buf, size_t n, u32 v)
{
    for (size_t k = blockIdx.x * (size_t)blockDim.x + threadIdx.x; k < n; k += (size_t)gridDim.x * blockDim.x)
        buf[k] = v + (u32)k;
}

extern "C" __global__ void k_spin(long long cycles)
{
    long long t0 = clock64();
    while (clock64() - t0 < cycles) {}
}

#ifndef __CUDACC_RTC__
#include "vcommon.h"
#include <algorithm>
#include <string>

// m distinct random 128-byte lines of a region of `words` 64-bit words, as word indices
static std::vector<u32> random_lines(Lcg& g, size_t words, int m)
{
    size_t lines = words / 16;
    std::vector<u32> pos;
    std::vector<char> used(lines, 0);
    while ((int)pos.size() < m) {
        size_t l = ((unsigned long long)g.next32() * 65536ull + (g.next32() & 0xFFFFu)) % lines;
        if (used[l]) continue;
        used[l] = 1;
        pos.push_back((u32)(l * 16 + (g.next32() % 16)));
    }
    return pos;
}

int main(int argc, char** argv)
{
    VOut o(out_path(argc, argv, "lat_mem.bin"));
    put_device_info(o);
    Lcg g(11);
    // argv[2] (optional, for dry runs on a simulator): divide every size by 2^shift
    const int shift = argc > 2 ? atoi(argv[2]) : 0;
    const size_t big = (size_t)1 << (27 - shift);   // 1 GiB of u64
    u64* arr = dev_alloc<u64>(big);
    const size_t nflush = (size_t)1 << (27 - shift); // 512 MiB
    u32* flush = dev_alloc<u32>(nflush);
    long long* dres = dev_alloc<long long>(4);
    u32* dlat = dev_alloc<u32>(MAXSTEPS);
    k_spin<<<1, 1>>>(400000000ll >> (3 * shift));   // let the SM clock ramp up (~0.2 s)
    CK_LAUNCH();

    auto build = [&](size_t words, int m, size_t base) -> u64 {
        std::vector<u32> pos = random_lines(g, words, m);
        for (auto& p : pos) p += (u32)base;
        u32* dpos = to_dev(pos);
        k_scatter<<<(m + 255) / 256, 256>>>(arr, dpos, m);
        CK_LAUNCH();
        CK(cudaFree(dpos));
        return (u64)(arr + pos[0]);
    };
    auto do_flush = [&]() { k_flush<<<528, 512>>>(flush, nflush, g.next32()); CK_LAUNCH(); };
    auto bulk = [&](const char* name, bool cg, u64 start, int steps, int warm) {
        if (cg) k_bulk_cg<<<1, 1>>>(start, steps, warm, dres);
        else k_bulk_ca<<<1, 1>>>(start, steps, warm, dres);
        CK_LAUNCH();
        std::vector<long long> r = to_host(dres, 3);
        r.push_back(steps);
        o.put((std::string("bulk_") + name).c_str(), r);   // cycles, ns, end index, steps
    };
    auto steps = [&](const char* name, bool cg, u64 start, int n, int warm) {
        if (cg) k_steps_cg<<<1, 1>>>(start, n, warm, dlat, dres);
        else k_steps_ca<<<1, 1>>>(start, n, warm, dlat, dres);
        CK_LAUNCH();
        o.put((std::string("step_") + name).c_str(), to_host(dlat, n));
    };

    // word counts below are of 64-bit words
    // L1: 64 lines in 8 KiB; L2: 2048 lines in 4 MiB
    u64 s_l1 = build(1024, 64, 0);
    bulk("l1_ca", false, s_l1, 512, 1);
    steps("l1_ca", false, s_l1, 512, 1);
    u64 s_l2 = build(1 << (19 - shift / 2), 2048, 1 << (21 - shift));
    bulk("l2_cg", true, s_l2, 2048, 1);
    steps("l2_cg", true, s_l2, 2048, 1);
    bulk("l2_ca_miss", false, s_l2, 2048, 1);
    // DRAM: cold chains after a flush of L2
    u64 s_64 = build(1 << (23 - shift), 2048, 1 << (24 - shift));
    do_flush();
    bulk("dram_64m", true, s_64, 2048, 0);
    do_flush();
    steps("dram_64m", true, s_64, 2048, 0);
    // fixed stride: 2048 lines 64 KiB apart (128 MiB span), in the region of the 768 MiB chain
    {
        std::vector<u32> pos(2048);
        const size_t stride = (size_t)8192 >> shift, base = (size_t)1 << (25 - shift);
        for (int k = 0; k < 2048; ++k) pos[k] = (u32)(base + 4 + k * stride);
        u32* dpos = to_dev(pos);
        k_scatter<<<8, 256>>>(arr, dpos, 2048);
        CK_LAUNCH();
        CK(cudaFree(dpos));
        do_flush();
        bulk("dram_stride64k", true, (u64)(arr + pos[0]), 2048, 0);
        do_flush();
        steps("dram_stride64k", true, (u64)(arr + pos[0]), 2048, 0);
    }
    u64 s_768 = build(big - (1 << (25 - shift)), 2048, 1 << (25 - shift));
    do_flush();
    bulk("dram_768m", true, s_768, 2048, 0);
    do_flush();
    steps("dram_768m", true, s_768, 2048, 0);
    // on-chip rings
    k_shared<<<1, 256>>>(1024, dres);
    CK_LAUNCH();
    { std::vector<long long> r = to_host(dres, 3); r.push_back(1024); o.put("bulk_shared", r); }
    std::vector<u32> ring(1024);
    for (int k = 0; k < 1024; ++k) ring[k] = 4u * ((k * 97 + 31) & 1023);
    CK(cudaMemcpyToSymbol(c_ring, ring.data(), sizeof(u32) * 1024));
    k_const<<<1, 1>>>(1024, dres);
    CK_LAUNCH();
    { std::vector<long long> r = to_host(dres, 3); r.push_back(1024); o.put("bulk_const", r); }
    printf("lat_mem: done\n");
    return 0;
}
#endif
