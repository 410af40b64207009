/* warpsim's <stddef.h> for NVRTC: size_t, ptrdiff_t, NULL and offsetof, defined from the
 * types the compiler itself gives sizeof and pointer differences. */
#ifndef WARPSIM_STDDEF_H
#define WARPSIM_STDDEF_H
typedef decltype(sizeof(0)) size_t;
typedef decltype((char*)0 - (char*)0) ptrdiff_t;
#ifndef NULL
#define NULL 0
#endif
#ifndef offsetof
#define offsetof(type, member) __builtin_offsetof(type, member)
#endif
#endif
