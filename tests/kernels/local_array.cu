// local_array.cu: per-thread arrays in local memory (.local, ld/st.local).
// Exercises: a 64-entry u32 array indexed by runtime values (cannot be promoted to registers,
// so ptxas reports a stack frame of at least 256 bytes), a small sort on a local array
// (insertion sort: data-dependent inner loop), local-memory address arithmetic.
//
// Kernels:
//   extern "C" __global__ void local_histogram(const unsigned* in, int per_thread,
//                                              unsigned* out, int n_threads)
//       thread t < n_threads: h[64] = 0; for k < per_thread: h[in[t*per_thread + k] & 63] += 1;
//       out[t] = sum_b h[b] * (b + 1)  (mod 2^32).
//   extern "C" __global__ void local_sort8(const int* in, int* out, int n)
//       thread t < n sorts in[8t .. 8t+7] ascending in a local int[8] (insertion sort) and
//       writes it to out[8t .. 8t+7]; the array is indexed with loop-carried variables.

extern "C" __global__ void local_histogram(const unsigned* in, int per_thread, unsigned* out,
                                           int n_threads)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n_threads) {
        return;
    }
    unsigned h[64];
    for (int b = 0; b < 64; ++b) {
        h[b] = 0u;
    }
    for (int k = 0; k < per_thread; ++k) {
        h[in[t * per_thread + k] & 63u] += 1u;
    }
    unsigned s = 0u;
    for (int b = 0; b < 64; ++b) {
        s += h[b] * (unsigned)(b + 1);
    }
    out[t] = s;
}

extern "C" __global__ void local_sort8(const int* in, int* out, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) {
        return;
    }
    int v[8];
    for (int k = 0; k < 8; ++k) {
        v[k] = in[8 * t + k];
    }
    for (int k = 1; k < 8; ++k) {
        int key = v[k];
        int j = k - 1;
        while (j >= 0 && v[j] > key) {
            v[j + 1] = v[j];
            --j;
        }
        v[j + 1] = key;
    }
    for (int k = 0; k < 8; ++k) {
        out[8 * t + k] = v[k];
    }
}
