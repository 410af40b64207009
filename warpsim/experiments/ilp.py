"""``warpsim reproduce ilp``: the ILP chapter of Xiang's dissertation (ch. 4): speedups of
bypassing, the 8-entry scoreboard and both over the TLP core (Fig. 42), branch prediction over
BP+SC and its accuracy (Figs 45, 47), NQU's thread block 0 branch statistics (§4.4.3), single
kernels and concurrent pairs on iso-area GPU-T / GPU-I / GPU-H (Figs 48, 50, 51) and pairs on
iso-SM-count GPUs (Figs 52, 53), with every target of spec §3.7 (C-R1 ... C-R13) as ours next
to the paper's or "not run".

Follows: specs/xiang-simt-efficiency.md §3.3-§3.7; runs ``ilp_runs.py``; GPUs and routing
``mechanisms/ilp/gpus.py``. docs/reproductions/ilp.md compares and explains.
Assumptions:
  [A] Scaled-down iso-area GPUs: a budget of ``N_TLP`` TLP SMs (GPU-T 10, GPU-I 9, GPU-H 5 + 4,
      the paper's 40 / 36 / 20 + 18 divided by four); the core study runs on GPU-T's SMs.
  [A] Concurrent pairs on homogeneous GPUs split the SMs in halves (GPU-I's odd count: the
      larger half to kernel 1); on GPU-H kernel 1 runs on the ILP SMs (kind 0), kernel 2 on the
      TLP SMs (kind 1), swapped when the routing rule sends kernel 1 to the TLP SMs and kernel
      2 to the ILP SMs (``gpu_h_kinds``).
  [A] Memory bandwidth is not scaled with the SM count (the paper adds 50 % for 40 SMs).
  [A] Iso-SM-count GPUs (C-R13): ``N_TLP`` SMs each (the paper's 30); the TLP SMs keep the
      preset's register file, the ILP SMs have half of it (the paper's 16k / 8k); the weighted
      speedup's kernel-1 reference runs alone on that GPU-I, kernel 2's on GPU-T (the same
      GPU-T as the iso-area one).
  [A] C-R7 is read on the TLP core (the "baseline GPU without bypassing or scoreboard"):
      warp instructions and branches of thread block 0 from the trace; a branch "results in
      a pipeline stall" when its scheduler leaves an issue slot empty before it resolves
      (``mechanisms/ilp/hooks.py``).
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

from warpsim.experiments.ilp_runs import (
    BENCH_FULL,
    BENCH_QUICK,
    CORES,
    PAIRS_FULL,
    PAIRS_QUICK,
    run_one,
    run_pair,
)
from warpsim.experiments.wm_analysis import gm_ratio
from warpsim.experiments.wm_runs import BenchSel
from warpsim.mechanisms.ilp.gpus import GPUMix, iso_area, iso_sm_count, weighted_speedup
from warpsim.runner.reproduce import register_reproduction

__all__ = ["N_TLP", "PAPER", "gpu_h_kinds", "reproduce_ilp", "run_experiment"]

_log = logging.getLogger(__name__)

N_TLP = 10
PAPER: dict[str, Any] = {
    "speedup_bypass": 0.066, "speedup_scoreboard": 0.114, "speedup_bypass_scoreboard": 0.134,
    "speedup_range_moderate_tlp": [0.065, 0.129],
    "speedup_branch_static": 0.027, "speedup_branch_gshare": 0.031,
    "nqu_branch_static": 0.208, "nqu_branch_gshare": 0.206,
    "branch_prediction_accuracy_static": 0.944, "branch_prediction_accuracy_gshare": 0.937,
    "gpu_h_speedup_single_kernel": 0.092, "gpu_h_vs_gpu_i_single_kernel": 0.0,
    "gpu_h_speedup_concurrent": {"vs_gpu_i": 0.047, "vs_gpu_t": 0.198},
    "gpu_h_energy_concurrent": {"vs_gpu_i": -0.065, "vs_gpu_t": -0.160},
    "gpu_h_speedup_concurrent_iso_sm": {"vs_gpu_i": 0.034, "vs_gpu_t": 0.208},
    "gpu_h_energy_concurrent_iso_sm": {"vs_gpu_i": -0.070, "vs_gpu_t": -0.094},
    "nqu_tb0": {"branch_frac": 0.137, "no_hazard_frac": 0.423, "stall_frac": 0.577},
    "area_ilp_sm_mm2": 12.964, "area_overhead": 0.096, "iso_area_sms": [40, 36, [20, 18]],
}
"""The dissertation's numbers (spec §3.6)."""


def _speedup(runs: dict[str, dict[str, Any]], cfg: str, ref: str) -> float | None:
    a, b = runs.get(cfg), runs.get(ref)
    if not a or not b or not a["cycles"]:
        return None
    return b["cycles"] / a["cycles"] - 1.0


def _gm(per: dict[str, Any], key: str, names: list[str] | None = None) -> float:
    return gm_ratio([per[b].get(key) for b in per if names is None or b in names])


def run_experiment(benches: tuple[BenchSel, ...], out: str | Path, *,
                   cores: tuple[str, ...] = tuple(CORES), pairs: tuple = PAIRS_QUICK,
                   runner: Any = None, pair_runner: Any = None,
                   sweeps: tuple[BenchSel, ...] = ()) -> dict[str, Any]:
    """Every benchmark on every core and GPU, the pairs, the sweeps of C-R3/C-R4/C-R8/C-R9 on
    ``sweeps`` (none when empty), the analysis; ``summary.json`` in ``out``. ``runner`` /
    ``pair_runner`` replace ``run_one`` / ``run_pair`` (tests)."""
    run = runner or run_one
    run_p = pair_runner or run_pair
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    gpu_t, gpu_i, gpu_h = iso_area(N_TLP)
    per: dict[str, Any] = {}
    raw: dict[str, Any] = {}
    for sel in benches:
        runs: dict[str, Any] = {}
        for c in cores:
            _log.info("ilp: %s %s", sel.name, c)
            runs[c] = run(sel, [f"sm.n_sms={N_TLP}", *CORES[c]])
        for gpu in (gpu_i, gpu_h):
            _log.info("ilp: %s %s", sel.name, gpu.name)
            runs[gpu.name] = run(sel, gpu.overrides())
        runs["GPU-T"] = runs["tlp"]
        raw[sel.name] = runs
        row: dict[str, Any] = {
            "paper_benchmark": sel.paper, "input": {"size": sel.size, **dict(sel.params)},
            "verified": all(r["verified"] for r in runs.values()),
            "route": runs["tlp"]["route"], "warps_per_sm": runs["tlp"]["warps_per_sm"],
            "threads": runs["tlp"]["threads"],
            "speedup_bypass": _speedup(runs, "bp", "tlp"),
            "speedup_scoreboard": _speedup(runs, "sc", "tlp"),
            "speedup_bypass_scoreboard": _speedup(runs, "bp_sc", "tlp"),
            "gpu_i_vs_gpu_t": _speedup(runs, "GPU-I", "GPU-T"),
            "gpu_h_vs_gpu_t": _speedup(runs, "GPU-H", "GPU-T"),
            "gpu_h_vs_gpu_i": _speedup(runs, "GPU-H", "GPU-I"),
            "stalls_tlp": runs["tlp"]["stalls"],
            "tb0_tlp": _tb0(runs["tlp"]),
        }
        for p in ("static", "gshare", "perfect"):
            if f"bp_sc_{p}" in runs:
                row[f"speedup_branch_{p}"] = _speedup(runs, f"bp_sc_{p}", "bp_sc")
                row[f"bp_accuracy_{p}"] = runs[f"bp_sc_{p}"]["bp_accuracy"]
        if "bp_sc" in runs:
            row["stalls_bp_sc"] = runs["bp_sc"]["stalls"]
            row["branches"] = {k: runs["bp_sc"][k] for k in (
                "branches", "cond_branches", "divergent_branches")}
        e_t, e_i, e_h = (runs[g]["energy_j"] for g in ("GPU-T", "GPU-I", "GPU-H"))
        row["energy_gpu_i_vs_gpu_t"] = e_i / e_t - 1.0 if e_t else None
        row["energy_gpu_h_vs_gpu_t"] = e_h / e_t - 1.0 if e_t else None
        per[sel.name] = row
    by = {s.name: s for s in benches}
    pairs = tuple((a, b) for a, b in pairs if a in raw and b in raw)
    routes = {a: raw[a]["tlp"]["route"] for a in raw}
    mixes = [_mix(by[a], by[b], (gpu_t, gpu_i, gpu_h), raw[a]["GPU-I"]["ipc"],
                  raw[b]["GPU-T"]["ipc"], run_p, routes=(routes[a], routes[b]))
             for a, b in pairs]
    sm_gpus = iso_sm_count(N_TLP, _preset_registers())
    mixes_sm = []
    refs1: dict[str, dict[str, Any]] = {}
    for (a, b), m in zip(pairs, mixes, strict=True):
        if a not in refs1:
            _log.info("ilp: %s alone on iso-SM GPU-I", a)
            refs1[a] = run(by[a], sm_gpus[1].overrides())
        ref1 = refs1[a]
        mixes_sm.append(_mix(by[a], by[b], sm_gpus, ref1["ipc"], raw[b]["GPU-T"]["ipc"], run_p,
                             reuse={"GPU-T": m["runs"]["GPU-T"]}, ref1_run=ref1,
                             routes=(routes[a], routes[b])))
    moderate = [b for b in per if per[b]["paper_benchmark"] in ("RAY", "FFT", "Scan", "DT")]
    acc = {p: [per[b].get(f"bp_accuracy_{p}") for b in per] for p in ("static", "gshare")}
    summary: dict[str, Any] = {
        "speedup_bypass": _gm(per, "speedup_bypass"),
        "speedup_scoreboard": _gm(per, "speedup_scoreboard"),
        "speedup_bypass_scoreboard": _gm(per, "speedup_bypass_scoreboard"),
        "speedup_moderate_tlp": {b: per[b]["speedup_bypass_scoreboard"] for b in moderate},
        "speedup_branch_static": _gm(per, "speedup_branch_static"),
        "speedup_branch_gshare": _gm(per, "speedup_branch_gshare"),
        "branch_prediction_accuracy_static": _mean(acc["static"]),
        "branch_prediction_accuracy_gshare": _mean(acc["gshare"]),
        "gpu_h_speedup_single_kernel": _gm(per, "gpu_h_vs_gpu_t"),
        "gpu_h_vs_gpu_i_single_kernel": _gm(per, "gpu_h_vs_gpu_i"),
        "gpu_i_vs_gpu_t_single_kernel": _gm(per, "gpu_i_vs_gpu_t"),
        "gpu_h_energy_single_kernel": _gm(per, "energy_gpu_h_vs_gpu_t"),
        "gpu_h_speedup_concurrent": _mean_over(mixes, "gpu_h_vs"),
        "gpu_h_energy_concurrent": _mean_over(mixes, "energy_gpu_h_vs"),
        "gpu_h_speedup_concurrent_iso_sm": _mean_over(mixes_sm, "gpu_h_vs"),
        "gpu_h_energy_concurrent_iso_sm": _mean_over(mixes_sm, "energy_gpu_h_vs"),
        "gpus": {g.name: [g.n_tlp, g.n_ilp, round(g.area_mm2, 3)]
                 for g in (gpu_t, gpu_i, gpu_h)},
        "gpus_iso_sm": {g.name: {"tlp_sms": g.n_tlp, "ilp_sms": g.n_ilp,
                                 "tlp_registers": g.tlp_registers,
                                 "ilp_registers": g.ilp_registers or g.tlp_registers}
                        for g in sm_gpus},
        "concurrent": mixes,
        "concurrent_iso_sm": mixes_sm,
        "per_benchmark": per,
        "paper": PAPER,
    }
    if sweeps:
        summary["sweeps"] = _sweeps(sweeps, run)
    summary["targets"] = _targets(summary)
    summary["out"] = str(out)
    (out / "summary.json").write_text(json.dumps(summary, indent=2, default=str))
    return summary


SCOREBOARD_SIZES = (2, 4, 8, 16)
"""C-R4 / Fig. 43: scoreboard entries per SM, with bypassing."""
CORE_MHZ = (325.0, 650.0, 1300.0)
DRAM_SCALES = (0.5, 2.0)
"""C-R3: the core clock (the dissertation's 325-1300 MHz) and the DRAM clock halved / doubled
(its 100-400 GB/s around 200), each swept alone from the preset's clocks."""
REGISTER_FILES = (8192, 16384, 32768)
"""C-R8 / C-R9 / Fig. 44: 32-bit registers per SM (8k, 16k, 32k)."""


def _sweeps(benches: tuple[BenchSel, ...], run: Any) -> dict[str, Any]:
    """C-R3, C-R4, C-R8 and C-R9: BP+SC over the TLP core under varied scoreboard sizes,
    clocks and register-file sizes (geomeans over ``benches``)."""
    from warpsim.arch import resolve_config

    dram_mhz = resolve_config("gtx480").clocks.dram_mhz
    sms = f"sm.n_sms={N_TLP}"
    memo: dict[tuple[str, tuple[str, ...]], dict[str, Any]] = {}
    inner = run

    def run(sel: BenchSel, overrides: list[str]) -> dict[str, Any]:  # each point once
        key = (sel.name, tuple(overrides))
        if key not in memo:
            memo[key] = inner(sel, overrides)
        return memo[key]

    def gm_speedup(extra: list[str], core: list[str]) -> float:
        ratios = []
        for sel in benches:
            t = run(sel, [sms, *CORES["tlp"], *extra])["cycles"]
            i = run(sel, [sms, *core, *extra])["cycles"]
            ratios.append(t / i - 1.0 if i else float("nan"))
        return gm_ratio(ratios)

    sb = {str(n): gm_speedup([], ["ilp.bypass=true", f"ilp.scoreboard_entries={n}"])
          for n in SCOREBOARD_SIZES}
    clocks = {f"core_{int(m)}": gm_speedup([f"clocks.core_mhz={m}", f"clocks.icnt_mhz={m}",
                                            f"clocks.l2_mhz={m}"], CORES["bp_sc"])
              for m in CORE_MHZ}
    clocks.update({f"dram_x{x}": gm_speedup([f"clocks.dram_mhz={dram_mhz * x}"],
                                            CORES["bp_sc"]) for x in DRAM_SCALES})
    regs: dict[str, Any] = {}
    cyc: dict[tuple[str, int], list[int]] = {}
    for n in REGISTER_FILES:
        rf = [f"sm.n_registers={n}", f"sm.n_max_regs_per_cta={n}"]
        for core in ("tlp", "bp_sc"):
            cyc[(core, n)] = [run(sel, [sms, *CORES[core], *rf])["cycles"] for sel in benches]
        regs[str(n)] = gm_ratio([t / i - 1.0 for t, i in zip(cyc[("tlp", n)],
                                                              cyc[("bp_sc", n)], strict=True)
                                 if i])
    ilp8_vs_tlp16 = gm_ratio([t / i - 1.0 for t, i in zip(cyc[("tlp", 16384)],
                                                           cyc[("bp_sc", 8192)], strict=True)
                              if i])
    return {"scoreboard": sb, "clocks": clocks, "register_file": regs,
            "ilp_8k_vs_tlp_16k": ilp8_vs_tlp16, "benchmarks": [b.name for b in benches]}


def _preset_registers() -> int:
    from warpsim.arch import resolve_config

    return int(resolve_config("gtx480").sm.n_registers)


def _tb0(r: dict[str, Any]) -> dict[str, Any]:
    """C-R7 from one run: thread block 0's branch share and the split of its branches into
    hidden by other warps and stalling the pipeline; whether it has the most instructions."""
    t = r.get("tb0") or {}
    n, br, st = (t.get(k, 0) for k in ("tb0_warp_insts", "tb0_branches", "tb0_branch_stalls"))
    return {**t, "branch_frac": br / n if n else None,
            "stall_frac": st / br if br else None,
            "no_hazard_frac": 1.0 - st / br if br else None,
            "dominant": bool(n and n == t.get("cta_max_warp_insts"))}


def gpu_h_kinds(routes: tuple[str, str]) -> tuple[int, int]:
    """GPU-H's SM kinds (0: ILP SMs, 1: TLP SMs) of a pair's kernels 1 and 2 from their routes
    (``gpus.route``): swapped only when kernel 1 routes to the TLP SMs and kernel 2 to the ILP
    SMs; when both route to the same kind the pair's order decides (kernel 1, the low-TLP one,
    on the ILP SMs), since one kind cannot hold both kernels."""
    return (1, 0) if routes == ("tlp", "ilp") else (0, 1)


def _mix(first: BenchSel, second: BenchSel, gpus: tuple[GPUMix, GPUMix, GPUMix], ref1: float,
         ref2: float, run_p: Any, *, reuse: dict[str, Any] | None = None,
         ref1_run: dict[str, Any] | None = None,
         routes: tuple[str, str] = ("ilp", "tlp")) -> dict[str, Any]:
    """One pair on GPU-T / GPU-I / GPU-H (homogeneous GPUs split in halves, GPU-H by kind, the
    kinds from ``routes``: ``gpu_h_kinds``): weighted speedups against ``ref1`` (kernel 1 alone
    on GPU-I) and ``ref2`` (kernel 2 alone on GPU-T), energies (sum of both kernels' runs) and
    GPU-H's ratios; ``reuse`` holds pair runs already made (by GPU name)."""
    gpu_t, gpu_i = gpus[0], gpus[1]
    half_t, half_i = gpu_t.n_tlp // 2, -(-gpu_i.n_ilp // 2)
    sets = {"GPU-T": (range(0, half_t), range(half_t, gpu_t.n_tlp)),
            "GPU-I": (range(0, half_i), range(half_i, gpu_i.n_ilp)),
            "GPU-H": gpu_h_kinds(routes)}
    res = dict(reuse or {})
    for g in gpus:
        if g.name not in res:
            _log.info("ilp: %s + %s on %s", first.name, second.name, g.name)
            res[g.name] = run_p(first, second, g, sets[g.name])
    ws = {g: weighted_speedup(r["ipc"][0], ref1, r["ipc"][1], ref2) for g, r in res.items()}
    e = {g: sum(r["energy_j"]) if r.get("energy_j") else None for g, r in res.items()}
    out: dict[str, Any] = {
        "pair": [first.name, second.name], "routes": list(routes),
        "gpu_h_kinds": list(sets["GPU-H"]), "weighted_speedup": ws, "energy_j": e,
        "verified": all(r["verified"] for r in res.values()),
        "gpu_h_vs_gpu_i": ws["GPU-H"] / ws["GPU-I"] - 1.0,
        "gpu_h_vs_gpu_t": ws["GPU-H"] / ws["GPU-T"] - 1.0, "runs": res}
    for g in ("GPU-I", "GPU-T"):
        ok = e["GPU-H"] is not None and e[g]
        out[f"energy_gpu_h_vs_gpu_{g[-1].lower()}"] = e["GPU-H"] / e[g] - 1.0 if ok else None
    if ref1_run is not None:
        out["ref1_ipc"] = ref1
        out["verified"] = out["verified"] and bool(ref1_run["verified"])
    return out


def _mean_over(mixes: list[dict[str, Any]], key: str) -> dict[str, float]:
    """GM over the pairs of GPU-H's ratios ``<key>_gpu_i`` and ``<key>_gpu_t``."""
    return {f"vs_gpu_{g}": gm_ratio([m.get(f"{key}_gpu_{g}") for m in mixes])
            for g in ("i", "t")}


def _mean(v: list[Any]) -> float:
    x = [a for a in v if a is not None]
    return sum(x) / len(x) if x else float("nan")


def _targets(s: dict[str, Any]) -> dict[str, Any]:
    """Spec §3.7's table: the paper's value next to ours."""
    p = PAPER
    per = s["per_benchmark"]
    sw = s.get("sweeps", {})
    nqu = next((r for r in per.values() if r.get("paper_benchmark") == "NQU"), {})
    t40 = iso_area(40)
    return {
        "C-R1": {"paper": [p["speedup_bypass"], p["speedup_scoreboard"],
                           p["speedup_bypass_scoreboard"]],
                 "ours": [s["speedup_bypass"], s["speedup_scoreboard"],
                          s["speedup_bypass_scoreboard"]]},
        "C-R2": {"paper": p["speedup_range_moderate_tlp"], "ours": s["speedup_moderate_tlp"]},
        "C-R3": {"paper": "12.0-14.6 % across 325-1300 MHz and 100-400 GB/s",
                 "ours": sw.get("clocks", "not run")},
        "C-R4": {"paper": "8 entries most cost-effective (Fig. 43)",
                 "ours": sw.get("scoreboard", "not run")},
        "C-R5": {"paper": [p["nqu_branch_static"], p["nqu_branch_gshare"],
                           p["speedup_branch_static"], p["speedup_branch_gshare"]],
                 "ours": [nqu.get("speedup_branch_static"), nqu.get("speedup_branch_gshare"),
                          s["speedup_branch_static"], s["speedup_branch_gshare"]]},
        "C-R6": {"paper": [p["branch_prediction_accuracy_static"],
                           p["branch_prediction_accuracy_gshare"]],
                 "ours": [s["branch_prediction_accuracy_static"],
                          s["branch_prediction_accuracy_gshare"]]},
        "C-R7": {"paper": p["nqu_tb0"],
                 "ours": {k: nqu["tb0_tlp"].get(k) for k in (
                     "branch_frac", "no_hazard_frac", "stall_frac", "dominant")}
                 if nqu.get("tb0_tlp") else "not run"},
        "C-R8": {"paper": "SCP 4k regs 44.8 -> 65.6 %; 12k 95.8 -> 96.3 %; Fig. 44: BP+SC "
                          "gains most with the smallest register file",
                 "ours": sw.get("register_file", "not run")},
        "C-R9": {"paper": "8k + ILP vs 16k TLP: +11.9 %",
                 "ours": sw.get("ilp_8k_vs_tlp_16k", "not run")},
        "C-R10": {"paper": [p["area_ilp_sm_mm2"], p["area_overhead"], p["iso_area_sms"]],
                  "ours": [t40[1].area_mm2 / t40[1].n_ilp, None,
                           [t40[0].n_tlp, t40[1].n_ilp, [t40[2].n_tlp, t40[2].n_ilp]]]},
        "C-R11": {"paper": [p["gpu_h_speedup_single_kernel"], p["gpu_h_vs_gpu_i_single_kernel"]],
                  "ours": [s["gpu_h_speedup_single_kernel"], s["gpu_h_vs_gpu_i_single_kernel"]]},
        "C-R12": {"paper": [p["gpu_h_speedup_concurrent"], p["gpu_h_energy_concurrent"]],
                  "ours": [s["gpu_h_speedup_concurrent"], s["gpu_h_energy_concurrent"]]},
        "C-R13": {"paper": [p["gpu_h_speedup_concurrent_iso_sm"],
                            p["gpu_h_energy_concurrent_iso_sm"]],
                  "ours": [s["gpu_h_speedup_concurrent_iso_sm"],
                           s["gpu_h_energy_concurrent_iso_sm"]]},
    }


def reproduce_ilp(*, quick: bool, out: Path, jobs: int | None = None,
                  dask: str | None = None) -> dict[str, Any]:
    """``warpsim reproduce ilp``: the quick (3 benchmarks, no perfect predictor) or full
    selection (with the sweeps of C-R3, C-R4, C-R8 and C-R9 on the quick benchmarks);
    ``jobs`` and ``dask`` are accepted for the CLI and unused (in-process runs)."""
    del jobs, dask
    if quick:
        return run_experiment(BENCH_QUICK, out, cores=tuple(c for c in CORES if c !=
                                                             "bp_sc_perfect"))
    return run_experiment(BENCH_FULL, out, pairs=PAIRS_FULL, sweeps=BENCH_QUICK)


register_reproduction(
    "ilp", reproduce_ilp,
    "ILP core (Xiang, dissertation ch. 4): bypassing, 8-entry scoreboard, branch prediction "
    "over the TLP core; iso-area GPU-T / GPU-I / GPU-H, single kernels and a concurrent pair")
