// A mipmapped 8x8 float texture (levels 4x4, 2x2, 1x1): texel (x, y) of level l holds
// 100 l + 10 y + x; a kernel samples it at explicit levels of detail (tex2DLod) and from
// gradients (tex2DGrad), with point and linear filtering between levels.
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
    printf("FAIL %s: %s\n", #call, cudaGetErrorName(e_)); return 1; } } while (0)

__global__ void sample(cudaTextureObject_t near, cudaTextureObject_t lin, float *out) {
    const float x = 0.7f, y = 0.3f;
    const float lods[5] = {0.0f, 0.6f, 1.5f, 2.7f, 9.0f};
    for (int i = 0; i < 5; i++) out[i] = tex2DLod<float>(near, x, y, lods[i]);
    out[5] = tex2DGrad<float>(near, x, y, make_float2(0.5f, 0.0f), make_float2(0.0f, 0.1f));
    out[6] = tex2DLod<float>(lin, x, y, 1.25f);
}

int main() {
    cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
    cudaMipmappedArray_t mip;
    CHECK(cudaMallocMipmappedArray(&mip, &desc, make_cudaExtent(8, 8, 0), 4));
    for (unsigned l = 0; l < 4; l++) {
        cudaArray_t level;
        CHECK(cudaGetMipmappedArrayLevel(&level, mip, l));
        int s = 8 >> l;
        float host[64];
        for (int y = 0; y < s; y++)
            for (int x = 0; x < s; x++) host[y * s + x] = 100.0f * l + 10.0f * y + x;
        CHECK(cudaMemcpy2DToArray(level, 0, 0, host, s * sizeof(float), s * sizeof(float), s,
                                  cudaMemcpyHostToDevice));
    }
    cudaResourceDesc res = {};
    res.resType = cudaResourceTypeMipmappedArray;
    res.res.mipmap.mipmap = mip;
    cudaTextureDesc td = {};
    td.normalizedCoords = 1;
    td.filterMode = cudaFilterModePoint;
    td.mipmapFilterMode = cudaFilterModePoint;
    td.maxMipmapLevelClamp = 3.0f;
    cudaTextureObject_t near, lin;
    CHECK(cudaCreateTextureObject(&near, &res, &td, NULL));
    td.mipmapFilterMode = cudaFilterModeLinear;
    CHECK(cudaCreateTextureObject(&lin, &res, &td, NULL));
    float *out, host[7];
    CHECK(cudaMalloc(&out, sizeof host));
    sample<<<1, 1>>>(near, lin, out);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost));
    printf("tex2DLod at 0, 0.6, 1.5, 2.7, 9: %.0f %.0f %.0f %.0f %.0f\n", host[0], host[1],
           host[2], host[3], host[4]);
    printf("tex2DGrad 4 texels per step: %.0f\n", host[5]);
    printf("linear between levels at 1.25: %.2f\n", host[6]);
    CHECK(cudaDestroyTextureObject(near));
    CHECK(cudaDestroyTextureObject(lin));
    CHECK(cudaFreeMipmappedArray(mip));
    return 0;
}
