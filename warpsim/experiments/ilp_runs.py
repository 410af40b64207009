"""Runs of the ILP reproduction: one benchmark on one core/GPU configuration (data hazards,
branch prediction, iso-area GPU-T / GPU-I / GPU-H) or one concurrent pair, reduced to the
numbers the analysis needs.

Follows: specs/xiang-simt-efficiency.md §3.3-§3.6. Every run is in-process (one ``Device`` per
run) on the GTX480 preset with fewer SMs (the dissertation's GTX280-like GPU is not a preset:
docs/reproductions/ilp.md says what differs).
"""

from __future__ import annotations

import time
from typing import Any

from warpsim.experiments.wm_runs import BenchSel
from warpsim.mechanisms.ilp.gpus import GPUMix, ilp_core_overrides, route

__all__ = ["BENCH_FULL", "BENCH_QUICK", "CORES", "PAIRS_QUICK", "run_one", "run_pair"]

BENCH_QUICK = (
    BenchSel("nqueens", "small", (), "NQU", "one large-shared-memory block per SM: low TLP"),
    BenchSel("scan", "small", (), "Scan", "moderate TLP"),
    BenchSel("matrix_mul", "small", (), "MM", "high TLP"),
)
BENCH_FULL = (
    *BENCH_QUICK,
    BenchSel("nw", "small", (), "NW", "many small kernels: low TLP"),
    BenchSel("dxtc", "small", (), "DT", "moderate TLP"),
    BenchSel("fft", "small", (), "FFT", "few threads in all"),
    BenchSel("convolution_separable", "small", (), "Conv", "high TLP"),
    BenchSel("black_scholes", "small", (), "BS", "high TLP"),
)
PAIRS_QUICK = (("nqueens", "matrix_mul"),)
"""Concurrent pairs (kernel 1 low TLP, kernel 2 high TLP), single-kernel benchmarks."""

CORES: dict[str, list[str]] = {
    "tlp": [],
    "bp": ["ilp.bypass=true"],
    "sc": ["ilp.scoreboard_entries=8"],
    "bp_sc": ["ilp.bypass=true", "ilp.scoreboard_entries=8"],
    "bp_sc_static": ilp_core_overrides(8, "static"),
    "bp_sc_gshare": ilp_core_overrides(8, "gshare"),
    "bp_sc_perfect": ilp_core_overrides(8, "perfect"),
}
"""Core configurations of Figs 42 and 45 (every one on the TLP core, ``ilp.enabled``)."""

_STALLS = ("raw_alu", "raw_mem", "inflight", "control", "sb_full", "waw", "store_drain",
           "load_after_store", "barrier")


def run_one(sel: BenchSel, overrides: list[str]) -> dict[str, Any]:
    """Simulate ``sel`` with ``overrides`` (on top of ``ilp.enabled=true``)."""
    from warpsim.bench import run_benchmark
    from warpsim.power import energy_for_gpu
    from warpsim.runtime import Device

    dev = Device(config="gtx480", overrides=["ilp.enabled=true", *overrides])
    t0 = time.perf_counter()
    try:
        res = run_benchmark(sel.name, size=sel.size, device=dev,
                            params=dict(sel.params) or None)
        stats = dict(dev.stats)
        mech = getattr(getattr(dev, "_timing_sim", None), "mechanism", None)
        launches = list(getattr(mech, "launches", []) or [])
        energy = energy_for_gpu(stats, dev.gpu_config)
    finally:
        dev.close()
    g = stats.get
    cycles = int(g("gpu_tot_sim_cycle", 0))
    insn = int(g("gpu_sim_insn", 0))
    pred = int(g("ilp_bp_predictions", 0))
    first = launches[0] if launches else {"warps_per_sm": 0, "threads": 0}
    return {
        "bench": sel.name, "verified": bool(res.verified), "cycles": cycles, "insn": insn,
        "ipc": insn / cycles if cycles else 0.0, "energy_j": energy.total_j,
        "launches": len(launches), "warps_per_sm": int(first["warps_per_sm"]),
        "threads": int(first["threads"]),
        "route": route(int(first["warps_per_sm"]), int(first["threads"])),
        "stalls": {k: int(g(f"ilp_stall_{k}", 0)) for k in _STALLS},
        "branches": int(g("ilp_branches", 0)), "cond_branches": int(g("ilp_cond_branches", 0)),
        "divergent_branches": int(g("ilp_divergent_branches", 0)),
        "bp_predictions": pred, "bp_accuracy": int(g("ilp_bp_correct", 0)) / pred if pred
        else None,
        "sb_fallback_issues": int(g("ilp_sb_fallback_issues", 0)),
        "wall_s": time.perf_counter() - t0,
    }


def run_pair(first: BenchSel, second: BenchSel, gpu: GPUMix,
             sets: tuple[Any, Any]) -> dict[str, Any]:
    """``first`` and ``second`` (one kernel each) concurrently on ``gpu``'s SM sets ``sets``,
    each restarted until both finished once; each kernel's IPC in the window."""
    from warpsim.bench import run_benchmark
    from warpsim.runtime import Device

    dev = Device(config="gtx480", overrides=gpu.overrides())
    t0 = time.perf_counter()
    try:
        with dev.concurrent(list(sets), restart=True) as group:
            r1 = run_benchmark(first.name, size=first.size, device=dev,
                               params=dict(first.params) or None)
            r2 = run_benchmark(second.name, size=second.size, device=dev,
                               params=dict(second.params) or None)
        res = group.results
    finally:
        dev.close()
    return {"gpu": gpu.name, "pair": [first.name, second.name],
            "verified": bool(r1.verified and r2.verified),
            "ipc": [float(res[0].window_ipc), float(res[1].window_ipc)],
            "window_cycles": int(res[0].window_cycles),
            "wall_s": time.perf_counter() - t0}
