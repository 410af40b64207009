// int64_math.cu: 64-bit integer arithmetic and multi-word carry chains.
// Exercises: mul.wide.u32 / mul.wide.s32, 64-bit add/sub/mul/shift (shl/shr.b64 with
// variable amounts), __umul64hi (mul.hi.u64), __mul64hi (signed), __umulhi (mul.hi.u32),
// 64-bit division and remainder (nvcc emits div/rem.u64), a 128-bit add written with inline
// PTX add.cc / addc.cc / addc (4 x 32-bit limbs), and the same add through unsigned __int128.
//
// Kernels:
//   extern "C" __global__ void wide_mul(const unsigned* a, const unsigned* b, const int* sa,
//                                       const int* sb, unsigned long long* uprod,
//                                       long long* sprod, unsigned* hi32, int n)
//       uprod[i] = (u64)a[i] * b[i]; sprod[i] = (s64)sa[i] * sb[i];
//       hi32[i] = (a[i] * (u64)b[i]) >> 32 (__umulhi), for i < n.
//   extern "C" __global__ void u64_ops(const unsigned long long* x, const unsigned long long* y,
//                                      const int* sh, unsigned long long* out, int n)
//       with s = sh[i] & 63, d = y[i] | 1, per i < n, out[8i .. 8i+7] =
//       {x + y, x - y, x * y, x << s, x >> s, __umul64hi(x, y), x / d, x % d}.
//   extern "C" __global__ void s64_ops(const long long* x, const long long* y, const int* sh,
//                                      long long* out, int n)
//       with s = sh[i] & 63, per i < n, out[4i .. 4i+3] =
//       {x >> s (arithmetic), __mul64hi(x, y), min(x, y), x * y + (long long)sh[i]}.
//   extern "C" __global__ void add128_asm(const unsigned* a, const unsigned* b, unsigned* c,
//                                         int n)
//       128-bit numbers stored as 4 little-endian u32 limbs: c[4i..4i+3] = a + b mod 2^128,
//       via inline PTX add.cc.u32 / addc.cc.u32 / addc.cc.u32 / addc.u32.
//   extern "C" __global__ void add128_int128(const unsigned long long* a,
//                                            const unsigned long long* b,
//                                            unsigned long long* c, int n)
//       same sum, limbs as 2 little-endian u64 words, through unsigned __int128.

extern "C" __global__ void wide_mul(const unsigned* a, const unsigned* b, const int* sa,
                                    const int* sb, unsigned long long* uprod, long long* sprod,
                                    unsigned* hi32, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        uprod[i] = (unsigned long long)a[i] * b[i];
        sprod[i] = (long long)sa[i] * sb[i];
        hi32[i] = __umulhi(a[i], b[i]);
    }
}

extern "C" __global__ void u64_ops(const unsigned long long* x, const unsigned long long* y,
                                   const int* sh, unsigned long long* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) {
        return;
    }
    unsigned long long a = x[i];
    unsigned long long b = y[i];
    int s = sh[i] & 63;
    unsigned long long d = b | 1ull;
    unsigned long long* o = out + 8 * (long long)i;
    o[0] = a + b;
    o[1] = a - b;
    o[2] = a * b;
    o[3] = a << s;
    o[4] = a >> s;
    o[5] = __umul64hi(a, b);
    o[6] = a / d;
    o[7] = a % d;
}

extern "C" __global__ void s64_ops(const long long* x, const long long* y, const int* sh,
                                   long long* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) {
        return;
    }
    long long a = x[i];
    long long b = y[i];
    int s = sh[i] & 63;
    long long* o = out + 4 * (long long)i;
    o[0] = a >> s;
    o[1] = __mul64hi(a, b);
    o[2] = min(a, b);
    o[3] = a * b + (long long)sh[i];
}

extern "C" __global__ void add128_asm(const unsigned* a, const unsigned* b, unsigned* c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) {
        return;
    }
    const unsigned* x = a + 4 * i;
    const unsigned* y = b + 4 * i;
    unsigned r0, r1, r2, r3;
    asm("add.cc.u32  %0, %4, %8;\n\t"
        "addc.cc.u32 %1, %5, %9;\n\t"
        "addc.cc.u32 %2, %6, %10;\n\t"
        "addc.u32    %3, %7, %11;"
        : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3)
        : "r"(x[0]), "r"(x[1]), "r"(x[2]), "r"(x[3]),
          "r"(y[0]), "r"(y[1]), "r"(y[2]), "r"(y[3]));
    unsigned* z = c + 4 * i;
    z[0] = r0;
    z[1] = r1;
    z[2] = r2;
    z[3] = r3;
}

extern "C" __global__ void add128_int128(const unsigned long long* a,
                                         const unsigned long long* b, unsigned long long* c,
                                         int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) {
        return;
    }
    unsigned __int128 x = ((unsigned __int128)a[2 * i + 1] << 64) | a[2 * i];
    unsigned __int128 y = ((unsigned __int128)b[2 * i + 1] << 64) | b[2 * i];
    unsigned __int128 z = x + y;
    c[2 * i] = (unsigned long long)z;
    c[2 * i + 1] = (unsigned long long)(z >> 64);
}
