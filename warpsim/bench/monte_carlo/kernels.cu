// monte_carlo: LIBOR market model path pricing of a swaption portfolio (the shape of the
// ISPASS-2009 LIB benchmark): 64 threads per block, one path per thread, forward rates evolved in
// a per-thread local array L[nn], discount factors and annuities in local arrays B[] and S[],
// model constants in constant memory.
#define NN_MAX 80
#define NOPT 15

__constant__ float c_lambda[NN_MAX];
__constant__ int c_maturities[NOPT];
__constant__ float c_swaprates[NOPT];

extern "C" __global__ void libor_path(const float* d_z, float* d_v, float delta, float l0,
                                      int npath, int nn, int nmat)
{
    const int path = blockIdx.x * blockDim.x + threadIdx.x;
    if (path >= npath) return;
    float L[NN_MAX], B[NN_MAX], S[NN_MAX];
    for (int i = 0; i < nn; i++) L[i] = l0;
    const float sqrt_delta = sqrtf(delta);
    for (int n = 0; n < nmat; n++) {
        const float sqez = sqrt_delta * d_z[n * npath + path];
        float v = 0.0f;
        for (int i = n + 1; i < nn; i++) {
            const float lam = c_lambda[i - n - 1];
            const float con1 = delta * lam;
            v += con1 * L[i] / (1.0f + delta * L[i]);
            const float vrat = expf(con1 * v + lam * (sqez - 0.5f * con1));
            L[i] = L[i] * vrat;
        }
    }
    float b = 1.0f, s = 0.0f;
    for (int n = nmat; n < nn; n++) {
        b = b / (1.0f + delta * L[n]);
        s = s + delta * b;
        B[n - nmat] = b;
        S[n - nmat] = s;
    }
    float v = 0.0f;
    for (int i = 0; i < NOPT; i++) {
        const int m = c_maturities[i] - 1;
        const float swapval = B[m] + c_swaprates[i] * S[m] - 1.0f;
        if (swapval < 0.0f) v += -100.0f * swapval;
    }
    for (int n = 0; n < nmat; n++) v = v / (1.0f + delta * L[n]);
    d_v[path] = v;
}
