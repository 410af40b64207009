// float64_ops: double-precision arithmetic on special values and in every rounding mode, fma versus
// mul+add, division, square root, min/max, rounding to integral, fmod, and two approximate
// instructions (columns 30 and 31: rsqrt.approx.f64, rcp.approx.ftz.f64).
// Kernel: k_float64(a, b, c, out, n): out[i * NOPS + k] = bits(op_k(a[i], b[i], c[i])).
#define NOPS 32

__device__ __forceinline__ double ptx_rsqrt_approx_f64(double a) { double d; asm("rsqrt.approx.f64 %0, %1;" : "=d"(d) : "d"(a)); return d; }
__device__ __forceinline__ double ptx_rcp_approx_ftz_f64(double a) { double d; asm("rcp.approx.ftz.f64 %0, %1;" : "=d"(d) : "d"(a)); return d; }

extern "C" __global__ void k_float64(const double* __restrict__ A, const double* __restrict__ B,
                                     const double* __restrict__ C, unsigned long long* __restrict__ out,
                                     int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double a = A[i], b = B[i], c = C[i];
    double r[NOPS];
    r[0] = __dadd_rn(a, b);
    r[1] = __dadd_rz(a, b);
    r[2] = __dadd_ru(a, b);
    r[3] = __dadd_rd(a, b);
    r[4] = __dmul_rn(a, b);
    r[5] = __dmul_rz(a, b);
    r[6] = __dmul_ru(a, b);
    r[7] = __dmul_rd(a, b);
    r[8] = __fma_rn(a, b, c);
    r[9] = __fma_rz(a, b, c);
    r[10] = __fma_ru(a, b, c);
    r[11] = __fma_rd(a, b, c);
    r[12] = __dadd_rn(__dmul_rn(a, b), c);
    r[13] = a / b;
    r[14] = __ddiv_rz(a, b);
    r[15] = __ddiv_ru(a, b);
    r[16] = sqrt(a);
    r[17] = __dsqrt_rd(a);
    r[18] = __drcp_rn(a);
    r[19] = fmin(a, b);
    r[20] = fmax(a, b);
    r[21] = copysign(a, b);
    r[22] = __dsub_rn(a, c);
    r[23] = rint(a);
    r[24] = trunc(a);
    r[25] = floor(a);
    r[26] = ceil(a);
    r[27] = round(a);
    r[28] = fmod(a, b);
    r[29] = ldexp(a, (int)(__double_as_longlong(b) % 2201ll) - 1100);
    r[30] = ptx_rsqrt_approx_f64(a);   // approximate
    r[31] = ptx_rcp_approx_ftz_f64(a); // approximate
    unsigned long long* o = out + (size_t)i * NOPS;
#pragma unroll
    for (int k = 0; k < NOPS; ++k) o[k] = (unsigned long long)__double_as_longlong(r[k]);
}

#ifndef __CUDACC_RTC__
#include "vcommon.h"

typedef unsigned long long u64;
static double d(u64 u) { double x; memcpy(&x, &u, 8); return x; }
static u64 ub(double x) { u64 v; memcpy(&v, &x, 8); return v; }

int main(int argc, char** argv)
{
    const u64 spec[] = {0x0ull, 0x8000000000000000ull, 0x3ff0000000000000ull, 0xbff0000000000000ull,
                        0x7ff0000000000000ull, 0xfff0000000000000ull, 0x7ff8000000000000ull,
                        0xfff8000000012345ull, 0x7ff0000000000001ull, 0x0000000000000001ull,
                        0x800fffffffffffffull, 0x0008000000000000ull, 0x0010000000000000ull,
                        0x7fefffffffffffffull, 0xffefffffffffffffull, 0x3ff0000000000001ull,
                        0x3fe0000000000000ull, 0x4008000000000000ull, 0x3fd5555555555555ull,
                        0x433fffffffffffffull, 0x43e0000000000000ull, 0x2000000000000000ull,
                        0x001fffffffffffffull, 0x7fdfffffffffffffull, 0x3ff8000000000000ull,
                        0xc004000000000000ull, 0x3cb0000000000000ull, 0x4330000000000001ull};
    const int ns = sizeof spec / sizeof spec[0];
    const int n = 1536;
    std::vector<double> a(n), b(n), c(n);
    Lcg g(4);
    auto rnd = [&](int i) -> double {
        u64 r = g.next64();
        if (i % 5 == 0) return d(r);
        return d((r & 0x800fffffffffffffull) | ((u64)(900u + g.next32() % 250u) << 52));
    };
    for (int i = 0; i < n; ++i) {
        if (i < ns * ns) {
            a[i] = d(spec[i / ns]);
            b[i] = d(spec[i % ns]);
            c[i] = d(spec[(i * 11 + 5) % ns]);
        } else {
            a[i] = rnd(i); b[i] = rnd(i); c[i] = rnd(i);
            if (i % 3 == 0) c[i] = d(ub(-(a[i] * b[i])) + (g.next32() % 3u) - 1u);
        }
    }
    double *da = to_dev(a), *db = to_dev(b), *dc = to_dev(c);
    u64* dout = dev_alloc<u64>((size_t)n * NOPS);
    k_float64<<<(n + 127) / 128, 128>>>(da, db, dc, dout, n);
    CK_LAUNCH();
    VOut o(out_path(argc, argv, "float64_ops.bin"));
    put_device_info(o);
    o.put("a", a); o.put("b", b); o.put("c", c);
    o.put("out", to_host(dout, (size_t)n * NOPS));
    printf("float64_ops: %d rows x %d ops written\n", n, NOPS);
    return 0;
}
#endif
