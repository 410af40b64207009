"""Reproduction of RegLess (Kloosterman et al., MICRO-50 2017) on the GTX980-like configuration
(the paper's Table 1): ``warpsim reproduce regless [--quick] [--json]``.

Runs warpsim's Rodinia-like benchmarks under the baseline register file and RegLess at 512
entries per SM (the full run adds the 128-2048 capacity sweep), and reports runtime against
the full register file (Fig. 16's geomean), register-structure and GPU energy (Figs. 14-15),
the capacity sweep with its Pareto frontier (Fig. 13), preload sources and L1/L2 traffic
(Figs. 17-18) and region statistics (Table 2). Writes ``summary.json`` in the result folder
and returns it (``--json`` prints it): ``mean_slowdown``, ``rf_energy_saving``,
``gpu_energy_saving``, ``preload_l1_fraction``, ``preload_l2_fraction``,
``mean_region_instructions``, ``capacity_sweep``, ``pareto_capacities``,
``no_compressor_slowdown``, ``per_benchmark``, ``rfv`` (the full run's RFV baseline), ``rfh``
(the RFH baseline, quick and full) and ``paper``.

Follows: specs/regless.md §5.1, §6.1, §8; docs/reproductions/regless.md. The summary's
arithmetic is ``rl_analysis.py``; the energy ``rl_energy.py``.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import numpy as np

from warpsim.experiments.rl_analysis import PAPER, bench_row, rfh_row, summarize
from warpsim.runner.reproduce import register_reproduction
from warpsim.runtime.observers import per_program

__all__ = ["BENCH_FULL", "BENCH_QUICK", "CAPACITIES_FULL", "CONFIG", "PAPER",
           "reproduce_regless", "run_experiment", "run_one"]

CONFIG = "gtx980"
BENCH_QUICK = (("hotspot", "tiny"), ("pathfinder", "tiny"), ("bfs", "tiny"))
BENCH_FULL = (*BENCH_QUICK, ("nw", "tiny"), ("srad", "tiny"), ("backprop", "tiny"))
CAPACITIES_FULL = (128, 256, 512, 1024, 2048)
"""Fig. 13's sweep (spec §5.1: 128 to 2048 entries per SM, multiples of 32)."""


NO_COMPRESSOR = ("regless.compressor=false",)
"""§6.4's ablation: RegLess-512 without the compressor (paper: 10.2 % slower)."""


MACHINE = ("l1d.write_alloc_policy=write_allocate",)
"""[A] Both runs: the L1 writes local (register) lines back and allocates them without a fetch
(§4.5: "write-back ... the old value does not need to be fetched"); gtx980's L1 does not
allocate on a write miss, which would send every evicted register line to L2."""


RFV = ("regless.design=rfv", "sm.sched_policy=two_level", "sm.n_two_level_active_warps=4")
"""The paper's RFV baseline: a renamed half-size file (1024 entries) with the two-level
scheduler, 4 active warps per scheduler (spec §5.3 item 4: 25 % of 16)."""
RFV_ENTRIES = 1024
RFH = ("sm.sched_policy=two_level", "sm.n_two_level_active_warps=4")
"""The paper's RFH baseline: the full register file behind the compiler's LRF/ORF
(``mechanisms/regless/rfh.py``, priced in ``rl_energy.rfh_energy``) with the same two-level
scheduler, whose active set a warp leaves when it waits on a long-latency result (a strand
end)."""


def overrides(entries: int | None, extra: tuple[str, ...] = ()) -> list[str]:
    """Config overrides of the baseline (``entries`` None) or RegLess with ``entries``."""
    return [*MACHINE, *extra] if entries is None else [
        *MACHINE, "regless.enabled=true", f"regless.entries_per_sm={entries}", *extra]


def _rfh_counter(dev: Any) -> np.ndarray:
    """Dynamic RFH accesses (``rfh.KINDS``) of ``dev``'s launches, summed as they complete."""
    from warpsim.mechanisms.regless.rfh import KINDS, plan_rfh

    total = np.zeros(len(KINDS), np.int64)
    plan = per_program(lambda p: plan_rfh(p.fn))

    def observe(kernel: Any, cfg: Any, result: Any) -> None:
        total[:] += plan(kernel).accesses(result.pc_warp_counts)

    dev.add_launch_observer(observe)
    return total


def run_one(bench: str, size: str, entries: int | None,
            extra: tuple[str, ...] = ()) -> dict[str, Any]:
    """One benchmark, baseline (``entries`` None) or RegLess with ``entries`` per SM: its
    cycles, verification, every statistic (``stats``) and the compiler's static region means;
    a baseline run with the RFH scheduler (``extra == RFH``) also counts RFH's accesses."""
    from warpsim.bench import run_benchmark
    from warpsim.mechanisms.regless.rfh import KINDS
    from warpsim.runtime import Device

    dev = Device(config=CONFIG, overrides=overrides(entries, extra))
    rfh = _rfh_counter(dev) if entries is None and extra == RFH else None
    t0 = time.perf_counter()
    try:
        res = run_benchmark(bench, size=size, device=dev)
        stats = {k: v for k, v in dict(dev.stats).items() if isinstance(v, int | float)}
        sim = getattr(dev, "_timing_sim", None)
        plans = dict(getattr(getattr(sim, "mechanism", None), "plans", {}) or {})
    finally:
        dev.close()
    out: dict[str, Any] = {"bench": bench, "entries": entries, "verified": bool(res.verified),
                           "cycles": int(stats.get("gpu_tot_sim_cycle", 0)),
                           "wall_s": round(time.perf_counter() - t0, 2), "stats": stats}
    if rfh is not None:
        out["rfh_accesses"] = dict(zip(KINDS, rfh.tolist(), strict=True))
    if plans:
        regs = [r for p in plans.values() for r in p.regions]
        out["static_insns_per_region"] = sum(r.n_insns for r in regs) / max(1, len(regs))
        out["static_inputs_per_region"] = sum(len(r.inputs) for r in regs) / max(1, len(regs))
        out["static_need_per_region"] = sum(r.need_total for r in regs) / max(1, len(regs))
    return out


def run_experiment(benches: tuple[tuple[str, str], ...], capacities: tuple[int, ...],
                   out: Path, *, no_compressor: bool = False,
                   rfv: bool = False, rfh: bool = True) -> dict[str, Any]:
    """Every benchmark at the baseline and each capacity (and, with ``no_compressor``, at 512
    entries without the compressor: ``rl512_nc``; with ``rfv``, the RFV baseline: ``rfv``;
    with ``rfh``, the RFH baseline: ``rfh``); the summary."""
    from warpsim.arch import resolve_config

    cfgs = {c: resolve_config(CONFIG, overrides=overrides(c)) for c in (None, *capacities)}
    nc_cfg = resolve_config(CONFIG, overrides=overrides(512, NO_COMPRESSOR))
    rfv_cfg = resolve_config(CONFIG, overrides=overrides(RFV_ENTRIES, RFV))
    rfh_cfg = resolve_config(CONFIG, overrides=overrides(None, RFH))
    per: dict[str, Any] = {}
    for bench, size in benches:
        base = run_one(bench, size, None)
        row: dict[str, Any] = {"size": size, "cycles_base": base["cycles"],
                               "verified": base["verified"]}
        for cap in capacities:
            row[f"rl{cap}"] = bench_row(base, run_one(bench, size, cap), cfgs[None], cfgs[cap])
        if no_compressor:
            row["rl512_nc"] = bench_row(base, run_one(bench, size, 512, NO_COMPRESSOR),
                                        cfgs[None], nc_cfg)
        if rfv:
            row["rfv"] = bench_row(base, run_one(bench, size, RFV_ENTRIES, RFV), cfgs[None],
                                   rfv_cfg)
        if rfh:
            row["rfh"] = rfh_row(base, run_one(bench, size, None, RFH), cfgs[None], rfh_cfg)
        per[bench] = row
    summary = summarize(per, capacities, CONFIG)
    out.mkdir(parents=True, exist_ok=True)
    (out / "summary.json").write_text(json.dumps(summary, indent=2))
    return summary


def reproduce_regless(*, quick: bool, out: Path, jobs: int | None = None,
                      dask: str | None = None) -> dict[str, Any]:
    """``warpsim reproduce regless``: quick = 3 tiny benchmarks at 512 entries per SM; the
    full run adds benchmarks and the capacity sweep. ``jobs``/``dask`` unused (in-process)."""
    del jobs, dask
    if quick:
        return run_experiment(BENCH_QUICK, (512,), out)
    return run_experiment(BENCH_FULL, CAPACITIES_FULL, out, no_compressor=True, rfv=True)


register_reproduction(
    "regless", reproduce_regless,
    "RegLess (Kloosterman et al., MICRO-50 2017): runtime and energy vs the full register "
    "file, capacity sweep and Pareto frontier, preload sources, L1/L2 traffic, region "
    "statistics")
