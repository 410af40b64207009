// transpose: out = in^T for a width x height matrix of floats (the shape of SDK transpose):
// a naive kernel (strided writes) and a coalesced one through a 16x17 padded shared tile.
#define TILE_DIM 16
#define BLOCK_ROWS 16

extern "C" __global__ void transpose_naive(float* odata, const float* idata, int width, int height)
{
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
        odata[x * height + (y + i)] = idata[(y + i) * width + x];
}

extern "C" __global__ void transpose_no_bank_conflicts(float* odata, const float* idata,
                                                       int width, int height)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
        tile[threadIdx.y + i][threadIdx.x] = idata[(y + i) * width + x];
    __syncthreads();
    x = blockIdx.y * TILE_DIM + threadIdx.x;
    y = blockIdx.x * TILE_DIM + threadIdx.y;
    for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
        odata[(y + i) * height + x] = tile[threadIdx.x][threadIdx.y + i];
}
