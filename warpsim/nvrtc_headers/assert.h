/* warpsim's <assert.h> for NVRTC: assert(e) calls the device built-in __assertfail (which
 * NVRTC declares) with the expression, file, line and function, as CUDA's does; NDEBUG
 * compiles it out. Not include-guarded, as the C standard asks (NDEBUG may change). */
#undef assert
#ifdef NDEBUG
#define assert(e) ((void)0)
#else
#define assert(e) ((e) ? (void)0 : __assertfail(#e, __FILE__, __LINE__, \
                                                 __PRETTY_FUNCTION__, sizeof(char)))
#endif
