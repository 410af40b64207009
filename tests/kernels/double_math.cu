// double_math.cu: double-precision arithmetic and libdevice math.
// Exercises: f64 add/mul/div (div.rn.f64), sqrt.rn.f64, fma.rn.f64, pow() (nvcc emits a
// .func __internal_accurate_pow called from the kernel: call.uni with .param passing), exp/log
// (inlined polynomial sequences), fabs/fmin/fmax, f64 compares and selp, f64 <-> f32 cvt.
//
// Kernels:
//   extern "C" __global__ void double_ops(const double* x, const double* y, const double* z,
//                                         double* out, int n)
//       per i < n, out[6i .. 6i+5] = {x / y, sqrt(|x|), fma(x, y, z), pow(|x|, y),
//                                     fmin(x, y) + fmax(y, z), (x > y) ? x - y : y - x}.
//   extern "C" __global__ void double_exp_log(const double* x, double* out, float* out32, int n)
//       out[2i] = exp(x), out[2i+1] = log(|x| + 1), out32[i] = (float)(x * 0.5), for i < n.
//   extern "C" __global__ void newton_rsqrt(const double* x, double* out, int iters, int n)
//       r = rsqrt((float)x) as a start, then iters Newton steps r = r * (1.5 - 0.5 x r r);
//       out[i] = r (x > 0), for i < n.

extern "C" __global__ void double_ops(const double* x, const double* y, const double* z,
                                      double* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) {
        return;
    }
    double a = x[i];
    double b = y[i];
    double c = z[i];
    double* o = out + 6 * i;
    o[0] = a / b;
    o[1] = sqrt(fabs(a));
    o[2] = fma(a, b, c);
    o[3] = pow(fabs(a), b);
    o[4] = fmin(a, b) + fmax(b, c);
    o[5] = (a > b) ? a - b : b - a;
}

extern "C" __global__ void double_exp_log(const double* x, double* out, float* out32, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) {
        return;
    }
    double a = x[i];
    out[2 * i] = exp(a);
    out[2 * i + 1] = log(fabs(a) + 1.0);
    out32[i] = (float)(a * 0.5);
}

extern "C" __global__ void newton_rsqrt(const double* x, double* out, int iters, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) {
        return;
    }
    double a = x[i];
    double r = (double)rsqrtf((float)a);
    for (int k = 0; k < iters; ++k) {
        r = r * (1.5 - 0.5 * a * r * r);
    }
    out[i] = r;
}
