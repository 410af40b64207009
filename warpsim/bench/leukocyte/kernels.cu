// leukocyte: leukocyte detection by the GICOV score and a dilation (the shape of Rodinia
// leukocyte's GICOV_kernel and dilate_kernel): gicov_kernel (one interior pixel per thread)
// samples the image gradient, read through textures, along circles of several radii (offsets
// and directions in constant memory), keeps a running mean and variance of the normal gradient
// per circle (Welford) and the best mean^2 / variance; dilate_kernel takes the maximum of that
// score over a disk-shaped structuring element held in constant memory.
#define MAX_POINTS 150
#define MAX_CIRCLES 7
#define MAX_STREL 25

__constant__ float c_sin[MAX_POINTS];
__constant__ float c_cos[MAX_POINTS];
__constant__ int c_tX[MAX_CIRCLES * MAX_POINTS];
__constant__ int c_tY[MAX_CIRCLES * MAX_POINTS];
__constant__ unsigned char c_strel[MAX_STREL * MAX_STREL];

extern "C" __global__ void gicov_kernel(cudaTextureObject_t grad_x, cudaTextureObject_t grad_y,
                                        int width, int height, int margin, int ncircles,
                                        int npoints, float* gicov)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) return;
    float best = 0.0f;
    if (x >= margin && x < width - margin && y >= margin && y < height - margin) {
        for (int c = 0; c < ncircles; c++) {
            float mean = 0.0f, m2 = 0.0f;
            for (int k = 0; k < npoints; k++) {
                const int idx = (y + c_tY[c * MAX_POINTS + k]) * width + x + c_tX[c * MAX_POINTS + k];
                const float p = tex1Dfetch<float>(grad_x, idx) * c_cos[k] +
                                tex1Dfetch<float>(grad_y, idx) * c_sin[k];
                const float delta = p - mean;
                mean = mean + delta / (float)(k + 1);
                m2 = m2 + delta * (p - mean);
            }
            const float var = m2 / (float)(npoints - 1);
            if (mean * mean / var > best) best = mean * mean / var;
        }
    }
    gicov[y * width + x] = best;
}

extern "C" __global__ void dilate_kernel(cudaTextureObject_t img, int width, int height,
                                         int strel_size, float* dilated)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) return;
    const int r = strel_size / 2;
    float best = 0.0f;
    for (int dy = -r; dy <= r; dy++) {
        const int yy = y + dy;
        if (yy < 0 || yy >= height) continue;
        for (int dx = -r; dx <= r; dx++) {
            const int xx = x + dx;
            if (xx < 0 || xx >= width || !c_strel[(dy + r) * strel_size + dx + r]) continue;
            const float v = tex1Dfetch<float>(img, yy * width + xx);
            if (v > best) best = v;
        }
    }
    dilated[y * width + x] = best;
}
