// templated.cu: C++ templates and mangled kernel names.
// Exercises: template kernels instantiated explicitly (.entry names are Itanium-mangled, e.g.
// _Z4axpyIfEvT_PKS0_PS0_i), a template device function, a non-type template parameter used as
// an unroll count, and a C++ (non-extern "C") plain kernel. Mangled names are what the PTX,
// ptxas and warpsim's Module use.
//
// Kernels (mangled names in brackets, as nvcc/NVRTC emit them):
//   template <typename T> __global__ void axpy(T a, const T* x, T* y, int n)
//       y[i] = a * x[i] + y[i], for i < n. Instantiated for float [_Z4axpyIfEvT_PKS0_PS0_i],
//       double [_Z4axpyIdEvT_PKS0_PS0_i] and int [_Z4axpyIiEvT_PKS0_PS0_i].
//   template <int R> __global__ void sum_window(const float* x, float* out, int n)
//       out[i] = sum_{r < R} x[min(i + r, n - 1)], for i < n. Instantiated for R = 4
//       [_Z10sum_windowILi4EEvPKfPfi].
//   __global__ void scale_cpp(float* x, float s, int n)            [_Z9scale_cppPffi]
//       x[i] *= s, for i < n.

template <typename T>
__device__ T madd(T a, T x, T y)
{
    return a * x + y;
}

template <typename T>
__global__ void axpy(T a, const T* x, T* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] = madd(a, x[i], y[i]);
    }
}

template <int R>
__global__ void sum_window(const float* x, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) {
        return;
    }
    float s = 0.0f;
#pragma unroll
    for (int r = 0; r < R; ++r) {
        s += x[min(i + r, n - 1)];
    }
    out[i] = s;
}

__global__ void scale_cpp(float* x, float s, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        x[i] *= s;
    }
}

template __global__ void axpy<float>(float, const float*, float*, int);
template __global__ void axpy<double>(double, const double*, double*, int);
template __global__ void axpy<int>(int, const int*, int*, int);
template __global__ void sum_window<4>(const float*, float*, int);
