// tpacf: two-point angular correlation histograms (the shape of Parboil tpacf's gen_hists):
// 256 threads; blockIdx.y selects the pair set (data-data, data-random r, random r-random r);
// each thread takes one point of the first set, the second set is streamed through shared memory
// in tiles, the dot product of unit vectors is binned by a binary search over bin boundaries in
// constant memory, and counts go to per-warp shared histograms with shared atomics.
#define THREADS 256
#define NUM_BINS 20
#define HIST_SLOTS (NUM_BINS + 2)
#define WARPS (THREADS / 32)

__constant__ float c_binb[NUM_BINS + 1];

extern "C" __global__ void gen_hists(unsigned int* histograms, const float* x, const float* y,
                                     const float* z, int npoints, int nsets)
{
    __shared__ float s_x[THREADS], s_y[THREADS], s_z[THREADS];
    __shared__ unsigned int s_hist[WARPS * HIST_SLOTS];
    const int tid = threadIdx.x;
    const int set = blockIdx.y;  // 0: DD; 1..nsets: D R_s; nsets+1..2 nsets: R_s R_s
    const int first = (set <= nsets) ? 0 : set - nsets;
    const int second = (set == 0) ? 0 : ((set <= nsets) ? set : set - nsets);
    const bool autocorr = (first == second);
    for (int i = tid; i < WARPS * HIST_SLOTS; i += THREADS) s_hist[i] = 0;
    const int i = blockIdx.x * THREADS + tid;
    const bool valid = i < npoints;
    const float xi = valid ? x[first * npoints + i] : 0.0f;
    const float yi = valid ? y[first * npoints + i] : 0.0f;
    const float zi = valid ? z[first * npoints + i] : 0.0f;
    unsigned int* warp_hist = s_hist + (tid >> 5) * HIST_SLOTS;
    for (int tile = 0; tile < npoints; tile += THREADS) {
        __syncthreads();
        if (tile + tid < npoints) {
            s_x[tid] = x[second * npoints + tile + tid];
            s_y[tid] = y[second * npoints + tile + tid];
            s_z[tid] = z[second * npoints + tile + tid];
        }
        __syncthreads();
        const int count = min(THREADS, npoints - tile);
        if (!valid) continue;
        for (int j = 0; j < count; j++) {
            if (autocorr && tile + j <= i) continue;
            const float dot = __fadd_rn(__fadd_rn(__fmul_rn(xi, s_x[j]), __fmul_rn(yi, s_y[j])),
                                        __fmul_rn(zi, s_z[j]));
            int lo = 0, hi = NUM_BINS + 1;
            while (lo < hi) {
                const int mid = (lo + hi) >> 1;
                if (c_binb[mid] <= dot) hi = mid;
                else lo = mid + 1;
            }
            atomicAdd(&warp_hist[lo], 1u);
        }
    }
    __syncthreads();
    for (int b = tid; b < HIST_SLOTS; b += THREADS) {
        unsigned int sum = 0;
        for (int w = 0; w < WARPS; w++) sum += s_hist[w * HIST_SLOTS + b];
        histograms[(set * gridDim.x + blockIdx.x) * HIST_SLOTS + b] = sum;
    }
}
