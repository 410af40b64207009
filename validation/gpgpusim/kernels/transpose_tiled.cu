// Transpose through a padded 32x33 shared-memory tile: coalesced reads and writes of a 512x512
// matrix, no bank conflicts.
#include "vg.h"

__global__ void transpose_tiled(const float *in, float *out, int n) {
  __shared__ float tile[32][33];
  int bx = blockIdx.x * 32, by = blockIdx.y * 32, tx = threadIdx.x, ty = threadIdx.y;
  for (int j = ty; j < 32; j += 8) tile[j][tx] = in[(by + j) * n + bx + tx];
  __syncthreads();
  for (int j = ty; j < 32; j += 8) out[(bx + j) * n + by + tx] = tile[tx][j];
}

int main() {
  const int n = 512;
  uint64_t s = 22;
  std::vector<float> h(n * n);
  for (auto &v : h) v = vg_randf(s);
  float *in = vg_upload(h), *out = vg_alloc<float>(n * n);
  transpose_tiled<<<dim3(n / 32, n / 32), dim3(32, 8)>>>(in, out, n);
  vg_sync();
  auto r = vg_download(out, n * n);
  long bad = 0;
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x) bad += r[x * n + y] != h[y * n + x];
  return vg_finish("transpose_tiled", bad, n * n);
}
