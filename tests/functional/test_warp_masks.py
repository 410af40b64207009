"""Warp-level operations over partial and per-lane member masks, and PTX's ``WARP_SZ``.

Each lane of a warp names its own group in the mask it passes (a labelled partition's groups
execute one ``redux``/``vote``/``match`` together), some lanes sit out in a divergent branch.
Oracle: numpy, lane by lane, per the PTX ISA (§9.7.8.12 ``redux.sync``, §9.7.8.7 ``vote.sync``,
§9.7.8.8 ``match.sync``, §9.7.8.6 ``shfl.sync``, §9.7.8.2 ``bar.warp.sync``): a lane's result is
computed over the lanes of its own membermask.
"""

from __future__ import annotations

import numpy as np
import pytest

import warpsim

SOURCE = r"""
#define OUTS 16
extern "C" __global__ void groups(const unsigned* in, const unsigned* masks,
                                  const int* active, unsigned* out)
{
    __shared__ unsigned board[64];
    int t = threadIdx.x;
    if (!active[t]) return;
    unsigned v = in[t], m = masks[t];
    unsigned* o = out + t * OUTS;
    o[0] = __reduce_add_sync(m, v);
    o[1] = __reduce_min_sync(m, v);
    o[2] = (unsigned)__reduce_max_sync(m, (int)v);
    o[3] = __reduce_and_sync(m, v);
    o[4] = __reduce_or_sync(m, v);
    o[5] = __reduce_xor_sync(m, v);
    o[6] = __ballot_sync(m, v & 1);
    o[7] = __all_sync(m, v & 1);
    o[8] = __any_sync(m, v & 1);
    o[9] = __uni_sync(m, v & 1);
    o[10] = __match_any_sync(m, v % 3);
    int same;
    o[11] = __match_all_sync(m, v & 0x100, &same);
    o[12] = same;
    unsigned leader = __ffs(m) - 1;
    o[13] = __shfl_sync(m, v, leader);
    board[t] = v;
    __syncwarp(m);
    o[14] = board[(t & ~31) + (31 - __clz(m))];   // the group's highest lane, after the sync
    unsigned key = __match_any_sync(__activemask(), v % 5);   // the issue's labelled groups
    o[15] = (unsigned)__reduce_max_sync(key, (int)v);
}

extern "C" __global__ void segments(const unsigned* in, const int* active, unsigned* out)
{
    int t = threadIdx.x, lane = t & 31;
    if (!active[t]) return;
    unsigned m = 0xFFu << (lane & 24);            // the lane's 8-lane segment
    unsigned v = in[t];
    out[t * 4 + 0] = __shfl_down_sync(m, v, 3, 8);
    out[t * 4 + 1] = __shfl_up_sync(m, v, 2, 8);
    out[t * 4 + 2] = __shfl_xor_sync(m, v, 5, 8);
    out[t * 4 + 3] = __shfl_sync(m, v, 6, 8);
}

extern "C" __global__ void warp_size(int* out)
{
    int t = threadIdx.x;
    out[t] = warpSize * 1000 + t % warpSize + t / warpSize * 100;
}
"""

N = 64


@pytest.fixture(scope="module")
def mod():
    with warpsim.Device() as gpu:
        yield gpu, gpu.compile(SOURCE, name="warp_masks.cu")


def _partition(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """(per-thread membermask, active flags): each warp's active lanes split at random into
    up to five groups; a lane's mask holds the active lanes of its group."""
    masks = np.zeros(N, np.uint32)
    active = rng.random(N) < 0.8
    active[[0, 33]] = True
    for w in range(N // 32):
        labels = rng.integers(0, 5, 32)
        for lane in range(32):
            t = w * 32 + lane
            group = [k for k in range(32) if labels[k] == labels[lane] and active[w * 32 + k]]
            masks[t] = sum(1 << k for k in group)
    return masks, active


def _lanes(threads: list[int], flags: list[bool]) -> int:
    """The lane mask of the threads whose flag is set."""
    return sum(1 << (u % 32) for u, f in zip(threads, flags, strict=True) if f)


def _expected_groups(v: np.ndarray, masks: np.ndarray, active: np.ndarray) -> np.ndarray:
    out = np.zeros((N, 16), np.uint32)
    for t in np.flatnonzero(active):
        w = t // 32
        m = int(masks[t])
        members = [w * 32 + k for k in range(32) if m >> k & 1]
        g = v[members].astype(np.int64)
        odd = _lanes(members, [bool(v[u] & 1) for u in members])
        out[t, 0] = g.sum() % 2**32
        out[t, 1] = g.min()
        out[t, 2] = np.uint32(v[members].view(np.int32).max().astype(np.int64) % 2**32)
        out[t, 3] = np.bitwise_and.reduce(v[members])
        out[t, 4] = np.bitwise_or.reduce(v[members])
        out[t, 5] = np.bitwise_xor.reduce(v[members])
        out[t, 6] = odd
        out[t, 7] = odd == m
        out[t, 8] = odd != 0
        out[t, 9] = odd in (0, m)
        out[t, 10] = _lanes(members, [v[u] % 3 == v[t] % 3 for u in members])
        same = all((v[u] & 0x100) == (v[t] & 0x100) for u in members)
        out[t, 11] = m if same else 0
        out[t, 12] = same
        out[t, 13] = v[members[0]]
        out[t, 14] = v[members[-1]]
        live = [w * 32 + k for k in range(32) if active[w * 32 + k]]
        labelled = [u for u in live if v[u] % 5 == v[t] % 5]
        out[t, 15] = np.uint32(v[labelled].view(np.int32).max().astype(np.int64) % 2**32)
    return out


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_each_lane_reduces_votes_and_matches_over_its_own_mask(mod, seed):
    gpu, m = mod
    rng = np.random.default_rng(seed)
    v = rng.integers(0, 2**32, N, dtype=np.uint64).astype(np.uint32)
    v[::7] = rng.integers(0, 4, len(v[::7]))  # small values: repeats for match, odd/even mix
    masks, active = _partition(rng)
    d_out = gpu.to_device(np.zeros(N * 16, np.uint32))
    m.get_kernel("groups")[1, N](gpu.to_device(v), gpu.to_device(masks),
                                 gpu.to_device(active.astype(np.int32)), d_out)
    got = d_out.copy_to_host().reshape(N, 16)
    want = _expected_groups(v, masks, active)
    for col in range(16):
        np.testing.assert_array_equal(got[active, col], want[active, col],
                                      err_msg=f"output {col}")


def test_redux_over_half_warps_is_not_a_whole_warp_reduction(mod):
    # the case: two groups, each must see only its own maximum
    gpu, m = mod
    v = np.arange(N, dtype=np.uint32) * 3
    masks = np.where(np.arange(N) % 32 < 16, 0x0000FFFF, 0xFFFF0000).astype(np.uint32)
    active = np.ones(N, np.int32)
    d_out = gpu.to_device(np.zeros(N * 16, np.uint32))
    m.get_kernel("groups")[1, N](gpu.to_device(v), gpu.to_device(masks),
                                 gpu.to_device(active), d_out)
    got = d_out.copy_to_host().reshape(N, 16)
    half_max = (np.arange(N) // 16 * 16 + 15) * 3
    np.testing.assert_array_equal(got[:, 2], half_max)
    np.testing.assert_array_equal(got[:, 0], [sum(range(h * 16, h * 16 + 16)) * 3
                                              for h in np.arange(N) // 16])


def test_shuffles_within_segments_of_a_partial_warp(mod):
    gpu, m = mod
    rng = np.random.default_rng(7)
    v = rng.integers(0, 2**32, N, dtype=np.uint64).astype(np.uint32)
    active = np.repeat(rng.random(N // 8) < 0.6, 8)  # whole 8-lane segments sit out
    active[0:8] = True
    d_out = gpu.to_device(np.zeros(N * 4, np.uint32))
    m.get_kernel("segments")[1, N](gpu.to_device(v), gpu.to_device(active.astype(np.int32)),
                                   d_out)
    got = d_out.copy_to_host().reshape(N, 4)
    t = np.arange(N)
    base, sub = t - t % 8, t % 8
    want = np.stack([np.where(sub + 3 < 8, v[np.minimum(t + 3, N - 1)], v),  # down 3
                     np.where(sub >= 2, v[np.maximum(t - 2, 0)], v),        # up 2
                     v[base + (sub ^ 5)],                                   # xor 5
                     v[base + 6]], axis=1)                                  # lane 6
    np.testing.assert_array_equal(got[active], want[active])


def test_warp_size_builtin_runs(mod):
    gpu, m = mod
    d_out = gpu.to_device(np.zeros(96, np.int32))
    m.get_kernel("warp_size")[1, 96](d_out)
    t = np.arange(96)
    np.testing.assert_array_equal(d_out.copy_to_host(), 32000 + t % 32 + t // 32 * 100)
