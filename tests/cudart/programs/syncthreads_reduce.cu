// __syncthreads_count / __syncthreads_and / __syncthreads_or (PTX bar.red.popc.u32,
// bar.red.and.pred, bar.red.or.pred): per block, the number of threads whose value is a
// multiple of 3, whether every value is not 5 modulo 256, whether some value is below 40, and
// the rounds of a loop that runs while any thread of the block still has work (thread 3 of each
// warp has v % 7 rounds, the others none).
// v[i] = (i * 2654435761 mod 2^32) >> 20 for i < n; threads past n take part with neutral
// predicates. Prints one line per block; the host checks each against its own loop.
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
    printf("FAIL %s:%d %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
    return 1; } } while (0)

__device__ __host__ unsigned value(unsigned i) { return (i * 2654435761u) >> 20; }

__global__ void reduce(int n, int* out) {
    unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    bool valid = i < (unsigned)n;
    unsigned v = valid ? value(i) : 0;
    int count = __syncthreads_count(valid && v % 3 == 0);
    int all = __syncthreads_and(!valid || v % 256 != 5);
    int any = __syncthreads_or(valid && v < 40);
    int remaining = valid && threadIdx.x % 32 == 3 ? v % 7 : 0;
    int rounds = 0;
    while (__syncthreads_or(remaining > 0)) {  // a barrier as a loop condition
        --remaining;
        ++rounds;
    }
    if (threadIdx.x == blockDim.x - 1) {  // the last thread: past n in the last block
        out[4 * blockIdx.x + 0] = count;
        out[4 * blockIdx.x + 1] = all;
        out[4 * blockIdx.x + 2] = any;
        out[4 * blockIdx.x + 3] = rounds;
    }
}

int main() {
    const int n = 1000, block = 96, blocks = (n + block - 1) / block;
    int *d_out, h_out[4 * blocks];
    CHECK(cudaMalloc(&d_out, sizeof h_out));
    reduce<<<blocks, block>>>(n, d_out);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int b = 0; b < blocks; ++b) {
        int count = 0, all = 1, any = 0, rounds = 0;
        for (int i = b * block; i < (b + 1) * block && i < n; ++i) {
            unsigned v = value(i);
            count += v % 3 == 0;
            all &= v % 256 != 5;
            any |= v < 40;
            if (i % block % 32 == 3 && (int)(v % 7) > rounds) rounds = (int)(v % 7);
        }
        const int* o = h_out + 4 * b;
        bad += o[0] != count || (o[1] != 0) != (all != 0) || (o[2] != 0) != (any != 0) ||
               o[3] != rounds;
        printf("block %d count %d and %d or %d rounds %d\n", b, o[0], o[1] != 0, o[2] != 0,
               o[3]);
    }
    printf("%s\n", bad ? "FAILED" : "PASSED");
    CHECK(cudaFree(d_out));
    return bad ? 1 : 0;
}
