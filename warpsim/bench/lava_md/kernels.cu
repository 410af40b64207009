// lava_md: particle potential and forces inside a 3-D grid of boxes (the shape of Rodinia
// lavaMD): one block of 128 threads per home box; the block stages the home box's particles and,
// in turn, each neighbour box's particles and charges in shared memory; each thread accumulates
// the contributions to its particles. Model parameters arrive as by-value struct parameters.
#define NUMBER_THREADS 128
#define MAX_PAR_PER_BOX 100
#define MAX_NEIGHBORS 26

struct par_str {
    float alpha;
};

struct dim_str {
    int number_boxes;
    int par_per_box;
};

struct box_str {
    int offset;
    int nn;
    int nei[MAX_NEIGHBORS];
};

struct four_vector {
    float v, x, y, z;
};

extern "C" __global__ void kernel_gpu_cuda(par_str d_par_gpu, dim_str d_dim_gpu,
                                           const box_str* d_box_gpu,
                                           const four_vector* d_rv_gpu, const float* d_qv_gpu,
                                           four_vector* d_fv_gpu)
{
    __shared__ four_vector rA_shared[MAX_PAR_PER_BOX];
    __shared__ four_vector rB_shared[MAX_PAR_PER_BOX];
    __shared__ float qB_shared[MAX_PAR_PER_BOX];
    const int bx = blockIdx.x, tx = threadIdx.x;
    if (bx >= d_dim_gpu.number_boxes) return;
    const int ppb = d_dim_gpu.par_per_box;
    const float a2 = 2.0f * d_par_gpu.alpha * d_par_gpu.alpha;
    const int first_i = d_box_gpu[bx].offset;
    for (int wtx = tx; wtx < ppb; wtx += NUMBER_THREADS) rA_shared[wtx] = d_rv_gpu[first_i + wtx];
    __syncthreads();
    const int nn = d_box_gpu[bx].nn;
    for (int k = 0; k < 1 + nn; k++) {
        const int pointer = (k == 0) ? bx : d_box_gpu[bx].nei[k - 1];
        const int first_j = d_box_gpu[pointer].offset;
        for (int wtx = tx; wtx < ppb; wtx += NUMBER_THREADS) {
            rB_shared[wtx] = d_rv_gpu[first_j + wtx];
            qB_shared[wtx] = d_qv_gpu[first_j + wtx];
        }
        __syncthreads();
        for (int wtx = tx; wtx < ppb; wtx += NUMBER_THREADS) {
            const four_vector ra = rA_shared[wtx];
            four_vector f = d_fv_gpu[first_i + wtx];
            for (int j = 0; j < ppb; j++) {
                const four_vector rb = rB_shared[j];
                const float r2 = ra.v + rb.v - 2.0f * (ra.x * rb.x + ra.y * rb.y + ra.z * rb.z);
                const float u2 = a2 * r2;
                const float vij = expf(-u2);
                const float fs = 2.0f * vij;
                const float q = qB_shared[j];
                f.v += q * vij;
                f.x += q * (fs * (ra.x - rb.x));
                f.y += q * (fs * (ra.y - rb.y));
                f.z += q * (fs * (ra.z - rb.z));
            }
            d_fv_gpu[first_i + wtx] = f;
        }
        __syncthreads();
    }
}
