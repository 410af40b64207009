// hotspot: transient chip-temperature simulation with the "pyramid" scheme (the shape of Rodinia
// hotspot): a 16x16 block loads a tile of temperature and power into shared memory, advances it
// `iteration` time steps in shared memory (the valid region shrinks by one cell per step), and
// writes back the interior. Grid edges take their own temperature as the missing neighbour.
#define BLOCK_SIZE 16
#define IN_RANGE(x, lo, hi) (((x) >= (lo)) && ((x) <= (hi)))

extern "C" __global__ void calculate_temp(int iteration, const float* power, const float* temp_src,
                                          float* temp_dst, int grid_cols, int grid_rows,
                                          int border_cols, int border_rows, float Cap, float Rx,
                                          float Ry, float Rz, float step, float amb_temp)
{
    __shared__ float temp_on[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float power_on[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float temp_t[BLOCK_SIZE][BLOCK_SIZE];
    const int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
    const float step_div_cap = step / Cap;
    const float rx_1 = 1.0f / Rx, ry_1 = 1.0f / Ry, rz_1 = 1.0f / Rz;
    const int small_rows = BLOCK_SIZE - 2 * border_rows;
    const int small_cols = BLOCK_SIZE - 2 * border_cols;
    const int blk_y = small_rows * by - border_rows;
    const int blk_x = small_cols * bx - border_cols;
    const int blk_y_max = blk_y + BLOCK_SIZE - 1;
    const int blk_x_max = blk_x + BLOCK_SIZE - 1;
    const int yidx = blk_y + ty, xidx = blk_x + tx;
    const int index = grid_cols * yidx + xidx;
    if (IN_RANGE(yidx, 0, grid_rows - 1) && IN_RANGE(xidx, 0, grid_cols - 1)) {
        temp_on[ty][tx] = temp_src[index];
        power_on[ty][tx] = power[index];
    }
    __syncthreads();
    const int valid_y_min = (blk_y < 0) ? -blk_y : 0;
    const int valid_y_max = (blk_y_max > grid_rows - 1) ? BLOCK_SIZE - 1 - (blk_y_max - grid_rows + 1)
                                                       : BLOCK_SIZE - 1;
    const int valid_x_min = (blk_x < 0) ? -blk_x : 0;
    const int valid_x_max = (blk_x_max > grid_cols - 1) ? BLOCK_SIZE - 1 - (blk_x_max - grid_cols + 1)
                                                       : BLOCK_SIZE - 1;
    int N = ty - 1, S = ty + 1, W = tx - 1, E = tx + 1;
    N = (N < valid_y_min) ? valid_y_min : N;
    S = (S > valid_y_max) ? valid_y_max : S;
    W = (W < valid_x_min) ? valid_x_min : W;
    E = (E > valid_x_max) ? valid_x_max : E;
    bool computed = false;
    for (int i = 0; i < iteration; i++) {
        computed = false;
        if (IN_RANGE(tx, i + 1, BLOCK_SIZE - i - 2) && IN_RANGE(ty, i + 1, BLOCK_SIZE - i - 2) &&
            IN_RANGE(tx, valid_x_min, valid_x_max) && IN_RANGE(ty, valid_y_min, valid_y_max)) {
            computed = true;
            const float t = temp_on[ty][tx];
            temp_t[ty][tx] = t + step_div_cap * (power_on[ty][tx] +
                             (temp_on[S][tx] + temp_on[N][tx] - 2.0f * t) * ry_1 +
                             (temp_on[ty][E] + temp_on[ty][W] - 2.0f * t) * rx_1 +
                             (amb_temp - t) * rz_1);
        }
        __syncthreads();
        if (i == iteration - 1) break;
        if (computed) temp_on[ty][tx] = temp_t[ty][tx];
        __syncthreads();
    }
    if (computed) temp_dst[index] = temp_t[ty][tx];
}
