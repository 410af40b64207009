// scan: exclusive prefix sum of uints with the work-efficient (Blelloch) up-sweep / down-sweep
// tree in shared memory, 2 elements per thread, 512 per block (the role of SDK scan's
// scanExclusiveShared), then the block totals are scanned and added back (uniformUpdate).
#define THREADS 256
#define ELEMS (2 * THREADS)

extern "C" __global__ void scan_block(unsigned int* d_dst, const unsigned int* d_src,
                                      unsigned int* d_block_sums, int n)
{
    __shared__ unsigned int s[ELEMS];
    const int tid = threadIdx.x;
    const int base = blockIdx.x * ELEMS;
    s[tid] = (base + tid < n) ? d_src[base + tid] : 0u;
    s[tid + THREADS] = (base + tid + THREADS < n) ? d_src[base + tid + THREADS] : 0u;
    int offset = 1;
    for (int d = ELEMS >> 1; d > 0; d >>= 1) {
        __syncthreads();
        if (tid < d) {
            int ai = offset * (2 * tid + 1) - 1;
            int bi = offset * (2 * tid + 2) - 1;
            s[bi] += s[ai];
        }
        offset <<= 1;
    }
    if (tid == 0) {
        d_block_sums[blockIdx.x] = s[ELEMS - 1];
        s[ELEMS - 1] = 0;
    }
    for (int d = 1; d < ELEMS; d <<= 1) {
        offset >>= 1;
        __syncthreads();
        if (tid < d) {
            int ai = offset * (2 * tid + 1) - 1;
            int bi = offset * (2 * tid + 2) - 1;
            unsigned int t = s[ai];
            s[ai] = s[bi];
            s[bi] += t;
        }
    }
    __syncthreads();
    if (base + tid < n) d_dst[base + tid] = s[tid];
    if (base + tid + THREADS < n) d_dst[base + tid + THREADS] = s[tid + THREADS];
}

extern "C" __global__ void uniform_add(unsigned int* d_data, const unsigned int* d_block_sums,
                                       int n)
{
    __shared__ unsigned int buf;
    if (threadIdx.x == 0) buf = d_block_sums[blockIdx.x];
    __syncthreads();
    const int i = blockIdx.x * ELEMS + threadIdx.x;
    if (i < n) d_data[i] += buf;
    if (i + THREADS < n) d_data[i + THREADS] += buf;
}
