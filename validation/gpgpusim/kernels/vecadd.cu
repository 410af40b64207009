// Coalesced global memory: c = a + b over 512 Ki floats, one element per thread.
#include "vg.h"

__global__ void vecadd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

int main() {
  const int n = 1 << 19, threads = 256;
  uint64_t s = 10;
  std::vector<float> ha(n), hb(n);
  for (int i = 0; i < n; ++i) { ha[i] = vg_randf(s); hb[i] = vg_randf(s); }
  float *a = vg_upload(ha), *b = vg_upload(hb), *c = vg_alloc<float>(n);
  vecadd<<<(n + threads - 1) / threads, threads>>>(a, b, c, n);
  vg_sync();
  auto r = vg_download(c, n);
  long bad = 0;
  for (int i = 0; i < n; ++i) bad += r[i] != ha[i] + hb[i];
  return vg_finish("vecadd", bad, n);
}
