// spmv: sparse matrix-vector product y = A x (the shape of Parboil spmv): spmv_jds walks the
// jagged-diagonal format (rows sorted by length, diagonal starts and per-warp row-length maxima in
// constant memory, one row per thread, coalesced diagonal reads, gathered x); spmv_csr is the
// scalar CSR kernel (one row per thread) for comparison.
#define MAX_DIAGONALS 1024
#define MAX_CHUNKS 8192

__constant__ int jds_ptr_int[MAX_DIAGONALS];
__constant__ int sh_zcnt_int[MAX_CHUNKS];

extern "C" __global__ void spmv_jds(float* dst_vector, const float* d_data, const int* d_index,
                                    const int* d_perm, const float* x_vec, int dim)
{
    const int ix = blockIdx.x * blockDim.x + threadIdx.x;
    if (ix < dim) {
        const int bound = sh_zcnt_int[ix >> 5];
        float sum = 0.0f;
        for (int k = 0; k < bound; k++) {
            const int j = jds_ptr_int[k] + ix;
            sum += d_data[j] * x_vec[d_index[j]];
        }
        dst_vector[d_perm[ix]] = sum;
    }
}

extern "C" __global__ void spmv_csr(float* y, const int* row_ptr, const int* cols,
                                    const float* vals, const float* x, int rows)
{
    const int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < rows) {
        float sum = 0.0f;
        for (int k = row_ptr[row]; k < row_ptr[row + 1]; k++) sum += vals[k] * x[cols[k]];
        y[row] = sum;
    }
}
