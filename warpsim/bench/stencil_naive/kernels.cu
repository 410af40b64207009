// stencil_naive: 3-D 7-point Jacobi stencil in the naive register-tiling form of Parboil
// stencil (the kernel the WarpMan chapter quotes as ST, Fig. 24): one thread per (i, j)
// column of a 2-D thread block; a thread whose column is interior marches along z for the
// whole depth, keeping the planes below, at and above it in registers and reading the four
// in-plane neighbours from global memory; a thread on the boundary (or past the grid's edge)
// fails the `if` and exits at once. Boundary cells are never written.
#define IDX(x, y, z) ((x) + nx * ((y) + ny * (z)))

// __maxnreg__(24): ptxas's floor for the directive on sm_75/sm_80; it then allocates 22 (no
// spills) where it takes 26 unconstrained. The dissertation's Fermi compiler gave 17 (Table 5).
extern "C" __global__ void __maxnreg__(24)
stencil_naive(float c0, float c1, const float* A0, float* Anext, int nx, int ny, int nz)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int j = blockIdx.y * blockDim.y + threadIdx.y;
    if (i > 0 && j > 0 && i < nx - 1 && j < ny - 1) {
        const int plane = nx * ny;
        const float* a = A0 + IDX(i, j, 1);
        float* out = Anext + IDX(i, j, 1);
        float bottom = a[-plane];
        float current = a[0];
#pragma unroll 1
        for (int k = 1; k < nz - 1; k++) {
            const float top = a[plane];
            *out = (top + bottom + a[-1] + a[1] + a[-nx] + a[nx]) * c1 - current * c0;
            bottom = current;
            current = top;
            a += plane;
            out += plane;
        }
    }
}
