// The occupancy programs: the same latency-bound kernel (dependent loads through a 256 KiB
// table, i.e. L2 hits after the first touch) launched with different resident-block limits.
#pragma once
#include "vg.h"

#define OCC_TABLE (1 << 16)
#define OCC_STEPS 24

__global__ void occ_chase(const int *next, int *out, int steps) {
  extern __shared__ int pad[];  // only to limit the resident blocks; touched once
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0) pad[0] = i;
  int j = (i * 97) & (OCC_TABLE - 1), acc = 0;
  for (int k = 0; k < steps; ++k) {
    j = next[j];
    acc += j;
  }
  out[i] = acc + (threadIdx.x == 0 ? pad[0] - i : 0);
}

static int occ_run(const char *name, int blocks, int threads, size_t shared) {
  uint64_t s = 24;
  std::vector<int> next(OCC_TABLE);
  for (auto &v : next) v = (int)(vg_rand(s) % OCC_TABLE);
  int n = blocks * threads;
  int *dnext = vg_upload(next), *out = vg_alloc<int>(n);
  occ_chase<<<blocks, threads, shared>>>(dnext, out, OCC_STEPS);
  vg_sync();
  auto r = vg_download(out, n);
  long bad = 0;
  for (int i = 0; i < n; ++i) {
    int j = (i * 97) & (OCC_TABLE - 1), acc = 0;
    for (int k = 0; k < OCC_STEPS; ++k) { j = next[j]; acc += j; }
    bad += r[i] != acc;
  }
  return vg_finish(name, bad, n);
}
