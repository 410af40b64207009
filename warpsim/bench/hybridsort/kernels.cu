// hybridsort: bucket sort followed by per-bucket sorting (the shape of Rodinia hybridsort):
// bucket_count gives every key its bucket and its slot inside it with a global atomicAdd;
// bucket_prefix scans the bucket sizes in shared memory; bucket_scatter moves every key to its
// slot; bucket_sort sorts each bucket (one block, padded to 1024 keys) with a bitonic network in
// shared memory.
#define SORT_SIZE 1024
#define MAX_BUCKETS 1024

extern "C" __global__ void bucket_count(const float* d_in, int n, int nbuckets,
                                        unsigned int* d_counts, unsigned int* d_offsets)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int b = (int)(d_in[i] * nbuckets);
    b = min(max(b, 0), nbuckets - 1);
    d_offsets[i] = atomicAdd(&d_counts[b], 1u);
}

extern "C" __global__ void bucket_prefix(const unsigned int* d_counts, unsigned int* d_starts,
                                         int nbuckets)
{
    __shared__ unsigned int s[2][MAX_BUCKETS];
    const int t = threadIdx.x;
    int src = 0;
    s[0][t] = (t > 0 && t <= nbuckets) ? d_counts[t - 1] : 0u;  // exclusive scan
    for (int offset = 1; offset < MAX_BUCKETS; offset <<= 1) {
        __syncthreads();
        s[1 - src][t] = s[src][t] + ((t >= offset) ? s[src][t - offset] : 0u);
        src = 1 - src;
    }
    __syncthreads();
    if (t < nbuckets) d_starts[t] = s[src][t];
}

extern "C" __global__ void bucket_scatter(const float* d_in, int n, int nbuckets,
                                          const unsigned int* d_starts,
                                          const unsigned int* d_offsets, float* d_out)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const float v = d_in[i];
    int b = (int)(v * nbuckets);
    b = min(max(b, 0), nbuckets - 1);
    d_out[d_starts[b] + d_offsets[i]] = v;
}

extern "C" __global__ void bucket_sort(float* d_data, const unsigned int* d_starts,
                                       const unsigned int* d_counts)
{
    __shared__ float s_key[SORT_SIZE];
    const int tid = threadIdx.x;
    const unsigned int start = d_starts[blockIdx.x], count = d_counts[blockIdx.x];
    for (int i = tid; i < SORT_SIZE; i += blockDim.x)
        s_key[i] = (i < count) ? d_data[start + i] : 3.402823466e+38f;
    for (unsigned int size = 2; size <= SORT_SIZE; size <<= 1) {
        for (unsigned int stride = size / 2; stride > 0; stride >>= 1) {
            __syncthreads();
            const unsigned int pos = 2 * tid - (tid & (stride - 1));
            const bool up = (pos & size) == 0;
            const float a = s_key[pos], b = s_key[pos + stride];
            if ((a > b) == up) {
                s_key[pos] = b;
                s_key[pos + stride] = a;
            }
        }
    }
    __syncthreads();
    for (int i = tid; i < count; i += blockDim.x) d_data[start + i] = s_key[i];
}
