// sorting_networks: bitonic sort of (key, value) pairs (the shape of SDK sortingNetworks):
// 512 threads sort 1024-element chunks in shared memory, then merges at large strides go through
// global memory and the small strides of every merge step through shared memory.
#define SHARED_SIZE 1024

__device__ inline void comparator(unsigned int& ka, unsigned int& va, unsigned int& kb,
                                  unsigned int& vb, unsigned int dir)
{
    if ((ka > kb) == dir) {
        unsigned int t = ka; ka = kb; kb = t;
        t = va; va = vb; vb = t;
    }
}

// Sorts each chunk; chunks alternate direction so that pairs form bitonic sequences.
extern "C" __global__ void bitonic_sort_shared1(unsigned int* d_key, unsigned int* d_val)
{
    __shared__ unsigned int s_key[SHARED_SIZE];
    __shared__ unsigned int s_val[SHARED_SIZE];
    const int off = blockIdx.x * SHARED_SIZE + threadIdx.x;
    s_key[threadIdx.x] = d_key[off];
    s_val[threadIdx.x] = d_val[off];
    s_key[threadIdx.x + SHARED_SIZE / 2] = d_key[off + SHARED_SIZE / 2];
    s_val[threadIdx.x + SHARED_SIZE / 2] = d_val[off + SHARED_SIZE / 2];
    for (unsigned int size = 2; size < SHARED_SIZE; size <<= 1) {
        unsigned int ddd = (threadIdx.x & (size / 2)) != 0;
        for (unsigned int stride = size / 2; stride > 0; stride >>= 1) {
            __syncthreads();
            unsigned int pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
            comparator(s_key[pos], s_val[pos], s_key[pos + stride], s_val[pos + stride], ddd);
        }
    }
    unsigned int ddd = blockIdx.x & 1;
    for (unsigned int stride = SHARED_SIZE / 2; stride > 0; stride >>= 1) {
        __syncthreads();
        unsigned int pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
        comparator(s_key[pos], s_val[pos], s_key[pos + stride], s_val[pos + stride], ddd);
    }
    __syncthreads();
    d_key[off] = s_key[threadIdx.x];
    d_val[off] = s_val[threadIdx.x];
    d_key[off + SHARED_SIZE / 2] = s_key[threadIdx.x + SHARED_SIZE / 2];
    d_val[off + SHARED_SIZE / 2] = s_val[threadIdx.x + SHARED_SIZE / 2];
}

// One merge step at a stride >= SHARED_SIZE through global memory.
extern "C" __global__ void bitonic_merge_global(unsigned int* d_key, unsigned int* d_val,
                                                unsigned int array_length, unsigned int size,
                                                unsigned int stride, unsigned int dir)
{
    unsigned int ci = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int cmp = ci & (array_length / 2 - 1);
    unsigned int ddd = dir ^ ((cmp & (size / 2)) != 0);
    unsigned int pos = 2 * ci - (ci & (stride - 1));
    unsigned int ka = d_key[pos], va = d_val[pos];
    unsigned int kb = d_key[pos + stride], vb = d_val[pos + stride];
    comparator(ka, va, kb, vb, ddd);
    d_key[pos] = ka; d_val[pos] = va;
    d_key[pos + stride] = kb; d_val[pos + stride] = vb;
}

// The remaining strides (< SHARED_SIZE) of one merge step, in shared memory.
extern "C" __global__ void bitonic_merge_shared(unsigned int* d_key, unsigned int* d_val,
                                                unsigned int array_length, unsigned int size,
                                                unsigned int dir)
{
    __shared__ unsigned int s_key[SHARED_SIZE];
    __shared__ unsigned int s_val[SHARED_SIZE];
    const int off = blockIdx.x * SHARED_SIZE + threadIdx.x;
    s_key[threadIdx.x] = d_key[off];
    s_val[threadIdx.x] = d_val[off];
    s_key[threadIdx.x + SHARED_SIZE / 2] = d_key[off + SHARED_SIZE / 2];
    s_val[threadIdx.x + SHARED_SIZE / 2] = d_val[off + SHARED_SIZE / 2];
    unsigned int cmp = (blockIdx.x * blockDim.x + threadIdx.x) & ((array_length / 2) - 1);
    unsigned int ddd = dir ^ ((cmp & (size / 2)) != 0);
    for (unsigned int stride = SHARED_SIZE / 2; stride > 0; stride >>= 1) {
        __syncthreads();
        unsigned int pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
        comparator(s_key[pos], s_val[pos], s_key[pos + stride], s_val[pos + stride], ddd);
    }
    __syncthreads();
    d_key[off] = s_key[threadIdx.x];
    d_val[off] = s_val[threadIdx.x];
    d_key[off + SHARED_SIZE / 2] = s_key[threadIdx.x + SHARED_SIZE / 2];
    d_val[off + SHARED_SIZE / 2] = s_val[threadIdx.x + SHARED_SIZE / 2];
}
