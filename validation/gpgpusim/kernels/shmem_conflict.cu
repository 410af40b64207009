// Shared memory with bank conflicts: a column walk of a 32x32 tile (row-major, no padding), so
// the 32 lanes of a warp hit the same bank (32-way conflicts), and an 8-way strided update.
#include "vg.h"

#define T 256
__global__ void shmem_conflict(const float *in, float *out, int iters) {
  __shared__ float tile[8][32 * 32];  // one 32x32 tile per warp
  int t = threadIdx.x, w = t / 32, lane = t % 32, g = blockIdx.x * T + t;
  for (int r = 0; r < 32; ++r) tile[w][r * 32 + lane] = in[g] + (float)r;  // conflict free
  __syncwarp();
  float acc = 0.0f;
  for (int k = 0; k < iters; ++k) {
    acc += tile[w][lane * 32 + (k & 31)];          // column: 32-way conflict
    tile[w][(lane * 8) & 1023] += 1.0f / 64.0f;    // stride 8: 8-way conflict, lanes distinct
    __syncwarp();
  }
  out[g] = acc;
}

int main() {
  const int blocks = 60, n = blocks * T, iters = 48;
  uint64_t s = 7;
  std::vector<float> h(n);
  for (auto &v : h) v = (float)(vg_rand(s) % 64);
  float *in = vg_upload(h), *out = vg_alloc<float>(n);
  shmem_conflict<<<blocks, T>>>(in, out, iters);
  vg_sync();
  auto r = vg_download(out, n);
  long bad = 0;
  for (int b = 0; b < blocks; ++b)
    for (int w = 0; w < 8; ++w) {
      std::vector<float> tile(1024);
      for (int rr = 0; rr < 32; ++rr)
        for (int l = 0; l < 32; ++l) tile[rr * 32 + l] = h[b * T + w * 32 + l] + (float)rr;
      std::vector<float> acc(32, 0.0f);
      for (int k = 0; k < iters; ++k) {
        for (int l = 0; l < 32; ++l) acc[l] += tile[l * 32 + (k & 31)];
        for (int l = 0; l < 32; ++l) tile[(l * 8) & 1023] += 1.0f / 64.0f;
      }
      for (int l = 0; l < 32; ++l) bad += !vg_close(r[b * T + w * 32 + l], acc[l], 1e-5);
    }
  return vg_finish("shmem_conflict", bad, n);
}
