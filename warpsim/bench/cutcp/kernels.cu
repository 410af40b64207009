// cutcp: cutoff electrostatic potential on a 3-D lattice (the shape of Parboil cutcp): atoms are
// sorted into spatial bins of BIN_DEPTH slots; a block of 8x2x8 threads owns an 8x8x8 region of
// lattice points (4 points along y per thread, energies in registers), walks the neighbour-bin
// offsets kept in constant memory, stages each bin's atoms in shared memory and accumulates the
// smoothed 1/r potential with rsqrtf. One launch per z-slab of regions.
#define BIN_DEPTH 8
#define REGION 8
#define NBR_MAX 27

__constant__ int c_nbr_offsets[3 * NBR_MAX];

extern "C" __global__ void cutoff_potential(int nbins_x, int nbins_y, int nbins_z,
                                            const float4* bins, float h, float cutoff2,
                                            float inv_cutoff2, float* lattice, int nx, int ny,
                                            int zregion, int nbr_count)
{
    __shared__ float4 s_atoms[BIN_DEPTH];
    const int tx = threadIdx.x, ty = threadIdx.y, tz = threadIdx.z;
    const int tid = (tz * blockDim.y + ty) * blockDim.x + tx;
    const int bx = blockIdx.x, by = blockIdx.y, bz = zregion;
    const int x = bx * REGION + tx;
    const int y = by * REGION + ty * 4;
    const int z = bz * REGION + tz;
    const float px = x * h, py = y * h, pz = z * h;
    float e0 = 0.0f, e1 = 0.0f, e2 = 0.0f, e3 = 0.0f;
    for (int n = 0; n < nbr_count; n++) {
        const int ib = bx + c_nbr_offsets[3 * n];
        const int jb = by + c_nbr_offsets[3 * n + 1];
        const int kb = bz + c_nbr_offsets[3 * n + 2];
        if (ib < 0 || jb < 0 || kb < 0 || ib >= nbins_x || jb >= nbins_y || kb >= nbins_z)
            continue;
        __syncthreads();
        if (tid < BIN_DEPTH) s_atoms[tid] = bins[((kb * nbins_y + jb) * nbins_x + ib) * BIN_DEPTH + tid];
        __syncthreads();
        for (int a = 0; a < BIN_DEPTH; a++) {
            const float4 atom = s_atoms[a];
            const float dx = atom.x - px, dz = atom.z - pz;
            const float dxdz2 = dx * dx + dz * dz;
            if (dxdz2 >= cutoff2) continue;
            float dy = atom.y - py;
            float r2 = dy * dy + dxdz2;
            if (r2 < cutoff2) { const float s = 1.0f - r2 * inv_cutoff2; e0 += atom.w * rsqrtf(r2) * s * s; }
            dy -= h; r2 = dy * dy + dxdz2;
            if (r2 < cutoff2) { const float s = 1.0f - r2 * inv_cutoff2; e1 += atom.w * rsqrtf(r2) * s * s; }
            dy -= h; r2 = dy * dy + dxdz2;
            if (r2 < cutoff2) { const float s = 1.0f - r2 * inv_cutoff2; e2 += atom.w * rsqrtf(r2) * s * s; }
            dy -= h; r2 = dy * dy + dxdz2;
            if (r2 < cutoff2) { const float s = 1.0f - r2 * inv_cutoff2; e3 += atom.w * rsqrtf(r2) * s * s; }
        }
    }
    float* out = lattice + (z * ny + y) * nx + x;
    out[0] = e0;
    out[nx] = e1;
    out[2 * nx] = e2;
    out[3 * nx] = e3;
}
