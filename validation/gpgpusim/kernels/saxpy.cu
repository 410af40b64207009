// Coalesced global memory: y = a*x + y with a grid-stride loop (fewer, longer-lived threads).
#include "vg.h"

__global__ void saxpy(float a, const float *x, float *y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    y[i] = a * x[i] + y[i];
}

int main() {
  const int n = 1 << 18;
  uint64_t s = 11;
  std::vector<float> hx(n), hy(n);
  for (int i = 0; i < n; ++i) { hx[i] = vg_randf(s); hy[i] = vg_randf(s); }
  float *x = vg_upload(hx), *y = vg_upload(hy);
  saxpy<<<120, 256>>>(2.5f, x, y, n);
  vg_sync();
  auto r = vg_download(y, n);
  long bad = 0;
  for (int i = 0; i < n; ++i) bad += !vg_close(r[i], 2.5f * hx[i] + hy[i], 1e-6);
  return vg_finish("saxpy", bad, n);
}
