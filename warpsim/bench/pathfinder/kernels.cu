// pathfinder: minimum-cost path down a grid, row by row (the shape of Rodinia pathfinder):
// 256 threads hold a row segment in shared memory and advance `iteration` rows per launch with a
// shrinking valid region ("pyramid"), so one launch covers several dynamic-programming steps.
#define BLOCK_SIZE 256
#define HALO 1
#define IN_RANGE(x, lo, hi) (((x) >= (lo)) && ((x) <= (hi)))

extern "C" __global__ void dynproc_kernel(int iteration, const int* gpu_wall, const int* gpu_src,
                                          int* gpu_results, int cols, int rows, int start_step,
                                          int border)
{
    __shared__ int prev[BLOCK_SIZE];
    __shared__ int result[BLOCK_SIZE];
    const int bx = blockIdx.x, tx = threadIdx.x;
    const int small_block_cols = BLOCK_SIZE - 2 * border;
    const int blk_x = small_block_cols * bx - border;
    const int blk_x_max = blk_x + BLOCK_SIZE - 1;
    const int xidx = blk_x + tx;
    const int valid_x_min = (blk_x < 0) ? -blk_x : 0;
    const int valid_x_max = (blk_x_max > cols - 1) ? BLOCK_SIZE - 1 - (blk_x_max - cols + 1)
                                                  : BLOCK_SIZE - 1;
    int W = tx - 1, E = tx + 1;
    W = (W < valid_x_min) ? valid_x_min : W;
    E = (E > valid_x_max) ? valid_x_max : E;
    const bool is_valid = IN_RANGE(tx, valid_x_min, valid_x_max);
    if (IN_RANGE(xidx, 0, cols - 1)) prev[tx] = gpu_src[xidx];
    __syncthreads();
    bool computed = false;
    for (int i = 0; i < iteration; i++) {
        computed = false;
        if (IN_RANGE(tx, i + 1, BLOCK_SIZE - i - 2) && is_valid) {
            computed = true;
            int left = prev[W], up = prev[tx], right = prev[E];
            int shortest = left < up ? left : up;
            shortest = shortest < right ? shortest : right;
            result[tx] = shortest + gpu_wall[cols * (start_step + i) + xidx];
        }
        __syncthreads();
        if (i == iteration - 1) break;
        if (computed) prev[tx] = result[tx];
        __syncthreads();
    }
    if (computed) gpu_results[xidx] = result[tx];
}
