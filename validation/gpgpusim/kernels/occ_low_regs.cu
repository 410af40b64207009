// Low occupancy from registers: 32 accumulators live across a loop of loads (about 50 registers
// per thread), so at most two 256-thread blocks fit the 32 Ki registers of an SM.
#include "vg.h"

#define NACC 32
__global__ void occ_low_regs(const float *in, float *out, int n, int iters) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float acc[NACC];
#pragma unroll
  for (int a = 0; a < NACC; ++a) acc[a] = (float)a;
  for (int k = 0; k < iters; ++k) {
    float x = in[(i + k * 4096) & (n - 1)];
#pragma unroll
    for (int a = 0; a < NACC; ++a) acc[a] = acc[a] * 0.5f + x * (float)(a + 1);
  }
  float sum = 0.0f;
#pragma unroll
  for (int a = 0; a < NACC; ++a) sum += acc[a] * (float)((a & 3) + 1);
  out[i] = sum;
}

int main() {
  const int n = 1 << 16, blocks = 60, threads = 256, iters = 16;
  uint64_t s = 25;
  std::vector<float> h(n);
  for (auto &v : h) v = vg_randf(s);
  float *in = vg_upload(h), *out = vg_alloc<float>(blocks * threads);
  occ_low_regs<<<blocks, threads>>>(in, out, n, iters);
  vg_sync();
  auto r = vg_download(out, blocks * threads);
  long bad = 0;
  for (int i = 0; i < blocks * threads; ++i) {
    double acc[NACC], sum = 0.0;
    for (int a = 0; a < NACC; ++a) acc[a] = a;
    for (int k = 0; k < iters; ++k) {
      double x = h[(i + k * 4096) & (n - 1)];
      for (int a = 0; a < NACC; ++a) acc[a] = acc[a] * 0.5 + x * (a + 1);
    }
    for (int a = 0; a < NACC; ++a) sum += acc[a] * ((a & 3) + 1);
    bad += !vg_close(r[i], sum, 1e-4);
  }
  return vg_finish("occ_low_regs", bad, blocks * threads);
}
