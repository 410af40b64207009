// SFU: reciprocal square root (rsqrt.approx) and IEEE square root (sqrt.rn) in a loop.
#include "vg.h"

__global__ void sfu_rsqrt(const float *in, float *out, int iters) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = in[i], acc = 0.0f;
  for (int k = 0; k < iters; ++k) {
    acc += rsqrtf(x) + sqrtf(x);
    x += 1.0f;
  }
  out[i] = acc;
}

int main() {
  const int blocks = 60, threads = 256, n = blocks * threads, iters = 32;
  uint64_t s = 5;
  std::vector<float> h(n);
  for (auto &v : h) v = 1.0f + 100.0f * vg_randf(s);
  float *in = vg_upload(h), *out = vg_alloc<float>(n);
  sfu_rsqrt<<<blocks, threads>>>(in, out, iters);
  vg_sync();
  auto r = vg_download(out, n);
  long bad = 0;
  for (int i = 0; i < n; ++i) {
    double x = h[i], acc = 0.0;
    for (int k = 0; k < iters; ++k) { acc += 1.0 / std::sqrt(x) + std::sqrt(x); x += 1.0; }
    bad += !vg_close(r[i], acc, 1e-4);
  }
  return vg_finish("sfu_rsqrt", bad, n);
}
