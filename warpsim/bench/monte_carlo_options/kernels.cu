// monte_carlo_options: European call pricing by Monte Carlo, one block per option (the shape of
// SDK MonteCarlo's MonteCarloOneBlockPerOption): 256 threads stride over the shared normal
// samples accumulating the payoff and its square, then a shared-memory tree reduces both and
// thread 0 writes the discounted expectation and the confidence width.
#define THREADS 256

struct OptionData {
    float S, X, MuByT, VBySqrtT, discount;
};

extern "C" __global__ void monte_carlo_one_block_per_option(const OptionData* d_options,
                                                            const float* d_samples, int path_n,
                                                            float2* d_results)
{
    __shared__ float s_sum[THREADS];
    __shared__ float s_sum2[THREADS];
    const OptionData opt = d_options[blockIdx.x];
    float sum = 0.0f, sum2 = 0.0f;
    for (int i = threadIdx.x; i < path_n; i += THREADS) {
        const float r = d_samples[i];
        const float v = opt.S * expf(opt.MuByT + opt.VBySqrtT * r) - opt.X;
        const float call = (v > 0.0f) ? v : 0.0f;
        sum += call;
        sum2 += call * call;
    }
    s_sum[threadIdx.x] = sum;
    s_sum2[threadIdx.x] = sum2;
    for (int stride = THREADS / 2; stride > 0; stride >>= 1) {
        __syncthreads();
        if (threadIdx.x < stride) {
            s_sum[threadIdx.x] += s_sum[threadIdx.x + stride];
            s_sum2[threadIdx.x] += s_sum2[threadIdx.x + stride];
        }
    }
    if (threadIdx.x == 0) {
        const float n = (float)path_n;
        const float expected = s_sum[0] / n;
        const float stddev = sqrtf(fmaxf((s_sum2[0] - n * expected * expected) / (n - 1.0f), 0.0f));
        d_results[blockIdx.x] = make_float2(opt.discount * expected,
                                            opt.discount * 1.96f * stddev / sqrtf(n));
    }
}
