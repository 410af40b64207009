// srad_v1: speckle-reducing anisotropic diffusion, six-kernel version (the shape of Rodinia
// srad_v1): 512 threads, one pixel per thread, column-major image; per iteration prepare,
// a multi-launch shared-memory reduction of the sum and the sum of squares (until one block
// remains), the diffusion coefficient (neighbours through index arrays) and the update;
// extract and compress convert to and from the exponential domain.
#define NUMBER_THREADS 512

extern "C" __global__ void extract(long long ne, float* d_I)
{
    const int ei = blockIdx.x * NUMBER_THREADS + threadIdx.x;
    if (ei < ne) d_I[ei] = expf(d_I[ei] / 255.0f);
}

extern "C" __global__ void prepare(long long ne, const float* d_I, float* d_sums, float* d_sums2)
{
    const int ei = blockIdx.x * NUMBER_THREADS + threadIdx.x;
    if (ei < ne) {
        d_sums[ei] = d_I[ei];
        d_sums2[ei] = d_I[ei] * d_I[ei];
    }
}

extern "C" __global__ void reduce(long long n_active, long long stride, float* d_sums,
                                  float* d_sums2)
{
    __shared__ float psum[NUMBER_THREADS];
    __shared__ float psum2[NUMBER_THREADS];
    const int tx = threadIdx.x;
    const long long item = (long long)blockIdx.x * NUMBER_THREADS + tx;
    const long long ei = item * stride;
    psum[tx] = (item < n_active) ? d_sums[ei] : 0.0f;
    psum2[tx] = (item < n_active) ? d_sums2[ei] : 0.0f;
    for (int s = NUMBER_THREADS / 2; s > 0; s >>= 1) {
        __syncthreads();
        if (tx < s) {
            psum[tx] += psum[tx + s];
            psum2[tx] += psum2[tx + s];
        }
    }
    if (tx == 0) {
        d_sums[ei] = psum[0];
        d_sums2[ei] = psum2[0];
    }
}

extern "C" __global__ void srad(float lambda, int nr, int nc, long long ne, const int* d_iN,
                                const int* d_iS, const int* d_jE, const int* d_jW, float* d_dN,
                                float* d_dS, float* d_dE, float* d_dW, float q0sqr, float* d_c,
                                const float* d_I)
{
    const int ei = blockIdx.x * NUMBER_THREADS + threadIdx.x;
    if (ei >= ne) return;
    const int row = ei % nr;
    const int col = ei / nr;
    const float jc = d_I[ei];
    const float n = d_I[d_iN[row] + nr * col] - jc;
    const float s = d_I[d_iS[row] + nr * col] - jc;
    const float w = d_I[row + nr * d_jW[col]] - jc;
    const float e = d_I[row + nr * d_jE[col]] - jc;
    const float g2 = (n * n + s * s + w * w + e * e) / (jc * jc);
    const float l = (n + s + w + e) / jc;
    const float num = (0.5f * g2) - ((1.0f / 16.0f) * (l * l));
    float den = 1.0f + (0.25f * l);
    const float qsqr = num / (den * den);
    den = (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr));
    float c = 1.0f / (1.0f + den);
    if (c < 0.0f) c = 0.0f;
    else if (c > 1.0f) c = 1.0f;
    d_dN[ei] = n; d_dS[ei] = s; d_dW[ei] = w; d_dE[ei] = e;
    d_c[ei] = c;
}

extern "C" __global__ void srad2(float lambda, int nr, int nc, long long ne, const int* d_iN,
                                 const int* d_iS, const int* d_jE, const int* d_jW,
                                 const float* d_dN, const float* d_dS, const float* d_dE,
                                 const float* d_dW, const float* d_c, float* d_I)
{
    const int ei = blockIdx.x * NUMBER_THREADS + threadIdx.x;
    if (ei >= ne) return;
    const int row = ei % nr;
    const int col = ei / nr;
    const float cn = d_c[ei];
    const float cs = d_c[d_iS[row] + nr * col];
    const float cw = d_c[ei];
    const float ce = d_c[row + nr * d_jE[col]];
    const float d = cn * d_dN[ei] + cs * d_dS[ei] + cw * d_dW[ei] + ce * d_dE[ei];
    d_I[ei] = d_I[ei] + 0.25f * lambda * d;
}

extern "C" __global__ void compress(long long ne, float* d_I)
{
    const int ei = blockIdx.x * NUMBER_THREADS + threadIdx.x;
    if (ei < ne) d_I[ei] = logf(d_I[ei]) * 255.0f;
}
