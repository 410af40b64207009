// nqueens: counts N-queens solutions below host-enumerated board prefixes (the shape of the
// ISPASS-2009 NQU benchmark): 96 threads per block, one prefix per thread, an iterative bitmask
// depth-first search whose per-level stack (available squares and the three attack masks) lives
// in shared memory. Search depths differ per thread, so warps diverge heavily.
#define THREADS 96
#define MAX_DEPTH 20

extern "C" __global__ void nqueen(const unsigned int* cols0, const unsigned int* ld0,
                                  const unsigned int* rd0, unsigned int* counts, int n,
                                  int remaining, int nprefix)
{
    __shared__ unsigned int s_avail[MAX_DEPTH][THREADS];
    __shared__ unsigned int s_cols[MAX_DEPTH][THREADS];
    __shared__ unsigned int s_ld[MAX_DEPTH][THREADS];
    __shared__ unsigned int s_rd[MAX_DEPTH][THREADS];
    const int tid = threadIdx.x;
    const int p = blockIdx.x * THREADS + tid;
    if (p >= nprefix) return;
    const unsigned int all = (1u << n) - 1u;
    s_cols[0][tid] = cols0[p];
    s_ld[0][tid] = ld0[p];
    s_rd[0][tid] = rd0[p];
    s_avail[0][tid] = all & ~(cols0[p] | ld0[p] | rd0[p]);
    unsigned int count = 0;
    int d = 0;
    while (d >= 0) {
        const unsigned int avail = s_avail[d][tid];
        if (avail == 0) {
            d--;
            continue;
        }
        const unsigned int bit = avail & (0u - avail);
        s_avail[d][tid] = avail ^ bit;
        if (d + 1 == remaining) {
            count++;
            continue;
        }
        const unsigned int nc = s_cols[d][tid] | bit;
        const unsigned int nl = (s_ld[d][tid] | bit) << 1;
        const unsigned int nr = (s_rd[d][tid] | bit) >> 1;
        d++;
        s_cols[d][tid] = nc;
        s_ld[d][tid] = nl;
        s_rd[d][tid] = nr;
        s_avail[d][tid] = all & ~(nc | nl | nr);
    }
    counts[p] = count;
}
