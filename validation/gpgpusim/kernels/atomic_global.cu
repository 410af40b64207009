// Global atomics: a 256-bin histogram of 256 Ki bytes with atomicAdd on global memory.
#include "vg.h"

__global__ void atomic_global(const uint8_t *in, unsigned *hist, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&hist[in[i]], 1u);
}

int main() {
  const int n = 1 << 18;
  uint64_t s = 16;
  std::vector<uint8_t> h(n);
  for (auto &v : h) v = (uint8_t)(vg_rand(s) >> 7);
  uint8_t *in = vg_upload(h);
  unsigned *hist = vg_alloc<unsigned>(256);
  atomic_global<<<60, 256>>>(in, hist, n);
  vg_sync();
  auto r = vg_download(hist, 256);
  std::vector<unsigned> want(256, 0);
  for (auto v : h) ++want[v];
  long bad = 0;
  for (int b = 0; b < 256; ++b) bad += r[b] != want[b];
  return vg_finish("atomic_global", bad, 256);
}
