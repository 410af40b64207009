// convolution_separable: 2-D separable convolution with a 17-tap filter in constant memory (the
// shape of SDK convolutionSeparable): a rows pass (16x4 threads, 8 results per thread, shared
// tile with a one-tile apron on each side) and a columns pass (16x8 threads, 8 results each).
#define KERNEL_RADIUS 8
#define KERNEL_LENGTH (2 * KERNEL_RADIUS + 1)
#define ROWS_BLOCKDIM_X 16
#define ROWS_BLOCKDIM_Y 4
#define ROWS_RESULT_STEPS 8
#define ROWS_HALO_STEPS 1
#define COLUMNS_BLOCKDIM_X 16
#define COLUMNS_BLOCKDIM_Y 8
#define COLUMNS_RESULT_STEPS 8
#define COLUMNS_HALO_STEPS 1

__constant__ float c_kernel[KERNEL_LENGTH];

extern "C" __global__ void convolution_rows(float* d_dst, const float* d_src, int width,
                                            int height, int pitch)
{
    __shared__ float s_data[ROWS_BLOCKDIM_Y]
                           [(ROWS_RESULT_STEPS + 2 * ROWS_HALO_STEPS) * ROWS_BLOCKDIM_X];
    const int base_x = (blockIdx.x * ROWS_RESULT_STEPS - ROWS_HALO_STEPS) * ROWS_BLOCKDIM_X +
                       threadIdx.x;
    const int base_y = blockIdx.y * ROWS_BLOCKDIM_Y + threadIdx.y;
    const int row = base_y * pitch;
    float* s = s_data[threadIdx.y];
#pragma unroll
    for (int i = 0; i < ROWS_HALO_STEPS; i++) {
        const int x = base_x + i * ROWS_BLOCKDIM_X;
        s[threadIdx.x + i * ROWS_BLOCKDIM_X] = (x >= 0) ? d_src[row + x] : 0.0f;
    }
#pragma unroll
    for (int i = ROWS_HALO_STEPS; i < ROWS_HALO_STEPS + ROWS_RESULT_STEPS; i++)
        s[threadIdx.x + i * ROWS_BLOCKDIM_X] = d_src[row + base_x + i * ROWS_BLOCKDIM_X];
#pragma unroll
    for (int i = ROWS_HALO_STEPS + ROWS_RESULT_STEPS;
         i < ROWS_HALO_STEPS + ROWS_RESULT_STEPS + ROWS_HALO_STEPS; i++) {
        const int x = base_x + i * ROWS_BLOCKDIM_X;
        s[threadIdx.x + i * ROWS_BLOCKDIM_X] = (x < width) ? d_src[row + x] : 0.0f;
    }
    __syncthreads();
#pragma unroll
    for (int i = ROWS_HALO_STEPS; i < ROWS_HALO_STEPS + ROWS_RESULT_STEPS; i++) {
        float sum = 0.0f;
#pragma unroll
        for (int j = -KERNEL_RADIUS; j <= KERNEL_RADIUS; j++)
            sum += c_kernel[KERNEL_RADIUS - j] * s[threadIdx.x + i * ROWS_BLOCKDIM_X + j];
        d_dst[row + base_x + i * ROWS_BLOCKDIM_X] = sum;
    }
}

extern "C" __global__ void convolution_columns(float* d_dst, const float* d_src, int width,
                                               int height, int pitch)
{
    __shared__ float s_data[COLUMNS_BLOCKDIM_X]
                           [(COLUMNS_RESULT_STEPS + 2 * COLUMNS_HALO_STEPS) * COLUMNS_BLOCKDIM_Y + 1];
    const int base_x = blockIdx.x * COLUMNS_BLOCKDIM_X + threadIdx.x;
    const int base_y = (blockIdx.y * COLUMNS_RESULT_STEPS - COLUMNS_HALO_STEPS) *
                       COLUMNS_BLOCKDIM_Y + threadIdx.y;
    float* s = s_data[threadIdx.x];
#pragma unroll
    for (int i = 0; i < COLUMNS_HALO_STEPS; i++) {
        const int y = base_y + i * COLUMNS_BLOCKDIM_Y;
        s[threadIdx.y + i * COLUMNS_BLOCKDIM_Y] = (y >= 0) ? d_src[y * pitch + base_x] : 0.0f;
    }
#pragma unroll
    for (int i = COLUMNS_HALO_STEPS; i < COLUMNS_HALO_STEPS + COLUMNS_RESULT_STEPS; i++)
        s[threadIdx.y + i * COLUMNS_BLOCKDIM_Y] =
            d_src[(base_y + i * COLUMNS_BLOCKDIM_Y) * pitch + base_x];
#pragma unroll
    for (int i = COLUMNS_HALO_STEPS + COLUMNS_RESULT_STEPS;
         i < COLUMNS_HALO_STEPS + COLUMNS_RESULT_STEPS + COLUMNS_HALO_STEPS; i++) {
        const int y = base_y + i * COLUMNS_BLOCKDIM_Y;
        s[threadIdx.y + i * COLUMNS_BLOCKDIM_Y] = (y < height) ? d_src[y * pitch + base_x] : 0.0f;
    }
    __syncthreads();
#pragma unroll
    for (int i = COLUMNS_HALO_STEPS; i < COLUMNS_HALO_STEPS + COLUMNS_RESULT_STEPS; i++) {
        float sum = 0.0f;
#pragma unroll
        for (int j = -KERNEL_RADIUS; j <= KERNEL_RADIUS; j++)
            sum += c_kernel[KERNEL_RADIUS - j] * s[threadIdx.y + i * COLUMNS_BLOCKDIM_Y + j];
        d_dst[(base_y + i * COLUMNS_BLOCKDIM_Y) * pitch + base_x] = sum;
    }
}
