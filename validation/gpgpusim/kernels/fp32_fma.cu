// Compute, fp32: four independent FMA chains per thread (ILP 4).
#include "vg.h"

__global__ void fp32_fma(const float *in, float *out, int iters) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = in[i], a = 0.25f, b = 0.5f, c = 0.75f, d = 1.0f;
  for (int k = 0; k < iters; ++k) {
    a = fmaf(a, x, 0.1f);
    b = fmaf(b, x, -0.2f);
    c = fmaf(c, x, 0.3f);
    d = fmaf(d, x, -0.4f);
  }
  out[i] = a + b + c + d;
}

int main() {
  const int blocks = 60, threads = 256, n = blocks * threads, iters = 96;
  uint64_t s = 2;
  std::vector<float> h(n);
  for (auto &v : h) v = 0.5f * vg_randf(s) - 0.25f;  // |x| < 0.25: the chains converge
  float *in = vg_upload(h), *out = vg_alloc<float>(n);
  fp32_fma<<<blocks, threads>>>(in, out, iters);
  vg_sync();
  auto r = vg_download(out, n);
  long bad = 0;
  for (int i = 0; i < n; ++i) {
    double x = h[i], a = 0.25, b = 0.5, c = 0.75, d = 1.0;
    for (int k = 0; k < iters; ++k) {
      a = a * x + 0.1; b = b * x - 0.2; c = c * x + 0.3; d = d * x - 0.4;
    }
    bad += !vg_close(r[i], a + b + c + d, 1e-4);
  }
  return vg_finish("fp32_fma", bad, n);
}
