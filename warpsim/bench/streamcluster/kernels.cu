// streamcluster: the gain of opening a candidate facility x (the shape of Rodinia streamcluster's
// kernel_compute_cost): 512 threads, one point per thread; the candidate's coordinates are
// staged in dynamic shared memory; each point writes the saving of switching to x, or the cost
// its current centre would pay if it closed, into its own row of work_mem. The host local search
// (pgain) sums the rows and decides.
struct Point {
    float weight;
    int assign;
    float cost;
};

extern "C" __global__ void compute_cost(int num, int dim, int x, const Point* p, int K,
                                        int stride, const float* coord_d, float* work_mem_d,
                                        const int* center_table_d,
                                        unsigned char* switch_membership_d)
{
    extern __shared__ float coord_s[];
    const int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x == 0)
        for (int i = 0; i < dim; i++) coord_s[i] = coord_d[i * num + x];
    __syncthreads();
    if (tid < num) {
        float* lower = &work_mem_d[tid * stride];
        float retval = 0.0f;
        for (int i = 0; i < dim; i++) {
            const float tmp = coord_d[i * num + tid] - coord_s[i];
            retval += tmp * tmp;
        }
        const float x_cost = retval * p[tid].weight;
        if (x_cost < p[tid].cost) {
            switch_membership_d[tid] = 1;
            lower[K] += x_cost - p[tid].cost;
        } else {
            lower[center_table_d[p[tid].assign]] += p[tid].cost - x_cost;
        }
    }
}
