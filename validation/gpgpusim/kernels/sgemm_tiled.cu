// SGEMM-like: C = A * B with 16x16 shared-memory tiles (M = N = 256, K = 128).
#include "vg.h"

#define TS 16
__global__ void sgemm_tiled(const float *A, const float *B, float *C, int M, int N, int K) {
  __shared__ float As[TS][TS], Bs[TS][TS];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TS + ty, colc = blockIdx.x * TS + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += TS) {
    As[ty][tx] = A[row * K + k0 + tx];
    Bs[ty][tx] = B[(k0 + ty) * N + colc];
    __syncthreads();
    for (int k = 0; k < TS; ++k) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * N + colc] = acc;
}

int main() {
  const int M = 256, N = 256, K = 128;
  uint64_t s = 23;
  std::vector<float> ha(M * K), hb(K * N);
  for (auto &v : ha) v = vg_randf(s) - 0.5f;
  for (auto &v : hb) v = vg_randf(s) - 0.5f;
  float *A = vg_upload(ha), *B = vg_upload(hb), *C = vg_alloc<float>(M * N);
  sgemm_tiled<<<dim3(N / TS, M / TS), dim3(TS, TS)>>>(A, B, C, M, N, K);
  vg_sync();
  auto r = vg_download(C, M * N);
  long bad = 0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double acc = 0.0;
      for (int k = 0; k < K; ++k) acc += (double)ha[i * K + k] * hb[k * N + j];
      bad += !vg_close(r[i * N + j], acc, 1e-4);
    }
  return vg_finish("sgemm_tiled", bad, M * N);
}
