// throughput: issue throughput of independent instructions on ONE SM. One block of 1024 threads
// (32 warps); each thread runs ILP independent chains for ITER unrolled steps, OUTER times. Each
// warp records clock64() at its start and end (after a __syncthreads); the SM's span is
// max(end) - min(start). Result: thread-operations per cycle per SM
// (= 32 * warp-instructions per cycle).
// Output records "<op>" = {span_cycles, thread_ops}.
#define ILP 8
#define ITER 32
#define OUTER 16
#define THREADS 1024

#define TP_KERNEL(NAME, T, C, INSN)                                                     \
    extern "C" __global__ void NAME(const T* in, T* out, long long* span)               \
    {                                                                                   \
        T v[ILP];                                                                       \
        T y = in[1], z = in[2];                                                         \
        _Pragma("unroll") for (int k = 0; k < ILP; ++k) v[k] = in[0] + (T)(threadIdx.x + k); \
        __syncthreads();                                                                \
        long long t0 = clock64();                                                       \
        for (int o = 0; o < OUTER; ++o) {                                               \
            _Pragma("unroll") for (int s = 0; s < ITER; ++s) {                          \
                _Pragma("unroll") for (int k = 0; k < ILP; ++k)                         \
                    asm volatile(INSN : "+" C(v[k]) : C(y), C(z));                      \
            }                                                                           \
        }                                                                               \
        long long t1 = clock64();                                                       \
        T acc = v[0];                                                                   \
        _Pragma("unroll") for (int k = 1; k < ILP; ++k) acc += v[k];                    \
        out[threadIdx.x] = acc;                                                         \
        if ((threadIdx.x & 31) == 0) {                                                  \
            span[2 * (threadIdx.x >> 5)] = t0;                                          \
            span[2 * (threadIdx.x >> 5) + 1] = t1;                                      \
        }                                                                               \
    }

TP_KERNEL(tp_ffma, float, "f", "fma.rn.f32 %0, %0, %1, %2;")
TP_KERNEL(tp_fadd, float, "f", "add.rn.f32 %0, %0, %1;")
TP_KERNEL(tp_fmul, float, "f", "mul.rn.f32 %0, %0, %1;")
TP_KERNEL(tp_dfma, double, "d", "fma.rn.f64 %0, %0, %1, %2;")
TP_KERNEL(tp_imad, unsigned, "r", "mad.lo.u32 %0, %0, %1, %2;")
TP_KERNEL(tp_iadd, unsigned, "r", "add.u32 %0, %0, %1;")
TP_KERNEL(tp_lop3, unsigned, "r", "lop3.b32 %0, %0, %1, %2, 0x6a;")
TP_KERNEL(tp_popc, unsigned, "r", "popc.b32 %0, %0;")
TP_KERNEL(tp_mufu_ex2, float, "f", "ex2.approx.ftz.f32 %0, %0;")
TP_KERNEL(tp_mufu_rsqrt, float, "f", "rsqrt.approx.ftz.f32 %0, %0;")
TP_KERNEL(tp_shfl, unsigned, "r", "shfl.sync.bfly.b32 %0, %0, 1, 0x1f, 0xffffffff;")

#ifndef __CUDACC_RTC__
#include "vcommon.h"

template <class T>
static std::vector<long long> run_tp(void (*k)(const T*, T*, long long*), T x, T y, T z)
{
    std::vector<T> in = {x, y, z};
    T* din = to_dev(in);
    T* dout = dev_alloc<T>(THREADS);
    long long* dspan = dev_alloc<long long>(2 * THREADS / 32);
    k<<<1, THREADS>>>(din, dout, dspan);   // warm-up (instruction cache, clocks)
    CK_LAUNCH();
    long long best = -1;
    for (int rep = 0; rep < 3; ++rep) {
        k<<<1, THREADS>>>(din, dout, dspan);
        CK_LAUNCH();
        std::vector<long long> s = to_host(dspan, 2 * THREADS / 32);
        long long lo = s[0], hi = s[1];
        for (int w = 0; w < THREADS / 32; ++w) { lo = std::min(lo, s[2 * w]); hi = std::max(hi, s[2 * w + 1]); }
        if (best < 0 || hi - lo < best) best = hi - lo;
    }
    CK(cudaFree(din)); CK(cudaFree(dout)); CK(cudaFree(dspan));
    return {best, (long long)THREADS * ILP * ITER * OUTER};
}

int main(int argc, char** argv)
{
    VOut o(out_path(argc, argv, "throughput.bin"));
    put_device_info(o);
    o.put("ffma", run_tp(tp_ffma, 1.0f, 0.9999999f, 1e-7f));
    o.put("fadd", run_tp(tp_fadd, 1.0f, 1e-7f, 0.0f));
    o.put("fmul", run_tp(tp_fmul, 1.0f, 1.0000001f, 0.0f));
    o.put("dfma", run_tp(tp_dfma, 1.0, 0.999999999, 1e-9));
    o.put("imad", run_tp(tp_imad, 1u, 3u, 7u));
    o.put("iadd", run_tp(tp_iadd, 1u, 3u, 7u));
    o.put("lop3", run_tp(tp_lop3, 1u, 0x12345678u, 0x9abcdef0u));
    o.put("popc", run_tp(tp_popc, 1u, 0u, 0u));
    o.put("mufu_ex2", run_tp(tp_mufu_ex2, 0.5f, 0.0f, 0.0f));
    o.put("mufu_rsqrt", run_tp(tp_mufu_rsqrt, 2.0f, 0.0f, 0.0f));
    o.put("shfl_bfly", run_tp(tp_shfl, 1u, 0u, 0u));
    printf("throughput: done\n");
    return 0;
}
#endif
