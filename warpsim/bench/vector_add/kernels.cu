// vector_add: c = a + b, one element per thread (the shape of SDK vectorAdd).
extern "C" __global__ void vector_add(const float* a, const float* b, float* c, int n)
{
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
