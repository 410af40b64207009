// binomial_options: European call prices on a binomial tree (the shape of SDK binomialOptions):
// one block of 256 threads per option; the leaf payoffs and then every backward-induction step
// live in shared memory (two buffers, ping-pong), a barrier per time step.
#define THREADS 256
#define MAX_STEPS 2048

struct OptionData {
    float S, X, vDt, puByDf, pdByDf;
};

extern "C" __global__ void binomial_options(const OptionData* d_options, float* d_call_value,
                                            int num_steps)
{
    __shared__ float s_a[MAX_STEPS + 1];
    __shared__ float s_b[MAX_STEPS + 1];
    const int tid = threadIdx.x;
    const OptionData opt = d_options[blockIdx.x];
    for (int i = tid; i <= num_steps; i += THREADS) {
        const float price = opt.S * expf(opt.vDt * (float)(2 * i - num_steps));
        s_a[i] = fmaxf(price - opt.X, 0.0f);
    }
    __syncthreads();
    for (int step = num_steps; step > 0; step--) {
        const bool odd = (num_steps - step) & 1;
        const float* src = odd ? s_b : s_a;
        float* dst = odd ? s_a : s_b;
        for (int i = tid; i < step; i += THREADS)
            dst[i] = opt.puByDf * src[i + 1] + opt.pdByDf * src[i];
        __syncthreads();
    }
    if (tid == 0) d_call_value[blockIdx.x] = (num_steps & 1) ? s_b[0] : s_a[0];
}
