// fdtd3d: 3-D finite-difference stencil of radius 4 (the shape of SDK FDTD3d's
// FiniteDifferencesKernel): 32x16 threads own an (x, y) column each and march along z, keeping
// the 4 planes behind and the 4 in front in registers; the current x-y plane, with a 4-point
// apron, goes through shared memory. The coefficients sit in constant memory; the volume is
// padded by the radius on every side, so the interior needs no bounds checks.
#define RADIUS 4
#define BX 32
#define BY 16

__constant__ float c_stencil[RADIUS + 1];

extern "C" __global__ void finite_differences(float* output, const float* input, int dimx,
                                              int dimy, int dimz)
{
    __shared__ float tile[BY + 2 * RADIUS][BX + 2 * RADIUS];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int stride_y = dimx + 2 * RADIUS;
    const int stride_z = stride_y * (dimy + 2 * RADIUS);
    const int gx = blockIdx.x * BX + tx, gy = blockIdx.y * BY + ty;
    const int sx = tx + RADIUS, sy = ty + RADIUS;
    int idx = RADIUS * stride_z + (gy + RADIUS) * stride_y + gx + RADIUS;
    float behind[RADIUS], infront[RADIUS];
#pragma unroll
    for (int i = 0; i < RADIUS; i++) {
        behind[i] = input[idx - (i + 1) * stride_z];
        infront[i] = input[idx + (i + 1) * stride_z];
    }
    float current = input[idx];
    for (int iz = 0; iz < dimz; iz++) {
        if (iz > 0) {
#pragma unroll
            for (int i = RADIUS - 1; i > 0; i--) behind[i] = behind[i - 1];
            behind[0] = current;
            current = infront[0];
#pragma unroll
            for (int i = 0; i < RADIUS - 1; i++) infront[i] = infront[i + 1];
            idx += stride_z;
            infront[RADIUS - 1] = input[idx + RADIUS * stride_z];
        }
        __syncthreads();
        if (ty < RADIUS) {
            tile[ty][sx] = input[idx - RADIUS * stride_y];
            tile[sy + BY][sx] = input[idx + BY * stride_y];
        }
        if (tx < RADIUS) {
            tile[sy][tx] = input[idx - RADIUS];
            tile[sy][sx + BX] = input[idx + BX];
        }
        tile[sy][sx] = current;
        __syncthreads();
        float value = c_stencil[0] * current;
#pragma unroll
        for (int i = 1; i <= RADIUS; i++)
            value += c_stencil[i] * (infront[i - 1] + behind[i - 1] + tile[sy - i][sx] +
                                     tile[sy + i][sx] + tile[sy][sx - i] + tile[sy][sx + i]);
        output[idx] = value;
    }
}
