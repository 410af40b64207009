// conversions.cu: int <-> float conversions, rounding modes and saturation.
// Exercises: cvt.rni/rzi/rpi/rmi.s32.f32 (__float2int_rn/rz/ru/rd), cvt.rni.u32.f32
// (__float2uint_rn; NaN -> 0, negatives -> 0, huge -> 0xffffffff), cvt.rn/rz.f32.s32,
// cvt.rn.f32.u32, cvt.rn.f32.s64, cvt.rzi.s64.f32, cvt.rn.f32.f64, cvt.rni.s32.f64,
// cvt.sat.f32.f32 (__saturatef), C casts (cvt.rzi), and narrowing integer casts
// (cvt.u8/s16 style truncation through stores of char/short).
//
// Kernels:
//   extern "C" __global__ void float_to_int(const float* x, int* out_i, unsigned* out_u,
//                                           long long* out_ll, int n)
//       per i < n with a = x[i]: out_i[5i .. 5i+4] = {__float2int_rn(a), __float2int_rz(a),
//       __float2int_ru(a), __float2int_rd(a), (int)a}; out_u[i] = __float2uint_rn(a);
//       out_ll[i] = __float2ll_rz(a). (Out-of-range inputs saturate as PTX cvt does:
//       NaN -> 0, +big -> INT_MAX, -big -> INT_MIN.)
//   extern "C" __global__ void int_to_float(const int* x, const unsigned* u,
//                                           const long long* w, float* out, int n)
//       per i < n, out[4i .. 4i+3] = {__int2float_rn(x), __int2float_rz(x),
//       __uint2float_rn(u), __ll2float_rn(w)}.
//   extern "C" __global__ void saturate_and_narrow(const float* x, const double* d,
//                                                  float* sat, unsigned char* u8,
//                                                  short* s16, int* from_d, float* d2f,
//                                                  int n)
//       per i < n: sat[i] = __saturatef(x[i]) (clamp to [0, 1], NaN -> 0);
//       u8[i] = (unsigned char)(int)x[i] (low 8 bits of the truncated int);
//       s16[i] = (short)__float2int_rn(x[i] * 100) (low 16 bits);
//       from_d[i] = __double2int_rn(d[i]); d2f[i] = (float)d[i] (round to nearest even).

extern "C" __global__ void float_to_int(const float* x, int* out_i, unsigned* out_u,
                                        long long* out_ll, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) {
        return;
    }
    float a = x[i];
    int* o = out_i + 5 * i;
    o[0] = __float2int_rn(a);
    o[1] = __float2int_rz(a);
    o[2] = __float2int_ru(a);
    o[3] = __float2int_rd(a);
    o[4] = (int)a;
    out_u[i] = __float2uint_rn(a);
    out_ll[i] = __float2ll_rz(a);
}

extern "C" __global__ void int_to_float(const int* x, const unsigned* u, const long long* w,
                                        float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) {
        return;
    }
    float* o = out + 4 * i;
    o[0] = __int2float_rn(x[i]);
    o[1] = __int2float_rz(x[i]);
    o[2] = __uint2float_rn(u[i]);
    o[3] = __ll2float_rn(w[i]);
}

extern "C" __global__ void saturate_and_narrow(const float* x, const double* d, float* sat,
                                               unsigned char* u8, short* s16, int* from_d,
                                               float* d2f, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) {
        return;
    }
    float a = x[i];
    sat[i] = __saturatef(a);
    u8[i] = (unsigned char)(int)a;
    s16[i] = (short)__float2int_rn(a * 100.0f);
    from_d[i] = __double2int_rn(d[i]);
    d2f[i] = (float)d[i];
}
