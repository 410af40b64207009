// Transpose, naive: coalesced reads, column-wise (uncoalesced) writes of a 256x256 matrix.
#include "vg.h"

__global__ void transpose_naive(const float *in, float *out, int n) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < n && y < n) out[x * n + y] = in[y * n + x];
}

int main() {
  const int n = 256;
  uint64_t s = 21;
  std::vector<float> h(n * n);
  for (auto &v : h) v = vg_randf(s);
  float *in = vg_upload(h), *out = vg_alloc<float>(n * n);
  transpose_naive<<<dim3(n / 32, n / 8), dim3(32, 8)>>>(in, out, n);
  vg_sync();
  auto r = vg_download(out, n * n);
  long bad = 0;
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x) bad += r[x * n + y] != h[y * n + x];
  return vg_finish("transpose_naive", bad, n * n);
}
