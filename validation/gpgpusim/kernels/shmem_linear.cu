// Shared memory without bank conflicts: each thread reads consecutive words (stride 1) of one
// half of a block-wide buffer and writes a running sum to the other half, in a loop.
#include "vg.h"

#define T 256
__global__ void shmem_linear(const float *in, float *out, int iters) {
  __shared__ float buf[2 * T];
  int t = threadIdx.x, g = blockIdx.x * T + t;
  buf[t] = in[g];
  buf[t + T] = 0.5f * in[g];
  __syncthreads();
  float acc = 0.0f;
  for (int k = 0; k < iters; ++k) {
    // reads from one half, writes to the other (no race); lane i -> bank (i + k) % 32 and
    // bank i % 32: conflict free
    acc += buf[((k & 1) ? 0 : T) + ((t + k) & (T - 1))];
    buf[t + ((k & 1) ? T : 0)] = acc * 0.5f;
    __syncthreads();
  }
  out[g] = acc;
}

static void reference(const float *in, float *out, int blocks, int iters) {
  std::vector<float> buf(2 * T), acc(T);
  for (int b = 0; b < blocks; ++b) {
    for (int t = 0; t < T; ++t) { buf[t] = in[b * T + t]; buf[t + T] = 0.5f * in[b * T + t]; acc[t] = 0; }
    for (int k = 0; k < iters; ++k) {
      for (int t = 0; t < T; ++t) acc[t] += buf[((k & 1) ? 0 : T) + ((t + k) & (T - 1))];
      for (int t = 0; t < T; ++t) buf[t + ((k & 1) ? T : 0)] = acc[t] * 0.5f;
    }
    for (int t = 0; t < T; ++t) out[b * T + t] = acc[t];
  }
}

int main() {
  const int blocks = 60, n = blocks * T, iters = 64;
  uint64_t s = 6;
  std::vector<float> h(n), want(n);
  for (auto &v : h) v = vg_randf(s) - 0.5f;
  float *in = vg_upload(h), *out = vg_alloc<float>(n);
  shmem_linear<<<blocks, T>>>(in, out, iters);
  vg_sync();
  auto r = vg_download(out, n);
  reference(h.data(), want.data(), blocks, iters);
  long bad = 0;
  for (int i = 0; i < n; ++i) bad += !vg_close(r[i], want[i], 1e-4);
  return vg_finish("shmem_linear", bad, n);
}
