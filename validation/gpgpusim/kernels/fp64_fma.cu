// Compute, fp64: two double-precision FMA chains and a multiply per iteration.
#include "vg.h"

__global__ void fp64_fma(const double *in, double *out, int iters) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  double x = in[i], a = 1.0, b = -1.0;
  for (int k = 0; k < iters; ++k) {
    a = fma(a, x, 0.125);
    b = fma(b, x * 0.5, 0.25);
  }
  out[i] = a - b;
}

int main() {
  const int blocks = 30, threads = 128, n = blocks * threads, iters = 48;
  uint64_t s = 3;
  std::vector<double> h(n);
  for (auto &v : h) v = 0.9 * vg_randf(s) - 0.45;
  double *in = vg_upload(h), *out = vg_alloc<double>(n);
  fp64_fma<<<blocks, threads>>>(in, out, iters);
  vg_sync();
  auto r = vg_download(out, n);
  long bad = 0;
  for (int i = 0; i < n; ++i) {
    double x = h[i], a = 1.0, b = -1.0;
    for (int k = 0; k < iters; ++k) { a = std::fma(a, x, 0.125); b = std::fma(b, x * 0.5, 0.25); }
    bad += !vg_close(r[i], a - b, 1e-12);
  }
  return vg_finish("fp64_fma", bad, n);
}
