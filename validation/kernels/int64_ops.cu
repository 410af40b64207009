// int64_ops: 64-bit integer arithmetic edge cases (division by zero and by negatives, shifts >= 64
// through inline PTX, high products, bit counts, carry chains, widening multiplies).
// Kernel: k_int64(a, b, out, n): out[i * NOPS + k] = op_k(a[i], b[i]) as 64-bit words.
#define NOPS 32
typedef unsigned long long u64;
typedef long long s64;

__device__ __forceinline__ u64 ptx_div_s64(u64 a, u64 b) { u64 d; asm("div.s64 %0, %1, %2;" : "=l"(d) : "l"(a), "l"(b)); return d; }
__device__ __forceinline__ u64 ptx_rem_s64(u64 a, u64 b) { u64 d; asm("rem.s64 %0, %1, %2;" : "=l"(d) : "l"(a), "l"(b)); return d; }
__device__ __forceinline__ u64 ptx_div_u64(u64 a, u64 b) { u64 d; asm("div.u64 %0, %1, %2;" : "=l"(d) : "l"(a), "l"(b)); return d; }
__device__ __forceinline__ u64 ptx_rem_u64(u64 a, u64 b) { u64 d; asm("rem.u64 %0, %1, %2;" : "=l"(d) : "l"(a), "l"(b)); return d; }
__device__ __forceinline__ u64 ptx_shl64(u64 a, unsigned s) { u64 d; asm("shl.b64 %0, %1, %2;" : "=l"(d) : "l"(a), "r"(s)); return d; }
__device__ __forceinline__ u64 ptx_shr_u64(u64 a, unsigned s) { u64 d; asm("shr.u64 %0, %1, %2;" : "=l"(d) : "l"(a), "r"(s)); return d; }
__device__ __forceinline__ u64 ptx_shr_s64(u64 a, unsigned s) { u64 d; asm("shr.s64 %0, %1, %2;" : "=l"(d) : "l"(a), "r"(s)); return d; }
__device__ __forceinline__ u64 ptx_abs_s64(u64 a) { u64 d; asm("abs.s64 %0, %1;" : "=l"(d) : "l"(a)); return d; }
__device__ __forceinline__ u64 ptx_bfe_u64(u64 a, unsigned p, unsigned l) { u64 d; asm("bfe.u64 %0, %1, %2, %3;" : "=l"(d) : "l"(a), "r"(p), "r"(l)); return d; }
__device__ __forceinline__ u64 ptx_bfe_s64(u64 a, unsigned p, unsigned l) { u64 d; asm("bfe.s64 %0, %1, %2, %3;" : "=l"(d) : "l"(a), "r"(p), "r"(l)); return d; }

extern "C" __global__ void k_int64(const u64* __restrict__ A, const u64* __restrict__ B,
                                   u64* __restrict__ out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    u64 a = A[i], b = B[i];
    s64 sa = (s64)a, sb = (s64)b;
    u64* o = out + (size_t)i * NOPS;
    o[0] = a + b;
    o[1] = a - b;
    o[2] = a * b;
    o[3] = (u64)__mul64hi(sa, sb);
    o[4] = __umul64hi(a, b);
    o[5] = ptx_div_s64(a, b);          // b == 0, INT64_MIN / -1, negative divisors
    o[6] = ptx_rem_s64(a, b);
    o[7] = ptx_div_u64(a, b);
    o[8] = ptx_rem_u64(a, b);
    o[9] = ptx_shl64(a, (unsigned)b & 127u);
    o[10] = ptx_shr_u64(a, (unsigned)b & 127u);
    o[11] = ptx_shr_s64(a, (unsigned)b & 127u);
    o[12] = ptx_shr_s64(a, (unsigned)b);
    o[13] = (u64)__clzll(sa);
    o[14] = (u64)__popcll(a);
    o[15] = __brevll(a);
    o[16] = (u64)__ffsll(sa);
    o[17] = ptx_abs_s64(a);            // abs(INT64_MIN) is INT64_MIN in PTX
    o[18] = (u64)min(sa, sb);
    o[19] = max(a, b);
    o[20] = (u64)((s64)(int)a * (s64)(int)b);            // mul.wide.s32
    o[21] = (u64)(unsigned)a * (u64)(unsigned)(b >> 32);   // mul.wide.u32
    o[22] = ptx_bfe_u64(a, (unsigned)b & 0xFFu, (unsigned)(b >> 8) & 0xFFu);
    o[23] = ptx_bfe_s64(a, (unsigned)b & 0xFFu, (unsigned)(b >> 8) & 0xFFu);
    // 128-bit addition through the carry chain: (a:b) + (b:a)
    unsigned r0, r1, r2, r3;
    asm("add.cc.u32 %0, %4, %8;\n\t"
        "addc.cc.u32 %1, %5, %9;\n\t"
        "addc.cc.u32 %2, %6, %10;\n\t"
        "addc.u32 %3, %7, %11;"
        : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3)
        : "r"((unsigned)a), "r"((unsigned)(a >> 32)), "r"((unsigned)b), "r"((unsigned)(b >> 32)),
          "r"((unsigned)b), "r"((unsigned)(b >> 32)), "r"((unsigned)a), "r"((unsigned)(a >> 32)));
    o[24] = ((u64)r1 << 32) | r0;
    o[25] = ((u64)r3 << 32) | r2;
    o[26] = (u64)(sa / 1000003) ^ (u64)(sa % -99991);   // division by constants
    o[27] = a / 10u + a % 10u;
    o[28] = (u64)(s64)(int)(a >> 7);                     // sign extension of a truncation
    o[29] = (u64)(a >> 32 | a << 32) ^ (u64)(sa >> 13);
    o[30] = a * 3u - (b << 5);
    o[31] = a * 0x9E3779B97F4A7C15ull + (b ^ (b >> 31));
}

#ifndef __CUDACC_RTC__
#include "vcommon.h"

int main(int argc, char** argv)
{
    const u64 spec[] = {0ull, 1ull, 2ull, 3ull, 10ull, 63ull, 64ull, 65ull, 127ull, 128ull,
                        0xFFFFFFFFull, 0x100000000ull, 0x7FFFFFFFFFFFFFFFull, 0x8000000000000000ull,
                        0x8000000000000001ull, 0xFFFFFFFFFFFFFFFFull, 0xFFFFFFFFFFFFFFFEull,
                        0xFFFFFFFF00000000ull, (u64)-10ll, (u64)-1000003ll, 0x5555555555555555ull,
                        0xAAAAAAAAAAAAAAAAull, 1234567890123456789ull, (u64)-987654321987ll};
    const int ns = sizeof spec / sizeof spec[0];
    const int n = 1024;
    std::vector<u64> a(n), b(n);
    Lcg g(2);
    for (int i = 0; i < n; ++i) {
        if (i < ns * ns) {
            a[i] = spec[i / ns];
            b[i] = spec[i % ns];
        } else {
            a[i] = (u64)((s64)g.next64() >> (g.next32() % 64));
            b[i] = (u64)((s64)g.next64() >> (g.next32() % 64));
        }
    }
    u64 *da = to_dev(a), *db = to_dev(b);
    u64* dout = dev_alloc<u64>((size_t)n * NOPS);
    k_int64<<<(n + 127) / 128, 128>>>(da, db, dout, n);
    CK_LAUNCH();
    VOut o(out_path(argc, argv, "int64_ops.bin"));
    put_device_info(o);
    o.put("a", a); o.put("b", b);
    o.put("out", to_host(dout, (size_t)n * NOPS));
    printf("int64_ops: %d rows x %d ops written\n", n, NOPS);
    return 0;
}
#endif
