// md5: MD5 digests of fixed-size chunks of a buffer (the shape of the ISPASS-2009 StoreGPU md5
// kernel): 128 threads per block, one chunk per thread; the 16 message words of each 64-byte
// block are loaded into registers (uncoalesced, a thread per chunk), the 64 rounds are unrolled
// with the sine constants in constant memory, and the padding block is formed in registers.
#define THREADS 128

__constant__ unsigned int c_k[64];

__device__ inline unsigned int rotl(unsigned int x, int s) { return (x << s) | (x >> (32 - s)); }

#define STEP(F, G, I, S)                                        \
    do {                                                        \
        const unsigned int f = (F) + a + c_k[I] + m[G];         \
        a = d; d = c; c = b;                                    \
        b = b + rotl(f, S);                                     \
    } while (0)

__device__ inline void md5_block(const unsigned int* m, unsigned int* h)
{
    unsigned int a = h[0], b = h[1], c = h[2], d = h[3];
    STEP((b & c) | (~b & d), 0, 0, 7);
    STEP((b & c) | (~b & d), 1, 1, 12);
    STEP((b & c) | (~b & d), 2, 2, 17);
    STEP((b & c) | (~b & d), 3, 3, 22);
    STEP((b & c) | (~b & d), 4, 4, 7);
    STEP((b & c) | (~b & d), 5, 5, 12);
    STEP((b & c) | (~b & d), 6, 6, 17);
    STEP((b & c) | (~b & d), 7, 7, 22);
    STEP((b & c) | (~b & d), 8, 8, 7);
    STEP((b & c) | (~b & d), 9, 9, 12);
    STEP((b & c) | (~b & d), 10, 10, 17);
    STEP((b & c) | (~b & d), 11, 11, 22);
    STEP((b & c) | (~b & d), 12, 12, 7);
    STEP((b & c) | (~b & d), 13, 13, 12);
    STEP((b & c) | (~b & d), 14, 14, 17);
    STEP((b & c) | (~b & d), 15, 15, 22);
    STEP((d & b) | (~d & c), 1, 16, 5);
    STEP((d & b) | (~d & c), 6, 17, 9);
    STEP((d & b) | (~d & c), 11, 18, 14);
    STEP((d & b) | (~d & c), 0, 19, 20);
    STEP((d & b) | (~d & c), 5, 20, 5);
    STEP((d & b) | (~d & c), 10, 21, 9);
    STEP((d & b) | (~d & c), 15, 22, 14);
    STEP((d & b) | (~d & c), 4, 23, 20);
    STEP((d & b) | (~d & c), 9, 24, 5);
    STEP((d & b) | (~d & c), 14, 25, 9);
    STEP((d & b) | (~d & c), 3, 26, 14);
    STEP((d & b) | (~d & c), 8, 27, 20);
    STEP((d & b) | (~d & c), 13, 28, 5);
    STEP((d & b) | (~d & c), 2, 29, 9);
    STEP((d & b) | (~d & c), 7, 30, 14);
    STEP((d & b) | (~d & c), 12, 31, 20);
    STEP(b ^ c ^ d, 5, 32, 4);
    STEP(b ^ c ^ d, 8, 33, 11);
    STEP(b ^ c ^ d, 11, 34, 16);
    STEP(b ^ c ^ d, 14, 35, 23);
    STEP(b ^ c ^ d, 1, 36, 4);
    STEP(b ^ c ^ d, 4, 37, 11);
    STEP(b ^ c ^ d, 7, 38, 16);
    STEP(b ^ c ^ d, 10, 39, 23);
    STEP(b ^ c ^ d, 13, 40, 4);
    STEP(b ^ c ^ d, 0, 41, 11);
    STEP(b ^ c ^ d, 3, 42, 16);
    STEP(b ^ c ^ d, 6, 43, 23);
    STEP(b ^ c ^ d, 9, 44, 4);
    STEP(b ^ c ^ d, 12, 45, 11);
    STEP(b ^ c ^ d, 15, 46, 16);
    STEP(b ^ c ^ d, 2, 47, 23);
    STEP(c ^ (b | ~d), 0, 48, 6);
    STEP(c ^ (b | ~d), 7, 49, 10);
    STEP(c ^ (b | ~d), 14, 50, 15);
    STEP(c ^ (b | ~d), 5, 51, 21);
    STEP(c ^ (b | ~d), 12, 52, 6);
    STEP(c ^ (b | ~d), 3, 53, 10);
    STEP(c ^ (b | ~d), 10, 54, 15);
    STEP(c ^ (b | ~d), 1, 55, 21);
    STEP(c ^ (b | ~d), 8, 56, 6);
    STEP(c ^ (b | ~d), 15, 57, 10);
    STEP(c ^ (b | ~d), 6, 58, 15);
    STEP(c ^ (b | ~d), 13, 59, 21);
    STEP(c ^ (b | ~d), 4, 60, 6);
    STEP(c ^ (b | ~d), 11, 61, 10);
    STEP(c ^ (b | ~d), 2, 62, 15);
    STEP(c ^ (b | ~d), 9, 63, 21);
    h[0] += a; h[1] += b; h[2] += c; h[3] += d;
}

extern "C" __global__ void md5_chunks(const unsigned int* d_data, int words_per_chunk,
                                      unsigned int* d_digest, int nchunks)
{
    const int t = blockIdx.x * THREADS + threadIdx.x;
    if (t >= nchunks) return;
    unsigned int h[4] = {0x67452301u, 0xefcdab89u, 0x98badcfeu, 0x10325476u};
    unsigned int m[16];
    const unsigned int* chunk = d_data + (size_t)t * words_per_chunk;
    for (int blk = 0; blk < words_per_chunk / 16; blk++) {
#pragma unroll
        for (int i = 0; i < 16; i++) m[i] = chunk[blk * 16 + i];
        md5_block(m, h);
    }
    const unsigned long long bits = (unsigned long long)words_per_chunk * 32ull;
#pragma unroll
    for (int i = 0; i < 16; i++) m[i] = 0u;
    m[0] = 0x80u;
    m[14] = (unsigned int)bits;
    m[15] = (unsigned int)(bits >> 32);
    md5_block(m, h);
#pragma unroll
    for (int i = 0; i < 4; i++) d_digest[4 * t + i] = h[i];
}
