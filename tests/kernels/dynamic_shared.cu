// dynamic_shared.cu: dynamic shared memory (extern __shared__) next to static shared memory.
// Exercises: .extern .shared .align 16 .b8 dyn[] (sized at launch), a static
// __shared__ float[128] (exactly 512 bytes: ptxas reports "512 bytes smem"), a block-wide
// reversal through shared memory with __syncthreads, and two typed views of the same dynamic
// buffer (floats in the first blockDim.x words, ints in the next blockDim.x words).
//
// Kernels:
//   extern "C" __global__ void reverse_dynamic(const float* in, float* out, int n)
//       Launch with blockDim.x <= 128 and dynamic shared bytes >= blockDim.x * 8.
//       With m = blockDim.x, base = blockIdx.x * m, k = m - 1 - t, and
//       v[j] = in[base + j] if base + j < n else 0:
//       out[base + t] = 2 * v[k] + k + k * k, for base + t < n.

extern "C" __global__ void reverse_dynamic(const float* in, float* out, int n)
{
    extern __shared__ float dyn[];
    __shared__ float stat[128];
    int t = threadIdx.x;
    int m = blockDim.x;
    int base = blockIdx.x * m;
    int* idyn = reinterpret_cast<int*>(dyn + m);
    stat[t] = (float)t;
    dyn[t] = (base + t < n) ? in[base + t] : 0.0f;
    idyn[t] = t * t;
    __syncthreads();
    int k = m - 1 - t;
    if (base + t < n) {
        out[base + t] = dyn[k] * 2.0f + stat[k] + (float)idyn[k];
    }
}
