"""Runs of the coarse-grained L1 fetch reproduction: one benchmark under one policy on the
dissertation's Table 8 GPU (the ``table8`` preset), reduced to the numbers the analysis needs.

Follows: specs/xiang-simt-efficiency.md §4 (Table 8, Figs 57-58). Every run is in-process (one
``Device`` per run); the numba cycle loop compiles once per process per hook set (baseline,
coarse fetch: every policy below shares the second).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

__all__ = ["BENCH_FULL", "BENCH_QUICK", "CONFIG", "POLICIES", "BenchSel", "overrides", "run_one"]

CONFIG = "table8"
"""The dissertation's Table 8 GPU (``warpsim.arch.presets.TABLE8``)."""

POLICIES = ("base", "coarse2", "coarse4", "coarse2_duel", "coarse4_duel")
"""``base``: no mechanism; ``coarseN``: every SM fetches aligned N-line groups (Fig. 57);
``coarseN_duel``: set dueling between a baseline and a coarseN leader SM (Fig. 58)."""


@dataclass(frozen=True, slots=True)
class BenchSel:
    """One benchmark input: warpsim benchmark, named size, parameter overrides, and what the
    dissertation says of its Rodinia namesake (§5.5)."""

    name: str
    size: str
    params: tuple[tuple[str, Any], ...] = ()
    paper: str = ""


BENCH_QUICK = (
    BenchSel("pathfinder", "small", (), "strong gain"),
    BenchSel("srad_v1", "small", (), "strong gain"),
    BenchSel("nw", "small", (), "hurt without dueling"),
    BenchSel("backprop", "small", (), "trivial gain"),
)
BENCH_FULL = (
    *BENCH_QUICK,
    BenchSel("b_plus_tree", "small", (), "strong gain"),
    BenchSel("heartwall", "small", (), "strong gain"),
    BenchSel("kmeans", "small", (), "strong gain"),
    BenchSel("bfs", "small", (), "trivial gain"),
    BenchSel("lud", "small", (), "hurt without dueling"),
    BenchSel("lava_md", "small", (), "fine-grained: scheme off"),
    BenchSel("myocyte", "small", (), "fine-grained: scheme off"),
    BenchSel("hotspot", "small", (), "-"),
    BenchSel("gaussian", "small", (), "-"),
    BenchSel("nn", "small", (), "-"),
    BenchSel("streamcluster", "small", (), "-"),
)


def overrides(policy: str, extra: tuple[str, ...] = ()) -> list[str]:
    """Config overrides of ``policy`` (``POLICIES``)."""
    out = list(extra)
    if policy == "base":
        return out
    lines = 4 if policy.startswith("coarse4") else 2
    out += ["coarse_fetch.enabled=true", f"coarse_fetch.n_group_lines={lines}"]
    if policy.endswith("_duel"):
        out.append("coarse_fetch.dueling=true")
    return out


def run_one(sel: BenchSel, policy: str, extra: tuple[str, ...] = (),
            config: str = CONFIG) -> dict[str, Any]:
    """Simulate ``sel`` under ``policy`` (``extra``: more config overrides): cycles, IPC, L1
    and L2 traffic, DRAM reads, the ``cf_*`` and ``l1d_group_*`` statistics."""
    from warpsim.bench import run_benchmark
    from warpsim.runtime import Device

    dev = Device(config=config, overrides=overrides(policy, extra))
    t0 = time.perf_counter()
    try:
        res = run_benchmark(sel.name, size=sel.size, device=dev, params=dict(sel.params) or None)
        stats = dict(dev.stats)
    finally:
        dev.close()
    g = stats.get
    acc = g("L1D_total_cache_accesses", 0)
    out: dict[str, Any] = {
        "bench": sel.name, "policy": policy, "verified": bool(res.verified),
        "cycles": int(g("gpu_tot_sim_cycle", 0)), "insn": int(g("gpu_sim_insn", 0)),
        "l1d_accesses": int(acc), "l1d_misses": int(g("L1D_total_cache_misses", 0)),
        "l1d_miss_rate": g("L1D_total_cache_misses", 0) / acc if acc else float("nan"),
        "l2_accesses": int(g("L2_total_cache_accesses", 0)),
        "dram_reads": int(g("dram_reads", 0)),
        "wall_s": time.perf_counter() - t0,
    }
    out.update({k: v for k, v in stats.items() if k.startswith(("cf_", "l1d_group_"))})
    return out
