// aes: AES-128 ECB encryption with T-tables (the shape of the ISPASS-2009 AES benchmark): 256
// threads per block, one 16-byte block per thread; the four 1 KB T-tables are fetched through a
// texture into shared memory, the round keys and the S-box of the last round sit in constant
// memory, so every round is 16 data-dependent table lookups.
#define THREADS 256

__constant__ unsigned int c_round_keys[44];
__constant__ unsigned char c_sbox[256];

extern "C" __global__ void aes_encrypt128(const uint4* in, uint4* out, cudaTextureObject_t t_tables,
                                          int nblocks)
{
    __shared__ unsigned int s_te[4 * 256];
    for (int i = threadIdx.x; i < 4 * 256; i += THREADS) s_te[i] = tex1Dfetch<unsigned int>(t_tables, i);
    __syncthreads();
    const int b = blockIdx.x * THREADS + threadIdx.x;
    if (b >= nblocks) return;
    const unsigned int* Te0 = s_te;
    const unsigned int* Te1 = s_te + 256;
    const unsigned int* Te2 = s_te + 512;
    const unsigned int* Te3 = s_te + 768;
    const uint4 p = in[b];
    unsigned int s0 = p.x ^ c_round_keys[0], s1 = p.y ^ c_round_keys[1];
    unsigned int s2 = p.z ^ c_round_keys[2], s3 = p.w ^ c_round_keys[3];
    for (int r = 1; r < 10; r++) {
        const unsigned int t0 = Te0[s0 >> 24] ^ Te1[(s1 >> 16) & 0xff] ^ Te2[(s2 >> 8) & 0xff] ^
                                Te3[s3 & 0xff] ^ c_round_keys[4 * r];
        const unsigned int t1 = Te0[s1 >> 24] ^ Te1[(s2 >> 16) & 0xff] ^ Te2[(s3 >> 8) & 0xff] ^
                                Te3[s0 & 0xff] ^ c_round_keys[4 * r + 1];
        const unsigned int t2 = Te0[s2 >> 24] ^ Te1[(s3 >> 16) & 0xff] ^ Te2[(s0 >> 8) & 0xff] ^
                                Te3[s1 & 0xff] ^ c_round_keys[4 * r + 2];
        const unsigned int t3 = Te0[s3 >> 24] ^ Te1[(s0 >> 16) & 0xff] ^ Te2[(s1 >> 8) & 0xff] ^
                                Te3[s2 & 0xff] ^ c_round_keys[4 * r + 3];
        s0 = t0; s1 = t1; s2 = t2; s3 = t3;
    }
#define LAST(a, b, c, d, k) \
    ((((unsigned int)c_sbox[(a) >> 24]) << 24) ^ (((unsigned int)c_sbox[((b) >> 16) & 0xff]) << 16) ^ \
     (((unsigned int)c_sbox[((c) >> 8) & 0xff]) << 8) ^ ((unsigned int)c_sbox[(d) & 0xff]) ^ c_round_keys[k])
    uint4 o;
    o.x = LAST(s0, s1, s2, s3, 40);
    o.y = LAST(s1, s2, s3, s0, 41);
    o.z = LAST(s2, s3, s0, s1, 42);
    o.w = LAST(s3, s0, s1, s2, 43);
    out[b] = o;
}
