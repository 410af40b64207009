// cp: direct Coulomb summation of the electrostatic potential on a 2-D lattice slice (the shape
// of the ISPASS-2009 CP benchmark, cenergy): 16x8 threads, each computing UNROLLX = 8 lattice
// points along x; the atoms (x, y, dz^2, q) of one chunk sit in constant memory and every thread
// reads the same atom at the same time (a broadcast), one launch per chunk of atoms.
#define MAXATOMS 4000
#define UNROLLX 8

__constant__ float4 atominfo[MAXATOMS];

extern "C" __global__ void cenergy(int numatoms, float gridspacing, float* energygrid, int ncols)
{
    const int xindex = (blockIdx.x * blockDim.x) * UNROLLX + threadIdx.x;
    const int yindex = blockIdx.y * blockDim.y + threadIdx.y;
    const int outaddr = yindex * ncols + xindex;
    const float coory = gridspacing * yindex;
    const float coorx = gridspacing * xindex;
    const float step = gridspacing * blockDim.x;
    float e[UNROLLX];
#pragma unroll
    for (int u = 0; u < UNROLLX; u++) e[u] = energygrid[outaddr + u * blockDim.x];
    for (int a = 0; a < numatoms; a++) {
        const float dy = coory - atominfo[a].y;
        const float dyz2 = dy * dy + atominfo[a].z;
        float dx = coorx - atominfo[a].x;
#pragma unroll
        for (int u = 0; u < UNROLLX; u++) {
            e[u] += atominfo[a].w * rsqrtf(dx * dx + dyz2);
            dx += step;
        }
    }
#pragma unroll
    for (int u = 0; u < UNROLLX; u++) energygrid[outaddr + u * blockDim.x] = e[u];
}
