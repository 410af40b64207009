// lat_alu: dependent-chain latency of arithmetic instructions, in SM cycles (clock64).
// One thread (one warp) runs CHAIN instructions, each consuming the previous result, between two
// clock64() reads; best of REPS repetitions. cycles per op = (t1 - t0) / CHAIN; the clock read
// overhead (k_clock_overhead) is reported separately and is negligible at CHAIN = 512.
// Each chain is written in inline PTX so the compiler cannot fuse, reorder or drop it; the run
// script keeps the SASS (cuobjdump) so the emitted machine instructions can be checked.
// Output: named int64 records "<op>" = best total cycles for CHAIN ops; "chain" = CHAIN.
// ptxas merges pairs of dependent 32-bit adds into one IADD3 (x + y + y), and sin.approx is an
// FMUL (scaling by 1/2pi) plus MUFU.SIN: validation/pack_results.py divides by the number of
// machine instructions of the chain, counted in the SASS kept by the run script.
#define CHAIN 512
#define REPS 4

#define LAT_KERNEL(NAME, T, C, INSN)                                                   \
    extern "C" __global__ void NAME(T* io, long long* cyc)                             \
    {                                                                                  \
        T x = io[0], y = io[1], z = io[2];                                             \
        long long best = 0x7FFFFFFFFFFFFFFFll;                                         \
        for (int r = 0; r < REPS; ++r) {                                               \
            long long t0 = clock64();                                                  \
            _Pragma("unroll") for (int k = 0; k < CHAIN; ++k)                          \
                asm volatile(INSN : "+" C(x) : C(y), C(z));                            \
            long long t1 = clock64();                                                  \
            best = min(best, t1 - t0);                                                 \
        }                                                                              \
        io[3] = x;                                                                     \
        cyc[0] = best;                                                                 \
    }

LAT_KERNEL(lat_fadd, float, "f", "add.rn.f32 %0, %0, %1;")
LAT_KERNEL(lat_fmul, float, "f", "mul.rn.f32 %0, %0, %1;")
LAT_KERNEL(lat_ffma, float, "f", "fma.rn.f32 %0, %0, %1, %2;")
LAT_KERNEL(lat_fmnmx, float, "f", "max.f32 %0, %0, %1;")
LAT_KERNEL(lat_dadd, double, "d", "add.rn.f64 %0, %0, %1;")
LAT_KERNEL(lat_dfma, double, "d", "fma.rn.f64 %0, %0, %1, %2;")
LAT_KERNEL(lat_iadd, unsigned, "r", "add.u32 %0, %0, %1;")
LAT_KERNEL(lat_imad, unsigned, "r", "mad.lo.u32 %0, %0, %1, %2;")
LAT_KERNEL(lat_imul, unsigned, "r", "mul.lo.u32 %0, %0, %1;")
LAT_KERNEL(lat_imadhi, unsigned, "r", "mad.hi.u32 %0, %0, %1, %2;")
LAT_KERNEL(lat_popc, unsigned, "r", "popc.b32 %0, %0;")
LAT_KERNEL(lat_iadd64, unsigned long long, "l", "add.u64 %0, %0, %1;")
LAT_KERNEL(lat_mufu_sin, float, "f", "sin.approx.f32 %0, %0;")
LAT_KERNEL(lat_mufu_ex2, float, "f", "ex2.approx.ftz.f32 %0, %0;")
LAT_KERNEL(lat_mufu_rsqrt, float, "f", "rsqrt.approx.ftz.f32 %0, %0;")
LAT_KERNEL(lat_mufu_lg2, float, "f", "lg2.approx.ftz.f32 %0, %0;")
LAT_KERNEL(lat_mufu_tanh, float, "f", "tanh.approx.f32 %0, %0;")
LAT_KERNEL(lat_cvt_f2f, float, "f", "cvt.rzi.f32.f32 %0, %0;")

// shfl: each lane reads lane (laneid + 1) & 31, a per-lane index the compiler cannot fold
// (a constant index lets ptxas collapse the whole chain into one shuffle).
extern "C" __global__ void lat_shfl(unsigned* io, long long* cyc)
{
    unsigned x = io[0] + threadIdx.x, y = (threadIdx.x + 1u) & 31u;
    long long best = 0x7FFFFFFFFFFFFFFFll;
    for (int r = 0; r < REPS; ++r) {
        long long t0 = clock64();
#pragma unroll
        for (int k = 0; k < CHAIN; ++k)
            asm volatile("shfl.sync.idx.b32 %0, %0, %1, 0x1f, 0xffffffff;" : "+r"(x) : "r"(y));
        long long t1 = clock64();
        best = min(best, t1 - t0);
    }
    io[3 + threadIdx.x] = x;
    cyc[0] = best;
}

// fma with the accumulator as the multiplicand but an independent addend chain is the same
// latency; an I2F + F2I round trip measures the conversion unit.
extern "C" __global__ void lat_cvt_i2f_f2i(unsigned* io, long long* cyc)
{
    unsigned x = io[0];
    long long best = 0x7FFFFFFFFFFFFFFFll;
    for (int r = 0; r < REPS; ++r) {
        long long t0 = clock64();
#pragma unroll
        for (int k = 0; k < CHAIN / 2; ++k) {
            float f;
            asm volatile("cvt.rn.f32.s32 %0, %1;" : "=f"(f) : "r"(x));
            asm volatile("cvt.rzi.s32.f32 %0, %1;" : "=r"(x) : "f"(f));
        }
        long long t1 = clock64();
        best = min(best, t1 - t0);
    }
    io[3] = x;
    cyc[0] = best;
}

extern "C" __global__ void k_clock_overhead(long long* cyc)
{
    long long best = 0x7FFFFFFFFFFFFFFFll;
    for (int r = 0; r < 16; ++r) {
        long long t0 = clock64();
        long long t1 = clock64();
        best = min(best, t1 - t0);
    }
    cyc[0] = best;
}

// SM clock estimate: clock64 cycles elapsed over ~20 ms of %globaltimer (ns).
extern "C" __global__ void k_clock_rate(long long* out, long long max_iter)
{
    unsigned long long g0, g1;
    long long it = 0;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g0));
    long long c0 = clock64();
    do {
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g1));
    } while (g1 - g0 < 20000000ull && ++it < max_iter);
    long long c1 = clock64();
    out[0] = c1 - c0;
    out[1] = (long long)(g1 - g0);
}

#ifndef __CUDACC_RTC__
#include "vcommon.h"
#include <string>

template <class T>
static long long run_lat(void (*k)(T*, long long*), T x, T y, T z)
{
    std::vector<T> io(40, x);
    io[1] = y;
    io[2] = z;
    T* d = to_dev(io);
    long long* c = dev_alloc<long long>(1);
    k<<<1, 32>>>(d, c);
    CK_LAUNCH();
    long long r = to_host(c, 1)[0];
    CK(cudaFree(d));
    CK(cudaFree(c));
    return r;
}

int main(int argc, char** argv)
{
    VOut o(out_path(argc, argv, "lat_alu.bin"));
    put_device_info(o);
    long long* d2 = dev_alloc<long long>(2);
    // argv[2] (optional, for dry runs on a simulator whose %globaltimer may not advance)
    const long long max_iter = argc > 2 ? atoll(argv[2]) : (1ll << 40);
    k_clock_rate<<<1, 1>>>(d2, max_iter);   // also warms the clocks up
    CK_LAUNCH();
    k_clock_rate<<<1, 1>>>(d2, max_iter);
    CK_LAUNCH();
    std::vector<long long> cr = to_host(d2, 2);
    o.put("clock_rate_cycles_ns", cr);
    k_clock_overhead<<<1, 32>>>(d2);
    CK_LAUNCH();
    o.scalar("clock_overhead", to_host(d2, 1)[0]);
    o.scalar("chain", (long long)CHAIN);
    struct F { const char* n; void (*k)(float*, long long*); float x, y, z; };
    F fs[] = {{"fadd", lat_fadd, 1.0f, 1e-7f, 0.0f}, {"fmul", lat_fmul, 1.0f, 1.0000001f, 0.0f},
              {"ffma", lat_ffma, 1.0f, 0.9999999f, 1e-7f}, {"fmnmx", lat_fmnmx, 1.0f, 0.5f, 0.0f},
              {"mufu_sin", lat_mufu_sin, 0.5f, 0, 0}, {"mufu_ex2", lat_mufu_ex2, 0.5f, 0, 0},
              {"mufu_rsqrt", lat_mufu_rsqrt, 2.0f, 0, 0}, {"mufu_lg2", lat_mufu_lg2, 3.0f, 0, 0},
              {"mufu_tanh", lat_mufu_tanh, 0.7f, 0, 0}, {"cvt_f2f_rzi", lat_cvt_f2f, 3.5f, 0, 0}};
    for (auto& f : fs) o.scalar(f.n, run_lat(f.k, f.x, f.y, f.z));
    struct D { const char* n; void (*k)(double*, long long*); };
    D ds[] = {{"dadd", lat_dadd}, {"dfma", lat_dfma}};
    for (auto& d : ds) o.scalar(d.n, run_lat(d.k, 1.0, 1e-9, 1e-12));
    struct U { const char* n; void (*k)(unsigned*, long long*); };
    U us[] = {{"iadd", lat_iadd}, {"imad", lat_imad}, {"imul", lat_imul}, {"imad_hi", lat_imadhi},
              {"popc", lat_popc}, {"shfl_idx", lat_shfl}, {"cvt_i2f_f2i_pair", lat_cvt_i2f_f2i}};
    for (auto& u : us) o.scalar(u.n, run_lat(u.k, 12345u, 3u, 7u));
    o.scalar("iadd64", run_lat(lat_iadd64, 5ull, 3ull, 1ull));
    printf("lat_alu: done (%lld cycles in %lld ns)\n", cr[0], cr[1]);
    return 0;
}
#endif
