// Coalesced global memory: a copy of 512 Ki floats with 16-byte (float4) loads and stores.
#include "vg.h"

__global__ void copy_vec4(const float4 *in, float4 *out, int n4) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n4) out[i] = in[i];
}

int main() {
  const int n = 1 << 19, n4 = n / 4, threads = 256;
  uint64_t s = 12;
  std::vector<float> h(n);
  for (auto &v : h) v = vg_randf(s);
  float *in = vg_upload(h), *out = vg_alloc<float>(n);
  copy_vec4<<<n4 / threads, threads>>>((const float4 *)in, (float4 *)out, n4);
  vg_sync();
  auto r = vg_download(out, n);
  long bad = 0;
  for (int i = 0; i < n; ++i) bad += r[i] != h[i];
  return vg_finish("copy_vec4", bad, n);
}
