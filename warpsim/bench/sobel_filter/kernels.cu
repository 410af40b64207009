// sobel_filter: Sobel edge magnitude of an 8-bit image (the shape of SDK SobelFilter's
// SobelShared): 16x16 threads; the block's tile and a one-pixel apron are fetched through a
// texture (clamped coordinates) into shared memory, then each thread combines its 3x3
// neighbourhood, scales, clamps and writes a byte.
#define TILE 16

__device__ inline unsigned char sobel(unsigned char ul, unsigned char um, unsigned char ur,
                                      unsigned char ml, unsigned char mr, unsigned char ll,
                                      unsigned char lm, unsigned char lr, float scale)
{
    const short horz = ur + 2 * mr + lr - ul - 2 * ml - ll;
    const short vert = ul + 2 * um + ur - ll - 2 * lm - lr;
    short sum = (short)(scale * (abs(horz) + abs(vert)));
    if (sum < 0) return 0;
    if (sum > 0xff) return 0xff;
    return (unsigned char)sum;
}

extern "C" __global__ void sobel_shared(cudaTextureObject_t img, unsigned char* out, int width,
                                        int height, float scale)
{
    __shared__ unsigned char tile[TILE + 2][TILE + 2];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int x0 = blockIdx.x * TILE - 1, y0 = blockIdx.y * TILE - 1;
    for (int i = ty * TILE + tx; i < (TILE + 2) * (TILE + 2); i += TILE * TILE) {
        const int lx = i % (TILE + 2), ly = i / (TILE + 2);
        const int gx = min(max(x0 + lx, 0), width - 1);
        const int gy = min(max(y0 + ly, 0), height - 1);
        tile[ly][lx] = tex1Dfetch<unsigned char>(img, gy * width + gx);
    }
    __syncthreads();
    const int x = blockIdx.x * TILE + tx, y = blockIdx.y * TILE + ty;
    if (x < width && y < height)
        out[y * width + x] = sobel(tile[ty][tx], tile[ty][tx + 1], tile[ty][tx + 2],
                                   tile[ty + 1][tx], tile[ty + 1][tx + 2], tile[ty + 2][tx],
                                   tile[ty + 2][tx + 1], tile[ty + 2][tx + 2], scale);
}
