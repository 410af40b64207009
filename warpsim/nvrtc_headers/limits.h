/* warpsim's <limits.h> for NVRTC: the integer limits of C99 §5.2.4.2.1 for the LP64 data
 * model of NVRTC's 64-bit targets (signed char, 64-bit long; LLP64 Windows: 32-bit long). */
#ifndef WARPSIM_LIMITS_H
#define WARPSIM_LIMITS_H
#define CHAR_BIT   8
#define MB_LEN_MAX 16
#define SCHAR_MIN  (-128)
#define SCHAR_MAX  127
#define UCHAR_MAX  255
#define CHAR_MIN   SCHAR_MIN
#define CHAR_MAX   SCHAR_MAX
#define SHRT_MIN   (-32767 - 1)
#define SHRT_MAX   32767
#define USHRT_MAX  65535
#define INT_MIN    (-2147483647 - 1)
#define INT_MAX    2147483647
#define UINT_MAX   4294967295U
#if defined(_WIN32)
#define LONG_MAX   2147483647L
#define ULONG_MAX  4294967295UL
#else
#define LONG_MAX   9223372036854775807L
#define ULONG_MAX  18446744073709551615UL
#endif
#define LONG_MIN   (-LONG_MAX - 1L)
#define LLONG_MAX  9223372036854775807LL
#define LLONG_MIN  (-LLONG_MAX - 1LL)
#define ULLONG_MAX 18446744073709551615ULL
#endif
