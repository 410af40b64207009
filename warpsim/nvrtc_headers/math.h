/* warpsim's <math.h> for NVRTC. NVRTC declares CUDA's device math functions (sqrtf, sin,
 * isnan, ...) without any include; this header adds what C's <math.h> defines beside them:
 * INFINITY, NAN, HUGE_VAL(F), the FP_* classes, float_t / double_t and the POSIX M_*
 * constants (IEEE 754 correctly rounded values, 21 significant digits). The special values
 * are bit patterns (constant expressions; a quiet NaN with the sign bit clear). */
#ifndef WARPSIM_MATH_H
#define WARPSIM_MATH_H
#define INFINITY  __builtin_bit_cast(float, 0x7f800000u)
#define NAN       __builtin_bit_cast(float, 0x7fc00000u)
#define HUGE_VALF INFINITY
#define HUGE_VAL  __builtin_bit_cast(double, 0x7ff0000000000000ull)
#define FP_NAN       0
#define FP_INFINITE  1
#define FP_ZERO      2
#define FP_SUBNORMAL 3
#define FP_NORMAL    4
typedef float  float_t;
typedef double double_t;
#define M_E        2.71828182845904523536
#define M_LOG2E    1.44269504088896340736
#define M_LOG10E   0.434294481903251827651
#define M_LN2      0.693147180559945309417
#define M_LN10     2.30258509299404568402
#define M_PI       3.14159265358979323846
#define M_PI_2     1.57079632679489661923
#define M_PI_4     0.785398163397448309616
#define M_1_PI     0.318309886183790671538
#define M_2_PI     0.636619772367581343076
#define M_2_SQRTPI 1.12837916709551257390
#define M_SQRT2    1.41421356237309504880
#define M_SQRT1_2  0.707106781186547524401
#endif
