// sha1: SHA-1 digests of fixed-size chunks of a buffer (the shape of the ISPASS-2009 StoreGPU
// sha1 kernel): 128 threads per block, one chunk per thread; the message schedule is a rolling
// 16-word window in registers, the 80 rounds are unrolled, the padding block is formed in
// registers. Words arrive big-endian-converted from the host.
#define THREADS 128
#define ROTL(x, n) (((x) << (n)) | ((x) >> (32 - (n))))

__device__ inline void sha1_block(unsigned int* w, unsigned int* h)
{
    unsigned int a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
#pragma unroll
    for (int t = 0; t < 80; t++) {
        if (t >= 16)
            w[t & 15] = ROTL(w[(t - 3) & 15] ^ w[(t - 8) & 15] ^ w[(t - 14) & 15] ^ w[t & 15], 1);
        unsigned int f, k;
        if (t < 20) { f = (b & c) | (~b & d); k = 0x5A827999u; }
        else if (t < 40) { f = b ^ c ^ d; k = 0x6ED9EBA1u; }
        else if (t < 60) { f = (b & c) | (b & d) | (c & d); k = 0x8F1BBCDCu; }
        else { f = b ^ c ^ d; k = 0xCA62C1D6u; }
        const unsigned int temp = ROTL(a, 5) + f + e + k + w[t & 15];
        e = d; d = c; c = ROTL(b, 30); b = a; a = temp;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e;
}

extern "C" __global__ void sha1_chunks(const unsigned int* d_data, int words_per_chunk,
                                       unsigned int* d_digest, int nchunks)
{
    const int t = blockIdx.x * THREADS + threadIdx.x;
    if (t >= nchunks) return;
    unsigned int h[5] = {0x67452301u, 0xEFCDAB89u, 0x98BADCFEu, 0x10325476u, 0xC3D2E1F0u};
    unsigned int w[16];
    const unsigned int* chunk = d_data + (size_t)t * words_per_chunk;
    for (int blk = 0; blk < words_per_chunk / 16; blk++) {
#pragma unroll
        for (int i = 0; i < 16; i++) w[i] = chunk[blk * 16 + i];
        sha1_block(w, h);
    }
    const unsigned long long bits = (unsigned long long)words_per_chunk * 32ull;
#pragma unroll
    for (int i = 0; i < 16; i++) w[i] = 0u;
    w[0] = 0x80000000u;
    w[14] = (unsigned int)(bits >> 32);
    w[15] = (unsigned int)bits;
    sha1_block(w, h);
#pragma unroll
    for (int i = 0; i < 5; i++) d_digest[5 * t + i] = h[i];
}
