// Dynamic parallelism (issue 18 cause 2): kernels launched from device code, built with
// -rdc=true. Each check prints one line; the expected output is worked out by hand.
#include <cstdio>

__global__ void fill(int* out, int base, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[base + i] = base + i;
}

__global__ void square_then(int* out, int n, int depth) {
    // each level squares its slice's first element, then launches the next level on the rest
    out[0] = out[0] * out[0];
    if (depth > 1 && n > 1) square_then<<<1, 1>>>(out + 1, n - 1, depth - 1);
}

__global__ void copy_back(int* dst, int n) {
    // a device-side allocation, filled by a child, copied out by cudaMemcpyAsync after it
    int* tmp = nullptr;
    if (cudaMalloc((void**)&tmp, n * sizeof(int)) != cudaSuccess) return;
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    fill<<<1, n, 0, s>>>(tmp, 0, n);
    cudaMemcpyAsync(dst, tmp, n * sizeof(int), cudaMemcpyDeviceToDevice, s);
    cudaStreamDestroy(s);
    printf("copy_back: launch %s\n", cudaGetErrorString(cudaGetLastError()));
}

__global__ void parent(int* out) {
    // threads 0..3 each launch a 2x4 grid filling their own 8 elements
    if (threadIdx.x < 4) fill<<<2, 4>>>(out, threadIdx.x * 8, 8);
}

int main() {
    int *d, h[32];
    cudaMalloc(&d, sizeof(h));
    cudaMemset(d, 0, sizeof(h));
    parent<<<1, 32>>>(d);
    cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
    int ok = 1;
    for (int i = 0; i < 32; ++i) ok &= h[i] == i;
    printf("parent/child fill: %s\n", ok ? "ok" : "WRONG");

    int v[4] = {2, 3, 4, 5};
    cudaMemcpy(d, v, sizeof(v), cudaMemcpyHostToDevice);
    square_then<<<1, 1>>>(d, 4, 3);   // levels 1..3 square v[0..2]; v[3] untouched
    cudaMemcpy(v, d, sizeof(v), cudaMemcpyDeviceToHost);
    printf("nested: %d %d %d %d\n", v[0], v[1], v[2], v[3]);

    int* d2;
    cudaMalloc(&d2, 16 * sizeof(int));
    cudaMemset(d2, 0xff, 16 * sizeof(int));
    copy_back<<<1, 1>>>(d2, 16);
    int w[16];
    cudaError_t e = cudaMemcpy(w, d2, sizeof(w), cudaMemcpyDeviceToHost);
    ok = 1;
    for (int i = 0; i < 16; ++i) ok &= w[i] == i;
    printf("device malloc + memcpyAsync: %s (%s)\n", ok ? "ok" : "WRONG", cudaGetErrorString(e));
    return 0;
}
