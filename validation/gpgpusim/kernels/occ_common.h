// The occupancy programs: the same latency-bound kernel launched with different limits on the
// resident blocks per SM. Each warp follows its own chain of dependent, coalesced loads through
// a 512 KiB table (one 128-byte line per step, L2 hits after the first touch): little
// bandwidth, so the time is latency divided by the warps an SM has to switch between.
#pragma once
#include "vg.h"

#define OCC_LINES 4096  // 32 ints per line
#define OCC_STEPS 48

// PAD ints of static shared memory, only to limit the resident blocks (GPGPU-Sim 4.2 leaves
// dynamic shared memory out of its blocks-per-SM limit)
template <int PAD>
__global__ void occ_chase(const int *next, int *out, int steps) {
  __shared__ int pad[PAD];
  volatile int *vpad = pad;  // kept: one store and one load by thread 0
  int i = blockIdx.x * blockDim.x + threadIdx.x, lane = threadIdx.x & 31;
  if (threadIdx.x == 0) vpad[PAD - 1] = i;
  int line = (i >> 5) & (OCC_LINES - 1), acc = 0;
  for (int k = 0; k < steps; ++k) {
    int v = next[line * 32 + lane];  // every entry of a line names the same next line
    line = v >> 5;
    acc += v & 31;
  }
  out[i] = acc + (threadIdx.x == 0 ? vpad[PAD - 1] - i : 0);
}

template <int PAD>
static int occ_run(const char *name, int blocks, int threads) {
  uint64_t s = 24;
  std::vector<int> next(OCC_LINES * 32);
  for (int l = 0; l < OCC_LINES; ++l) {
    int to = (int)(vg_rand(s) % OCC_LINES);
    for (int e = 0; e < 32; ++e) next[l * 32 + e] = to * 32 + ((l + e) & 31);
  }
  int n = blocks * threads;
  int *dnext = vg_upload(next), *out = vg_alloc<int>(n);
  occ_chase<PAD><<<blocks, threads>>>(dnext, out, OCC_STEPS);
  vg_sync();
  auto r = vg_download(out, n);
  long bad = 0;
  for (int i = 0; i < n; ++i) {
    int line = (i >> 5) & (OCC_LINES - 1), acc = 0;
    for (int k = 0; k < OCC_STEPS; ++k) {
      int v = next[line * 32 + (i & 31)];
      line = v >> 5;
      acc += v & 31;
    }
    bad += r[i] != acc;
  }
  return vg_finish(name, bad, n);
}
