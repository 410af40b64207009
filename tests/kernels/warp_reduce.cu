// warp_reduce.cu: warp-level primitives (shfl, vote, redux) on sm_80.
// Exercises: __shfl_down_sync and __shfl_xor_sync butterflies (shfl.sync.down/bfly),
// __shfl_sync broadcast (shfl.sync.idx), __ballot_sync / __any_sync / __all_sync (vote.sync),
// __reduce_add_sync / __reduce_min_sync / __reduce_or_sync (redux.sync, sm_80+), __popc of a
// ballot, lane id from tid.x & 31, one global atomicAdd per warp.
//
// Kernels:
//   extern "C" __global__ void warp_sum_shfl(const float* in, float* out, int n)
//       per warp w (global warp index = (blockIdx.x*blockDim.x + threadIdx.x) / 32):
//       out[w] = sum of in[32w .. 32w+31] (elements >= n count as 0), via shfl.down;
//       out has one entry per launched warp; blockDim.x must be a multiple of 32.
//   extern "C" __global__ void warp_vote(const int* in, unsigned* ballots, int* counts,
//                                        int* flags, int n)
//       p = (i < n && in[i] > 0). ballots[w] = 32-bit ballot of p over the warp,
//       counts[w] = popcount of it, flags[w] = any(p) | (all(p) << 1); blockDim.x % 32 == 0.
//   extern "C" __global__ void warp_redux(const unsigned* in, unsigned* sums, unsigned* mins,
//                                         unsigned* ors, int n)
//       per warp w over lanes with i < n (others contribute 0 / 0xffffffff / 0):
//       sums[w] = sum (mod 2^32), mins[w] = min, ors[w] = bitwise or; blockDim.x % 32 == 0.
//   extern "C" __global__ void warp_allreduce_bcast(const int* in, int* out, int n)
//       xor-butterfly all-reduce: every lane gets its warp's sum s; lane 0's input x0 is
//       broadcast; out[i] = s * 1000 + x0 for i < n (others of the warp contribute 0).
//   extern "C" __global__ void block_sum_atomic(const float* in, float* total, int n)
//       shfl.down warp sums, then lane 0 does atomicAdd(total, warp_sum).

extern "C" __global__ void warp_sum_shfl(const float* in, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = (i < n) ? in[i] : 0.0f;
    for (int offset = 16; offset > 0; offset >>= 1) {
        v += __shfl_down_sync(0xffffffffu, v, offset);
    }
    if ((threadIdx.x & 31) == 0) {
        out[i / 32] = v;
    }
}

extern "C" __global__ void warp_vote(const int* in, unsigned* ballots, int* counts, int* flags,
                                     int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int p = (i < n) && (in[i] > 0);
    unsigned ballot = __ballot_sync(0xffffffffu, p);
    int any = __any_sync(0xffffffffu, p);
    int all = __all_sync(0xffffffffu, p);
    if ((threadIdx.x & 31) == 0) {
        int w = i / 32;
        ballots[w] = ballot;
        counts[w] = __popc(ballot);
        flags[w] = (any ? 1 : 0) | (all ? 2 : 0);
    }
}

extern "C" __global__ void warp_redux(const unsigned* in, unsigned* sums, unsigned* mins,
                                      unsigned* ors, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    bool ok = i < n;
    unsigned v = ok ? in[i] : 0u;
    unsigned s = __reduce_add_sync(0xffffffffu, v);
    unsigned m = __reduce_min_sync(0xffffffffu, ok ? v : 0xffffffffu);
    unsigned o = __reduce_or_sync(0xffffffffu, v);
    if ((threadIdx.x & 31) == 0) {
        int w = i / 32;
        sums[w] = s;
        mins[w] = m;
        ors[w] = o;
    }
}

extern "C" __global__ void warp_allreduce_bcast(const int* in, int* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int x = (i < n) ? in[i] : 0;
    int s = x;
    for (int mask = 16; mask > 0; mask >>= 1) {
        s += __shfl_xor_sync(0xffffffffu, s, mask);
    }
    int x0 = __shfl_sync(0xffffffffu, x, 0);
    if (i < n) {
        out[i] = s * 1000 + x0;
    }
}

extern "C" __global__ void block_sum_atomic(const float* in, float* total, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = (i < n) ? in[i] : 0.0f;
    for (int offset = 16; offset > 0; offset >>= 1) {
        v += __shfl_down_sync(0xffffffffu, v, offset);
    }
    if ((threadIdx.x & 31) == 0) {
        atomicAdd(total, v);
    }
}
