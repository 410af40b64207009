// Divergence: data-dependent if/else inside a loop; half of each warp (pseudo-randomly chosen)
// takes an integer path, the other half a floating-point path.
#include "vg.h"

#ifndef __CUDA_ARCH__
using std::fmaf;
#endif

__host__ __device__ inline float work(uint32_t key, float x, int iters) {
  for (int k = 0; k < iters; ++k) {
    if ((key >> (k & 31)) & 1u) {
      key = key * 1664525u + 1013904223u;
      x += (float)(key & 0xff) * (1.0f / 256.0f);
    } else {
      x = fmaf(x, 0.75f, 0.5f);
      x = fmaf(x, 0.9375f, -0.125f);
    }
  }
  return x;
}

__global__ void diverge_ifelse(const uint32_t *keys, float *out, int iters) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = work(keys[i], 0.0f, iters);
}

int main() {
  const int blocks = 60, threads = 256, n = blocks * threads, iters = 64;
  uint64_t s = 8;
  std::vector<uint32_t> h(n);
  for (auto &v : h) v = vg_rand(s);
  uint32_t *keys = vg_upload(h);
  float *out = vg_alloc<float>(n);
  diverge_ifelse<<<blocks, threads>>>(keys, out, iters);
  vg_sync();
  auto r = vg_download(out, n);
  long bad = 0;
  for (int i = 0; i < n; ++i) bad += !vg_close(r[i], work(h[i], 0.0f, iters), 1e-4);
  return vg_finish("diverge_ifelse", bad, n);
}
