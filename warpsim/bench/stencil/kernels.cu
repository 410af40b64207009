// stencil: 3-D 7-point Jacobi stencil (the shape of Parboil stencil's block2D_hybrid_coarsen_x):
// 32x4 threads cover a 64x4 column of the x-y plane (two x points per thread) and march along z
// keeping the planes below and above in registers and the current plane, with its halo, in
// dynamic shared memory. Boundary cells are never written.
#define IDX(x, y, z) ((x) + nx * ((y) + ny * (z)))

extern "C" __global__ void block2d_hybrid_coarsen_x(float c0, float c1, const float* A0,
                                                    float* Anext, int nx, int ny, int nz)
{
    extern __shared__ float sh[];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int bdx = blockDim.x, bdy = blockDim.y;
    const int sw = 2 * bdx + 2;
    const int i0 = blockIdx.x * 2 * bdx + tx, i1 = i0 + bdx;
    const int j = blockIdx.y * bdy + ty;
    const int sx0 = tx + 1, sx1 = tx + 1 + bdx, sy = ty + 1;
    float bottom0 = A0[IDX(i0, j, 0)], bottom1 = A0[IDX(i1, j, 0)];
    float current0 = A0[IDX(i0, j, 1)], current1 = A0[IDX(i1, j, 1)];
    for (int k = 1; k < nz - 1; k++) {
        const float top0 = A0[IDX(i0, j, k + 1)], top1 = A0[IDX(i1, j, k + 1)];
        sh[sy * sw + sx0] = current0;
        sh[sy * sw + sx1] = current1;
        if (tx == 0) sh[sy * sw] = (i0 > 0) ? A0[IDX(i0 - 1, j, k)] : 0.0f;
        if (tx == bdx - 1) sh[sy * sw + sx1 + 1] = (i1 < nx - 1) ? A0[IDX(i1 + 1, j, k)] : 0.0f;
        if (ty == 0) {
            sh[sx0] = (j > 0) ? A0[IDX(i0, j - 1, k)] : 0.0f;
            sh[sx1] = (j > 0) ? A0[IDX(i1, j - 1, k)] : 0.0f;
        }
        if (ty == bdy - 1) {
            sh[(sy + 1) * sw + sx0] = (j < ny - 1) ? A0[IDX(i0, j + 1, k)] : 0.0f;
            sh[(sy + 1) * sw + sx1] = (j < ny - 1) ? A0[IDX(i1, j + 1, k)] : 0.0f;
        }
        __syncthreads();
        if (j > 0 && j < ny - 1) {
            if (i0 > 0)
                Anext[IDX(i0, j, k)] = (top0 + bottom0 + sh[sy * sw + sx0 - 1] +
                                        sh[sy * sw + sx0 + 1] + sh[(sy - 1) * sw + sx0] +
                                        sh[(sy + 1) * sw + sx0]) * c1 - current0 * c0;
            if (i1 < nx - 1)
                Anext[IDX(i1, j, k)] = (top1 + bottom1 + sh[sy * sw + sx1 - 1] +
                                        sh[sy * sw + sx1 + 1] + sh[(sy - 1) * sw + sx1] +
                                        sh[(sy + 1) * sw + sx1]) * c1 - current1 * c0;
        }
        __syncthreads();
        bottom0 = current0; bottom1 = current1;
        current0 = top0; current1 = top1;
    }
}
