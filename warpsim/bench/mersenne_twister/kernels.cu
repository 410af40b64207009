// mersenne_twister: many independent Mersenne Twister generators (the shape of SDK
// MersenneTwister's RandomGPU + BoxMullerGPU): one generator per thread with its own parameters
// (matrix_a, tempering masks, seed), its 19-word state in a per-thread local array indexed
// dynamically; uniforms are written generator-interleaved, then a second kernel turns pairs of
// them into normals with the Box-Muller transform.
#define MT_NN 19
#define MT_MM 9
#define MT_UMASK 0x80000000U
#define MT_LMASK 0x7FFFFFFFU
#define MT_SHIFT0 12
#define MT_SHIFTB 7
#define MT_SHIFTC 15
#define MT_SHIFT1 18

struct mt_struct {
    unsigned int matrix_a, mask_b, mask_c, seed;
};

extern "C" __global__ void random_gpu(float* d_random, int n_per_rng, const mt_struct* d_params,
                                      int rng_count)
{
    const int i_rng = blockIdx.x * blockDim.x + threadIdx.x;
    if (i_rng >= rng_count) return;
    const mt_struct cfg = d_params[i_rng];
    unsigned int mt[MT_NN];
    mt[0] = cfg.seed;
    for (int i = 1; i < MT_NN; i++) mt[i] = 1812433253U * (mt[i - 1] ^ (mt[i - 1] >> 30)) + i;
    int i_state = 0;
    unsigned int mti1 = mt[0];
    for (int i_out = 0; i_out < n_per_rng; i_out++) {
        int i_state1 = i_state + 1, i_state_m = i_state + MT_MM;
        if (i_state1 >= MT_NN) i_state1 -= MT_NN;
        if (i_state_m >= MT_NN) i_state_m -= MT_NN;
        const unsigned int mti = mti1;
        mti1 = mt[i_state1];
        const unsigned int mti_m = mt[i_state_m];
        unsigned int x = (mti & MT_UMASK) | (mti1 & MT_LMASK);
        x = mti_m ^ (x >> 1) ^ ((x & 1) ? cfg.matrix_a : 0);
        mt[i_state] = x;
        i_state = i_state1;
        x ^= (x >> MT_SHIFT0);
        x ^= (x << MT_SHIFTB) & cfg.mask_b;
        x ^= (x << MT_SHIFTC) & cfg.mask_c;
        x ^= (x >> MT_SHIFT1);
        d_random[i_rng + i_out * rng_count] = ((float)x + 1.0f) / 4294967296.0f;
    }
}

extern "C" __global__ void box_muller_gpu(float* d_random, int n)
{
    const int tid = blockIdx.x * blockDim.x + threadIdx.x;
    const int threads = blockDim.x * gridDim.x;
    for (int pos = tid; 2 * pos + 1 < n; pos += threads) {
        const float u1 = d_random[2 * pos], u2 = d_random[2 * pos + 1];
        const float r = sqrtf(-2.0f * logf(u1));
        const float phi = 6.28318530717958647692f * u2;
        d_random[2 * pos] = r * cosf(phi);
        d_random[2 * pos + 1] = r * sinf(phi);
    }
}
