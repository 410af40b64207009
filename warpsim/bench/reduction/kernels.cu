// reduction: sum of n ints (the shape of SDK reduction kernel 6): each thread first sums
// elements grid-stride two at a time, then a shared-memory tree down to one warp, then a
// warp-synchronous tail through a volatile pointer. Multi-pass: partial sums per block, then the
// same kernel over the partials until one block remains.
#define BLOCK 256

extern "C" __global__ void reduce6(const int* g_idata, int* g_odata, unsigned int n)
{
    __shared__ int sdata[BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (BLOCK * 2) + threadIdx.x;
    unsigned int gridSize = BLOCK * 2 * gridDim.x;
    int sum = 0;
    while (i < n) {
        sum += g_idata[i];
        if (i + BLOCK < n) sum += g_idata[i + BLOCK];
        i += gridSize;
    }
    sdata[tid] = sum;
    __syncthreads();
    if (BLOCK >= 512) { if (tid < 256) { sdata[tid] = sum = sum + sdata[tid + 256]; } __syncthreads(); }
    if (BLOCK >= 256) { if (tid < 128) { sdata[tid] = sum = sum + sdata[tid + 128]; } __syncthreads(); }
    if (BLOCK >= 128) { if (tid < 64) { sdata[tid] = sum = sum + sdata[tid + 64]; } __syncthreads(); }
    if (tid < 32) {
        volatile int* smem = sdata;
        smem[tid] = sum = sum + smem[tid + 32];
        smem[tid] = sum = sum + smem[tid + 16];
        smem[tid] = sum = sum + smem[tid + 8];
        smem[tid] = sum = sum + smem[tid + 4];
        smem[tid] = sum = sum + smem[tid + 2];
        smem[tid] = sum = sum + smem[tid + 1];
    }
    if (tid == 0) g_odata[blockIdx.x] = sdata[0];
}
