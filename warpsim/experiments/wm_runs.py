"""Runs of the WarpMan reproduction: one benchmark under one resource-management mode on the
GTX480-like configuration (dissertation Table 4), reduced to the numbers the analysis needs.

Follows: specs/xiang-simt-efficiency.md §2.4-§2.6. Every run is in-process (one ``Device`` per
run); the numba cycle loop compiles once per process per hook set (baseline, WarpMan).
"""

from __future__ import annotations

import dataclasses
import re
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["BENCH_FULL", "BENCH_QUICK", "MODES", "BenchSel", "allocation_counters", "run_one",
           "with_maxnreg"]

MODES = ("base", "tb", "temp", "temp_spatial", "dueling", "threshold")
"""``base``: no mechanism; ``tb``: WarpMan observing block-level allocation (per-warp times,
RTRU; statistics identical to ``base``); the others: ``warpman.mode``."""


@dataclass(frozen=True, slots=True)
class BenchSel:
    """One benchmark input: warpsim benchmark, named size, parameter overrides, the paper's
    benchmark it stands for (Table 5) and why it was chosen."""

    name: str
    size: str
    params: tuple[tuple[str, Any], ...] = ()
    paper: str = ""
    why: str = ""
    maxnreg: int = 0
    """> 0: every kernel compiled with ``__maxnreg__(maxnreg)`` (``with_maxnreg``): the
    register count of the dissertation's compiler where sm_80's ptxas allocates more."""


BENCH_QUICK = (
    BenchSel("hotspot", "small", (), "HS", "26 regs x 256 thr: 4 blocks/SM by registers "
             "(12.5 % unused), halo warps exit early"),
    BenchSel("srad", "small", (), "SR", "srad_1 24 regs x 256 thr: 5 blocks/SM (6.25 % "
             "unused: a partial block of 2 warps)"),
    BenchSel("ray", "small", (("width", 256), ("height", 256)), "RAY",
             "input-dependent warp imbalance (reflections)"),
    BenchSel("stencil_naive", "small", (), "ST", "1024 thr x 22 regs: 1 block/SM (25 % "
             "unused); 8 interior warps of ~1250 instructions, 24 boundary warps of < 50"),
    BenchSel("radix_sort", "small", (), "RS", "radix_sort_blocks 512 thr x 24 regs: 2 "
             "blocks/SM by registers (25 % unused), shared memory and __syncthreads()"),
)
BENCH_FULL = (
    *BENCH_QUICK,
    BenchSel("bfs", "small", (("nodes", 32768),), "-", "24 regs x 512 thr: 2 blocks/SM "
             "(25 % unused: partial blocks of up to 10 warps), irregular warps"),
    BenchSel("matrix_mul", "paper", (("repeats", 1),), "MM", "SDK matrixMul<16> at the "
             "sample's default 320x320 x 320x640 (800 blocks, one launch): 256 thr, 2 kB shared, "
             "__syncthreads(); at 24 regs (the paper's; sm_80 ptxas takes 32 unconstrained) "
             "5 blocks/SM + a partial block of 2 warps (§3.4's worked example)", maxnreg=24),
)


def _overrides(mode: str, extra: tuple[str, ...]) -> list[str]:
    out = list(extra)
    if mode != "base":
        out += ["warpman.enabled=true", f"warpman.mode={mode}"]
    return out


def run_one(sel: BenchSel, mode: str, extra: tuple[str, ...] = (),
            keep_warps: bool = False) -> dict[str, Any]:
    """Simulate ``sel`` under ``mode`` (``extra``: more config overrides); the statistics the
    analysis uses, the total energy, the resident warps per SM (``warpsim.runner.residency``)
    and (``keep_warps``) WarpMan's per-warp records."""
    from warpsim.bench import get_benchmark, run_benchmark
    from warpsim.bench.harness import execute
    from warpsim.power import energy_for_gpu
    from warpsim.runner.residency import ResidencyObserver, residency
    from warpsim.runtime import Device

    dev = Device(config="gtx480", overrides=_overrides(mode, extra))
    resident = ResidencyObserver(dev.gpu_config)
    dev.add_launch_observer(resident)
    t0 = time.perf_counter()
    try:
        if sel.maxnreg:
            res = execute(with_maxnreg(get_benchmark(sel.name), sel.maxnreg), sel.size, dev,
                          dict(sel.params) or None)
        else:
            res = run_benchmark(sel.name, size=sel.size, device=dev,
                                params=dict(sel.params) or None)
        stats = dict(dev.stats)
        launches = list(getattr(dev.mechanism, "launches", []) or [])
        energy = energy_for_gpu(stats, dev.gpu_config)
        sm_cfg = dev.gpu_config.sm
    finally:
        dev.close()
    g = stats.get
    acc = g("L1D_total_cache_accesses", 0)
    act = g("dram_activates", 0)
    out: dict[str, Any] = {
        "bench": sel.name, "mode": mode, "verified": bool(res.verified),
        "cycles": int(g("gpu_tot_sim_cycle", 0)), "insn": int(g("gpu_sim_insn", 0)),
        "l1d_miss_rate": g("L1D_total_cache_misses", 0) / acc if acc else float("nan"),
        "dram_row_acc_per_act": ((g("dram_reads", 0) + g("dram_writes", 0)) / act
                                 if act else float("nan")),
        "energy_j": energy.total_j, "dynamic_j": energy.dynamic_j, "static_j": energy.static_j,
        "partial_blocks": int(g("wm_partial_blocks", 0)),
        "warp_level_placements": int(g("wm_warp_level_placements", 0)),
        "dueling_epochs": int(g("wm_dueling_epochs", 0)),
        "dueling_epochs_spatial": int(g("wm_dueling_epochs_spatial", 0)),
        "wall_s": time.perf_counter() - t0,
        "residency": residency({**stats, **resident.columns()}),
    }
    if "wm_reg_cycles" in stats:  # spec §2.6 counters (WarpMan on: every mode but base)
        out.update(allocation_counters(stats, sm_cfg.n_sms, sm_cfg.n_registers))
    if launches:
        out["kernels"] = _kernels(launches)
    if keep_warps:
        out["warps"] = launches
    return out


def with_maxnreg(bench: Any, maxnreg: int) -> Any:
    """``bench`` with every ``__global__`` kernel of its source compiled under
    ``__maxnreg__(maxnreg)`` (a copy of the source in the temporary directory; the toolchain's
    cache is keyed by content)."""
    src = Path(bench.source).read_text()
    text = re.sub(r"__global__\s+void\s+(?!__maxnreg__)",
                  f"__global__ void __maxnreg__({int(maxnreg)}) ", src)
    out = Path(tempfile.gettempdir()) / "warpsim-wm" / f"{bench.name}-maxnreg{maxnreg}.cu"
    out.parent.mkdir(parents=True, exist_ok=True)
    if not out.exists() or out.read_text() != text:
        out.write_text(text)
    return dataclasses.replace(bench, source=out)


def allocation_counters(stats: dict[str, Any], n_sms: int,
                        n_registers: int) -> dict[str, Any]:
    """Spec §2.6 counters of one run from WarpMan's statistics: time averages per SM over the
    whole run (register utilisation = allocated registers / register file), barrier stall
    cycles of partially dispatched blocks' warps, threshold-blocked warps."""
    sm_cycles = n_sms * max(1, int(stats.get("gpu_tot_sim_cycle", 0)))
    return {
        "reg_utilization": stats["wm_reg_cycles"] / (sm_cycles * n_registers),
        "avg_warp_entries": stats.get("wm_warp_entry_cycles", 0) / sm_cycles,
        "avg_active_warps": stats.get("wm_active_warp_cycles", 0) / sm_cycles,
        "avg_resident_blocks": stats.get("wm_cta_cycles", 0) / sm_cycles,
        "avg_shmem_bytes": stats.get("wm_shmem_byte_cycles", 0) / sm_cycles,
        "partial_barrier_stall_cycles": int(stats.get("wm_partial_barrier_stall_cycles", 0)),
        "threshold_blocked_warps": int(stats.get("wm_threshold_blocked_warps", 0)),
        "series_rows": int(stats.get("wm_series_rows", 0)),
        "series_dropped": int(stats.get("wm_series_dropped", 0)),
    }


def _kernels(launches: list[Any]) -> dict[str, dict[str, int]]:
    """Per kernel: its block shape and block-level occupancy (the first launch's)."""
    out: dict[str, dict[str, int]] = {}
    for lr in launches:
        row = out.setdefault(lr.kernel, {
            "cta_threads": lr.cta_threads, "warps_per_cta": lr.warps_per_cta,
            "regs_per_thread": lr.regs_per_thread, "shmem_bytes": lr.shmem_bytes,
            "baseline_ctas_per_sm": lr.baseline_ctas_per_sm, "launches": 0, "warp_insts": 0})
        row["launches"] += 1
        row["warp_insts"] += int(np.asarray(lr.insts).sum())
    return out
