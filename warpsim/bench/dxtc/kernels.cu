// dxtc: DXT1 (BC1) texture compression of an RGB image (the role of SDK dxtc's compress
// kernel): 64 threads per block, four 4x4 tiles per block and one thread per pixel; the tile's
// pixels go to shared memory, every thread finds the tile's colour bounding box, the two RGB565
// end points and the 4-colour palette, picks its pixel's nearest palette entry, and one thread
// per tile packs the 2-bit indices into the 64-bit block.
#define THREADS 64

__device__ inline unsigned int to565(int r, int g, int b)
{
    return ((r >> 3) << 11) | ((g >> 2) << 5) | (b >> 3);
}

__device__ inline void from565(unsigned int c, int& r, int& g, int& b)
{
    r = (c >> 11) & 31; r = (r << 3) | (r >> 2);
    g = (c >> 5) & 63; g = (g << 2) | (g >> 4);
    b = c & 31; b = (b << 3) | (b >> 2);
}

extern "C" __global__ void compress_dxt1(const unsigned char* rgb, int width, int height,
                                         uint2* out)
{
    __shared__ int s_px[THREADS][3];
    __shared__ unsigned int s_idx[THREADS];
    const int tid = threadIdx.x;
    const int tile = tid >> 4, p = tid & 15;
    const int tiles_x = width / 4;
    const int tile_id = blockIdx.x * 4 + tile;
    const int tx = tile_id % tiles_x, ty = tile_id / tiles_x;
    const int x = tx * 4 + (p & 3), y = ty * 4 + (p >> 2);
    const unsigned char* px = rgb + 3 * (y * width + x);
    s_px[tid][0] = px[0];
    s_px[tid][1] = px[1];
    s_px[tid][2] = px[2];
    __syncthreads();
    int lo[3] = {255, 255, 255}, hi[3] = {0, 0, 0};
    for (int i = 0; i < 16; i++)
        for (int c = 0; c < 3; c++) {
            const int v = s_px[tile * 16 + i][c];
            lo[c] = min(lo[c], v);
            hi[c] = max(hi[c], v);
        }
    unsigned int c0 = to565(hi[0], hi[1], hi[2]), c1 = to565(lo[0], lo[1], lo[2]);
    if (c0 < c1) { const unsigned int t = c0; c0 = c1; c1 = t; }
    unsigned int index = 0;
    if (c0 != c1) {
        int pal[4][3];
        from565(c0, pal[0][0], pal[0][1], pal[0][2]);
        from565(c1, pal[1][0], pal[1][1], pal[1][2]);
        for (int c = 0; c < 3; c++) {
            pal[2][c] = (2 * pal[0][c] + pal[1][c]) / 3;
            pal[3][c] = (pal[0][c] + 2 * pal[1][c]) / 3;
        }
        int best = 0x7fffffff;
        for (int k = 0; k < 4; k++) {
            const int dr = s_px[tid][0] - pal[k][0], dg = s_px[tid][1] - pal[k][1];
            const int db = s_px[tid][2] - pal[k][2];
            const int dist = dr * dr + dg * dg + db * db;
            if (dist < best) { best = dist; index = k; }
        }
    }
    s_idx[tid] = index;
    __syncthreads();
    if (p == 0) {
        unsigned int bits = 0;
        for (int i = 0; i < 16; i++) bits |= s_idx[tid + i] << (2 * i);
        out[tile_id] = make_uint2(c0 | (c1 << 16), bits);
    }
}
