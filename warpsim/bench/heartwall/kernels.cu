// heartwall: template tracking of points through video frames (the shape of Rodinia heartwall):
// one block of 256 threads per tracked point and one launch per frame. The block stages the
// point's template (cut from the first frame) and its search region of the current frame in
// shared memory, each thread scores one displacement by normalised cross-correlation, and a
// shared-memory arg-max moves the point.
#define THREADS 256
#define MAX_T 17
#define MAX_S 7
#define MAX_R (MAX_T + 2 * MAX_S)

extern "C" __global__ void track(const float* frame0, const float* frame, int width, int height,
                                 const int* init_rows, const int* init_cols, int* rows, int* cols,
                                 int t_half, int s_radius)
{
    __shared__ float s_tmpl[MAX_T * MAX_T];
    __shared__ float s_region[MAX_R * MAX_R];
    __shared__ float s_score[THREADS];
    __shared__ int s_index[THREADS];
    const int p = blockIdx.x, tx = threadIdx.x;
    const int tsize = 2 * t_half + 1;
    const int rsize = tsize + 2 * s_radius;
    const int ssize = 2 * s_radius + 1;
    const int r0 = rows[p], c0 = cols[p];
    const int tr = init_rows[p], tc = init_cols[p];
    for (int i = tx; i < tsize * tsize; i += THREADS) {
        const int y = min(max(tr - t_half + i / tsize, 0), height - 1);
        const int x = min(max(tc - t_half + i % tsize, 0), width - 1);
        s_tmpl[i] = frame0[y * width + x];
    }
    for (int i = tx; i < rsize * rsize; i += THREADS) {
        const int y = min(max(r0 - t_half - s_radius + i / rsize, 0), height - 1);
        const int x = min(max(c0 - t_half - s_radius + i % rsize, 0), width - 1);
        s_region[i] = frame[y * width + x];
    }
    __syncthreads();
    float score = -2.0f;
    if (tx < ssize * ssize) {
        const int oy = tx / ssize, ox = tx % ssize;
        float st = 0.0f, st2 = 0.0f, si = 0.0f, si2 = 0.0f, sti = 0.0f;
        for (int y = 0; y < tsize; y++) {
            for (int x = 0; x < tsize; x++) {
                const float t = s_tmpl[y * tsize + x];
                const float v = s_region[(y + oy) * rsize + x + ox];
                st += t; st2 += t * t; si += v; si2 += v * v; sti += t * v;
            }
        }
        const float n = (float)(tsize * tsize);
        const float num = sti - st * si / n;
        const float den = sqrtf((st2 - st * st / n) * (si2 - si * si / n));
        score = (den > 0.0f) ? num / den : -1.0f;
    }
    s_score[tx] = score;
    s_index[tx] = tx;
    for (int stride = THREADS / 2; stride > 0; stride >>= 1) {
        __syncthreads();
        if (tx < stride) {
            const float other = s_score[tx + stride];
            const int oi = s_index[tx + stride];
            if (other > s_score[tx] || (other == s_score[tx] && oi < s_index[tx])) {
                s_score[tx] = other;
                s_index[tx] = oi;
            }
        }
    }
    __syncthreads();
    if (tx == 0) {
        const int best = s_index[0];
        rows[p] = r0 + best / ssize - s_radius;
        cols[p] = c0 + best % ssize - s_radius;
    }
}
