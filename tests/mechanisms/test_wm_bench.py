"""WarpMan on warpsim's own benchmarks: mode ``tb`` (block-level allocation, observed) gives the
baseline's statistics bit for bit, and warp-level modes keep results correct and execute the
same instructions."""

from __future__ import annotations

import math

from warpsim.bench import run_benchmark
from warpsim.runtime import Device


def _stats(bench, overrides):
    d = Device(config="gtx480", overrides=overrides)
    try:
        r = run_benchmark(bench, size="tiny", device=d)
        return r.verified, {k: (None if isinstance(v, float) and math.isnan(v) else v)
                            for k, v in d.stats.items()}
    finally:
        d.close()


def test_block_level_mode_is_the_baseline_bit_for_bit():
    ok0, base = _stats("pathfinder", [])
    ok1, tb = _stats("pathfinder", ["warpman.enabled=true", "warpman.mode=tb"])
    assert ok0 and ok1
    assert {k: v for k, v in tb.items() if not k.startswith("wm_")} == base
    assert tb["wm_warps"] > 0


def test_warp_level_allocation_keeps_the_work_and_the_results():
    ok0, base = _stats("pathfinder", [])
    ok1, wm = _stats("pathfinder", ["warpman.enabled=true", "warpman.mode=temp_spatial"])
    assert ok0 and ok1
    assert wm["gpu_sim_insn"] == base["gpu_sim_insn"]
    assert wm["gpgpu_n_tot_w_icount"] == base["gpgpu_n_tot_w_icount"]


def test_stencil_naive_has_st_s_two_warp_types():
    """Figs. 24-26: in each 32x32 block of the ST-like input (ny = 10), rows 1..8 (warps 1..8)
    are interior and march along z (~1250 instructions at nz = 52); the other 24 warps fail
    the boundary test and run < 50 instructions, so a block wastes about 24/32 of its
    register-time under block-level allocation (RTRU near 0.75)."""
    import numpy as np

    d = Device(config="gtx480", overrides=["warpman.enabled=true", "warpman.mode=tb"])
    try:
        r = run_benchmark("stencil_naive", size="tiny", device=d,
                          params={"nx": 64, "ny": 10, "nz": 52, "iterations": 1})
        (lr,) = d.mechanism.launches
    finally:
        d.close()
    assert r.verified
    insts = np.asarray(lr.insts).reshape(2, 32)
    for block in insts:
        assert set(np.flatnonzero(block > 1000)) == set(range(1, 9))
        assert (block[1:9] == block[1]).all() and 1000 < block[1] < 1500
        assert block[0] < 50 and (block[9:] < 50).all()
    assert ((lr.rtru > 0.6) & (lr.rtru < 0.76)).all()
