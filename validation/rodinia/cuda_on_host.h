/* Build a CUDA program's own source for the CPU (g++ -include cuda_on_host.h): __global__ and
 * __device__ functions become host functions, device memory is host memory, and
 * run_rodinia.sh rewrites the one kernel launch of myocyte into a loop over its blocks (each
 * block's work is done by thread 0 alone). The result is an independent reference for what
 * warpsim computes from the same code (myocyte's OpenMP version is a different program:
 * another parameter layout, other offsets in its final step). */
#include <stdlib.h>
#include <string.h>
#define __global__
#define __device__
struct dim3 {
    unsigned x, y, z;
    dim3(unsigned a = 1, unsigned b = 1, unsigned c = 1) : x(a), y(b), z(c) {}
};
static dim3 blockIdx(0, 0, 0), threadIdx(0, 0, 0);  // thread 0 of each block does the work
enum { cudaMemcpyHostToDevice, cudaMemcpyDeviceToHost };
static int cudaMalloc(void *p, size_t n) { *(void **)p = malloc(n); return 0; }
static int cudaMemcpy(void *d, const void *s, size_t n, int) { memcpy(d, s, n); return 0; }
static int cudaFree(void *p) { free(p); return 0; }
