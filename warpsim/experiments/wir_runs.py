"""Runs of the WIR reproduction: one benchmark under one design (Base, R, RL, RLP, RLPV, RPV,
RLPVc, NoVSB, or a sweep point) on the GTX480-like configuration, reduced to the numbers the
analysis needs.

Follows: specs/wir.md §3 (designs as settings of ``GPUConfig.wir``), §6 (counters). Every run
is in-process (one ``Device`` per run); the cycle loop compiles once per process per hook set.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from warpsim.experiments.wir_affine import AffineCounter, affine_shares

__all__ = ["BENCH_FULL", "BENCH_QUICK", "DESIGNS", "BenchSel", "run_one", "sm_energy_j"]

_R = ("wir.enabled=true", "wir.load_reuse=false", "wir.pending_retry=false",
      "wir.verify_cache_entries=0")
DESIGNS: dict[str, tuple[str, ...]] = {
    "base": (),
    "R": _R,
    "RL": ("wir.enabled=true", "wir.pending_retry=false", "wir.verify_cache_entries=0"),
    "RLP": ("wir.enabled=true", "wir.verify_cache_entries=0"),
    "RLPV": ("wir.enabled=true",),
    "RPV": ("wir.enabled=true", "wir.load_reuse=false"),
    "RLPVc": ("wir.enabled=true", "wir.register_policy=capped"),
    "NoVSB": (*_R, "wir.vsb_entries=0"),
}
"""The paper's designs (§3 table) as configuration overrides."""


@dataclass(frozen=True, slots=True)
class BenchSel:
    """One benchmark input: warpsim benchmark, named size, the paper's benchmark it stands for
    (Table I) and why it was chosen."""

    name: str
    size: str
    paper: str = ""
    why: str = ""


BENCH_QUICK = (
    BenchSel("sobel_filter", "tiny", "SF", "stencil on shared tiles: repeated loads (LK-like)"),
    BenchSel("hotspot", "tiny", "HS", "stencil, load reuse noticeable in the paper"),
    BenchSel("pathfinder", "tiny", "PF", "dynamic programming on shared rows"),
    BenchSel("gaussian", "tiny", "GA", "many small launches, uniform row values"),
    BenchSel("binomial_options", "tiny", "BO", "FP with per-block constants"),
    BenchSel("srad", "tiny", "S2", "stencil, load reuse noticeable in the paper"),
)
BENCH_FULL = (
    *(BenchSel(b.name, "small", b.paper, b.why) for b in BENCH_QUICK),
    BenchSel("backprop", "small", "BP", "layer forward with shared reductions"),
    BenchSel("bfs", "small", "BF", "irregular, divergent"),
    BenchSel("black_scholes", "small", "BS", "FP throughput, little repetition"),
    BenchSel("dct8x8", "small", "DC", "8x8 blocks, shared tiles"),
    BenchSel("scan", "small", "SN", "prefix sums"),
    BenchSel("fast_walsh_transform", "small", "WT", "butterflies"),
    BenchSel("nw", "small", "NW", "16-thread blocks (partial warps: never convergent)"),
    BenchSel("monte_carlo_options", "small", "MC", "FP, per-option constants"),
    BenchSel("dxtc", "small", "DX", "per-block colour compression"),
    BenchSel("fdtd3d", "small", "FD", "3-D stencil"),
)
"""The full reproduction: 16 benchmarks at ``small`` (more warps per SM than ``tiny``)."""


def sm_energy_j(by_component: dict[str, float]) -> float:
    """The SM's share of GPU energy (spec §8 item 26): every component except L2, DRAM, the
    interconnect and the memory controllers."""
    out = 0.0
    for name, j in by_component.items():
        low = name.lower()
        if any(k in low for k in ("l2", "dram", "noc", "icnt", "mc", "interconnect", "memctrl")):
            continue
        out += j
    return out


def run_one(sel: BenchSel, design: str, extra: tuple[str, ...] = ()) -> dict[str, Any]:
    """Simulate ``sel`` under ``design`` (``extra``: more overrides, e.g. a sweep point)."""
    from warpsim.bench import run_benchmark
    from warpsim.power import energy_for_gpu
    from warpsim.runtime import Device

    dev = Device(config="gtx480", overrides=[*DESIGNS[design], *extra])
    affine = AffineCounter() if design == "base" and not extra else None
    if affine is not None:  # the Affine model's counts, from Base's trace (wir_affine.py)
        dev.trace_sink = affine.consume
        dev.add_launch_observer(affine.done)
    t0 = time.perf_counter()
    try:
        res = run_benchmark(sel.name, size=sel.size, device=dev)
        stats = dict(dev.stats)
        energy = energy_for_gpu(stats, dev.gpu_config)
    finally:
        dev.close()
    g = stats.get
    comp = energy.by_component_j
    out: dict[str, Any] = {
        "bench": sel.name, "design": design, "verified": bool(res.verified),
        "cycles": int(g("gpu_tot_sim_cycle", g("gpu_sim_cycle", 0))),
        "warp_insts": int(g("gpgpu_n_tot_w_icount", 0)),
        "l1d_accesses": int(g("L1D_total_cache_accesses", 0)),
        "l1d_misses": int(g("L1D_total_cache_misses", 0)),
        "regfile_bank_reads": int(g("regfile_bank_reads", 0)),
        "regfile_bank_writes": int(g("regfile_bank_writes", 0)),
        "bank_conflict_stalls": int(g("regfile_bank_conflict_stalls", 0)),
        "energy_j": energy.total_j, "sm_energy_j": sm_energy_j(comp),
        "energy_by_component_j": comp, "energy_by_counter_j": dict(energy.by_counter_j),
        "wall_s": time.perf_counter() - t0,
    }
    if affine is not None:
        out["affine_shares"] = affine_shares(affine.counts)
    out.update({k: int(v) for k, v in stats.items() if k.startswith("wir_")})
    out.update({k: int(v) for k, v in stats.items() if k.startswith("exec_")})
    return out
