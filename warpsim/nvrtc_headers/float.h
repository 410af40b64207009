/* warpsim's <float.h> for NVRTC: the characteristics of IEEE 754 binary32 (float) and
 * binary64 (double) of C11 §5.2.4.2.2; device long double is double. */
#ifndef WARPSIM_FLOAT_H
#define WARPSIM_FLOAT_H
#define FLT_RADIX       2
#define FLT_ROUNDS      1
#define FLT_EVAL_METHOD 0
#define DECIMAL_DIG     17
#define FLT_MANT_DIG    24
#define DBL_MANT_DIG    53
#define FLT_DIG         6
#define DBL_DIG         15
#define FLT_DECIMAL_DIG 9
#define DBL_DECIMAL_DIG 17
#define FLT_MIN_EXP     (-125)
#define DBL_MIN_EXP     (-1021)
#define FLT_MIN_10_EXP  (-37)
#define DBL_MIN_10_EXP  (-307)
#define FLT_MAX_EXP     128
#define DBL_MAX_EXP     1024
#define FLT_MAX_10_EXP  38
#define DBL_MAX_10_EXP  308
#define FLT_MAX         3.40282346638528859812e+38F
#define DBL_MAX         1.79769313486231570815e+308
#define FLT_MIN         1.17549435082228750797e-38F
#define DBL_MIN         2.22507385850720138309e-308
#define FLT_TRUE_MIN    1.40129846432481707092e-45F
#define DBL_TRUE_MIN    4.94065645841246544177e-324
#define FLT_EPSILON     1.19209289550781250000e-7F
#define DBL_EPSILON     2.22044604925031308085e-16
#define FLT_HAS_SUBNORM 1
#define DBL_HAS_SUBNORM 1
#define LDBL_MANT_DIG   DBL_MANT_DIG
#define LDBL_DIG        DBL_DIG
#define LDBL_MIN_EXP    DBL_MIN_EXP
#define LDBL_MIN_10_EXP DBL_MIN_10_EXP
#define LDBL_MAX_EXP    DBL_MAX_EXP
#define LDBL_MAX_10_EXP DBL_MAX_10_EXP
#define LDBL_MAX        1.79769313486231570815e+308L
#define LDBL_MIN        2.22507385850720138309e-308L
#define LDBL_EPSILON    2.22044604925031308085e-16L
#endif
