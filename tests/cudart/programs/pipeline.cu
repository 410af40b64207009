// Several kernels in sequence, streams and events, every launch path nvcc 13 generates
// (<<<>>>, cudaLaunchKernel, cudaLaunchKernelEx), dynamic shared memory, a template kernel,
// a by-value struct, device queries, function attributes, occupancy and launch errors.
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
    printf("FAIL %s:%d %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
    return 1; } } while (0)

struct Affine { float scale; double shift; int skip; };

__global__ void init(float* a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = (float)(i % 10);
}

__global__ void affine(float* a, int n, Affine p) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && i % p.skip != 0) a[i] = a[i] * p.scale + (float)p.shift;
}

template <typename T>
__global__ void block_sum(const T* in, T* out, int n) {
    extern __shared__ unsigned char smem[];
    T* s = reinterpret_cast<T*>(smem);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = i < n ? in[i] : T(0);
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) s[threadIdx.x] += s[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}

__global__ void add_one(int* v) { v[threadIdx.x] += 1; }

int main() {
    int count = 0;
    CHECK(cudaGetDeviceCount(&count));
    CHECK(cudaSetDevice(0));
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    printf("devices: %d, warp size %d, max threads per block %d\n", count, prop.warpSize,
           prop.maxThreadsPerBlock);
    int sms = 0;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    printf("attribute matches properties: %s\n", sms == prop.multiProcessorCount ? "yes" : "no");

    const int n = 4096, threads = 256, blocks = n / threads;
    float *d_a, *d_part, *d_total;
    CHECK(cudaMalloc(&d_a, n * sizeof(float)));
    CHECK(cudaMalloc(&d_part, blocks * sizeof(float)));
    CHECK(cudaMalloc(&d_total, sizeof(float)));

    cudaStream_t stream;
    CHECK(cudaStreamCreate(&stream));
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    CHECK(cudaEventRecord(start, stream));

    init<<<blocks, threads, 0, stream>>>(d_a, n);                  // path 1: <<<>>>
    Affine p = {2.0f, 0.5, 3};
    int nn = n;
    void* args[] = {&d_a, &nn, &p};
    CHECK(cudaLaunchKernel((const void*)affine, dim3(blocks), dim3(threads), args, 0,
                           stream));                                // path 2
    block_sum<float><<<blocks, threads, threads * sizeof(float), stream>>>(d_a, d_part, n);
    cudaLaunchConfig_t cfg = {};                                    // path 3
    cfg.gridDim = dim3(1);
    cfg.blockDim = dim3(blocks);
    cfg.dynamicSmemBytes = blocks * sizeof(float);
    cfg.stream = stream;
    int nb = blocks;
    CHECK(cudaLaunchKernelEx(&cfg, block_sum<float>, (const float*)d_part, d_total, nb));
    CHECK(cudaEventRecord(stop, stream));
    CHECK(cudaStreamSynchronize(stream));
    CHECK(cudaEventSynchronize(stop));
    float ms = -1.0f;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    printf("elapsed time is positive: %s\n", ms > 0.0f ? "yes" : "no");

    float total = 0.0f;
    CHECK(cudaMemcpyAsync(&total, d_total, sizeof total, cudaMemcpyDeviceToHost, stream));
    CHECK(cudaStreamSynchronize(stream));
    double want = 0.0;
    for (int i = 0; i < n; ++i) {
        float v = (float)(i % 10);
        if (i % 3 != 0) v = v * 2.0f + 0.5f;
        want += v;
    }
    printf("sum: %.1f (expected %.1f)\n", total, want);

    // integers through the same template, default stream
    int h_v[32];
    for (int i = 0; i < 32; ++i) h_v[i] = i;
    int *d_v, *d_vsum;
    CHECK(cudaMalloc(&d_v, sizeof h_v));
    CHECK(cudaMalloc(&d_vsum, sizeof(int)));
    CHECK(cudaMemcpy(d_v, h_v, sizeof h_v, cudaMemcpyHostToDevice));
    for (int r = 0; r < 3; ++r) add_one<<<1, 32>>>(d_v);
    block_sum<int><<<1, 32, 32 * sizeof(int)>>>(d_v, d_vsum, 32);
    int vsum = 0;
    CHECK(cudaMemcpy(&vsum, d_vsum, sizeof vsum, cudaMemcpyDeviceToHost));
    printf("int sum after three add_one: %d\n", vsum);

    cudaFuncAttributes fa;
    CHECK(cudaFuncGetAttributes(&fa, block_sum<float>));
    printf("block_sum registers > 0: %s, max threads >= 256: %s\n", fa.numRegs > 0 ? "yes" : "no",
           fa.maxThreadsPerBlock >= 256 ? "yes" : "no");
    // built with -arch=sm_80: the PTX's virtual architecture, as CUB reads it (not the ISA 9.x)
    printf("block_sum ptxVersion %d binaryVersion %d\n", fa.ptxVersion, fa.binaryVersion);
    int active = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&active, block_sum<float>, threads,
                                                        threads * sizeof(float)));
    printf("occupancy > 0: %s\n", active > 0 ? "yes" : "no");

    // a launch the device refuses, reported by cudaGetLastError, then cleared
    init<<<1, 4096>>>(d_a, n);
    cudaError_t err = cudaGetLastError();
    printf("oversized block: %s\n", cudaGetErrorName(err));
    printf("error cleared: %s\n", cudaGetLastError() == cudaSuccess ? "yes" : "no");

    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    CHECK(cudaStreamDestroy(stream));
    CHECK(cudaFree(d_a));
    CHECK(cudaFree(d_part));
    CHECK(cudaFree(d_total));
    CHECK(cudaFree(d_v));
    CHECK(cudaFree(d_vsum));
    CHECK(cudaDeviceSynchronize());
    bool ok = total == (float)want && vsum == 32 * 31 / 2 + 96;
    printf(ok ? "PASS\n" : "FAIL\n");
    return ok ? 0 : 1;
}
