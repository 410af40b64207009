// fft: 2-D complex FFT as row FFTs then column FFTs (the FFT of Xiang et al.'s SIMT-efficiency
// workload set, 128x128): one block per row (or column), N/2 threads, an iterative radix-2
// decimation-in-time transform in shared memory after a bit-reversed load (brev), twiddle
// factors from a constant-memory table.
#define MAX_N 1024

__constant__ float2 c_twiddle[MAX_N / 2];  // exp(-2 pi i k / N)

__device__ void fft_shared(float2* s, int n, int log2n)
{
    for (int len = 2; len <= n; len <<= 1) {
        const int half = len >> 1;
        const int step = n / len;
        __syncthreads();
        for (int j = threadIdx.x; j < n / 2; j += blockDim.x) {
            const int k = j & (half - 1);
            const int i0 = (j / half) * len + k;
            const int i1 = i0 + half;
            const float2 w = c_twiddle[k * step];
            const float2 b = s[i1];
            const float2 t = make_float2(w.x * b.x - w.y * b.y, w.x * b.y + w.y * b.x);
            const float2 a = s[i0];
            s[i0] = make_float2(a.x + t.x, a.y + t.y);
            s[i1] = make_float2(a.x - t.x, a.y - t.y);
        }
    }
    __syncthreads();
}

extern "C" __global__ void fft_rows(const float2* in, float2* out, int n, int log2n)
{
    __shared__ float2 s[MAX_N];
    const float2* row_in = in + blockIdx.x * n;
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        s[__brev(i) >> (32 - log2n)] = row_in[i];
    fft_shared(s, n, log2n);
    for (int i = threadIdx.x; i < n; i += blockDim.x) out[blockIdx.x * n + i] = s[i];
}

extern "C" __global__ void fft_cols(const float2* in, float2* out, int n, int log2n)
{
    __shared__ float2 s[MAX_N];
    const int col = blockIdx.x;
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        s[__brev(i) >> (32 - log2n)] = in[i * n + col];
    fft_shared(s, n, log2n);
    for (int i = threadIdx.x; i < n; i += blockDim.x) out[i * n + col] = s[i];
}
