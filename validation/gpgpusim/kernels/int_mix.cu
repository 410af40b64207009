// Compute, 32-bit integer: a hash-mixing loop (xor, shifts, multiply, add) per thread.
#include "vg.h"

__host__ __device__ inline uint32_t mix(uint32_t x, int iters) {
  for (int i = 0; i < iters; ++i) {
    x ^= x >> 15;
    x *= 0x2c1b3c6du;
    x ^= x << 7;
    x += 0x297a2d39u + (uint32_t)i;
  }
  return x;
}

__global__ void int_mix(const uint32_t *in, uint32_t *out, int iters) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = mix(in[i], iters);
}

int main() {
  const int blocks = 60, threads = 256, n = blocks * threads, iters = 96;
  uint64_t s = 1;
  std::vector<uint32_t> h(n);
  for (auto &v : h) v = vg_rand(s);
  uint32_t *in = vg_upload(h), *out = vg_alloc<uint32_t>(n);
  int_mix<<<blocks, threads>>>(in, out, iters);
  vg_sync();
  auto r = vg_download(out, n);
  long bad = 0;
  for (int i = 0; i < n; ++i) bad += r[i] != mix(h[i], iters);
  return vg_finish("int_mix", bad, n);
}
