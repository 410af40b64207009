// vector_add.cu: the smallest useful kernel (tiny register footprint, ~8-12 registers).
// Exercises: global thread index from ctaid.x/ntid.x/tid.x, a bounds check, f32 load/add/store.
//
// Kernels:
//   extern "C" __global__ void vec_add(const float* a, const float* b, float* c, int n)
//       c[i] = a[i] + b[i] for i < n (1-D grid, 1-D block).
//   extern "C" __global__ void vec_add_int(const int* a, const int* b, int* c, int n)
//       same for 32-bit ints, i.e. c[i] = a[i] + b[i] with wrap-around.

extern "C" __global__ void vec_add(const float* a, const float* b, float* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        c[i] = a[i] + b[i];
    }
}

extern "C" __global__ void vec_add_int(const int* a, const int* b, int* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        c[i] = a[i] + b[i];
    }
}
