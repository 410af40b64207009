// reduce_shared.cu: shared-memory tree reduction with a volatile warp-synchronous tail.
// Exercises: a static shared array (256 floats = 1024 bytes), a halving loop with
// __syncthreads, divergence that shrinks by powers of two, then the classic unsynchronised
// last-warp unroll through a volatile pointer (relies on lockstep warps, as on pre-Volta GPUs
// and in warpsim's functional model), and one partial sum per block.
//
// Kernels:
//   extern "C" __global__ void reduce_sum(const float* in, float* partial, int n)
//       Launch with blockDim.x == 256 (required). Each block sums
//       in[blockIdx.x * 512 + tid] + in[blockIdx.x * 512 + tid + 256] over its 512 elements
//       (elements >= n count as 0) and writes partial[blockIdx.x].
//   extern "C" __global__ void reduce_max_int(const int* in, int* partial, int n)
//       Same shape (blockDim.x == 256, 256 elements per block, one per thread): block maximum of
//       in[blockIdx.x * 256 + tid] (elements >= n count as INT_MIN) into partial[blockIdx.x].

#define BLOCK 256

__device__ void warp_tail_sum(volatile float* s, int tid)
{
    s[tid] += s[tid + 32];
    s[tid] += s[tid + 16];
    s[tid] += s[tid + 8];
    s[tid] += s[tid + 4];
    s[tid] += s[tid + 2];
    s[tid] += s[tid + 1];
}

extern "C" __global__ void reduce_sum(const float* in, float* partial, int n)
{
    __shared__ float s[BLOCK];
    int tid = threadIdx.x;
    int i = blockIdx.x * (BLOCK * 2) + tid;
    float v = 0.0f;
    if (i < n) {
        v = in[i];
    }
    if (i + BLOCK < n) {
        v += in[i + BLOCK];
    }
    s[tid] = v;
    __syncthreads();
    for (int stride = BLOCK / 2; stride > 32; stride >>= 1) {
        if (tid < stride) {
            s[tid] += s[tid + stride];
        }
        __syncthreads();
    }
    if (tid < 32) {
        warp_tail_sum(s, tid);
    }
    if (tid == 0) {
        partial[blockIdx.x] = s[0];
    }
}

extern "C" __global__ void reduce_max_int(const int* in, int* partial, int n)
{
    __shared__ int s[BLOCK];
    int tid = threadIdx.x;
    int i = blockIdx.x * BLOCK + tid;
    s[tid] = (i < n) ? in[i] : (int)0x80000000;
    __syncthreads();
    for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
        if (tid < stride) {
            s[tid] = max(s[tid], s[tid + stride]);
        }
        __syncthreads();
    }
    if (tid == 0) {
        partial[blockIdx.x] = s[0];
    }
}
