// float32_ops: single-precision arithmetic on special values (NaN payloads, +-0, +-inf, denormals,
// FLT_MAX), every IEEE rounding mode, fma versus separately rounded mul+add, .ftz / .sat forms,
// min/max NaN rules and comparisons. Results are stored as raw bits.
// Kernel: k_float32(a, b, c, out, n): out[i * NOPS + k] = bits(op_k(a[i], b[i], c[i])).
// Columns 17, 42, 43 and 44 are approximate instructions (see validation/README.md).
#define NOPS 48

__device__ __forceinline__ float ptx_add_ftz(float a, float b) { float d; asm("add.rn.ftz.f32 %0, %1, %2;" : "=f"(d) : "f"(a), "f"(b)); return d; }
__device__ __forceinline__ float ptx_mul_ftz(float a, float b) { float d; asm("mul.rn.ftz.f32 %0, %1, %2;" : "=f"(d) : "f"(a), "f"(b)); return d; }
__device__ __forceinline__ float ptx_fma_ftz(float a, float b, float c) { float d; asm("fma.rn.ftz.f32 %0, %1, %2, %3;" : "=f"(d) : "f"(a), "f"(b), "f"(c)); return d; }
__device__ __forceinline__ float ptx_add_sat(float a, float b) { float d; asm("add.rn.sat.f32 %0, %1, %2;" : "=f"(d) : "f"(a), "f"(b)); return d; }
__device__ __forceinline__ float ptx_min_nan(float a, float b) { float d; asm("min.NaN.f32 %0, %1, %2;" : "=f"(d) : "f"(a), "f"(b)); return d; }
__device__ __forceinline__ float ptx_max_ftz(float a, float b) { float d; asm("max.ftz.f32 %0, %1, %2;" : "=f"(d) : "f"(a), "f"(b)); return d; }
__device__ __forceinline__ float ptx_sqrt_approx(float a) { float d; asm("sqrt.approx.f32 %0, %1;" : "=f"(d) : "f"(a)); return d; }
__device__ __forceinline__ float ptx_rcp_approx_ftz(float a) { float d; asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(d) : "f"(a)); return d; }
__device__ __forceinline__ float ptx_div_full(float a, float b) { float d; asm("div.full.f32 %0, %1, %2;" : "=f"(d) : "f"(a), "f"(b)); return d; }

extern "C" __global__ void k_float32(const float* __restrict__ A, const float* __restrict__ B,
                                     const float* __restrict__ C, unsigned* __restrict__ out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float a = A[i], b = B[i], c = C[i];
    float r[NOPS];
    r[0] = __fadd_rn(a, b);
    r[1] = __fadd_rz(a, b);
    r[2] = __fadd_ru(a, b);
    r[3] = __fadd_rd(a, b);
    r[4] = __fsub_rn(a, b);
    r[5] = __fmul_rn(a, b);
    r[6] = __fmul_rz(a, b);
    r[7] = __fmul_ru(a, b);
    r[8] = __fmul_rd(a, b);
    r[9] = __fmaf_rn(a, b, c);
    r[10] = __fmaf_rz(a, b, c);
    r[11] = __fmaf_ru(a, b, c);
    r[12] = __fmaf_rd(a, b, c);
    r[13] = __fadd_rn(__fmul_rn(a, b), c);   // two roundings
    r[14] = a * b + c;                        // contracted to fma by default (-fmad=true)
    r[15] = a / b;                            // IEEE division (-prec-div=true)
    r[16] = __fdiv_rz(a, b);
    r[17] = __fdividef(a, b);                 // approximate
    r[18] = sqrtf(a);                         // IEEE sqrt (-prec-sqrt=true)
    r[19] = __fsqrt_rd(a);
    r[20] = __frcp_rn(a);
    r[21] = __frcp_ru(a);
    r[22] = fminf(a, b);
    r[23] = fmaxf(a, b);
    r[24] = copysignf(a, b);
    r[25] = fabsf(a);
    r[26] = -a;
    r[27] = ptx_add_ftz(a, b);
    r[28] = ptx_mul_ftz(a, b);
    r[29] = ptx_fma_ftz(a, b, c);
    r[30] = __saturatef(a);
    r[31] = ptx_add_sat(a, b);
    r[32] = ptx_min_nan(a, b);
    r[33] = fdimf(a, b);
    r[34] = fmodf(a, b);
    r[35] = remainderf(a, b);
    r[36] = rintf(a);
    r[37] = truncf(a);
    r[38] = floorf(a);
    r[39] = ceilf(a);
    r[40] = roundf(a);
    unsigned flags = (a < b) | (a <= b) << 1 | (a == b) << 2 | (a != b) << 3 | (a > b) << 4 |
                     (a >= b) << 5 | isnan(a) << 6 | isinf(a) << 7 | isfinite(a) << 8 |
                     (signbit(a) != 0) << 9 | !(a < b || a >= b) << 10;
    r[41] = __uint_as_float(flags);
    r[42] = ptx_sqrt_approx(a);               // approximate
    r[43] = ptx_rcp_approx_ftz(a);            // approximate
    r[44] = ptx_div_full(a, b);               // approximate (2 ulp)
    r[45] = ldexpf(a, (int)(__float_as_uint(b) % 301u) - 150);
    r[46] = ptx_max_ftz(a, b);
    r[47] = __fsub_rd(a, c);
    unsigned* o = out + (size_t)i * NOPS;
#pragma unroll
    for (int k = 0; k < NOPS; ++k) o[k] = __float_as_uint(r[k]);
}

#ifndef __CUDACC_RTC__
#include "vcommon.h"

static float f(unsigned u) { float x; memcpy(&x, &u, 4); return x; }
static unsigned u(float x) { unsigned v; memcpy(&v, &x, 4); return v; }

int main(int argc, char** argv)
{
    const unsigned spec[] = {0x00000000u, 0x80000000u, 0x3f800000u, 0xbf800000u, 0x7f800000u,
                             0xff800000u, 0x7fc00000u, 0xffc12345u, 0x7f800001u, 0x00000001u,
                             0x807fffffu, 0x00400000u, 0x00800000u, 0x80800000u, 0x7f7fffffu,
                             0xff7fffffu, 0x3f800001u, 0x3effffffu, 0x3f000000u, 0x40400000u,
                             0x3eaaaaabu, 0x4b7fffffu, 0x5f000000u, 0x1f800000u, 0x00ffffffu,
                             0x7effffffu, 0x3fc00000u, 0xc0200000u, 0x34000000u, 0xcb000001u};
    const int ns = sizeof spec / sizeof spec[0];
    const int n = 2048;
    std::vector<float> a(n), b(n), c(n);
    Lcg g(3);
    auto rnd = [&](int i) -> float {
        unsigned r = g.next32();
        if (i % 5 == 0) return f(r);                                   // any bit pattern
        return f((r & 0x807fffffu) | ((90u + g.next32() % 75u) << 23)); // moderate exponents
    };
    for (int i = 0; i < n; ++i) {
        if (i < ns * ns) {
            a[i] = f(spec[i / ns]);
            b[i] = f(spec[i % ns]);
            c[i] = f(spec[(i * 11 + 5) % ns]);
        } else {
            a[i] = rnd(i);
            b[i] = rnd(i);
            c[i] = rnd(i);
            if (i % 3 == 0) {  // c close to -(a*b): cancellation shows fma's single rounding
                float p = a[i] * b[i];
                c[i] = f(u(-p) + (g.next32() % 3u) - 1u);
            }
        }
    }
    float *da = to_dev(a), *db = to_dev(b), *dc = to_dev(c);
    unsigned* dout = dev_alloc<unsigned>((size_t)n * NOPS);
    k_float32<<<(n + 127) / 128, 128>>>(da, db, dc, dout, n);
    CK_LAUNCH();
    VOut o(out_path(argc, argv, "float32_ops.bin"));
    put_device_info(o);
    o.put("a", a); o.put("b", b); o.put("c", c);
    o.put("out", to_host(dout, (size_t)n * NOPS));
    printf("float32_ops: %d rows x %d ops written\n", n, NOPS);
    return 0;
}
#endif
