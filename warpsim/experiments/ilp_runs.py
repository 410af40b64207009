"""Runs of the ILP reproduction: one benchmark on one core/GPU configuration (data hazards,
branch prediction, iso-area GPU-T / GPU-I / GPU-H) or one concurrent pair, reduced to the
numbers the analysis needs.

Follows: specs/xiang-simt-efficiency.md §3.3-§3.6. Every run is in-process (one ``Device`` per
run) on the GTX480 preset with fewer SMs (the dissertation's GTX280-like GPU is not a preset:
docs/reproductions/ilp.md says what differs).
Assumptions:
  [A] The energy of a concurrent pair is the sum of each kernel's energy over its first
      complete run (the dissertation §4.5: "the sum of the energy consumed by executing either
      application from beginning to end"): its own SMs' events, and static power of its SMs
      and of the chip for its run's duration (so chip-level static power is charged to each
      kernel while both run).
"""

from __future__ import annotations

import time
from typing import Any

from warpsim.errors import ConfigError
from warpsim.experiments.wm_runs import BenchSel
from warpsim.mechanisms.ilp.gpus import GPUMix, ilp_core_overrides, route

__all__ = ["BENCH_FULL", "BENCH_QUICK", "CORES", "PAIRS_FULL", "PAIRS_QUICK", "run_energy_j",
           "run_one", "run_pair"]

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
    BenchSel("matvec", "small", (), "MV", "high TLP"),
)
PAIRS_QUICK = (("nqueens", "matrix_mul"),)
"""Concurrent pairs (kernel 1 low TLP, kernel 2 high TLP), single-kernel benchmarks."""
PAIRS_FULL = (("nqueens", "matrix_mul"), ("nqueens", "dxtc"), ("nqueens", "matvec"))
"""The dissertation's twelve mixes {NQU, STO, Scan} x {MM, Con, DT, MV} that our single-kernel
benchmarks allow (a pair runs one launch per SM set): STO (16 kB of shared memory per block)
has no counterpart (``md5`` has the StoreGPU hash but no shared memory), ``scan`` launches
three kernels and ``convolution_separable`` two."""

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
        "branch_stalls": int(g("ilp_branch_stalls", 0)),
        "tb0": {k: int(g(f"ilp_{k}", 0)) for k in (
            "tb0_warp_insts", "tb0_branches", "tb0_branch_stalls", "cta_max_warp_insts")},
        "wall_s": time.perf_counter() - t0,
    }


def run_energy_j(stats: dict[str, Any], cycles: int, cfg: Any, sms: list[int]) -> float:
    """Energy (J) of one run of a concurrent group on the SMs ``sms`` of ``cfg``: its events,
    the static power of those SMs (register-file leakage of their kind) and of the chip for
    ``cycles``."""
    from warpsim.arch.sm_kinds import sm_kinds
    from warpsim.mechanisms.registry import energy_mechanisms
    from warpsim.power import energy, table_for_gpu

    table = table_for_gpu(cfg.name)
    regs = [k.cfg.sm.n_registers for k in sm_kinds(cfg) for _ in range(k.n_sms)]
    banks = {-(-regs[i] * 4 // table.regfile_bank_bytes) for i in sms}
    if len(banks) != 1:
        raise ConfigError("sms", sms, "SMs of one register-file size")
    return energy(stats, table, cycles=float(cycles), clock_mhz=cfg.clocks.core_mhz,
                  n_sms=len(sms), n_rf_banks_per_sm=banks.pop(),
                  granules_per_bank_access=cfg.regfile.bank_width_bits / 128,
                  mechanisms=energy_mechanisms(cfg)).total_j


def _sm_list(cfg: Any, sel: Any) -> list[int]:
    """SM indices of a concurrent group's SM set (a range, or an ``sm_kinds`` index)."""
    from warpsim.arch.sm_kinds import sm_kinds

    if isinstance(sel, int):
        k = sm_kinds(cfg)[sel]
        return list(range(k.first_sm, k.first_sm + k.n_sms))
    return [int(x) for x in sel]


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
        cfg = dev.gpu_config
        energy_j = [run_energy_j(r.runs[0].stats, r.runs[0].cycles, cfg, _sm_list(cfg, s))
                    for r, s in zip(res, sets, strict=True)]
    finally:
        dev.close()
    return {"gpu": gpu.name, "pair": [first.name, second.name],
            "verified": bool(r1.verified and r2.verified),
            "ipc": [float(res[0].window_ipc), float(res[1].window_ipc)],
            "window_cycles": int(res[0].window_cycles),
            "run_cycles": [int(r.runs[0].cycles) for r in res],
            "energy_j": energy_j, "wall_s": time.perf_counter() - t0}
