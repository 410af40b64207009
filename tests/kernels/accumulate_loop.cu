// accumulate_loop.cu: loops with loop-carried accumulators.
// Exercises: counted loops with a runtime trip count, a grid-stride loop, f32 and s32
// accumulation, loop unrolling by the compiler (#pragma unroll 4).
//
// Kernels:
//   extern "C" __global__ void row_sums(const float* a, float* out, int rows, int cols)
//       one thread per row: out[r] = sum_{c < cols} a[r * cols + c], for r < rows.
//   extern "C" __global__ void grid_stride_saxpy(float alpha, const float* x, float* y, int n)
//       grid-stride loop: y[i] = alpha * x[i] + y[i] for every i < n (any grid size).
//   extern "C" __global__ void prefix_count(const int* a, int* out, int n, int threshold)
//       out[t] = number of j in [0, t] with a[j] > threshold, for t < n (O(n^2) on purpose:
//       every thread runs a different trip count).

extern "C" __global__ void row_sums(const float* a, float* out, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) {
        return;
    }
    float acc = 0.0f;
#pragma unroll 4
    for (int c = 0; c < cols; ++c) {
        acc += a[r * cols + c];
    }
    out[r] = acc;
}

extern "C" __global__ void grid_stride_saxpy(float alpha, const float* x, float* y, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        y[i] = alpha * x[i] + y[i];
    }
}

extern "C" __global__ void prefix_count(const int* a, int* out, int n, int threshold)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) {
        return;
    }
    int count = 0;
    for (int j = 0; j <= t; ++j) {
        count += (a[j] > threshold) ? 1 : 0;
    }
    out[t] = count;
}
