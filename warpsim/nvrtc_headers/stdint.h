/* warpsim's <stdint.h> for NVRTC, which ships no C library headers. Written for warpsim
 * (not copied from a C library): the fixed-width types of C99 §7.18 / C++ <cstdint> on the
 * LP64 targets NVRTC compiles for (long is 64 bits; LLP64 Windows: long long). */
#ifndef WARPSIM_STDINT_H
#define WARPSIM_STDINT_H

typedef signed char        int8_t;
typedef short              int16_t;
typedef int                int32_t;
typedef unsigned char      uint8_t;
typedef unsigned short     uint16_t;
typedef unsigned int       uint32_t;
#if defined(_WIN32)
typedef long long          int64_t;
typedef unsigned long long uint64_t;
#define WARPSIM_I64(c) c ## LL
#define WARPSIM_U64(c) c ## ULL
#else
typedef long               int64_t;
typedef unsigned long      uint64_t;
#define WARPSIM_I64(c) c ## L
#define WARPSIM_U64(c) c ## UL
#endif

typedef int8_t   int_least8_t;   typedef uint8_t  uint_least8_t;
typedef int16_t  int_least16_t;  typedef uint16_t uint_least16_t;
typedef int32_t  int_least32_t;  typedef uint32_t uint_least32_t;
typedef int64_t  int_least64_t;  typedef uint64_t uint_least64_t;
typedef int8_t   int_fast8_t;    typedef uint8_t  uint_fast8_t;
typedef int64_t  int_fast16_t;   typedef uint64_t uint_fast16_t;
typedef int64_t  int_fast32_t;   typedef uint64_t uint_fast32_t;
typedef int64_t  int_fast64_t;   typedef uint64_t uint_fast64_t;
typedef int64_t  intptr_t;       typedef uint64_t uintptr_t;
typedef int64_t  intmax_t;       typedef uint64_t uintmax_t;

#define INT8_MIN   (-128)
#define INT8_MAX   127
#define UINT8_MAX  255
#define INT16_MIN  (-32767 - 1)
#define INT16_MAX  32767
#define UINT16_MAX 65535
#define INT32_MIN  (-2147483647 - 1)
#define INT32_MAX  2147483647
#define UINT32_MAX 4294967295U
#define INT64_MAX  WARPSIM_I64(9223372036854775807)
#define INT64_MIN  (-INT64_MAX - 1)
#define UINT64_MAX WARPSIM_U64(18446744073709551615)

#define INT_LEAST8_MIN  INT8_MIN
#define INT_LEAST8_MAX  INT8_MAX
#define UINT_LEAST8_MAX UINT8_MAX
#define INT_LEAST16_MIN  INT16_MIN
#define INT_LEAST16_MAX  INT16_MAX
#define UINT_LEAST16_MAX UINT16_MAX
#define INT_LEAST32_MIN  INT32_MIN
#define INT_LEAST32_MAX  INT32_MAX
#define UINT_LEAST32_MAX UINT32_MAX
#define INT_LEAST64_MIN  INT64_MIN
#define INT_LEAST64_MAX  INT64_MAX
#define UINT_LEAST64_MAX UINT64_MAX
#define INT_FAST8_MIN   INT8_MIN
#define INT_FAST8_MAX   INT8_MAX
#define UINT_FAST8_MAX  UINT8_MAX
#define INT_FAST16_MIN  INT64_MIN
#define INT_FAST16_MAX  INT64_MAX
#define UINT_FAST16_MAX UINT64_MAX
#define INT_FAST32_MIN  INT64_MIN
#define INT_FAST32_MAX  INT64_MAX
#define UINT_FAST32_MAX UINT64_MAX
#define INT_FAST64_MIN  INT64_MIN
#define INT_FAST64_MAX  INT64_MAX
#define UINT_FAST64_MAX UINT64_MAX
#define INTPTR_MIN  INT64_MIN
#define INTPTR_MAX  INT64_MAX
#define UINTPTR_MAX UINT64_MAX
#define INTMAX_MIN  INT64_MIN
#define INTMAX_MAX  INT64_MAX
#define UINTMAX_MAX UINT64_MAX
#define PTRDIFF_MIN INT64_MIN
#define PTRDIFF_MAX INT64_MAX
#define SIZE_MAX    UINT64_MAX

#define INT8_C(c)    c
#define INT16_C(c)   c
#define INT32_C(c)   c
#define INT64_C(c)   WARPSIM_I64(c)
#define UINT8_C(c)   c
#define UINT16_C(c)  c
#define UINT32_C(c)  c ## U
#define UINT64_C(c)  WARPSIM_U64(c)
#define INTMAX_C(c)  WARPSIM_I64(c)
#define UINTMAX_C(c) WARPSIM_U64(c)

#endif
