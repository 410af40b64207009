// grid3d.cu: 2-D and 3-D grids and blocks, and __launch_bounds__.
// Exercises: %tid.y, %tid.z, %ntid.y, %ntid.z, %ctaid.y, %ctaid.z, %nctaid.y/z, a 2-D
// 5-point stencil with boundary tests, a 3-D volume operation, and .maxntid / .minnctapersm
// directives from __launch_bounds__(256, 2).
//
// Kernels:
//   extern "C" __global__ void __launch_bounds__(256, 2)
//   stencil2d(const float* in, float* out, int width, int height)
//       2-D grid and block (e.g. block (16, 16)); for 0 < x < width-1, 0 < y < height-1:
//       out[y*W + x] = 0.5 * in[y*W + x] + 0.125 * (in[y*W + x-1] + in[y*W + x+1]
//                      + in[(y-1)*W + x] + in[(y+1)*W + x]); border cells copy in.
//   extern "C" __global__ void volume_index(int* out, int nx, int ny, int nz)
//       3-D grid and 3-D block; for x < nx, y < ny, z < nz (x from ctaid.x/tid.x, y from .y,
//       z from .z): out[(z*ny + y)*nx + x] = x + 1000 * y + 1000000 * z.
//   extern "C" __global__ void block_coords(int* out)
//       any 3-D launch; flat thread id t = ((ctaid.z * nctaid.y + ctaid.y) * nctaid.x
//       + ctaid.x) * (ntid.x*ntid.y*ntid.z) + (tid.z * ntid.y + tid.y) * ntid.x + tid.x;
//       out[6t .. 6t+5] = {tid.x, tid.y, tid.z, ctaid.x, ctaid.y, ctaid.z}.

extern "C" __global__ void __launch_bounds__(256, 2)
stencil2d(const float* in, float* out, int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) {
        return;
    }
    int c = y * width + x;
    if (x == 0 || y == 0 || x == width - 1 || y == height - 1) {
        out[c] = in[c];
    } else {
        out[c] = 0.5f * in[c]
                 + 0.125f * (in[c - 1] + in[c + 1] + in[c - width] + in[c + width]);
    }
}

extern "C" __global__ void volume_index(int* out, int nx, int ny, int nz)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x < nx && y < ny && z < nz) {
        out[(z * ny + y) * nx + x] = x + 1000 * y + 1000000 * z;
    }
}

extern "C" __global__ void block_coords(int* out)
{
    int block = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
    int threads = blockDim.x * blockDim.y * blockDim.z;
    int t = block * threads + (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    int* o = out + 6 * t;
    o[0] = threadIdx.x;
    o[1] = threadIdx.y;
    o[2] = threadIdx.z;
    o[3] = blockIdx.x;
    o[4] = blockIdx.y;
    o[5] = blockIdx.z;
}
