// Kernels of `warpsim perf` (warpsim/runner/perf.py): one compute-bound, one memory-bound and
// one divergent kernel, each launched with >= 1e6 threads. perf.py checks every output against
// a numpy reference, so the benchmark never times a wrong result.

// Compute-bound: a 64-iteration loop mixing float FMAs with an integer hash (LCG + xorshift).
extern "C" __global__ void perf_compute(const float* __restrict__ x, float* __restrict__ y,
                                        unsigned* __restrict__ h, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float a = x[i];
    float b = 1.0f;
    unsigned k = (unsigned)i;
#pragma unroll 1
    for (int it = 0; it < 64; ++it) {
        b = fmaf(a, b, 0.5f);
        k = k * 1664525u + 1013904223u;
        k ^= k >> 13;
    }
    y[i] = b;
    h[i] = k;
}

// Memory-bound: SAXPY into a separate output (z = a * x + y), one load pair and one store.
extern "C" __global__ void perf_saxpy(int n, float a, const float* __restrict__ x,
                                      const float* __restrict__ y, float* __restrict__ z)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) z[i] = a * x[i] + y[i];
}

// Divergent: every lane runs its own trip count (0..31) of a Collatz-like step with a
// data-dependent if/else, then takes one of two paths by thread parity.
extern "C" __global__ void perf_divergent(const unsigned* __restrict__ in,
                                          unsigned* __restrict__ out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned v = in[i];
    unsigned trips = v & 31u;
    unsigned acc = v;
#pragma unroll 1
    for (unsigned t = 0; t < trips; ++t) {
        if (acc & 1u) {
            acc = acc * 3u + 1u;
            acc ^= acc >> 7;
        } else {
            acc = (acc >> 1) + (acc << 3) + t;
        }
    }
    if (i & 1) {
        acc ^= 0x5bd1e995u;
        acc = acc * 0x9e3779b9u;
    } else {
        acc += (unsigned)i;
        acc = (acc << 5) | (acc >> 27);
    }
    out[i] = acc;
}
