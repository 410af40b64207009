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
