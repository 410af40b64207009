// Divergence: loops with data-dependent trip counts (Collatz sequences of random starts).
#include "vg.h"

__host__ __device__ inline uint32_t collatz(uint32_t x) {
  uint32_t steps = 0;
  while (x != 1u) {
    x = (x & 1u) ? 3u * x + 1u : x >> 1;
    ++steps;
  }
  return steps;
}

__global__ void diverge_loop(const uint32_t *start, uint32_t *steps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  steps[i] = collatz(start[i]);
}

int main() {
  const int blocks = 60, threads = 192, n = blocks * threads;
  uint64_t s = 9;
  std::vector<uint32_t> h(n);
  for (auto &v : h) v = 1u + vg_rand(s) % 20000u;
  uint32_t *in = vg_upload(h), *out = vg_alloc<uint32_t>(n);
  diverge_loop<<<blocks, threads>>>(in, out);
  vg_sync();
  auto r = vg_download(out, n);
  long bad = 0;
  for (int i = 0; i < n; ++i) bad += r[i] != collatz(h[i]);
  return vg_finish("diverge_loop", bad, n);
}
