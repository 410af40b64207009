// atomics.cu: shared-memory and global-memory atomics.
// Exercises: atom.shared.add (histogram privatised per block), atom.shared.min/max/or/cas/exch,
// atom.global.add/min/max/exch/or/cas (results unused or used), a CAS retry loop (float max via
// atomicCAS on the bit pattern), atomicAdd on float and on unsigned long long.
//
// Kernels:
//   extern "C" __global__ void histogram256(const unsigned char* data, int n, unsigned* hist)
//       hist[b] += count of data[i] == b, for b < 256; block-private shared histogram
//       (256 x u32 = 1024 bytes static shared), merged with global atomicAdd.
//       blockDim.x may be anything; grid-stride over n.
//   extern "C" __global__ void global_atomics(const int* in, int n, int* stats,
//                                             unsigned* bits, int* last)
//       for i < n, v = in[i]: atomicAdd(&stats[0], v); atomicMin(&stats[1], v);
//       atomicMax(&stats[2], v); atomicAdd(&stats[3], 1); atomicOr(bits, 1u << (v & 31));
//       atomicExch(last, v) (final value: any one v). Host initialises stats to
//       {0, INT_MAX, INT_MIN, 0} and bits to 0.
//   extern "C" __global__ void cas_float_max(const float* in, int n, float* result)
//       *result = max(*result, max(in[i])) through an atomicCAS loop on the int bits
//       (values are finite).
//   extern "C" __global__ void atomic_add_wide(const float* x, const unsigned* y, int n,
//                                              float* fsum, unsigned long long* usum)
//       *fsum += x[i] (order-dependent rounding), *usum += y[i] (exact), for i < n.
//   extern "C" __global__ void claim_slots(int* slots, int n_slots, int* owner, int n)
//       thread i < n tries slots (i * 7 + k) % n_slots, k = 0, 1, ..., taking the first one
//       whose atomicCAS(&slots[s], -1, i) succeeds; owner[i] = s (or -1 if none free).
//   extern "C" __global__ void shared_atomics(const int* in, int n, int* out)
//       per block b, over its threads t with i = b * blockDim.x + t < n and v = in[i], through
//       atom.shared min/max/or/add/cas/exch on block-shared ints:
//       out[6b .. 6b+5] = {min v, max v, OR of (1 << (v & 31)), count of valid threads,
//       t of the first thread whose atomicCAS(&first, -1, t) won (any valid t),
//       v of some valid thread (atomicExch; whichever came last)}.
//       Blocks with no valid thread write {INT_MAX, INT_MIN, 0, 0, -1, 0}.

extern "C" __global__ void histogram256(const unsigned char* data, int n, unsigned* hist)
{
    __shared__ unsigned local[256];
    for (int b = threadIdx.x; b < 256; b += blockDim.x) {
        local[b] = 0u;
    }
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        atomicAdd(&local[data[i]], 1u);
    }
    __syncthreads();
    for (int b = threadIdx.x; b < 256; b += blockDim.x) {
        if (local[b] != 0u) {
            atomicAdd(&hist[b], local[b]);
        }
    }
}

extern "C" __global__ void global_atomics(const int* in, int n, int* stats, unsigned* bits,
                                          int* last)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) {
        return;
    }
    int v = in[i];
    atomicAdd(&stats[0], v);
    atomicMin(&stats[1], v);
    atomicMax(&stats[2], v);
    atomicAdd(&stats[3], 1);
    atomicOr(bits, 1u << (v & 31));
    atomicExch(last, v);
}

extern "C" __global__ void cas_float_max(const float* in, int n, float* result)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) {
        return;
    }
    float v = in[i];
    int* addr = reinterpret_cast<int*>(result);
    int old = *addr;
    while (__int_as_float(old) < v) {
        int assumed = old;
        old = atomicCAS(addr, assumed, __float_as_int(v));
        if (old == assumed) {
            break;
        }
    }
}

extern "C" __global__ void atomic_add_wide(const float* x, const unsigned* y, int n, float* fsum,
                                           unsigned long long* usum)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        atomicAdd(fsum, x[i]);
        atomicAdd(usum, (unsigned long long)y[i]);
    }
}

extern "C" __global__ void claim_slots(int* slots, int n_slots, int* owner, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) {
        return;
    }
    int got = -1;
    for (int k = 0; k < n_slots; ++k) {
        int s = (i * 7 + k) % n_slots;
        if (atomicCAS(&slots[s], -1, i) == -1) {
            got = s;
            break;
        }
    }
    owner[i] = got;
}

extern "C" __global__ void shared_atomics(const int* in, int n, int* out)
{
    __shared__ int s_min, s_max, s_count, s_first, s_last;
    __shared__ unsigned s_bits;
    int t = threadIdx.x;
    if (t == 0) {
        s_min = 0x7fffffff;
        s_max = (int)0x80000000;
        s_bits = 0u;
        s_count = 0;
        s_first = -1;
        s_last = 0;
    }
    __syncthreads();
    int i = blockIdx.x * blockDim.x + t;
    if (i < n) {
        int v = in[i];
        atomicMin(&s_min, v);
        atomicMax(&s_max, v);
        atomicOr(&s_bits, 1u << (v & 31));
        atomicAdd(&s_count, 1);
        atomicCAS(&s_first, -1, t);
        atomicExch(&s_last, v);
    }
    __syncthreads();
    if (t == 0) {
        int* o = out + 6 * blockIdx.x;
        o[0] = s_min;
        o[1] = s_max;
        o[2] = (int)s_bits;
        o[3] = s_count;
        o[4] = s_first;
        o[5] = s_last;
    }
}
