// Reduction with warp shuffles: each warp sums its values with shfl.down, lane 0 adds the
// warp's sum to the result with a global atomic.
#include "vg.h"

__global__ void reduce_shfl(const int *in, int *out, int n) {
  int acc = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    acc += in[i];
  for (int off = 16; off > 0; off >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, off);
  if ((threadIdx.x & 31) == 0) atomicAdd(out, acc);
}

int main() {
  const int n = 1 << 19;
  uint64_t s = 20;
  std::vector<int> h(n);
  long long want = 0;
  for (auto &v : h) { v = (int)(vg_rand(s) % 1000) - 500; want += v; }
  int *in = vg_upload(h), *out = vg_alloc<int>(1);
  reduce_shfl<<<120, 256>>>(in, out, n);
  vg_sync();
  auto r = vg_download(out, 1);
  return vg_finish("reduce_shfl", r[0] != (int)want, 1);
}
