// lud: blocked LU decomposition without pivoting, in place (the shape of Rodinia lud): per 16-wide
// step, lud_diagonal factors the diagonal tile (16 threads), lud_perimeter solves the tiles of
// the block row and block column against it (32 threads: 16 per panel), lud_internal updates the
// trailing tiles (16x16 threads, two shared tiles).
#define BS 16

extern "C" __global__ void lud_diagonal(float* m, int dim, int offset)
{
    __shared__ float shadow[BS][BS];
    const int tx = threadIdx.x;
    float* base = m + offset * dim + offset;
    for (int i = 0; i < BS; i++) shadow[i][tx] = base[i * dim + tx];
    __syncthreads();
    for (int k = 0; k < BS - 1; k++) {
        if (tx > k) shadow[tx][k] /= shadow[k][k];
        __syncthreads();
        if (tx > k) {
            for (int j = k + 1; j < BS; j++) shadow[tx][j] -= shadow[tx][k] * shadow[k][j];
        }
        __syncthreads();
    }
    for (int i = 0; i < BS; i++) base[i * dim + tx] = shadow[i][tx];
}

extern "C" __global__ void lud_perimeter(float* m, int dim, int offset)
{
    __shared__ float dia[BS][BS];
    __shared__ float peri_row[BS][BS];
    __shared__ float peri_col[BS][BS];
    const int tx = threadIdx.x;
    const int other = offset + BS * (blockIdx.x + 1);
    if (tx < BS) {
        for (int i = 0; i < BS; i++) {
            dia[i][tx] = m[(offset + i) * dim + offset + tx];
            peri_row[i][tx] = m[(offset + i) * dim + other + tx];
        }
    } else {
        const int idx = tx - BS;
        for (int i = 0; i < BS; i++) peri_col[i][idx] = m[(other + i) * dim + offset + idx];
    }
    __syncthreads();
    if (tx < BS) {
        for (int i = 1; i < BS; i++)
            for (int k = 0; k < i; k++) peri_row[i][tx] -= dia[i][k] * peri_row[k][tx];
    } else {
        const int idx = tx - BS;
        for (int i = 0; i < BS; i++) {
            for (int k = 0; k < i; k++) peri_col[idx][i] -= peri_col[idx][k] * dia[k][i];
            peri_col[idx][i] /= dia[i][i];
        }
    }
    __syncthreads();
    if (tx < BS) {
        for (int i = 0; i < BS; i++) m[(offset + i) * dim + other + tx] = peri_row[i][tx];
    } else {
        const int idx = tx - BS;
        for (int i = 0; i < BS; i++) m[(other + i) * dim + offset + idx] = peri_col[i][idx];
    }
}

extern "C" __global__ void lud_internal(float* m, int dim, int offset)
{
    __shared__ float peri_row[BS][BS];
    __shared__ float peri_col[BS][BS];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = offset + BS * (blockIdx.y + 1);
    const int col = offset + BS * (blockIdx.x + 1);
    peri_row[ty][tx] = m[(offset + ty) * dim + col + tx];
    peri_col[ty][tx] = m[(row + ty) * dim + offset + tx];
    __syncthreads();
    float sum = 0.0f;
#pragma unroll
    for (int k = 0; k < BS; k++) sum += peri_col[ty][k] * peri_row[k][tx];
    m[(row + ty) * dim + col + tx] -= sum;
}
