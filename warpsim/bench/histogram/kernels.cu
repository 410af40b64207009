// histogram: 256-bin byte histogram (the shape of SDK histogram256): 192 threads = 6 warps per
// block, one 256-bin sub-histogram per warp in shared memory updated with shared atomics, a
// per-block partial histogram in global memory, then a merge kernel (one block per bin, 256
// threads, shared tree) sums the partial histograms.
#define BIN_COUNT 256
#define WARP_COUNT 6
#define THREADS (WARP_COUNT * 32)
#define MERGE_THREADS 256

extern "C" __global__ void histogram256(unsigned int* d_partial, const unsigned int* d_data,
                                        int word_count)
{
    __shared__ unsigned int s_hist[WARP_COUNT * BIN_COUNT];
    unsigned int* warp_hist = s_hist + (threadIdx.x >> 5) * BIN_COUNT;
    for (int i = threadIdx.x; i < WARP_COUNT * BIN_COUNT; i += THREADS) s_hist[i] = 0;
    __syncthreads();
    for (int pos = blockIdx.x * blockDim.x + threadIdx.x; pos < word_count;
         pos += blockDim.x * gridDim.x) {
        unsigned int data = d_data[pos];
        atomicAdd(warp_hist + ((data >> 0) & 0xFFU), 1u);
        atomicAdd(warp_hist + ((data >> 8) & 0xFFU), 1u);
        atomicAdd(warp_hist + ((data >> 16) & 0xFFU), 1u);
        atomicAdd(warp_hist + ((data >> 24) & 0xFFU), 1u);
    }
    __syncthreads();
    for (int bin = threadIdx.x; bin < BIN_COUNT; bin += THREADS) {
        unsigned int sum = 0;
        for (int w = 0; w < WARP_COUNT; w++) sum += s_hist[bin + w * BIN_COUNT];
        d_partial[blockIdx.x * BIN_COUNT + bin] = sum;
    }
}

extern "C" __global__ void merge_histogram256(unsigned int* d_hist, const unsigned int* d_partial,
                                              int partial_count)
{
    __shared__ unsigned int data[MERGE_THREADS];
    unsigned int sum = 0;
    for (int i = threadIdx.x; i < partial_count; i += MERGE_THREADS)
        sum += d_partial[blockIdx.x + i * BIN_COUNT];
    data[threadIdx.x] = sum;
    for (int stride = MERGE_THREADS / 2; stride > 0; stride >>= 1) {
        __syncthreads();
        if (threadIdx.x < stride) data[threadIdx.x] += data[threadIdx.x + stride];
    }
    if (threadIdx.x == 0) d_hist[blockIdx.x] = data[0];
}
