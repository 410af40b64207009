// sad: sums of absolute differences for H.264-style motion estimation (the shape of Parboil sad):
// mb_sad_calc (61 threads per 16x16 macroblock) stages the current macroblock in shared memory,
// reads the reference frame through a texture with clamped coordinates and writes the 4x4 SADs
// of every search position; larger_sad_calc_8 (32x4) and larger_sad_calc_16 (32) combine them
// into 8x4, 4x8, 8x8, 16x8, 8x16 and 16x16 SADs.
#define MB 16
#define SAD_THREADS 61

extern "C" __global__ void mb_sad_calc(unsigned short* sad4x4, const int* cur,
                                       cudaTextureObject_t ref, int width, int height,
                                       int radius)
{
    __shared__ int s_cur[MB * MB];
    const int mbx = blockIdx.x, mby = blockIdx.y, tid = threadIdx.x;
    const int mb = mby * gridDim.x + mbx;
    const int side = 2 * radius + 1;
    const int npos = side * side;
    for (int i = tid; i < MB * MB; i += SAD_THREADS)
        s_cur[i] = cur[(mby * MB + i / MB) * width + mbx * MB + i % MB];
    __syncthreads();
    for (int pos = tid; pos < npos; pos += SAD_THREADS) {
        const int dy = pos / side - radius, dx = pos % side - radius;
        for (int sub = 0; sub < 16; sub++) {
            const int by = (sub >> 2) * 4, bx = (sub & 3) * 4;
            unsigned int sad = 0;
            for (int y = 0; y < 4; y++) {
                const int ry = min(max(mby * MB + by + y + dy, 0), height - 1);
                for (int x = 0; x < 4; x++) {
                    const int rx = min(max(mbx * MB + bx + x + dx, 0), width - 1);
                    const int r = tex1Dfetch<int>(ref, ry * width + rx);
                    sad += abs(s_cur[(by + y) * MB + bx + x] - r);
                }
            }
            sad4x4[(mb * 16 + sub) * npos + pos] = (unsigned short)sad;
        }
    }
}

extern "C" __global__ void larger_sad_calc_8(const unsigned short* sad4x4, unsigned short* sad8x8,
                                             unsigned short* sad8x4, unsigned short* sad4x8,
                                             int npos)
{
    const int mb = blockIdx.x, quad = threadIdx.y;
    const int qy = quad >> 1, qx = quad & 1;
    const int s00 = (2 * qy) * 4 + 2 * qx, s01 = s00 + 1, s10 = s00 + 4, s11 = s00 + 5;
    const unsigned short* base = sad4x4 + mb * 16 * npos;
    for (int pos = threadIdx.x; pos < npos; pos += blockDim.x) {
        const unsigned int a = base[s00 * npos + pos], b = base[s01 * npos + pos];
        const unsigned int c = base[s10 * npos + pos], d = base[s11 * npos + pos];
        sad8x4[((mb * 4 + quad) * 2 + 0) * npos + pos] = (unsigned short)(a + b);
        sad8x4[((mb * 4 + quad) * 2 + 1) * npos + pos] = (unsigned short)(c + d);
        sad4x8[((mb * 4 + quad) * 2 + 0) * npos + pos] = (unsigned short)(a + c);
        sad4x8[((mb * 4 + quad) * 2 + 1) * npos + pos] = (unsigned short)(b + d);
        sad8x8[(mb * 4 + quad) * npos + pos] = (unsigned short)(a + b + c + d);
    }
}

extern "C" __global__ void larger_sad_calc_16(const unsigned short* sad8x8,
                                              unsigned short* sad16x16, unsigned short* sad16x8,
                                              unsigned short* sad8x16, int npos)
{
    const int mb = blockIdx.x;
    const unsigned short* base = sad8x8 + mb * 4 * npos;
    for (int pos = threadIdx.x; pos < npos; pos += blockDim.x) {
        const unsigned int q0 = base[pos], q1 = base[npos + pos];
        const unsigned int q2 = base[2 * npos + pos], q3 = base[3 * npos + pos];
        sad16x8[(mb * 2 + 0) * npos + pos] = (unsigned short)(q0 + q1);
        sad16x8[(mb * 2 + 1) * npos + pos] = (unsigned short)(q2 + q3);
        sad8x16[(mb * 2 + 0) * npos + pos] = (unsigned short)(q0 + q2);
        sad8x16[(mb * 2 + 1) * npos + pos] = (unsigned short)(q1 + q3);
        sad16x16[mb * npos + pos] = (unsigned short)(q0 + q1 + q2 + q3);
    }
}
