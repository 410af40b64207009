// nw: Needleman-Wunsch global alignment score matrix (the shape of Rodinia nw): 16 threads per
// block fill a 16x16 tile in shared memory along its anti-diagonals; kernel 1 sweeps the tile
// anti-diagonals of the upper-left triangle, kernel 2 those of the lower-right one.
#define BLOCK_SIZE 16

__device__ inline int max3(int a, int b, int c)
{
    int k = a > b ? a : b;
    return k > c ? k : c;
}

__device__ void fill_tile(const int* reference, int* matrix, int cols, int penalty, int bx_idx,
                          int by_idx)
{
    __shared__ int temp[BLOCK_SIZE + 1][BLOCK_SIZE + 1];
    __shared__ int ref[BLOCK_SIZE][BLOCK_SIZE];
    const int tx = threadIdx.x;
    const int index = cols * BLOCK_SIZE * by_idx + BLOCK_SIZE * bx_idx + tx + (cols + 1);
    const int index_n = cols * BLOCK_SIZE * by_idx + BLOCK_SIZE * bx_idx + tx + 1;
    const int index_w = cols * BLOCK_SIZE * by_idx + BLOCK_SIZE * bx_idx + cols;
    const int index_nw = cols * BLOCK_SIZE * by_idx + BLOCK_SIZE * bx_idx;
    if (tx == 0) temp[0][0] = matrix[index_nw];
    for (int ty = 0; ty < BLOCK_SIZE; ty++) ref[ty][tx] = reference[index + cols * ty];
    __syncthreads();
    temp[tx + 1][0] = matrix[index_w + cols * tx];
    temp[0][tx + 1] = matrix[index_n];
    __syncthreads();
    for (int m = 0; m < BLOCK_SIZE; m++) {
        if (tx <= m) {
            const int t_x = tx + 1, t_y = m - tx + 1;
            temp[t_y][t_x] = max3(temp[t_y - 1][t_x - 1] + ref[t_y - 1][t_x - 1],
                                  temp[t_y][t_x - 1] - penalty, temp[t_y - 1][t_x] - penalty);
        }
        __syncthreads();
    }
    for (int m = BLOCK_SIZE - 2; m >= 0; m--) {
        if (tx <= m) {
            const int t_x = tx + BLOCK_SIZE - m, t_y = BLOCK_SIZE - tx;
            temp[t_y][t_x] = max3(temp[t_y - 1][t_x - 1] + ref[t_y - 1][t_x - 1],
                                  temp[t_y][t_x - 1] - penalty, temp[t_y - 1][t_x] - penalty);
        }
        __syncthreads();
    }
    for (int ty = 0; ty < BLOCK_SIZE; ty++) matrix[index + ty * cols] = temp[ty + 1][tx + 1];
}

extern "C" __global__ void needle_shared_1(const int* reference, int* matrix, int cols,
                                           int penalty, int i, int block_width)
{
    fill_tile(reference, matrix, cols, penalty, blockIdx.x, i - 1 - blockIdx.x);
}

extern "C" __global__ void needle_shared_2(const int* reference, int* matrix, int cols,
                                           int penalty, int i, int block_width)
{
    fill_tile(reference, matrix, cols, penalty, blockIdx.x + block_width - i,
              block_width - blockIdx.x - 1);
}
