// Strided global memory: thread i reads element (i * 33) mod n, so each warp touches 32
// different 128-byte lines; the writes are coalesced.
#include "vg.h"

__global__ void strided_read(const float *in, float *out, int n, int stride) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2.0f * in[(int)(((long long)i * stride) % n)];
}

int main() {
  const int n = 1 << 16, threads = 256, stride = 33;
  uint64_t s = 13;
  std::vector<float> h(n);
  for (auto &v : h) v = vg_randf(s);
  float *in = vg_upload(h), *out = vg_alloc<float>(n);
  strided_read<<<n / threads, threads>>>(in, out, n, stride);
  vg_sync();
  auto r = vg_download(out, n);
  long bad = 0;
  for (int i = 0; i < n; ++i) bad += r[i] != 2.0f * h[(long long)i * stride % n];
  return vg_finish("strided_read", bad, n);
}
