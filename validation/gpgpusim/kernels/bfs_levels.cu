// Irregular global memory and multiple launches: level-synchronous breadth-first search on a
// random graph in CSR form (one launch per level, until no vertex changes).
#include "vg.h"

__global__ void bfs_level(const int *row, const int *col, int *level, int cur, int n, int *changed) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n || level[v] != cur) return;
  for (int e = row[v]; e < row[v + 1]; ++e) {
    int u = col[e];
    if (level[u] < 0) {  // several threads may write the same value: benign
      level[u] = cur + 1;
      *changed = 1;
    }
  }
}

int main() {
  const int n = 1 << 14, threads = 256;
  uint64_t s = 15;
  std::vector<int> row(n + 1), col;
  for (int v = 0; v < n; ++v) {
    row[v] = (int)col.size();
    int deg = 1 + (int)(vg_rand(s) % 7);  // 1..7 random neighbours
    for (int k = 0; k < deg; ++k) col.push_back((int)(vg_rand(s) % n));
  }
  row[n] = (int)col.size();
  std::vector<int> lv(n, -1);
  lv[0] = 0;
  int *drow = vg_upload(row), *dcol = vg_upload(col), *dlv = vg_upload(lv);
  int *dchanged = vg_alloc<int>(1);
  int cur = 0;
  for (;; ++cur) {
    int zero = 0, flag = 0;
    CK(cudaMemcpy(dchanged, &zero, sizeof(int), cudaMemcpyHostToDevice));
    bfs_level<<<(n + threads - 1) / threads, threads>>>(drow, dcol, dlv, cur, n, dchanged);
    vg_sync();
    CK(cudaMemcpy(&flag, dchanged, sizeof(int), cudaMemcpyDeviceToHost));
    if (!flag || cur > 64) break;
  }
  auto r = vg_download(dlv, n);
  // host BFS
  std::vector<int> want(n, -1), q{0};
  want[0] = 0;
  for (size_t h = 0; h < q.size(); ++h)
    for (int e = row[q[h]]; e < row[q[h] + 1]; ++e)
      if (want[col[e]] < 0) { want[col[e]] = want[q[h]] + 1; q.push_back(col[e]); }
  long bad = 0;
  for (int v = 0; v < n; ++v) bad += r[v] != want[v];
  printf("bfs_levels: %d launches, %zu vertices reached\n", cur + 1, q.size());
  return vg_finish("bfs_levels", bad, n);
}
