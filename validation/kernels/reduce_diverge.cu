// reduce_diverge: shared-memory reductions (a fixed tree order, so float sums are deterministic),
// an inclusive scan, a bitonic sort in shared memory, and divergent control flow: data-dependent
// loop trip counts, break/continue, nested branches, a non-inlined device function, and
// barriers inside uniform loops.
// Kernels: k_reduce(x, f, out) 256 threads/block, 8 blocks, 4 words per block;
//          k_scan(x, out) 256 threads/block; k_bitonic(x, out) 512 keys per block of 256 threads;
//          k_diverge(x, out, n) 4 words per thread.
typedef unsigned u32;

extern "C" __global__ void k_reduce(const u32* __restrict__ X, const float* __restrict__ F, u32* out)
{
    __shared__ float sf[256];
    __shared__ u32 si[256];
    const int t = threadIdx.x, i = blockIdx.x * 256 + t;
    sf[t] = F[i];
    si[t] = X[i];
    __syncthreads();
    for (int s = 128; s > 0; s >>= 1) {
        if (t < s) {
            sf[t] += sf[t + s];
            si[t] = max(si[t], si[t + s]) ^ (si[t] + si[t + s]);
        }
        __syncthreads();
    }
    // warp-shuffle sum of the floats in lane order (different association)
    float w = F[i];
    for (int d = 16; d > 0; d >>= 1) w += __shfl_down_sync(0xFFFFFFFFu, w, d);
    __shared__ float partial[8];
    if ((t & 31) == 0) partial[t >> 5] = w;
    __syncthreads();
    if (t == 0) {
        float tot = 0.0f;
        for (int k = 0; k < 8; ++k) tot += partial[k];
        u32* o = out + blockIdx.x * 4;
        o[0] = __float_as_uint(sf[0]);
        o[1] = si[0];
        o[2] = __float_as_uint(tot);
        o[3] = __float_as_uint(__fmaf_rn(sf[0], -1.0f, tot));
    }
}

extern "C" __global__ void k_scan(const u32* __restrict__ X, u32* out)
{
    __shared__ u32 buf[2][256];
    const int t = threadIdx.x, i = blockIdx.x * 256 + t;
    int cur = 0;
    buf[0][t] = X[i] & 0xFFFFu;
    __syncthreads();
    for (int d = 1; d < 256; d <<= 1) {
        u32 v = buf[cur][t];
        if (t >= d) v += buf[cur][t - d];
        buf[cur ^ 1][t] = v;
        cur ^= 1;
        __syncthreads();
    }
    out[i] = buf[cur][t];
}

extern "C" __global__ void k_bitonic(const u32* __restrict__ X, u32* out)
{
    __shared__ u32 key[512];
    const int t = threadIdx.x;
    const u32* x = X + blockIdx.x * 512;
    key[t] = x[t];
    key[t + 256] = x[t + 256];
    __syncthreads();
    for (int size = 2; size <= 512; size <<= 1) {
        for (int stride = size >> 1; stride > 0; stride >>= 1) {
            int pos = 2 * t - (t & (stride - 1));
            bool up = ((pos & size) == 0);
            u32 a = key[pos], b = key[pos + stride];
            if ((a > b) == up) { key[pos] = b; key[pos + stride] = a; }
            __syncthreads();
        }
    }
    out[blockIdx.x * 512 + t] = key[t];
    out[blockIdx.x * 512 + t + 256] = key[t + 256];
}

__device__ __noinline__ u32 mix_noinline(u32 a, u32 b)
{
    if (a & 1u) return (a * 2654435761u) ^ b;
    return (a >> 3) + b * 7u;
}

extern "C" __global__ void k_diverge(const u32* __restrict__ X, u32* out, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    u32 x = X[i];
    // Collatz trip count (data-dependent loop), capped
    u32 c = (x & 0xFFFFu) + 1u, steps = 0;
    while (c != 1u && steps < 500u) {
        c = (c & 1u) ? 3u * c + 1u : c >> 1;
        ++steps;
    }
    // nested divergence with continue/break
    u32 acc = 0;
    for (u32 k = 0; k < (x >> 28) + 3u; ++k) {
        if ((k ^ x) & 1u) continue;
        if (((x >> k) & 7u) == 5u) break;
        if (k & 2u) acc += k * x; else acc ^= (x << k);
    }
    // a non-inlined call on a divergent path
    u32 m = (x % 3u == 0u) ? mix_noinline(x, acc) : (x % 3u == 1u ? acc + 1u : mix_noinline(acc, x));
    // early-exit search in a loop with a divergent return value
    u32 found = 0xFFFFFFFFu;
    for (u32 k = 0; k < 64u; ++k) {
        u32 h = (x + k * 0x9E3779B9u) >> 24;
        if (h < 8u) { found = k; break; }
    }
    u32* o = out + (size_t)i * 4;
    o[0] = steps;
    o[1] = acc;
    o[2] = m;
    o[3] = found;
}

#ifndef __CUDACC_RTC__
#include "vcommon.h"

int main(int argc, char** argv)
{
    const int blocks = 8, n = blocks * 256;
    std::vector<u32> x(n * 2);
    std::vector<float> f(n);
    Lcg g(9);
    for (int i = 0; i < n * 2; ++i) x[i] = g.next32();
    for (int i = 0; i < n; ++i) {
        unsigned r = g.next32();
        f[i] = ((float)(r >> 8) * (1.0f / 16777216.0f) - 0.5f) * (float)(1 << (r & 15));
    }
    u32* dx = to_dev(x);
    float* df = to_dev(f);
    u32* dred = dev_alloc<u32>(blocks * 4);
    u32* dscan = dev_alloc<u32>(n);
    u32* dsort = dev_alloc<u32>(n * 2);
    u32* ddiv = dev_alloc<u32>((size_t)n * 4);
    k_reduce<<<blocks, 256>>>(dx, df, dred);
    CK_LAUNCH();
    k_scan<<<blocks, 256>>>(dx, dscan);
    CK_LAUNCH();
    k_bitonic<<<blocks / 2 * 2, 256>>>(dx, dsort);
    CK_LAUNCH();
    k_diverge<<<(n + 127) / 128, 128>>>(dx, ddiv, n);
    CK_LAUNCH();
    VOut o(out_path(argc, argv, "reduce_diverge.bin"));
    put_device_info(o);
    o.put("x", x); o.put("f", f);
    o.put("reduce", to_host(dred, blocks * 4));
    o.put("scan", to_host(dscan, n));
    o.put("sort", to_host(dsort, n * 2));
    o.put("diverge", to_host(ddiv, (size_t)n * 4));
    printf("reduce_diverge: done\n");
    return 0;
}
#endif
