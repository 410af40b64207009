// divergence.cu: branch divergence and reconvergence inside a warp.
// Exercises: if/else on lane parity, nested divergence (if inside else inside if),
// data-dependent loops whose threads exit at different iterations (break and loop condition),
// an early return by some lanes, and a switch statement.
//
// Kernels:
//   extern "C" __global__ void parity_branch(const int* in, int* out, int n)
//       v = in[i]; out[i] = (i odd) ? v * 3 + 1 : v / 2  (C integer semantics), for i < n.
//   extern "C" __global__ void nested_branch(const int* in, int* out, int n)
//       v = in[i]:
//         if v > 0:  if v % 3 == 0: r = v / 3 else: (if v % 3 == 1: r = v * 2 else: r = -v)
//         else:      if v == 0: r = 100 else: r = v & 0xff
//       out[i] = r, for i < n.
//   extern "C" __global__ void collatz_steps(const unsigned* in, int* out, int n, int max_steps)
//       x = in[i]; steps = 0; while x != 1 and steps < max_steps: x = x even ? x/2 : 3x+1
//       (32-bit unsigned wrap-around), steps += 1. out[i] = steps (x = 0 runs to max_steps).
//   extern "C" __global__ void first_match(const int* data, int len, const int* keys,
//                                          int* pos, int n)
//       pos[i] = smallest j < len with data[j] == keys[i], or -1, for i < n (loop with break).
//   extern "C" __global__ void switch_op(const int* op, const float* a, const float* b,
//                                        float* out, int n)
//       out[i] = a+b, a-b, a*b, max(a,b) for op[i] % 4 == 0,1,2,3 (op[i] >= 0), for i < n.

extern "C" __global__ void parity_branch(const int* in, int* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) {
        return;
    }
    int v = in[i];
    int r;
    if (i & 1) {
        r = v * 3 + 1;
    } else {
        r = v / 2;
    }
    out[i] = r;
}

extern "C" __global__ void nested_branch(const int* in, int* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) {
        return;
    }
    int v = in[i];
    int r;
    if (v > 0) {
        if (v % 3 == 0) {
            r = v / 3;
        } else {
            if (v % 3 == 1) {
                r = v * 2;
            } else {
                r = -v;
            }
        }
    } else {
        if (v == 0) {
            r = 100;
        } else {
            r = v & 0xff;
        }
    }
    out[i] = r;
}

extern "C" __global__ void collatz_steps(const unsigned* in, int* out, int n, int max_steps)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) {
        return;
    }
    unsigned x = in[i];
    int steps = 0;
    while (x != 1u && steps < max_steps) {
        if (x & 1u) {
            x = 3u * x + 1u;
        } else {
            x >>= 1;
        }
        ++steps;
    }
    out[i] = steps;
}

extern "C" __global__ void first_match(const int* data, int len, const int* keys, int* pos,
                                       int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) {
        return;
    }
    int key = keys[i];
    int found = -1;
    for (int j = 0; j < len; ++j) {
        if (data[j] == key) {
            found = j;
            break;
        }
    }
    pos[i] = found;
}

extern "C" __global__ void switch_op(const int* op, const float* a, const float* b, float* out,
                                     int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) {
        return;
    }
    float x = a[i];
    float y = b[i];
    float r;
    switch (op[i] % 4) {
    case 0: r = x + y; break;
    case 1: r = x - y; break;
    case 2: r = x * y; break;
    default: r = fmaxf(x, y); break;
    }
    out[i] = r;
}
