// black_scholes: European call and put prices (the shape of SDK BlackScholes): 128 threads,
// grid-stride over the options, cumulative normal distribution by the Abramowitz-Stegun
// polynomial, expf / logf / sqrtf.
__device__ inline float cnd(float d)
{
    const float A1 = 0.31938153f, A2 = -0.356563782f, A3 = 1.781477937f, A4 = -1.821255978f,
                A5 = 1.330274429f, RSQRT2PI = 0.39894228040143267794f;
    float K = 1.0f / (1.0f + 0.2316419f * fabsf(d));
    float c = RSQRT2PI * expf(-0.5f * d * d) *
              (K * (A1 + K * (A2 + K * (A3 + K * (A4 + K * A5)))));
    if (d > 0) c = 1.0f - c;
    return c;
}

extern "C" __global__ void black_scholes(float* d_call, float* d_put, const float* d_s,
                                         const float* d_x, const float* d_t, float r, float v,
                                         int opt_n)
{
    const int tid = blockDim.x * blockIdx.x + threadIdx.x;
    const int threads = blockDim.x * gridDim.x;
    for (int opt = tid; opt < opt_n; opt += threads) {
        float S = d_s[opt], X = d_x[opt], T = d_t[opt];
        float sqrtT = sqrtf(T);
        float d1 = (logf(S / X) + (r + 0.5f * v * v) * T) / (v * sqrtT);
        float d2 = d1 - v * sqrtT;
        float cnd1 = cnd(d1), cnd2 = cnd(d2);
        float expRT = expf(-r * T);
        d_call[opt] = S * cnd1 - X * expRT * cnd2;
        d_put[opt] = X * expRT * (1.0f - cnd2) - S * (1.0f - cnd1);
    }
}
