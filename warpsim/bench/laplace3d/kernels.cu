// laplace3d: Jacobi iteration for the 3-D Laplace equation (the shape of the ISPASS-2009 LPS
// benchmark, GPU_laplace3d): 32x4 threads own an (x, y) column each and march along z; interior
// points take the mean of their six neighbours, boundary points are copied (Dirichlet).
#define BLOCK_X 32
#define BLOCK_Y 4

extern "C" __global__ void gpu_laplace3d(int nx, int ny, int nz, const float* d_u1, float* d_u2)
{
    const float sixth = 1.0f / 6.0f;
    const int i = threadIdx.x + blockIdx.x * BLOCK_X;
    const int j = threadIdx.y + blockIdx.y * BLOCK_Y;
    if (i >= nx || j >= ny) return;
    int indg = i + j * nx;
    const int kof = nx * ny;
    const bool boundary = (i == 0 || i == nx - 1 || j == 0 || j == ny - 1);
    for (int k = 0; k < nz; k++) {
        float u2;
        if (boundary || k == 0 || k == nz - 1) {
            u2 = d_u1[indg];
        } else {
            u2 = (d_u1[indg - 1] + d_u1[indg + 1] + d_u1[indg - nx] + d_u1[indg + nx] +
                  d_u1[indg - kof] + d_u1[indg + kof]) * sixth;
        }
        d_u2[indg] = u2;
        indg += kof;
    }
}
