// const_globals.cu: module-scope variables in constant and global memory.
// Exercises: __constant__ arrays with an initialiser (.const with = {...}) and without one
// (set by the host before launch), ld.const with a runtime index, a __device__ global with an
// initialiser and one without (ld/st.global through the symbol's address), a __device__ array
// updated with atomics.
//
// Module variables (names as in the PTX):
//   __constant__ float c_coeffs[8] = {1, 0.5, 0.25, 0.125, -1, -0.5, -0.25, -0.125};
//   __constant__ int   c_table[16];            // no initialiser: host fills it (zeros if not)
//   __device__   int   g_scale = 3;
//   __device__   unsigned g_counter;           // zero-initialised
//   __device__   int   g_hits[4];              // zero-initialised
//
// Kernels:
//   extern "C" __global__ void poly_const(const float* x, float* out, int n)
//       out[i] = sum_{k<8} c_coeffs[k] * x[i]^k (Horner from k = 7 down), for i < n.
//   extern "C" __global__ void table_lookup(const int* idx, int* out, int n)
//       out[i] = c_table[idx[i] & 15] * g_scale; atomicAdd(&g_counter, 1);
//       atomicAdd(&g_hits[idx[i] & 3], 1), for i < n.
//   extern "C" __global__ void set_scale(int s)
//       thread 0 of block 0: g_scale = s.

__constant__ float c_coeffs[8] = {1.0f, 0.5f, 0.25f, 0.125f, -1.0f, -0.5f, -0.25f, -0.125f};
__constant__ int c_table[16];
__device__ int g_scale = 3;
__device__ unsigned g_counter;
__device__ int g_hits[4];

extern "C" __global__ void poly_const(const float* x, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) {
        return;
    }
    float a = x[i];
    float acc = c_coeffs[7];
    for (int k = 6; k >= 0; --k) {
        acc = acc * a + c_coeffs[k];
    }
    out[i] = acc;
}

extern "C" __global__ void table_lookup(const int* idx, int* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) {
        return;
    }
    int k = idx[i];
    out[i] = c_table[k & 15] * g_scale;
    atomicAdd(&g_counter, 1u);
    atomicAdd(&g_hits[k & 3], 1);
}

extern "C" __global__ void set_scale(int s)
{
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        g_scale = s;
    }
}
