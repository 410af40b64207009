// Reduction: shared-memory tree reduction (sequential addressing) of 1 Mi floats, two launches
// (per-block partial sums of a grid-stride loop, then one block over the partial sums).
#include "vg.h"

#define T 256
__global__ void reduce_tree(const float *in, float *out, int n) {
  __shared__ float s[T];
  float acc = 0.0f;
  for (int i = blockIdx.x * T + threadIdx.x; i < n; i += gridDim.x * T) acc += in[i];
  s[threadIdx.x] = acc;
  __syncthreads();
  for (int stride = T / 2; stride > 0; stride >>= 1) {
    if (threadIdx.x < stride) s[threadIdx.x] += s[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}

int main() {
  const int n = 1 << 20, blocks = 120;
  uint64_t s = 19;
  std::vector<float> h(n);
  double want = 0.0;
  for (auto &v : h) { v = vg_randf(s); want += v; }
  float *in = vg_upload(h), *part = vg_alloc<float>(blocks), *out = vg_alloc<float>(1);
  reduce_tree<<<blocks, T>>>(in, part, n);
  reduce_tree<<<1, T>>>(part, out, blocks);
  vg_sync();
  auto r = vg_download(out, 1);
  return vg_finish("reduce_tree", !vg_close(r[0], want, 1e-5), 1);
}
