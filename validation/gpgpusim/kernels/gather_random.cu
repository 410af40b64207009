// Irregular global memory: out[i] = in[idx[i]] + in[idx[i] ^ 1] with random indices into a
// 4 MiB table (larger than the L2).
#include "vg.h"

__global__ void gather_random(const float *in, const int *idx, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int j = idx[i];
    out[i] = in[j] + in[j ^ 1];
  }
}

int main() {
  const int table = 1 << 20, n = 1 << 15, threads = 256;
  uint64_t s = 14;
  std::vector<float> h(table);
  std::vector<int> hi(n);
  for (auto &v : h) v = vg_randf(s);
  for (auto &v : hi) v = (int)(vg_rand(s) % table);
  float *in = vg_upload(h), *out = vg_alloc<float>(n);
  int *idx = vg_upload(hi);
  gather_random<<<n / threads, threads>>>(in, idx, out, n);
  vg_sync();
  auto r = vg_download(out, n);
  long bad = 0;
  for (int i = 0; i < n; ++i) bad += r[i] != h[hi[i]] + h[hi[i] ^ 1];
  return vg_finish("gather_random", bad, n);
}
