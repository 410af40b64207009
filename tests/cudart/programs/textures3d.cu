// 3-D and layered cudaArrays: cudaMalloc3DArray, cudaMemcpy3D in and out, texture objects
// sampled with tex3D and tex2DLayered.
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
    printf("FAIL %s: %s\n", #call, cudaGetErrorName(e_)); return 1; } } while (0)

__global__ void sample(cudaTextureObject_t vol, cudaTextureObject_t lay, float* out, int w) {
    int x = threadIdx.x, y = blockIdx.x, z = blockIdx.y;
    float v = tex3D<float>(vol, x + 0.5f, y + 0.5f, z + 0.5f);
    float l = tex2DLayered<float>(lay, x + 0.5f, y + 0.5f, z);
    out[(z * gridDim.x + y) * w + x] = v + 1000.0f * l;
}

int main() {
    const int w = 8, h = 4, d = 3;
    float host[d][h][w], out[d][h][w], back[d][h][w];
    for (int z = 0; z < d; z++)
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) host[z][y][x] = z * 100 + y * 10 + x;
    cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
    cudaArray_t vol, lay;
    CHECK(cudaMalloc3DArray(&vol, &desc, make_cudaExtent(w, h, d), 0));
    CHECK(cudaMalloc3DArray(&lay, &desc, make_cudaExtent(w, h, d), cudaArrayLayered));
    cudaMemcpy3DParms p = {0};
    p.srcPtr = make_cudaPitchedPtr(host, w * sizeof(float), w, h);
    p.extent = make_cudaExtent(w, h, d);
    p.kind = cudaMemcpyHostToDevice;
    p.dstArray = vol;
    CHECK(cudaMemcpy3D(&p));
    p.dstArray = lay;
    CHECK(cudaMemcpy3D(&p));
    cudaResourceDesc res = {};
    res.resType = cudaResourceTypeArray;
    cudaTextureDesc td = {};
    td.filterMode = cudaFilterModePoint;
    td.readMode = cudaReadModeElementType;
    cudaTextureObject_t tv, tl;
    res.res.array.array = vol;
    CHECK(cudaCreateTextureObject(&tv, &res, &td, nullptr));
    res.res.array.array = lay;
    CHECK(cudaCreateTextureObject(&tl, &res, &td, nullptr));
    float* dout;
    CHECK(cudaMalloc(&dout, sizeof out));
    sample<<<dim3(h, d), w>>>(tv, tl, dout, w);
    CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    printf("out[0][0][0] %.0f out[2][3][7] %.0f out[1][2][5] %.0f\n", out[0][0][0],
           out[2][3][7], out[1][2][5]);
    cudaMemcpy3DParms q = {0};                    // the middle slice back out of the array
    q.srcArray = vol;
    q.srcPos = make_cudaPos(0, 0, 1);
    q.dstPtr = make_cudaPitchedPtr(back, w * sizeof(float), w, h);
    q.extent = make_cudaExtent(w, h, 1);
    q.kind = cudaMemcpyDeviceToHost;
    CHECK(cudaMemcpy3D(&q));
    printf("slice 1: %.0f ... %.0f\n", back[0][0][0], back[0][3][7]);
    q.srcPos = make_cudaPos(0, 0, 3);
    printf("past the end: %s\n", cudaGetErrorName(cudaMemcpy3D(&q)));
    return 0;
}
