// dwt2d: forward 2-D discrete wavelet transform, reversible CDF 5/3 integer lifting, several
// levels (the role of Rodinia dwt2d's fdwt53): copy_components splits interleaved 8-bit RGB into
// three centred int planes; per level and component, fdwt53_rows lifts each row in dynamic
// shared memory (one block per row), and fdwt53_cols streams each column through registers (one
// thread per column) writing the low band on top and the high band below.
extern "C" __global__ void copy_components(const unsigned char* rgb, int* r, int* g, int* b,
                                           int pixels)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < pixels) {
        r[i] = (int)rgb[3 * i] - 128;
        g[i] = (int)rgb[3 * i + 1] - 128;
        b[i] = (int)rgb[3 * i + 2] - 128;
    }
}

// Row transform of the top-left width x height region of `src` (row pitch `pitch`) into `dst`.
extern "C" __global__ void fdwt53_rows(const int* src, int* dst, int width, int height, int pitch)
{
    extern __shared__ int s_row[];
    const int y = blockIdx.x;
    const int half = width / 2;
    const int* in = src + y * pitch;
    int* out = dst + y * pitch;
    for (int x = threadIdx.x; x < width; x += blockDim.x) s_row[x] = in[x];
    __syncthreads();
    // Predict: odd samples become high-pass d[k] = x[2k+1] - floor((x[2k] + x[2k+2]) / 2).
    for (int k = threadIdx.x; k < half; k += blockDim.x) {
        const int right = (2 * k + 2 < width) ? s_row[2 * k + 2] : s_row[2 * k];
        s_row[2 * k + 1] -= (s_row[2 * k] + right) >> 1;
    }
    __syncthreads();
    // Update: even samples become low-pass s[k] = x[2k] + floor((d[k-1] + d[k] + 2) / 4).
    for (int k = threadIdx.x; k < half; k += blockDim.x) {
        const int left = (k > 0) ? s_row[2 * k - 1] : s_row[2 * k + 1];
        out[k] = s_row[2 * k] + ((left + s_row[2 * k + 1] + 2) >> 2);
        out[half + k] = s_row[2 * k + 1];
    }
}

// Column transform of the top-left width x height region of `src` into `dst`, streaming.
extern "C" __global__ void fdwt53_cols(const int* src, int* dst, int width, int height, int pitch)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x >= width) return;
    const int half = height / 2;
    int even = src[x];
    int d_prev = 0;
    for (int k = 0; k < half; k++) {
        const int odd = src[(2 * k + 1) * pitch + x];
        const int next = (2 * k + 2 < height) ? src[(2 * k + 2) * pitch + x] : even;
        const int d = odd - ((even + next) >> 1);
        if (k == 0) d_prev = d;
        dst[k * pitch + x] = even + ((d_prev + d + 2) >> 2);
        dst[(half + k) * pitch + x] = d;
        d_prev = d;
        even = next;
    }
}
