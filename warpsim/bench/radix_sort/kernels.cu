// radix_sort: least-significant-digit radix sort of unsigned keys, 4 bits per pass, in the
// structure of the CUDA SDK's radixSort (Satish, Harris, Garland, IPDPS 2009): each pass
// (1) sorts every 1024-key tile by the pass's digit in shared memory with four 1-bit stable
// splits (a block-wide prefix sum each), (2) counts each tile's keys per digit and finds where
// each digit starts in the sorted tile, (3) scans the per-digit, per-tile counts (digit-major)
// and (4) scatters every key to its global position. Blocks of 512 threads, 2 keys each.
#define CTA 512
#define TILE (2 * CTA)
#define RADIX 16
#define N_WARPS (CTA / 32)

// Exclusive prefix sum of v over the block (a warp scan with shuffles, then the warp totals
// scanned by warp 0 in shared memory); *total gets the block's sum. Every thread must call it.
__device__ unsigned block_exclusive_scan(unsigned v, unsigned* wsum, unsigned* total)
{
    const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    unsigned x = v;
    for (int o = 1; o < 32; o <<= 1) {
        const unsigned y = __shfl_up_sync(0xffffffffu, x, o);
        if (lane >= o) x += y;
    }
    if (lane == 31) wsum[warp] = x;
    __syncthreads();
    if (warp == 0) {
        unsigned s = lane < N_WARPS ? wsum[lane] : 0u;
        for (int o = 1; o < N_WARPS; o <<= 1) {
            const unsigned y = __shfl_up_sync(0xffffffffu, s, o);
            if (lane >= o) s += y;
        }
        if (lane < N_WARPS) wsum[lane] = s;
    }
    __syncthreads();
    *total = wsum[N_WARPS - 1];
    const unsigned before = warp ? wsum[warp - 1] : 0u;
    __syncthreads();  // wsum is rewritten by the next call
    return before + x - v;
}

extern "C" __global__ void radix_sort_blocks(const unsigned* keys_in, unsigned* keys_out,
                                             int shift)
{
    __shared__ unsigned sk[TILE];
    __shared__ unsigned wsum[N_WARPS];
    const unsigned t = threadIdx.x, base = blockIdx.x * TILE;
    sk[t] = keys_in[base + t];
    sk[t + CTA] = keys_in[base + t + CTA];
    __syncthreads();
    for (int b = shift; b < shift + 4; b++) {
        const unsigned k0 = sk[2 * t], k1 = sk[2 * t + 1];
        const unsigned f0 = ((k0 >> b) & 1u) ^ 1u, f1 = ((k1 >> b) & 1u) ^ 1u;
        unsigned n_false;
        const unsigned before = block_exclusive_scan(f0 + f1, wsum, &n_false);
        const unsigned p0 = f0 ? before : n_false + 2 * t - before;
        const unsigned p1 = f1 ? before + f0 : n_false + 2 * t + 1 - (before + f0);
        sk[p0] = k0;
        sk[p1] = k1;
        __syncthreads();
    }
    keys_out[base + t] = sk[t];
    keys_out[base + t + CTA] = sk[t + CTA];
}

extern "C" __global__ void find_radix_offsets(const unsigned* keys, unsigned* counters,
                                              unsigned* block_offsets, int shift, int n_blocks)
{
    __shared__ unsigned sd[TILE];
    __shared__ unsigned start[RADIX], end[RADIX];
    const unsigned t = threadIdx.x, base = blockIdx.x * TILE;
    sd[t] = (keys[base + t] >> shift) & (RADIX - 1);
    sd[t + CTA] = (keys[base + t + CTA] >> shift) & (RADIX - 1);
    if (t < RADIX) { start[t] = 0; end[t] = 0; }
    __syncthreads();
    for (unsigned p = t; p < TILE; p += CTA) {
        const unsigned d = sd[p];
        if (p == 0 || sd[p - 1] != d) start[d] = p;
        if (p == TILE - 1 || sd[p + 1] != d) end[d] = p + 1;
    }
    __syncthreads();
    if (t < RADIX) {
        counters[t * n_blocks + blockIdx.x] = end[t] - start[t];
        block_offsets[blockIdx.x * RADIX + t] = start[t];
    }
}

// One block: exclusive prefix sum of counters[0..n) in place, n / CTA values per thread.
extern "C" __global__ void scan_counts(unsigned* counters, int n)
{
    __shared__ unsigned wsum[N_WARPS];
    const int per = (n + CTA - 1) / CTA, lo = threadIdx.x * per;
    const int hi = min(lo + per, n);
    unsigned s = 0;
    for (int i = lo; i < hi; i++) s += counters[i];
    unsigned total;
    unsigned run = block_exclusive_scan(s, wsum, &total);
    for (int i = lo; i < hi; i++) {
        const unsigned c = counters[i];
        counters[i] = run;
        run += c;
    }
}

extern "C" __global__ void reorder_data(const unsigned* keys, unsigned* keys_out,
                                        const unsigned* counters, const unsigned* block_offsets,
                                        int shift, int n_blocks)
{
    __shared__ unsigned gstart[RADIX], lstart[RADIX];
    const unsigned t = threadIdx.x, base = blockIdx.x * TILE;
    if (t < RADIX) {
        gstart[t] = counters[t * n_blocks + blockIdx.x];
        lstart[t] = block_offsets[blockIdx.x * RADIX + t];
    }
    __syncthreads();
    for (unsigned p = t; p < TILE; p += CTA) {
        const unsigned k = keys[base + p], d = (k >> shift) & (RADIX - 1);
        keys_out[gstart[d] + p - lstart[d]] = k;
    }
}
