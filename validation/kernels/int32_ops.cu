// int32_ops: 32-bit integer arithmetic edge cases, one row of NOPS results per input triple.
// Division by zero, INT_MIN / -1, and shifts >= 32 use inline PTX so that C undefined behaviour
// cannot let the compiler pick the answer: what is stored is what the hardware computes.
// Kernel: k_int32(a, b, c, out, n): out[i * NOPS + k] = op_k(a[i], b[i], c[i]).
#define NOPS 48

__device__ __forceinline__ unsigned ptx_div_s32(unsigned a, unsigned b) {
    unsigned d; asm("div.s32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b)); return d; }
__device__ __forceinline__ unsigned ptx_rem_s32(unsigned a, unsigned b) {
    unsigned d; asm("rem.s32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b)); return d; }
__device__ __forceinline__ unsigned ptx_div_u32(unsigned a, unsigned b) {
    unsigned d; asm("div.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b)); return d; }
__device__ __forceinline__ unsigned ptx_rem_u32(unsigned a, unsigned b) {
    unsigned d; asm("rem.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b)); return d; }
__device__ __forceinline__ unsigned ptx_shl(unsigned a, unsigned s) {
    unsigned d; asm("shl.b32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(s)); return d; }
__device__ __forceinline__ unsigned ptx_shr_u(unsigned a, unsigned s) {
    unsigned d; asm("shr.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(s)); return d; }
__device__ __forceinline__ unsigned ptx_shr_s(unsigned a, unsigned s) {
    unsigned d; asm("shr.s32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(s)); return d; }
__device__ __forceinline__ unsigned ptx_bfe_u(unsigned a, unsigned p, unsigned l) {
    unsigned d; asm("bfe.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(p), "r"(l)); return d; }
__device__ __forceinline__ unsigned ptx_bfe_s(unsigned a, unsigned p, unsigned l) {
    unsigned d; asm("bfe.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(p), "r"(l)); return d; }
__device__ __forceinline__ unsigned ptx_bfi(unsigned a, unsigned b, unsigned p, unsigned l) {
    unsigned d; asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(d) : "r"(a), "r"(b), "r"(p), "r"(l)); return d; }
__device__ __forceinline__ unsigned ptx_bfind_s(unsigned a) {
    unsigned d; asm("bfind.s32 %0, %1;" : "=r"(d) : "r"(a)); return d; }
__device__ __forceinline__ unsigned ptx_bfind_u_shift(unsigned a) {
    unsigned d; asm("bfind.shiftamt.u32 %0, %1;" : "=r"(d) : "r"(a)); return d; }
__device__ __forceinline__ unsigned ptx_abs_s32(unsigned a) {
    unsigned d; asm("abs.s32 %0, %1;" : "=r"(d) : "r"(a)); return d; }
__device__ __forceinline__ unsigned ptx_add_sat(unsigned a, unsigned b) {
    unsigned d; asm("add.sat.s32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b)); return d; }
__device__ __forceinline__ unsigned ptx_sub_sat(unsigned a, unsigned b) {
    unsigned d; asm("sub.sat.s32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b)); return d; }
__device__ __forceinline__ unsigned ptx_mad_hi_sat(unsigned a, unsigned b, unsigned c) {
    unsigned d; asm("mad.hi.sat.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); return d; }
__device__ __forceinline__ unsigned ptx_shf_l_clamp(unsigned lo, unsigned hi, unsigned s) {
    unsigned d; asm("shf.l.clamp.b32 %0, %1, %2, %3;" : "=r"(d) : "r"(lo), "r"(hi), "r"(s)); return d; }
__device__ __forceinline__ unsigned ptx_shf_r_wrap(unsigned lo, unsigned hi, unsigned s) {
    unsigned d; asm("shf.r.wrap.b32 %0, %1, %2, %3;" : "=r"(d) : "r"(lo), "r"(hi), "r"(s)); return d; }

extern "C" __global__ void k_int32(const unsigned* __restrict__ A, const unsigned* __restrict__ B,
                                   const unsigned* __restrict__ C, unsigned* __restrict__ out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned a = A[i], b = B[i], c = C[i];
    int sa = (int)a, sb = (int)b, sc = (int)c;
    unsigned* o = out + (size_t)i * NOPS;
    o[0] = a + b;
    o[1] = a - b;
    o[2] = a * b;
    o[3] = (unsigned)__mulhi(sa, sb);
    o[4] = __umulhi(a, b);
    o[5] = ptx_div_s32(a, b);          // includes b == 0 and INT_MIN / -1
    o[6] = ptx_rem_s32(a, b);
    o[7] = ptx_div_u32(a, b);
    o[8] = ptx_rem_u32(a, b);
    o[9] = ptx_shl(a, b & 63u);        // shift counts 0..63
    o[10] = ptx_shr_u(a, b & 63u);
    o[11] = ptx_shr_s(a, b & 63u);
    o[12] = ptx_shr_s(a, b);           // full 32-bit shift count
    o[13] = ptx_shl(a, b);
    o[14] = a << (b & 31u);
    o[15] = (unsigned)(sa >> (b & 31u));
    o[16] = __funnelshift_l(a, b, c);
    o[17] = __funnelshift_lc(a, b, c);
    o[18] = __funnelshift_r(a, b, c);
    o[19] = __funnelshift_rc(a, b, c);
    o[20] = __byte_perm(a, b, c);
    o[21] = (unsigned)__popc(a);
    o[22] = (unsigned)__clz(sa);
    o[23] = __brev(a);
    o[24] = (unsigned)__ffs(sa);
    o[25] = ptx_bfind_s(a);
    o[26] = ptx_bfind_u_shift(a);
    o[27] = ptx_bfe_u(a, b & 0xFFu, c & 0xFFu);   // position and length may exceed 31
    o[28] = ptx_bfe_s(a, b & 0xFFu, c & 0xFFu);
    o[29] = ptx_bfi(a, b, c & 0xFFu, (c >> 8) & 0xFFu);
    o[30] = ptx_add_sat(a, b);
    o[31] = ptx_sub_sat(a, b);
    o[32] = ptx_mad_hi_sat(a, b, c);
    o[33] = __sad(sa, sb, c);
    o[34] = ptx_abs_s32(a);            // abs(INT_MIN) is INT_MIN in PTX
    o[35] = (unsigned)min(sa, sb);
    o[36] = max(a, b);
    o[37] = (unsigned)__dp4a(sa, sb, sc);
    o[38] = __dp4a(a, b, c);
    o[39] = (unsigned)__mul24(sa, sb);
    o[40] = __umul24(a, b);
    o[41] = (unsigned)__hadd(sa, sb);
    o[42] = __urhadd(a, b);
    o[43] = (a & b) ^ (~a | c);        // lop3
    o[44] = (unsigned)((long long)sa * sb >> 40);
    o[45] = (unsigned)(sa / 7) ^ (unsigned)(sa % -7);   // division by constants (magic numbers)
    o[46] = ptx_shf_l_clamp(a, b, c);
    o[47] = ptx_shf_r_wrap(a, b, c);
}

// SIMD-within-a-register video intrinsics, kept apart: the PTX has vadd4 / vabsdiff4 / vmax2 ...
#define NSIMD 8
extern "C" __global__ void k_int32_simd(const unsigned* __restrict__ A, const unsigned* __restrict__ B,
                                        unsigned* __restrict__ out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned a = A[i], b = B[i];
    unsigned* o = out + (size_t)i * NSIMD;
    o[0] = __vadd4(a, b);
    o[1] = __vsub2(a, b);
    o[2] = __vabsdiffu4(a, b);
    o[3] = __vabsdiffs2(a, b);
    o[4] = __vmaxs4(a, b);
    o[5] = __vminu2(a, b);
    o[6] = __vcmpgtu4(a, b);
    o[7] = __vsads4(a, b);
}

#ifndef __CUDACC_RTC__
#include "vcommon.h"

int main(int argc, char** argv)
{
    const unsigned spec[] = {0u, 1u, 2u, 3u, 7u, 31u, 32u, 33u, 63u, 64u, 100u, 0xFFFFu, 0x10000u,
                             0x55555555u, 0xAAAAAAAAu, 0x7FFFFFFFu, 0x80000000u, 0x80000001u,
                             0xFFFFFFFFu, 0xFFFFFFFEu, 0xFFFFFFFDu, 0xFFFFFFF9u, 0xFFFFFF9Cu,
                             12345678u, (unsigned)-87654321};
    const int ns = sizeof spec / sizeof spec[0];
    const int n = 1024;
    std::vector<unsigned> a(n), b(n), c(n);
    Lcg g(1);
    for (int i = 0; i < n; ++i) {
        if (i < ns * ns) {
            a[i] = spec[i / ns];
            b[i] = spec[i % ns];
            c[i] = spec[(i * 7 + 3) % ns];
        } else {
            a[i] = (unsigned)((int)g.next32() >> (g.next32() % 32));
            b[i] = (unsigned)((int)g.next32() >> (g.next32() % 32));
            c[i] = g.next32();
        }
    }
    unsigned *da = to_dev(a), *db = to_dev(b), *dc = to_dev(c);
    unsigned* dout = dev_alloc<unsigned>((size_t)n * NOPS);
    unsigned* dsimd = dev_alloc<unsigned>((size_t)n * NSIMD);
    k_int32<<<(n + 127) / 128, 128>>>(da, db, dc, dout, n);
    CK_LAUNCH();
    k_int32_simd<<<(n + 127) / 128, 128>>>(da, db, dsimd, n);
    CK_LAUNCH();
    VOut o(out_path(argc, argv, "int32_ops.bin"));
    put_device_info(o);
    o.put("a", a); o.put("b", b); o.put("c", c);
    o.put("out", to_host(dout, (size_t)n * NOPS));
    o.put("simd", to_host(dsimd, (size_t)n * NSIMD));
    printf("int32_ops: %d rows x %d ops written\n", n, NOPS);
    return 0;
}
#endif
