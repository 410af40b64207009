// warp_ops: shuffles (idx/up/down/xor, sub-warp widths), votes, ballot, match and redux, with the
// full warp and with PARTIAL member masks (only the lanes of the mask execute the call), plus
// 64-bit shuffles. Every call has defined results: no lane reads a non-participating lane.
// Kernel: k_warp(v, out): 128 threads per block, 2 blocks; out[tid * NCOL + k]; columns that a
// lane did not execute hold 0xDEADBEEF.
#define NCOL 40
#define SENTINEL 0xDEADBEEFu
#define FULL 0xFFFFFFFFu

__constant__ unsigned c_partial[8] = {0x0F0FF0F0u, 0xFFFF000Fu, 0x000000F0u, 0xF00F0FF0u,
                                      0x0000FFFFu, 0xFFFFFFFFu, 0x0FF00FF0u, 0xF000000Fu};

extern "C" __global__ void k_warp(const unsigned* __restrict__ V, unsigned* __restrict__ out)
{
    const int tid = blockIdx.x * blockDim.x + threadIdx.x;
    const int lane = threadIdx.x & 31;
    const int warp = tid >> 5;
    const unsigned v = V[tid];
    const unsigned key = v % 5u;
    unsigned r[NCOL];
#pragma unroll
    for (int k = 0; k < NCOL; ++k) r[k] = SENTINEL;

    r[0] = __shfl_sync(FULL, v, (lane * 7 + 3) & 31);
    r[1] = __shfl_up_sync(FULL, v, 3);
    r[2] = __shfl_down_sync(FULL, v, 5);
    r[3] = __shfl_xor_sync(FULL, v, 6);
    r[4] = __shfl_sync(FULL, v, lane * 3, 8);
    r[5] = __shfl_up_sync(FULL, v, 2, 16);
    r[6] = __shfl_down_sync(FULL, v, 3, 8);
    r[7] = __shfl_xor_sync(FULL, v, 20, 16);   // later segment: own value; earlier: allowed
    r[8] = __ballot_sync(FULL, v & 1u);
    r[9] = __all_sync(FULL, key < 4u);
    r[10] = __any_sync(FULL, key == 4u);
    r[11] = __match_any_sync(FULL, key);
    int pred = -1;
    r[12] = __match_all_sync(FULL, (warp & 1) ? key : 7u, &pred);
    r[13] = (unsigned)pred;
    r[14] = __reduce_add_sync(FULL, v);
    r[15] = __reduce_min_sync(FULL, v);
    r[16] = (unsigned)__reduce_max_sync(FULL, (int)v);
    r[17] = __reduce_and_sync(FULL, v | 0x10204080u);
    r[18] = __reduce_or_sync(FULL, v & 0x0F0F0F0Fu);
    r[19] = __reduce_xor_sync(FULL, v);

    const unsigned pm = c_partial[warp & 7];
    if ((pm >> lane) & 1u) {
        r[20] = __activemask();
        r[21] = __ballot_sync(pm, v & 1u);
        r[22] = __all_sync(pm, key < 4u);
        r[23] = __any_sync(pm, key == 0u);
        r[24] = __match_any_sync(pm, key);
        r[25] = __reduce_add_sync(pm, v);
        r[26] = __reduce_max_sync(pm, v);
        r[27] = (unsigned)__reduce_min_sync(pm, (int)v);
        // source: the (lane % popc(pm))-th member of the mask
        int k = lane % __popc(pm), src = 0;
        for (unsigned m = pm; m; m &= m - 1) {
            if (k-- == 0) { src = __ffs(m) - 1; break; }
        }
        r[28] = __shfl_sync(pm, v, src);
        r[29] = __shfl_xor_sync(pm, v, 2);      // masks are unions of aligned nibbles
        int p2 = -1;
        r[30] = __match_all_sync(pm, key & 1u, &p2);
        r[31] = (unsigned)p2;
    }
    if (lane < 16) {
        r[32] = __shfl_down_sync(0x0000FFFFu, v, 3, 16);
        r[33] = __reduce_or_sync(0x0000FFFFu, v);
    } else {
        r[32] = __shfl_up_sync(0xFFFF0000u, v, 2, 16);
        r[33] = __reduce_add_sync(0xFFFF0000u, v);
    }
    unsigned long long w = ((unsigned long long)key << 32) | v;
    w = __shfl_xor_sync(FULL, w, 5);
    r[34] = (unsigned)w;
    r[35] = (unsigned)(w >> 32);
    double dv = (double)v * 0.5;
    dv = __shfl_sync(FULL, dv, 31 - lane);
    r[36] = (unsigned)(long long)dv;
    // per-group prefix sums with shfl_up inside a loop (the usual warp scan)
    unsigned s = key;
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
        unsigned t = __shfl_up_sync(FULL, s, d);
        if (lane >= d) s += t;
    }
    r[37] = s;
    // warp-level tree reduction with shfl_down
    unsigned t = v;
#pragma unroll
    for (int d = 16; d > 0; d >>= 1) t += __shfl_down_sync(FULL, t, d);
    r[38] = __shfl_sync(FULL, t, 0);
    r[39] = __popc(__ballot_sync(FULL, key == (unsigned)(lane % 5)));

    unsigned* o = out + (size_t)tid * NCOL;
#pragma unroll
    for (int k = 0; k < NCOL; ++k) o[k] = r[k];
}

#ifndef __CUDACC_RTC__
#include "vcommon.h"

int main(int argc, char** argv)
{
    const int blocks = 2, threads = 128, n = blocks * threads;
    std::vector<unsigned> v(n);
    Lcg g(7);
    for (int i = 0; i < n; ++i) v[i] = g.next32();
    unsigned* dv = to_dev(v);
    unsigned* dout = dev_alloc<unsigned>((size_t)n * NCOL);
    k_warp<<<blocks, threads>>>(dv, dout);
    CK_LAUNCH();
    VOut o(out_path(argc, argv, "warp_ops.bin"));
    put_device_info(o);
    o.put("v", v);
    o.put("out", to_host(dout, (size_t)n * NCOL));
    printf("warp_ops: %d threads x %d columns written\n", n, NCOL);
    return 0;
}
#endif
