// Multiple launches: four Jacobi sweeps of a 5-point stencil over a 384x384 grid, alternating
// between two buffers (the output of one launch is the input of the next).
#include "vg.h"

__global__ void jacobi(const float *in, float *out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  int i = y * w + x;
  if (x == 0 || y == 0 || x == w - 1 || y == h - 1) { out[i] = in[i]; return; }
  out[i] = 0.2f * (in[i] + in[i - 1] + in[i + 1] + in[i - w] + in[i + w]);
}

int main() {
  const int w = 384, h = 384, n = w * h, sweeps = 4;
  uint64_t s = 18;
  std::vector<float> g(n), tmp(n);
  for (auto &v : g) v = vg_randf(s);
  float *a = vg_upload(g), *b = vg_alloc<float>(n);
  dim3 block(32, 8), grid(w / 32, h / 8);
  for (int k = 0; k < sweeps; ++k) {
    jacobi<<<grid, block>>>(a, b, w, h);
    vg_sync();
    float *t = a; a = b; b = t;
  }
  auto r = vg_download(a, n);
  for (int k = 0; k < sweeps; ++k) {
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        int i = y * w + x;
        tmp[i] = (x == 0 || y == 0 || x == w - 1 || y == h - 1)
                     ? g[i] : 0.2f * (g[i] + g[i - 1] + g[i + 1] + g[i - w] + g[i + w]);
      }
    g.swap(tmp);
  }
  long bad = 0;
  for (int i = 0; i < n; ++i) bad += !vg_close(r[i], g[i], 1e-5);
  return vg_finish("stencil_pingpong", bad, n);
}
