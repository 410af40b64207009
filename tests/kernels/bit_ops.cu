// bit_ops.cu: bit-manipulation instructions.
// Exercises: popc (__popc, __popcll), clz (__clz, __clzll), brev (__brev), prmt
// (__byte_perm), shf.l (__funnelshift_l) and shf.r (__funnelshift_r), bfe (inline PTX
// bfe.u32 / bfe.s32) and the shift-and-mask extraction the compiler may turn into bfe,
// bfi (inline PTX bfi.b32), __ffs (bfind-based), and/or/xor/not, lop3 candidates.
//
// Kernels:
//   extern "C" __global__ void bit_counts(const unsigned* x, const unsigned long long* w,
//                                         int* out, int n)
//       per i < n, out[5i .. 5i+4] = {__popc(x), __clz(x), __ffs(x), __popcll(w), __clzll(w)}.
//   extern "C" __global__ void bit_perms(const unsigned* x, const unsigned* y,
//                                        const unsigned* s, unsigned* out, int n)
//       per i < n with a = x[i], b = y[i], k = s[i]: out[6i .. 6i+5] = {__brev(a),
//       __byte_perm(a, b, 0x5140), __byte_perm(a, b, k & 0x7777), __funnelshift_l(a, b, k),
//       __funnelshift_r(a, b, k), (a & ~b) ^ (b | k)}.
//       (__funnelshift_l(lo, hi, k) = high 32 bits of ((hi:lo) << (k & 31)); _r = low 32 bits
//       of ((hi:lo) >> (k & 31)).)
//   extern "C" __global__ void bit_fields(const unsigned* x, const unsigned* pos,
//                                         const unsigned* len, unsigned* out, int n)
//       per i < n with a = x[i], p = pos[i] & 31, l = len[i] & 31 (l >= 1 assumed):
//       out[4i .. 4i+3] = {bfe.u32(a, p, l), bfe.s32(a, p, l) as bits,
//       (a >> 7) & 0x3ff  (shift-and-mask), 0xdeadbeef with bits p .. p+l-1 replaced by the
//       low l bits of a (PTX "bfi.b32 d, a, 0xdeadbeef, p, l")}.

extern "C" __global__ void bit_counts(const unsigned* x, const unsigned long long* w, int* out,
                                      int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) {
        return;
    }
    unsigned a = x[i];
    unsigned long long b = w[i];
    int* o = out + 5 * i;
    o[0] = __popc(a);
    o[1] = __clz((int)a);
    o[2] = __ffs((int)a);
    o[3] = __popcll(b);
    o[4] = __clzll((long long)b);
}

extern "C" __global__ void bit_perms(const unsigned* x, const unsigned* y, const unsigned* s,
                                     unsigned* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) {
        return;
    }
    unsigned a = x[i];
    unsigned b = y[i];
    unsigned k = s[i];
    unsigned* o = out + 6 * i;
    o[0] = __brev(a);
    o[1] = __byte_perm(a, b, 0x5140);
    o[2] = __byte_perm(a, b, k & 0x7777u);
    o[3] = __funnelshift_l(a, b, k);
    o[4] = __funnelshift_r(a, b, k);
    o[5] = (a & ~b) ^ (b | k);
}

extern "C" __global__ void bit_fields(const unsigned* x, const unsigned* pos,
                                      const unsigned* len, unsigned* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) {
        return;
    }
    unsigned a = x[i];
    unsigned p = pos[i] & 31u;
    unsigned l = len[i] & 31u;
    unsigned u;
    int sgn;
    unsigned ins;
    asm("bfe.u32 %0, %1, %2, %3;" : "=r"(u) : "r"(a), "r"(p), "r"(l));
    asm("bfe.s32 %0, %1, %2, %3;" : "=r"(sgn) : "r"((int)a), "r"(p), "r"(l));
    asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(ins) : "r"(a), "r"(0xdeadbeefu), "r"(p), "r"(l));
    unsigned* o = out + 4 * i;
    o[0] = u;
    o[1] = (unsigned)sgn;
    o[2] = (a >> 7) & 0x3ffu;
    o[3] = ins;
}
