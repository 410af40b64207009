// Host helpers shared by the GPGPU-Sim validation programs (written for warpsim).
// Every program generates its inputs with vg_rand (a 64-bit LCG), checks its results on the
// host and prints "<name>: PASS" (exit 0) or "<name>: FAIL ..." (exit 1).
#pragma once
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CK(call)                                                                      \
  do {                                                                                \
    cudaError_t e_ = (call);                                                          \
    if (e_ != cudaSuccess) {                                                          \
      printf("CUDA error %s at %s:%d\nFAIL\n", cudaGetErrorString(e_), __FILE__,      \
             __LINE__);                                                               \
      exit(1);                                                                        \
    }                                                                                 \
  } while (0)

static inline uint32_t vg_rand(uint64_t &s) {
  s = s * 6364136223846793005ULL + 1442695040888963407ULL;
  return (uint32_t)(s >> 33);
}
static inline float vg_randf(uint64_t &s) {  // [0, 1)
  return (float)(vg_rand(s) & 0xFFFFFF) / 16777216.0f;
}

template <class T>
static T *vg_upload(const std::vector<T> &h) {
  T *d = nullptr;
  CK(cudaMalloc(&d, h.size() * sizeof(T)));
  CK(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}
template <class T>
static T *vg_alloc(size_t n) {
  T *d = nullptr;
  CK(cudaMalloc(&d, n * sizeof(T)));
  CK(cudaMemset(d, 0, n * sizeof(T)));
  return d;
}
template <class T>
static std::vector<T> vg_download(const T *d, size_t n) {
  std::vector<T> h(n);
  CK(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
  return h;
}
static inline void vg_sync() {
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
}
// relative-or-absolute closeness for float results computed in a different order/precision
static inline bool vg_close(double got, double want, double rel) {
  return std::fabs(got - want) <= rel * (std::fabs(want) + 1.0);
}
static inline int vg_finish(const char *name, long bad, long total) {
  if (bad) {
    printf("%s: FAIL (%ld of %ld wrong)\n", name, bad, total);
    return 1;
  }
  printf("%s: PASS (%ld values checked)\n", name, total);
  return 0;
}
