// histo: saturating histogram of 32-bit values over a computed range (the shape of Parboil
// histo's four kernels): histo_prescan reduces the minimum and maximum in shared memory and
// publishes them with global atomicMin / atomicMax; histo_intermediates maps every value to its
// bin; histo_main counts bins in a shared-memory histogram with shared atomics and adds it to
// the global one with global atomics; histo_final saturates the counts to 8 bits.
#define BINS 1024
#define PRESCAN_THREADS 512
#define MAIN_THREADS 768

extern "C" __global__ void histo_prescan(const unsigned int* input, int size,
                                         unsigned int* minmax)
{
    __shared__ unsigned int s_min[PRESCAN_THREADS], s_max[PRESCAN_THREADS];
    const int tid = threadIdx.x;
    unsigned int lo = 0xFFFFFFFFu, hi = 0u;
    for (int i = blockIdx.x * PRESCAN_THREADS + tid; i < size; i += PRESCAN_THREADS * gridDim.x) {
        const unsigned int v = input[i];
        lo = min(lo, v);
        hi = max(hi, v);
    }
    s_min[tid] = lo;
    s_max[tid] = hi;
    for (int s = PRESCAN_THREADS / 2; s > 0; s >>= 1) {
        __syncthreads();
        if (tid < s) {
            s_min[tid] = min(s_min[tid], s_min[tid + s]);
            s_max[tid] = max(s_max[tid], s_max[tid + s]);
        }
    }
    if (tid == 0) {
        atomicMin(&minmax[0], s_min[0]);
        atomicMax(&minmax[1], s_max[0]);
    }
}

extern "C" __global__ void histo_intermediates(const unsigned int* input, int size,
                                               const unsigned int* minmax,
                                               unsigned short* bins)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= size) return;
    const unsigned int lo = minmax[0];
    const unsigned long long span = (unsigned long long)(minmax[1] - lo) + 1ull;
    bins[i] = (unsigned short)(((unsigned long long)(input[i] - lo) * BINS) / span);
}

extern "C" __global__ void histo_main(const unsigned short* bins, int size,
                                      unsigned int* global_hist)
{
    __shared__ unsigned int s_hist[BINS];
    for (int b = threadIdx.x; b < BINS; b += MAIN_THREADS) s_hist[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * MAIN_THREADS + threadIdx.x; i < size; i += MAIN_THREADS * gridDim.x)
        atomicAdd(&s_hist[bins[i]], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += MAIN_THREADS)
        if (s_hist[b]) atomicAdd(&global_hist[b], s_hist[b]);
}

extern "C" __global__ void histo_final(const unsigned int* global_hist, unsigned char* out)
{
    const int b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b < BINS) {
        const unsigned int v = global_hist[b];
        out[b] = (unsigned char)(v > 255u ? 255u : v);
    }
}
