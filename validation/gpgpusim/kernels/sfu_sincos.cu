// SFU: fast-math sine, cosine and exponential (MUFU) in a loop.
#include "vg.h"

__global__ void sfu_sincos(const float *in, float *out, int iters) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = in[i], acc = 0.0f;
  for (int k = 0; k < iters; ++k) {
    acc += __sinf(x) * __cosf(x) + __expf(-x);
    x += 0.01f;
  }
  out[i] = acc;
}

int main() {
  const int blocks = 60, threads = 256, n = blocks * threads, iters = 32;
  uint64_t s = 4;
  std::vector<float> h(n);
  for (auto &v : h) v = 2.0f * vg_randf(s);
  float *in = vg_upload(h), *out = vg_alloc<float>(n);
  sfu_sincos<<<blocks, threads>>>(in, out, iters);
  vg_sync();
  auto r = vg_download(out, n);
  long bad = 0;
  for (int i = 0; i < n; ++i) {
    double x = h[i], acc = 0.0;
    for (int k = 0; k < iters; ++k) { acc += std::sin(x) * std::cos(x) + std::exp(-x); x += 0.01f; }
    bad += !vg_close(r[i], acc, 1e-3);
  }
  return vg_finish("sfu_sincos", bad, n);
}
