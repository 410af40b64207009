// Barrier-heavy shared memory: an inclusive Hillis-Steele scan of each 512-element block
// (double-buffered, 9 steps, a __syncthreads after each).
#include "vg.h"

#define T 512
__global__ void scan_block(const int *in, int *out) {
  __shared__ int buf[2][T];
  int t = threadIdx.x, g = blockIdx.x * T + t, src = 0;
  buf[0][t] = in[g];
  __syncthreads();
  for (int off = 1; off < T; off <<= 1) {
    int v = buf[src][t];
    if (t >= off) v += buf[src][t - off];
    buf[1 - src][t] = v;
    src = 1 - src;
    __syncthreads();
  }
  out[g] = buf[src][t];
}

int main() {
  const int blocks = 120, n = blocks * T;
  uint64_t s = 27;
  std::vector<int> h(n);
  for (auto &v : h) v = (int)(vg_rand(s) % 100);
  int *in = vg_upload(h), *out = vg_alloc<int>(n);
  scan_block<<<blocks, T>>>(in, out);
  vg_sync();
  auto r = vg_download(out, n);
  long bad = 0;
  for (int b = 0; b < blocks; ++b) {
    int acc = 0;
    for (int t = 0; t < T; ++t) { acc += h[b * T + t]; bad += r[b * T + t] != acc; }
  }
  return vg_finish("scan_block", bad, n);
}
