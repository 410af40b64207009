// Allocation and copies: cudaMalloc/Free, cudaMemcpy in every direction, cudaMemset,
// pinned host memory, cudaMallocPitch + cudaMemcpy2D, cudaMalloc3D + cudaMemcpy3D +
// cudaMemset3D, cudaMemcpyDefault, pointer attributes.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
    printf("FAIL %s:%d %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
    return 1; } } while (0)

__global__ void scale_add(const int* in, int* out, int n, int k) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] * k + i;
}

__global__ void row_sums(const float* img, size_t pitch, int width, int height, float* sums) {
    int y = blockIdx.x * blockDim.x + threadIdx.x;
    if (y >= height) return;
    const float* row = (const float*)((const char*)img + y * pitch);
    float s = 0.0f;
    for (int x = 0; x < width; ++x) s += row[x];
    sums[y] = s;
}

int main() {
    const int n = 1000;
    int* h_in = (int*)malloc(n * sizeof(int));
    int* h_out = nullptr;
    CHECK(cudaMallocHost(&h_out, n * sizeof(int)));
    for (int i = 0; i < n; ++i) h_in[i] = i - 500;

    int *d_in, *d_out, *d_copy;
    CHECK(cudaMalloc(&d_in, n * sizeof(int)));
    CHECK(cudaMalloc(&d_out, n * sizeof(int)));
    CHECK(cudaMalloc(&d_copy, n * sizeof(int)));
    CHECK(cudaMemcpy(d_in, h_in, n * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_copy, d_in, n * sizeof(int), cudaMemcpyDeviceToDevice));
    CHECK(cudaMemset(d_out, 0xFF, n * sizeof(int)));
    CHECK(cudaMemcpy(h_out, d_out, sizeof(int), cudaMemcpyDeviceToHost));
    printf("memset: %d\n", h_out[0]);

    scale_add<<<(n + 127) / 128, 128>>>(d_copy, d_out, n, 3);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(h_out, d_out, n * sizeof(int), cudaMemcpyDefault));
    long long sum = 0;
    int bad = 0;
    for (int i = 0; i < n; ++i) {
        sum += h_out[i];
        if (h_out[i] != h_in[i] * 3 + i) ++bad;
    }
    printf("scale_add: sum %lld, %d wrong\n", sum, bad);

    // pitched 2-D image, rows of different widths
    const int width = 37, height = 20;
    float* h_img = (float*)malloc(width * height * sizeof(float));
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) h_img[y * width + x] = (float)(y + 1) * 0.5f + x;
    float* d_img;
    size_t pitch = 0;
    CHECK(cudaMallocPitch((void**)&d_img, &pitch, width * sizeof(float), height));
    printf("pitch is wide enough: %s\n", pitch >= width * sizeof(float) ? "yes" : "no");
    CHECK(cudaMemcpy2D(d_img, pitch, h_img, width * sizeof(float), width * sizeof(float),
                       height, cudaMemcpyHostToDevice));
    float* d_sums;
    CHECK(cudaMalloc(&d_sums, height * sizeof(float)));
    row_sums<<<1, 32>>>(d_img, pitch, width, height, d_sums);
    float h_sums[height];
    CHECK(cudaMemcpy(h_sums, d_sums, sizeof h_sums, cudaMemcpyDeviceToHost));
    bad = 0;
    for (int y = 0; y < height; ++y) {
        float want = 0.0f;
        for (int x = 0; x < width; ++x) want += h_img[y * width + x];
        if (h_sums[y] != want) ++bad;
    }
    printf("row_sums: row 0 %.1f, row 19 %.1f, %d wrong\n", h_sums[0], h_sums[19], bad);
    float back[width * height];
    CHECK(cudaMemcpy2D(back, width * sizeof(float), d_img, pitch, width * sizeof(float), height,
                       cudaMemcpyDeviceToHost));
    bad = 0;
    for (int i = 0; i < width * height; ++i) bad += back[i] != h_img[i];
    printf("2-D round trip: %d wrong\n", bad);

    // 3-D: a 6 x 4 x 3 volume of ints, zeroed, then its middle slice copied in and back
    cudaExtent ext = make_cudaExtent(6 * sizeof(int), 4, 3);
    cudaPitchedPtr vol;
    CHECK(cudaMalloc3D(&vol, ext));
    CHECK(cudaMemset3D(vol, 0, ext));
    int slab[4][6];
    for (int y = 0; y < 4; ++y)
        for (int x = 0; x < 6; ++x) slab[y][x] = 10 * y + x;
    cudaMemcpy3DParms up = {};
    up.srcPtr = make_cudaPitchedPtr(slab, 6 * sizeof(int), 6, 4);
    up.dstPtr = vol;
    up.dstPos = make_cudaPos(0, 0, 1);
    up.extent = make_cudaExtent(6 * sizeof(int), 4, 1);
    up.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&up));
    int whole[3][4][6];
    cudaMemcpy3DParms down = {};
    down.srcPtr = vol;
    down.dstPtr = make_cudaPitchedPtr(whole, 6 * sizeof(int), 6, 4);
    down.extent = ext;
    down.kind = cudaMemcpyDeviceToHost;
    CHECK(cudaMemcpy3D(&down));
    bad = 0;
    for (int z = 0; z < 3; ++z)
        for (int y = 0; y < 4; ++y)
            for (int x = 0; x < 6; ++x) bad += whole[z][y][x] != (z == 1 ? slab[y][x] : 0);
    printf("3-D: whole[1][3][5] %d, %d wrong\n", whole[1][3][5], bad);
    CHECK(cudaFree(vol.ptr));

    cudaPointerAttributes attr;
    CHECK(cudaPointerGetAttributes(&attr, d_in));
    printf("d_in is device memory: %s\n", attr.type == cudaMemoryTypeDevice ? "yes" : "no");
    size_t free_b = 0, total_b = 0;
    CHECK(cudaMemGetInfo(&free_b, &total_b));
    printf("memory info consistent: %s\n", free_b > 0 && free_b <= total_b ? "yes" : "no");

    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    CHECK(cudaFree(d_copy));
    CHECK(cudaFree(d_img));
    CHECK(cudaFree(d_sums));
    CHECK(cudaFreeHost(h_out));
    free(h_in);
    free(h_img);
    printf("PASS\n");
    return 0;
}
