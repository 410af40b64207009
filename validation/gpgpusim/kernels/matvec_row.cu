// Strided global memory: y = A x with one thread per row of a row-major 3840x32 matrix (the
// warp's 32 loads per step fall in 32 different rows: uncoalesced); x is read by all threads.
#include "vg.h"

__global__ void matvec_row(const float *A, const float *x, float *y, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float acc = 0.0f;
  for (int c = 0; c < cols; ++c) acc += A[r * cols + c] * x[c];
  y[r] = acc;
}

int main() {
  const int rows = 3840, cols = 32;
  uint64_t s = 26;
  std::vector<float> ha(rows * cols), hx(cols);
  for (auto &v : ha) v = vg_randf(s) - 0.5f;
  for (auto &v : hx) v = vg_randf(s) - 0.5f;
  float *A = vg_upload(ha), *x = vg_upload(hx), *y = vg_alloc<float>(rows);
  matvec_row<<<rows / 128, 128>>>(A, x, y, rows, cols);
  vg_sync();
  auto r = vg_download(y, rows);
  long bad = 0;
  for (int i = 0; i < rows; ++i) {
    double acc = 0.0;
    for (int c = 0; c < cols; ++c) acc += (double)ha[i * cols + c] * hx[c];
    bad += !vg_close(r[i], acc, 1e-4);
  }
  return vg_finish("matvec_row", bad, rows);
}
