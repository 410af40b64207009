// Shared-memory atomics: per-block 64-bin histograms in shared memory, merged into the global
// histogram with one global atomicAdd per bin and block.
#include "vg.h"

__global__ void atomic_shared(const unsigned *in, unsigned *hist, int n) {
  __shared__ unsigned local[64];
  if (threadIdx.x < 64) local[threadIdx.x] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&local[in[i] & 63u], 1u);
  __syncthreads();
  if (threadIdx.x < 64) atomicAdd(&hist[threadIdx.x], local[threadIdx.x]);
}

int main() {
  const int n = 1 << 18;
  uint64_t s = 17;
  std::vector<unsigned> h(n);
  for (auto &v : h) v = vg_rand(s);
  unsigned *in = vg_upload(h), *hist = vg_alloc<unsigned>(64);
  atomic_shared<<<60, 256>>>(in, hist, n);
  vg_sync();
  auto r = vg_download(hist, 64);
  std::vector<unsigned> want(64, 0);
  for (auto v : h) ++want[v & 63u];
  long bad = 0;
  for (int b = 0; b < 64; ++b) bad += r[b] != want[b];
  return vg_finish("atomic_shared", bad, 64);
}
