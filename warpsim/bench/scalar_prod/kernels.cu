// scalar_prod: many dot products of float vectors (the shape of SDK scalarProd): 128 blocks x 256
// threads; a block takes whole vectors in turn, each thread accumulates a strided slice into
// ACCUM_N partial sums held in shared memory, then a shared tree reduces them.
#define ACCUM_N 1024

extern "C" __global__ void scalar_prod(float* d_c, const float* d_a, const float* d_b,
                                       int vector_n, int element_n)
{
    __shared__ float accum[ACCUM_N];
    for (int vec = blockIdx.x; vec < vector_n; vec += gridDim.x) {
        const int start = vec * element_n;
        const int end = start + element_n;
        for (int iacc = threadIdx.x; iacc < ACCUM_N; iacc += blockDim.x) {
            float sum = 0.0f;
            for (int pos = start + iacc; pos < end; pos += ACCUM_N) sum += d_a[pos] * d_b[pos];
            accum[iacc] = sum;
        }
        for (int stride = ACCUM_N / 2; stride > 0; stride >>= 1) {
            __syncthreads();
            for (int iacc = threadIdx.x; iacc < stride; iacc += blockDim.x)
                accum[iacc] += accum[stride + iacc];
        }
        if (threadIdx.x == 0) d_c[vec] = accum[0];
        __syncthreads();
    }
}
