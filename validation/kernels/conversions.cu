// conversions: float <-> integer conversions with saturation (NaN, +-inf, out of range), the four
// rounding modes, narrowing to 8/16-bit integers and to half precision, double -> float rounding,
// and integer -> float rounding of values that do not fit the mantissa.
// Kernels (results as raw 32-bit words; 64-bit results take two words, low first):
//   k_conv_f32(x, out, n)  NF32 words per float input
//   k_conv_f64(x, out, n)  NF64 words per double input
//   k_conv_int(x64, out, n) NINT words per 64-bit integer input
#define NF32 32
#define NF64 28
#define NINT 28
typedef unsigned long long u64;

__device__ __forceinline__ unsigned short cvt_rni_s8(float x) { unsigned short d; asm("cvt.rni.s8.f32 %0, %1;" : "=h"(d) : "f"(x)); return d; }
__device__ __forceinline__ unsigned short cvt_rzi_u8(float x) { unsigned short d; asm("cvt.rzi.u8.f32 %0, %1;" : "=h"(d) : "f"(x)); return d; }
__device__ __forceinline__ unsigned short cvt_rni_s16(float x) { unsigned short d; asm("cvt.rni.s16.f32 %0, %1;" : "=h"(d) : "f"(x)); return d; }
__device__ __forceinline__ unsigned short cvt_rn_f16(float x) { unsigned short d; asm("cvt.rn.f16.f32 %0, %1;" : "=h"(d) : "f"(x)); return d; }
__device__ __forceinline__ unsigned short cvt_rz_f16(float x) { unsigned short d; asm("cvt.rz.f16.f32 %0, %1;" : "=h"(d) : "f"(x)); return d; }
__device__ __forceinline__ float cvt_f32_f16(unsigned short h) { float d; asm("cvt.f32.f16 %0, %1;" : "=f"(d) : "h"(h)); return d; }
__device__ __forceinline__ unsigned short cvt_rn_f16_f64(double x) { unsigned short d; asm("cvt.rn.f16.f64 %0, %1;" : "=h"(d) : "d"(x)); return d; }
__device__ __forceinline__ float cvt_rni_f32(float x) { float d; asm("cvt.rni.f32.f32 %0, %1;" : "=f"(d) : "f"(x)); return d; }
__device__ __forceinline__ unsigned cvt_sat_u8_s32(int x) { unsigned d; asm("cvt.sat.u8.s32 %0, %1;" : "=r"(d) : "r"(x)); return d; }

__device__ __forceinline__ void put64(unsigned* o, int k, u64 v) { o[k] = (unsigned)v; o[k + 1] = (unsigned)(v >> 32); }

extern "C" __global__ void k_conv_f32(const float* __restrict__ X, unsigned* __restrict__ out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = X[i];
    unsigned* o = out + (size_t)i * NF32;
    o[0] = (unsigned)__float2int_rn(x);
    o[1] = (unsigned)__float2int_rz(x);
    o[2] = (unsigned)__float2int_ru(x);
    o[3] = (unsigned)__float2int_rd(x);
    o[4] = __float2uint_rn(x);
    o[5] = __float2uint_rz(x);
    o[6] = __float2uint_ru(x);
    o[7] = __float2uint_rd(x);
    put64(o, 8, (u64)__float2ll_rn(x));
    put64(o, 10, (u64)__float2ll_rz(x));
    put64(o, 12, __float2ull_rn(x));
    put64(o, 14, __float2ull_rd(x));
    o[16] = cvt_rni_s8(x);
    o[17] = cvt_rzi_u8(x);
    o[18] = cvt_rni_s16(x);
    o[19] = cvt_rn_f16(x);
    o[20] = cvt_rz_f16(x);
    o[21] = __float_as_uint(cvt_f32_f16(cvt_rn_f16(x)));
    put64(o, 22, (u64)__double_as_longlong((double)x));
    o[24] = __float_as_uint(cvt_rni_f32(x));
    o[25] = __float_as_uint(nearbyintf(x));
    o[26] = cvt_sat_u8_s32((int)__float_as_uint(x) >> 20);
    o[27] = __float_as_uint(__int2float_rn(__float2int_rz(x)));
    o[28] = (unsigned)(int)(x * 0.5f);       // C cast: out of range is UB in C; nvcc emits cvt.rzi
    o[29] = (unsigned)(signed char)__float2int_rn(x);  // truncation, not saturation
    o[30] = __float_as_uint(__uint_as_float(__float_as_uint(x) & 0xFFFF0000u));  // bf16 truncation
    int e;
    float m = frexpf(x, &e);
    o[31] = __float_as_uint(m) + (unsigned)e * 0x01000193u;
}

extern "C" __global__ void k_conv_f64(const double* __restrict__ X, unsigned* __restrict__ out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double x = X[i];
    unsigned* o = out + (size_t)i * NF64;
    o[0] = (unsigned)__double2int_rn(x);
    o[1] = (unsigned)__double2int_rz(x);
    o[2] = (unsigned)__double2int_ru(x);
    o[3] = (unsigned)__double2int_rd(x);
    o[4] = __double2uint_rn(x);
    o[5] = __double2uint_rz(x);
    o[6] = __double2uint_ru(x);
    o[7] = __double2uint_rd(x);
    put64(o, 8, (u64)__double2ll_rn(x));
    put64(o, 10, (u64)__double2ll_rz(x));
    put64(o, 12, (u64)__double2ll_ru(x));
    put64(o, 14, __double2ull_rn(x));
    put64(o, 16, __double2ull_rd(x));
    o[18] = __float_as_uint(__double2float_rn(x));
    o[19] = __float_as_uint(__double2float_rz(x));
    o[20] = __float_as_uint(__double2float_ru(x));
    o[21] = __float_as_uint(__double2float_rd(x));
    o[22] = cvt_rn_f16_f64(x);
    o[23] = (unsigned)__double2hiint(x);
    put64(o, 24, (u64)__double_as_longlong(rint(x)));
    put64(o, 26, (u64)(long long)x);         // C cast (cvt.rzi.s64.f64)
}

extern "C" __global__ void k_conv_int(const u64* __restrict__ X, unsigned* __restrict__ out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    u64 v = X[i];
    long long s = (long long)v;
    int s32 = (int)v;
    unsigned u32 = (unsigned)v;
    unsigned* o = out + (size_t)i * NINT;
    o[0] = __float_as_uint(__int2float_rn(s32));
    o[1] = __float_as_uint(__int2float_rz(s32));
    o[2] = __float_as_uint(__int2float_ru(s32));
    o[3] = __float_as_uint(__int2float_rd(s32));
    o[4] = __float_as_uint(__uint2float_rn(u32));
    o[5] = __float_as_uint(__uint2float_rz(u32));
    o[6] = __float_as_uint(__ll2float_rn(s));
    o[7] = __float_as_uint(__ll2float_rz(s));
    o[8] = __float_as_uint(__ll2float_ru(s));
    o[9] = __float_as_uint(__ll2float_rd(s));
    o[10] = __float_as_uint(__ull2float_rn(v));
    o[11] = __float_as_uint(__ull2float_ru(v));
    put64(o, 12, (u64)__double_as_longlong(__ll2double_rn(s)));
    put64(o, 14, (u64)__double_as_longlong(__ll2double_rz(s)));
    put64(o, 16, (u64)__double_as_longlong(__ull2double_rn(v)));
    put64(o, 18, (u64)__double_as_longlong(__ull2double_rd(v)));
    put64(o, 20, (u64)__double_as_longlong(__int2double_rn(s32)));
    o[22] = (unsigned)(short)s32;            // truncation
    o[23] = (unsigned)(unsigned char)u32;
    o[24] = (unsigned)(long long)(signed char)(s >> 3);
    o[25] = __float_as_uint((float)s32 * 0.25f);
    o[26] = __float_as_uint(__int_as_float(s32));
    o[27] = __float_as_uint(__uint2float_rd(u32));
}

#ifndef __CUDACC_RTC__
#include "vcommon.h"

static float fb(unsigned u) { float x; memcpy(&x, &u, 4); return x; }
static double db(u64 u) { double x; memcpy(&x, &u, 8); return x; }

int main(int argc, char** argv)
{
    const int n = 1024;
    const float fspec[] = {0.0f, -0.0f, 0.5f, -0.5f, 1.5f, -1.5f, 2.5f, -2.5f, 0.49999997f, 127.5f,
                           -128.5f, 255.5f, 256.0f, -129.0f, 32767.5f, -32768.5f, 65504.0f, 65520.0f,
                           2147483520.0f, 2147483648.0f, -2147483648.0f, -2147483904.0f,
                           4294967040.0f, 4294967296.0f, 9.2233715e18f, 9.223372e18f, -9.223372e18f,
                           1.8446743e19f, 1.9e19f, 1e30f, -1e30f, 5.9604645e-08f, 2.9802322e-08f,
                           6.1035156e-05f, 1e-40f, -1e-45f};
    const unsigned fspec_bits[] = {0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffffffffu, 0x7f800001u,
                                   0x3f7fffffu, 0xbf7fffffu, 0x4b000001u, 0x4effffffu};
    std::vector<float> xf(n);
    Lcg g(5);
    int nf = sizeof fspec / sizeof fspec[0], nb = sizeof fspec_bits / sizeof fspec_bits[0];
    for (int i = 0; i < n; ++i) {
        if (i < nf) xf[i] = fspec[i];
        else if (i < nf + nb) xf[i] = fb(fspec_bits[i - nf]);
        else if (i % 2) xf[i] = fb((g.next32() & 0x807fffffu) | ((110u + g.next32() % 85u) << 23));
        else xf[i] = (float)((int)g.next32() % 2000) * 0.25f;   // many exact halves
    }
    const u64 dspec[] = {0x0ull, 0x8000000000000000ull, 0x7ff0000000000000ull, 0xfff0000000000000ull,
                         0x7ff8000000000000ull, 0xfff8000000000001ull, 0x3fe0000000000000ull,
                         0xbff8000000000000ull, 0x41dfffffffc00000ull, 0x41e0000000000000ull,
                         0xc1e0000000000000ull, 0xc1e0000000200000ull, 0x41efffffffe00000ull,
                         0x41f0000000000000ull, 0x43e0000000000000ull, 0xc3e0000000000000ull,
                         0x43dfffffffffffffull, 0x43f0000000000000ull, 0x47efffffe0000000ull,
                         0x47efffffefffffffull, 0x47efffff00000001ull, 0x47f0000000000000ull,
                         0x3810000000000000ull, 0x380fffffffffffffull, 0x36a0000000000000ull,
                         0x369fffffffffffffull, 0x0000000000000001ull, 0x3ff0000010000000ull,
                         0x3ff0000030000000ull, 0x3ff0000010000001ull, 0x40effc0000000000ull,
                         0x40effe0000000000ull};
    std::vector<double> xd(n);
    int nd = sizeof dspec / sizeof dspec[0];
    for (int i = 0; i < n; ++i) {
        if (i < nd) xd[i] = db(dspec[i]);
        else if (i % 2) xd[i] = db((g.next64() & 0x800fffffffffffffull) | ((u64)(850u + g.next32() % 400u) << 52));
        else xd[i] = (double)((long long)g.next64() >> (g.next32() % 64)) * 0.5;
    }
    const u64 ispec[] = {0ull, 1ull, 0xFFFFFFFFFFFFFFFFull, 16777216ull, 16777217ull, 16777219ull,
                         0x7FFFFFFFull, 0x80000000ull, 0xFFFFFFFFull, 0x7FFFFF80ull, 0x7FFFFFC0ull,
                         0x7FFFFFFFFFFFFFFFull, 0x8000000000000000ull, 0x20000000000001ull,
                         0x20000000000003ull, 0xFFFFFFFF7FFFFFFFull, 0x7FFFFF7FFFFFFFFFull,
                         0xFFFFFF8000000000ull, (u64)-16777217ll, (u64)-9007199254740993ll};
    std::vector<u64> xi(n);
    int ni = sizeof ispec / sizeof ispec[0];
    for (int i = 0; i < n; ++i)
        xi[i] = i < ni ? ispec[i] : (u64)((long long)g.next64() >> (g.next32() % 64));

    float* dxf = to_dev(xf);
    double* dxd = to_dev(xd);
    u64* dxi = to_dev(xi);
    unsigned* of = dev_alloc<unsigned>((size_t)n * NF32);
    unsigned* od = dev_alloc<unsigned>((size_t)n * NF64);
    unsigned* oi = dev_alloc<unsigned>((size_t)n * NINT);
    k_conv_f32<<<(n + 127) / 128, 128>>>(dxf, of, n);
    CK_LAUNCH();
    k_conv_f64<<<(n + 127) / 128, 128>>>(dxd, od, n);
    CK_LAUNCH();
    k_conv_int<<<(n + 127) / 128, 128>>>(dxi, oi, n);
    CK_LAUNCH();
    VOut o(out_path(argc, argv, "conversions.bin"));
    put_device_info(o);
    o.put("xf", xf); o.put("xd", xd); o.put("xi", xi);
    o.put("out_f32", to_host(of, (size_t)n * NF32));
    o.put("out_f64", to_host(od, (size_t)n * NF64));
    o.put("out_int", to_host(oi, (size_t)n * NINT));
    printf("conversions: %d inputs each written\n", n);
    return 0;
}
#endif
