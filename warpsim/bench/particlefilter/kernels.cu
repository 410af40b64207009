// particlefilter: tracking an object through video frames with a particle filter (the shape of
// Rodinia particlefilter's float version): 512 threads, one particle per thread, four launches
// per frame. likelihood moves every particle by a Gaussian step (a per-particle LCG in 32-bit
// integer arithmetic, Box-Muller in double precision), scores it against the frame over a disk
// of offsets and reduces the weights per block in shared memory; sum_weights (one thread) adds
// the block sums and builds the CDF; normalize_weights divides and spreads the systematic
// resampling points; find_index resamples by a linear CDF search.
#define THREADS 512
#define PI 3.1415926535897932
#define A 1103515245
#define C 12345
#define M 2147483647

__device__ double d_randu(int* seed, int index)
{
    const int num = A * seed[index] + C;
    seed[index] = num % M;
    return fabs(seed[index] / ((double)M));
}

__device__ double d_randn(int* seed, int index)
{
    const double u = d_randu(seed, index);
    const double v = d_randu(seed, index);
    const double cosine = cos(2.0 * PI * v);
    const double rt = -2.0 * log(u);
    return sqrt(rt) * cosine;
}

__device__ int dev_round_double(double value)
{
    const int new_value = (int)value;
    return (value - new_value < 0.5) ? new_value : new_value + 1;
}

extern "C" __global__ void likelihood_kernel(double* arrayX, double* arrayY, const double* xj,
                                             const double* yj, int* ind, const int* objxy,
                                             double* likelihood, const unsigned char* I,
                                             double* weights, int n, int count_ones,
                                             int max_size, int k, int isz_y, int nfr,
                                             int* seed, double* partial_sums)
{
    __shared__ double buffer[THREADS];
    const int tx = threadIdx.x;
    const int i = blockIdx.x * THREADS + tx;
    if (i < n) {
        arrayX[i] = xj[i];
        arrayY[i] = yj[i];
        weights[i] = 1.0 / ((double)n);
        arrayX[i] = arrayX[i] + 1.0 + 5.0 * d_randn(seed, i);
        arrayY[i] = arrayY[i] - 2.0 + 2.0 * d_randn(seed, i);
        for (int y = 0; y < count_ones; y++) {
            const int ind_x = dev_round_double(arrayX[i]) + objxy[y * 2 + 1];
            const int ind_y = dev_round_double(arrayY[i]) + objxy[y * 2];
            int index = abs(ind_x * isz_y * nfr + ind_y * nfr + k);
            if (index >= max_size) index = 0;
            ind[i * count_ones + y] = index;
        }
        double sum = 0.0;
        for (int y = 0; y < count_ones; y++) {
            const double v = (double)I[ind[i * count_ones + y]];
            sum += ((v - 100.0) * (v - 100.0) - (v - 228.0) * (v - 228.0)) / 50.0;
        }
        likelihood[i] = sum / count_ones;
        weights[i] = weights[i] * exp(likelihood[i]);
    }
    buffer[tx] = (i < n) ? weights[i] : 0.0;
    for (int s = THREADS / 2; s > 0; s >>= 1) {
        __syncthreads();
        if (tx < s) buffer[tx] += buffer[tx + s];
    }
    if (tx == 0) partial_sums[blockIdx.x] = buffer[0];
}

extern "C" __global__ void sum_weights(double* partial_sums, int num_blocks, const double* weights,
                                       double* CDF, double* u, int* seed, int n)
{
    if (blockIdx.x * blockDim.x + threadIdx.x != 0) return;
    double sum = 0.0;
    for (int b = 0; b < num_blocks; b++) sum += partial_sums[b];
    partial_sums[0] = sum;
    double acc = 0.0;
    for (int x = 0; x < n; x++) {
        acc += weights[x] / sum;
        CDF[x] = acc;
    }
    u[0] = (1.0 / ((double)n)) * d_randu(seed, 0);
}

extern "C" __global__ void normalize_weights(double* weights, int n, const double* partial_sums,
                                             double* u)
{
    __shared__ double s_sum, s_u1;
    const int i = blockIdx.x * THREADS + threadIdx.x;
    if (threadIdx.x == 0) {
        s_sum = partial_sums[0];
        s_u1 = u[0];
    }
    __syncthreads();
    if (i < n) {
        weights[i] = weights[i] / s_sum;
        u[i] = s_u1 + i / ((double)n);
    }
}

extern "C" __global__ void find_index(const double* arrayX, const double* arrayY,
                                      const double* CDF, const double* u, double* xj, double* yj,
                                      int n)
{
    const int i = blockIdx.x * THREADS + threadIdx.x;
    if (i < n) {
        int index = -1;
        for (int x = 0; x < n; x++) {
            if (CDF[x] >= u[i]) {
                index = x;
                break;
            }
        }
        if (index == -1) index = n - 1;
        xj[i] = arrayX[index];
        yj[i] = arrayY[index];
    }
}
