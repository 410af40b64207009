// texture.cu: texture-object fetches (bindless textures).
// Exercises: tex.1d.v4.f32.s32 (tex1Dfetch<float> from a linear buffer) and
// tex.2d.v4.f32.f32 (tex2D<float> with float coordinates), texture handles passed as .u64
// kernel parameters. NVRTC accepts this without any #include: cudaTextureObject_t and the
// tex*<T> templates are built in (NVRTC 13.5 checked); nvcc includes them via cuda_runtime.h.
//
// Kernels:
//   extern "C" __global__ void tex1d_gather(cudaTextureObject_t tex, const int* idx,
//                                           float* out, int n)
//       out[i] = tex1Dfetch<float>(tex, idx[i]) for i < n (a linear f32 texture,
//       out-of-range indices return 0 on hardware).
//   extern "C" __global__ void tex2d_sample(cudaTextureObject_t tex, float* out, int width,
//                                           int height)
//       2-D grid/block: x < width, y < height:
//       out[y * width + x] = tex2D<float>(tex, x + 0.5f, y + 0.5f)
//                            + 0.25f * tex2D<float>(tex, x + 1.5f, y + 0.5f)
//       (texel centres with point sampling: element (x, y) and (x + 1, y), clamped by the
//       texture's address mode).

extern "C" __global__ void tex1d_gather(cudaTextureObject_t tex, const int* idx, float* out,
                                        int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = tex1Dfetch<float>(tex, idx[i]);
    }
}

extern "C" __global__ void tex2d_sample(cudaTextureObject_t tex, float* out, int width,
                                        int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < width && y < height) {
        float fx = (float)x;
        float fy = (float)y + 0.5f;
        out[y * width + x] = tex2D<float>(tex, fx + 0.5f, fy)
                             + 0.25f * tex2D<float>(tex, fx + 1.5f, fy);
    }
}
