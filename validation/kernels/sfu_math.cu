// sfu_math: CUDA math library functions (IEEE-accurate versions, several of which use the
// special-function unit inside) and the fast-math intrinsics / raw .approx instructions that map
// onto the SFU (MUFU). Results as raw bits.
// Kernel: k_sfu(x, y, out, n): out[i * NOPS + k] = bits(f_k(x[i], y[i])).
// Columns 0-19: library functions; 20-39: fast intrinsics and .approx PTX (see README).
#define NOPS 40

__device__ __forceinline__ float ap_ex2(float a) { float d; asm("ex2.approx.f32 %0, %1;" : "=f"(d) : "f"(a)); return d; }
__device__ __forceinline__ float ap_ex2_ftz(float a) { float d; asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(d) : "f"(a)); return d; }
__device__ __forceinline__ float ap_lg2(float a) { float d; asm("lg2.approx.f32 %0, %1;" : "=f"(d) : "f"(a)); return d; }
__device__ __forceinline__ float ap_sin(float a) { float d; asm("sin.approx.f32 %0, %1;" : "=f"(d) : "f"(a)); return d; }
__device__ __forceinline__ float ap_cos(float a) { float d; asm("cos.approx.f32 %0, %1;" : "=f"(d) : "f"(a)); return d; }
__device__ __forceinline__ float ap_rsqrt(float a) { float d; asm("rsqrt.approx.f32 %0, %1;" : "=f"(d) : "f"(a)); return d; }
__device__ __forceinline__ float ap_rcp(float a) { float d; asm("rcp.approx.f32 %0, %1;" : "=f"(d) : "f"(a)); return d; }
__device__ __forceinline__ float ap_tanh(float a) { float d; asm("tanh.approx.f32 %0, %1;" : "=f"(d) : "f"(a)); return d; }
__device__ __forceinline__ float ap_sqrt(float a) { float d; asm("sqrt.approx.ftz.f32 %0, %1;" : "=f"(d) : "f"(a)); return d; }

extern "C" __global__ void k_sfu(const float* __restrict__ X, const float* __restrict__ Y,
                                 unsigned* __restrict__ out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float x = X[i], y = Y[i];
    float r[NOPS];
    r[0] = sinf(x);
    r[1] = cosf(x);
    r[2] = tanf(x);
    r[3] = expf(x);
    r[4] = exp2f(x);
    r[5] = exp10f(x);
    r[6] = logf(x);
    r[7] = log2f(x);
    r[8] = log10f(x);
    r[9] = sqrtf(x);
    r[10] = rsqrtf(x);
    r[11] = cbrtf(x);
    r[12] = tanhf(x);
    r[13] = atanf(x);
    r[14] = erff(x);
    r[15] = powf(x, y);
    r[16] = sinhf(x);
    r[17] = atan2f(x, y);
    r[18] = __frsqrt_rn(x);
    r[19] = sinpif(x);
    r[20] = __sinf(x);
    r[21] = __cosf(x);
    r[22] = __tanf(x);
    r[23] = __expf(x);
    r[24] = __exp10f(x);
    r[25] = __logf(x);
    r[26] = __log2f(x);
    r[27] = __log10f(x);
    r[28] = __powf(x, y);
    r[29] = __fdividef(x, y);
    r[30] = ap_ex2(x);
    r[31] = ap_ex2_ftz(x);
    r[32] = ap_lg2(x);
    r[33] = ap_sin(x);
    r[34] = ap_cos(x);
    r[35] = ap_rsqrt(x);
    r[36] = ap_rcp(x);
    r[37] = ap_tanh(x);
    r[38] = ap_sqrt(x);
    r[39] = __saturatef(__expf(-x * x));
    unsigned* o = out + (size_t)i * NOPS;
#pragma unroll
    for (int k = 0; k < NOPS; ++k) o[k] = __float_as_uint(r[k]);
}

#ifndef __CUDACC_RTC__
#include "vcommon.h"

static float fb(unsigned u) { float x; memcpy(&x, &u, 4); return x; }

int main(int argc, char** argv)
{
    const int n = 2048;
    const unsigned spec[] = {0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u,
                             0x00000001u, 0x80400000u, 0x00800000u, 0x3f800000u, 0xbf800000u,
                             0x40490fdbu, 0xc0490fdbu, 0x3fc90fdbu, 0x42b17218u, 0x42b17219u,
                             0xc2aeac50u, 0xc2cff1b5u, 0x7f7fffffu, 0x3f000000u, 0x41200000u,
                             0x4b800000u, 0x47c35000u, 0x49742400u, 0x5d5e0b6bu, 0x7149f2cau,
                             0x3a83126fu, 0x33800000u, 0x41a00000u, 0xc1a00000u, 0x3f7fffffu};
    const int ns = sizeof spec / sizeof spec[0];
    std::vector<float> x(n), y(n);
    Lcg g(6);
    for (int i = 0; i < n; ++i) {
        unsigned r = g.next32();
        if (i < ns) x[i] = fb(spec[i]);
        else if (i % 8 == 0) x[i] = fb((r & 0x807fffffu) | ((60u + g.next32() % 130u) << 23));  // wide range
        else if (i % 8 == 1) x[i] = fb(r);                                                       // any bits
        else x[i] = ((float)(r >> 8) * (1.0f / 16777216.0f) - 0.5f) * 40.0f;                     // [-20, 20)
        float t = ((float)(g.next32() >> 8) * (1.0f / 16777216.0f) - 0.5f) * 8.0f;
        y[i] = (i % 4 == 0) ? (float)(int)t : t;  // integer exponents too, for powf of negatives
    }
    float *dx = to_dev(x), *dy = to_dev(y);
    unsigned* dout = dev_alloc<unsigned>((size_t)n * NOPS);
    k_sfu<<<(n + 127) / 128, 128>>>(dx, dy, dout, n);
    CK_LAUNCH();
    VOut o(out_path(argc, argv, "sfu_math.bin"));
    put_device_info(o);
    o.put("x", x); o.put("y", y);
    o.put("out", to_host(dout, (size_t)n * NOPS));
    printf("sfu_math: %d rows x %d functions written\n", n, NOPS);
    return 0;
}
#endif
