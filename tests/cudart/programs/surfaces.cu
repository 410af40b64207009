// Surface objects over a cudaArray: a kernel reads a 2-D float array through one surface and
// writes the transformed values through another, then the host reads the array back.
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
    printf("FAIL %s: %s\n", #call, cudaGetErrorName(e_)); return 1; } } while (0)

__global__ void scale(cudaSurfaceObject_t in, cudaSurfaceObject_t out, int w, int h) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x >= w || y >= h) return;
    float v = surf2Dread<float>(in, x * sizeof(float), y);
    float right = surf2Dread<float>(in, (x + 1) * sizeof(float), y, cudaBoundaryModeZero);
    surf2Dwrite(2.0f * v + right, out, x * sizeof(float), y);
}

int main() {
    const int w = 20, h = 5;
    float host[h][w], back[h][w];
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) host[y][x] = y * 100 + x;
    cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
    cudaArray_t a, b;
    CHECK(cudaMallocArray(&a, &desc, w, h, cudaArraySurfaceLoadStore));
    CHECK(cudaMallocArray(&b, &desc, w, h, cudaArraySurfaceLoadStore));
    CHECK(cudaMemcpy2DToArray(a, 0, 0, host, w * sizeof(float), w * sizeof(float), h,
                              cudaMemcpyHostToDevice));
    cudaResourceDesc res = {};
    res.resType = cudaResourceTypeArray;
    cudaSurfaceObject_t sa, sb;
    res.res.array.array = a;
    CHECK(cudaCreateSurfaceObject(&sa, &res));
    res.res.array.array = b;
    CHECK(cudaCreateSurfaceObject(&sb, &res));
    scale<<<dim3(1, h), 32>>>(sa, sb, w, h);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy2DFromArray(back, w * sizeof(float), b, 0, 0, w * sizeof(float), h,
                                cudaMemcpyDeviceToHost));
    printf("row 0: %.0f %.0f ... %.0f\n", back[0][0], back[0][1], back[0][w - 1]);
    printf("row 4: %.0f %.0f ... %.0f\n", back[4][0], back[4][1], back[4][w - 1]);
    int maxw = 0;
    CHECK(cudaDeviceGetAttribute(&maxw, cudaDevAttrMaxSurface2DWidth, 0));
    printf("maxSurface2D width %d\n", maxw);
    CHECK(cudaDestroySurfaceObject(sa));
    CHECK(cudaDestroySurfaceObject(sb));
    CHECK(cudaFreeArray(a));
    CHECK(cudaFreeArray(b));
    return 0;
}
