// float_math.cu: single-precision math, fast intrinsics and rounding functions.
// Exercises: ex2.approx / lg2.approx / sin.approx / cos.approx via __expf, __logf, __sinf,
// __cosf; rsqrt.approx (rsqrtf), sqrt.rn (sqrtf), div.rn and div.full/approx (__fdividef),
// rcp.rn (__frcp_rn), min/max.f32 (fminf/fmaxf), cvt.rmi/rzi/rni with round-half-away
// (floorf, truncf, roundf, rintf), fabsf, copysignf, fmaf, and the accurate expf/sinf paths.
//
// Kernels:
//   extern "C" __global__ void fast_math(const float* x, float* out, int n)
//       per i < n with a = x[i], out[8i .. 8i+7] = {__expf(a), __logf(|a| + 1), __sinf(a),
//       __cosf(a), rsqrtf(|a| + 1), sqrtf(|a|), __fdividef(1, |a| + 1), __frcp_rn(a)}.
//   extern "C" __global__ void exact_math(const float* x, const float* y, float* out, int n)
//       per i < n with a = x[i], b = y[i], out[10i .. 10i+9] = {a / b, fminf(a, b),
//       fmaxf(a, b), floorf(a), truncf(a), roundf(a), rintf(a), fmaf(a, b, 1), copysignf(a, b),
//       expf(a) + sinf(b)}.

extern "C" __global__ void fast_math(const float* x, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) {
        return;
    }
    float a = x[i];
    float* o = out + 8 * i;
    o[0] = __expf(a);
    o[1] = __logf(fabsf(a) + 1.0f);
    o[2] = __sinf(a);
    o[3] = __cosf(a);
    o[4] = rsqrtf(fabsf(a) + 1.0f);
    o[5] = sqrtf(fabsf(a));
    o[6] = __fdividef(1.0f, fabsf(a) + 1.0f);
    o[7] = __frcp_rn(a);
}

extern "C" __global__ void exact_math(const float* x, const float* y, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) {
        return;
    }
    float a = x[i];
    float b = y[i];
    float* o = out + 10 * i;
    o[0] = a / b;
    o[1] = fminf(a, b);
    o[2] = fmaxf(a, b);
    o[3] = floorf(a);
    o[4] = truncf(a);
    o[5] = roundf(a);
    o[6] = rintf(a);
    o[7] = fmaf(a, b, 1.0f);
    o[8] = copysignf(a, b);
    o[9] = expf(a) + sinf(b);
}
