"""``warpsim reproduce warped-compression``: the evaluation of Warped-Compression (Lee et al.,
ISCA 2015) on warpsim's benchmark suite.

Follows: specs/warped-compression.md §6-§9 and §11, issue #8 ("Reproduction"). Runs, resumably
(``warpsim.runner`` sweeps into ``OUT/runs-gto`` and ``OUT/runs-lrr``), on the paper's GPU
(GTX480 preset = Table 2, GTO; :data:`PAPER_OVERRIDES`):

- the baseline and the default WC (<4,0>/<4,1>/<4,2>, C=2, D=1, gating) -> Figs. 2-13;
- the single-choice schemes <4,0>, <4,1>, <4,2> and full BDI -> Figs. 5, 15, 16;
- compression latency C in {4, 8} and decompression latency D in {2, 4, 8} -> Figs. 20, 21;
- baseline and WC under LRR -> Fig. 14;
- offline energy sweeps of the same counters (comp/decomp energy x, access energy x, wire
  activity) -> Figs. 17-19 (:mod:`warpsim.experiments.wc_energy`).

It writes ``OUT/summary.json`` (what ``--json`` prints), ``OUT/metrics.json`` (every metric per
benchmark) and ``OUT/figures/*.png``. Averages are arithmetic means over benchmarks (spec A3).
Quick: the six benchmarks the paper names on the gtx480 scaled down to 5 SMs and 2 channels,
with inputs that fill it (``quick_runs``); full: the spec §6.6 list, ``small``. Every
benchmark's resident warps per SM (baseline run) are in ``per_benchmark`` and ``residency``.
"""

from __future__ import annotations

import json
import logging
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from warpsim.experiments.wc_energy import (
    RFEnergyParams,
    baseline_rf_energy,
    energy_savings,
    run_cycles,
    wc_rf_energy,
)
from warpsim.experiments.wc_figures import draw_figures
from warpsim.experiments.wc_metrics import benchmark_metrics, compression_ratio, mean_metrics
from warpsim.runner.reproduce import register_reproduction
from warpsim.runner.residency import residency

__all__ = [
    "FULL_BENCHMARKS",
    "HEADLINE_KEYS",
    "PAPER",
    "PAPER_OVERRIDES",
    "QUICK_BENCHMARKS",
    "VARIANTS",
    "reproduce_warped_compression",
    "run_reproduction",
    "summarize",
]

_log = logging.getLogger(__name__)

KEY = "warped_compression"
PAPER_GPU = "gtx480"
PAPER_OVERRIDES: tuple[tuple[str, Any], ...] = (("regfile.n_banks", 4),
                                                ("sm.sched_policy", "gto"))
"""Table 2 over the GTX480 preset (15 SMs, 2 schedulers, 48 warps, 1536 threads, 32768
registers are the preset's values). The 32 x 128-bit banks form 4 clusters of 8 that a warp
register occupies together: for the engine's arbiter that is 4 logical banks (spec §2.4,
docs/mechanisms/warped-compression.md). The WC runs map operands to the clusters themselves
(the mechanism's operand storage); ``regfile.n_banks=4`` gives the baseline runs the same
uncompressed geometry."""
QUICK_BENCHMARKS = ("pathfinder", "monte_carlo", "aes", "bfs", "dwt2d", "spmv")
"""The six workloads the paper names (LIB = ``monte_carlo``, dw2d = ``dwt2d``), spec §6.6."""
FULL_BENCHMARKS = (
    *QUICK_BENCHMARKS, "cp", "laplace3d", "mummer", "neural_net", "nqueens", "ray", "md5",
    "backprop", "hotspot", "gaussian", "lud", "nw", "srad", "kmeans", "streamcluster",
    "b_plus_tree", "heartwall", "sgemm", "stencil", "lbm", "mri_q", "cutcp", "histo", "sad")
"""Spec §6.6: the named six, ISPASS'09 (LPS = laplace3d, STO = md5), Rodinia and Parboil."""

_SCHEMES = ("4_0", "4_1", "4_2", "full_bdi")
_CLAT = (4, 8)
_DLAT = (2, 4, 8)
VARIANTS: dict[str, tuple[str, tuple[tuple[str, Any], ...] | None]] = {
    "base": ("gto", None),
    "wc": ("gto", ()),
    **{f"wc_{s}": ("gto", (("scheme", s),)) for s in _SCHEMES},
    **{f"clat{c}": ("gto", (("comp_latency_cycles", c),)) for c in _CLAT},
    **{f"dlat{d}": ("gto", (("decomp_latency_cycles", d),)) for d in _DLAT},
    "lrr_base": ("lrr", None),
    "lrr_wc": ("lrr", ()),
}
"""Variant -> (scheduler, WC parameters; None = the baseline engine)."""

ENERGY_SWEEPS: dict[str, tuple[float, ...]] = {
    "comp_scale": (1.0, 1.5, 2.0, 2.5),
    "access_scale": (1.0, 1.5, 2.0, 2.5),
    "wire_activity_frac": (0.0, 0.25, 0.5, 0.75, 1.0),
}
"""Figs. 17-19 (spec §7: CDx, ACCx, WIRE-alpha)."""

HEADLINE_KEYS = (
    "rf_energy_saving", "rf_dynamic_energy_saving", "rf_leakage_energy_saving",
    "compression_ratio_nondivergent", "compression_ratio_divergent",
    "nondivergent_instruction_fraction", "dummy_mov_fraction", "execution_time_increase")
_EXTRA_KEYS = (
    "rf_bank_wire_energy_saving", "rf_energy_saving_resident",
    "rf_leakage_energy_saving_resident", "compression_ratio_nondivergent_byte",
    "compression_ratio_divergent_byte", "compressed_reg_fraction_nondivergent",
    "compressed_reg_fraction_divergent", "gated_bank_cycle_fraction",
    "gated_bank_cycle_fraction_resident", "base_leakage_norm", "banks_per_access",
    "base_access_agreement", "sim_nondiv_random_fraction", "sim_div_random_fraction",
    "bdi_full_8_0_fraction", "bdi_full_8_1_fraction", "bdi_full_8_2_fraction",
    "bdi_full_8_4_fraction")

PAPER: dict[str, Any] = {
    "rf_energy_saving": 0.25, "rf_dynamic_energy_saving": 0.35,
    "rf_leakage_energy_saving": 0.10, "compression_ratio_nondivergent": 2.5,
    "compression_ratio_divergent": 1.3, "nondivergent_instruction_fraction": 0.79,
    "dummy_mov_fraction": "< 0.02", "execution_time_increase": 0.001,
    "sim_nondiv_not_random_fraction": 0.79, "sim_div_random_fraction": 0.57,
    "lrr_rf_energy_saving": 0.26, "gto_rf_energy_saving": 0.25,
    "cr_4_0_over_wc": 0.7, "comp_scale_2.5_saving": 0.14, "access_scale_2.5_saving": 0.35,
    "wire_activity_1.0_saving": 0.31, "latency_8_execution_time_increase": 0.14,
}
"""The paper's numbers (spec §9.1)."""


def _mechs(params: tuple[tuple[str, Any], ...] | None) -> tuple:
    return () if params is None else ((KEY, params),)


def _sched_overrides(sched: str, base: Mapping[str, Any]) -> tuple[tuple[str, Any], ...]:
    return tuple((k, sched if k == "sm.sched_policy" else v) for k, v in base.items())


def _jobs_for(benchmarks: Sequence[str], sizes: Mapping[str, str], variants: Sequence[str],
              base: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """job_id -> (benchmark, variant, job); ``sizes`` maps each benchmark to its size, ``base``
    are the GPU overrides (default :data:`PAPER_OVERRIDES`)."""
    from warpsim.runner.jobs import Job

    base = dict(PAPER_OVERRIDES) if base is None else dict(base)
    out = {}
    for bench in benchmarks:
        for name in variants:
            sched, params = VARIANTS[name]
            job = Job(benchmark=bench, size=sizes[bench], gpu=PAPER_GPU,
                      overrides=_sched_overrides(sched, base), mechanisms=_mechs(params),
                      seed=0, label=sched)
            out[job.job_id] = (bench, name, job)
    return out


def _run(table: Mapping[str, Any], out: Path, *, jobs: int | None, dask: str | None,
         simulate: Any, executor: Any) -> None:
    """Run every job of ``table`` (:func:`_jobs_for`) resumably, one sweep per scheduler."""
    from warpsim.runner.executors import make_executor

    own = executor is None  # one pool for both sweeps: each worker compiles once
    if own:
        executor = make_executor(jobs, dask)
    try:
        _sweeps(table, out, jobs=jobs, dask=dask, simulate=simulate, executor=executor)
    finally:
        if own:
            executor.shutdown(cancel=True)


def _sweeps(table: Mapping[str, Any], out: Path, *, jobs: int | None, dask: str | None,
            simulate: Any, executor: Any) -> None:
    from warpsim.experiments.quick_runs import JobListSpec
    from warpsim.runner.sweep import run_sweep

    for sched in ("gto", "lrr"):
        rows = [(b, n, j) for b, n, j in table.values() if VARIANTS[n][0] == sched]
        if not rows:
            continue
        job_list = tuple(j for _, _, j in rows)
        spec = JobListSpec(
            name=f"warped-compression-{sched}",
            benchmarks=tuple(dict.fromkeys(j.benchmark for j in job_list)),
            sizes=tuple(dict.fromkeys(j.size for j in job_list)), seeds=(0,), configs=(),
            mechanisms=(), description="Warped-Compression (ISCA'15) reproduction",
            source={"benchmarks": list(dict.fromkeys(b for b, _, _ in rows)),
                    "sizes": {j.benchmark: j.size for j in job_list},
                    "overrides": [list(p) for p in job_list[0].overrides],
                    "variants": list(dict.fromkeys(n for _, n, _ in rows))},
            job_list=job_list)
        run_sweep(spec, out / f"runs-{sched}", jobs=jobs, dask=dask, resume=True,
                  retry_failed=True, simulate=simulate, executor=executor)


def _records(out: Path, table: Mapping[str, Any]) -> tuple[dict, list[dict]]:
    """(benchmark -> variant -> record) of the ok jobs, and the failures."""
    from warpsim.runner.store import load_results

    runs: dict[str, dict[str, dict]] = {}
    failed = []
    for folder in sorted(out.glob("runs-*")):
        if not any(folder.glob("*.parquet")):
            continue
        for rec in load_results(folder).to_dict("records"):
            entry = table.get(rec.get("job_id"))
            if entry is None:
                continue
            bench, name, _ = entry
            if rec.get("status") == "ok":
                runs.setdefault(bench, {})[name] = rec
            else:
                failed.append({"benchmark": bench, "variant": name,
                               "error": str(rec.get("error_message") or "")[:300]})
    # a job that failed and then succeeded on a rerun (resume retries failures) is not failed
    failed = [f for f in failed if f["variant"] not in runs.get(f["benchmark"], {})]
    return runs, failed


def _n_sms(rec: Mapping[str, Any], job: Any) -> int:
    try:
        return int(json.loads(rec["config"])["sm"]["n_sms"])
    except (TypeError, KeyError, ValueError):
        from warpsim.arch import resolve_config

        return int(resolve_config(job.gpu, overrides=dict(job.overrides)).sm.n_sms)


def _params(rec: Mapping[str, Any]) -> RFEnergyParams:
    try:
        return RFEnergyParams.from_config(json.loads(rec["config"]).get(KEY) or {})
    except (TypeError, KeyError, ValueError):
        return RFEnergyParams()


def summarize(runs: Mapping[str, Mapping[str, Mapping[str, Any]]], *,
              n_sms: Mapping[str, int] | int = 15) -> dict[str, Any]:
    """Metrics of every benchmark and the sensitivity tables, from benchmark -> variant ->
    flat statistics (variants as in :data:`VARIANTS`; missing ones are skipped)."""
    def sms(bench: str) -> int:
        return n_sms if isinstance(n_sms, int) else int(n_sms.get(bench, 15))

    rows: dict[str, dict[str, Any]] = {}
    sched: dict[str, dict[str, float]] = {}
    cr: dict[str, dict[str, Any]] = {}
    energy: dict[str, dict[str, Any]] = {}
    sweeps: dict[str, dict[str, list[float]]] = {k: {str(v): [] for v in vals}
                                                 for k, vals in ENERGY_SWEEPS.items()}
    lat: dict[str, dict[str, list[float]]] = {"comp": {}, "decomp": {}}
    for bench, var in runs.items():
        base, wc = var.get("base"), var.get("wc")
        if base is None or wc is None:
            continue
        params = _params(wc) if "config" in wc else RFEnergyParams()
        n = sms(bench)
        rows[bench] = benchmark_metrics(base, wc, params, n)
        sched[bench] = {"gto": rows[bench]["rf_energy_saving"]}
        if "lrr_base" in var and "lrr_wc" in var:
            e = energy_savings(baseline_rf_energy(var["lrr_base"], params, n),
                               wc_rf_energy(var["lrr_wc"], params, n))
            sched[bench]["lrr"] = e["total"]
        e_base = baseline_rf_energy(base, params, n)
        cr[bench] = {"wc": rows[bench]["compression_ratio_nondivergent"],
                     "wc_all_writes": rows[bench]["compression_ratio_all_whatif"],
                     "full_bdi_all_writes": rows[bench]["compression_ratio_full_bdi"]}
        energy[bench] = {"wc": wc_rf_energy(wc, params, n).total_pj / e_base.total_pj}
        for s in _SCHEMES:
            run = var.get(f"wc_{s}")
            if run is None:
                continue
            if s != "full_bdi":
                cr[bench][s] = compression_ratio([float(run.get(f"wc_enc_nondiv_{i}") or 0)
                                                  for i in range(4)])
            energy[bench][s] = wc_rf_energy(run, params, n).total_pj / e_base.total_pj
        for key, vals in ENERGY_SWEEPS.items():
            for v in vals:
                p = params.replace(**{key: v})
                sweeps[key][str(v)].append(energy_savings(
                    baseline_rf_energy(base, p, n), wc_rf_energy(wc, p, n))["total"])
        lat["comp"].setdefault("2", []).append(run_cycles(wc) / run_cycles(base))
        lat["decomp"].setdefault("1", []).append(run_cycles(wc) / run_cycles(base))
        for c in _CLAT:
            if f"clat{c}" in var:
                lat["comp"].setdefault(str(c), []).append(run_cycles(var[f"clat{c}"])
                                                          / run_cycles(base))
        for d in _DLAT:
            if f"dlat{d}" in var:
                lat["decomp"].setdefault(str(d), []).append(run_cycles(var[f"dlat{d}"])
                                                            / run_cycles(base))

    def mean(xs: Sequence[float]) -> float | None:
        xs = [x for x in xs if x is not None and not math.isnan(x)]
        return sum(xs) / len(xs) if xs else None

    sens = {
        "scheduler": sched,
        "schemes": {"cr": cr, "energy": energy},
        "energy_sweeps": {k: {v: mean(xs) for v, xs in d.items()} for k, d in sweeps.items()},
        "latency": {k: {x: mean(v) for x, v in sorted(d.items(), key=lambda t: int(t[0]))}
                    for k, d in lat.items()},
    }
    return {"rows": rows, "sensitivity": sens}


def _clean(value: Any) -> Any:
    """JSON-safe: NaN/inf -> None, numpy scalars -> Python numbers."""
    if isinstance(value, Mapping):
        return {str(k): _clean(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_clean(v) for v in value]
    if hasattr(value, "item") and not isinstance(value, str):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def _headline(rows: Mapping[str, Mapping[str, Any]], sens: Mapping[str, Any]) -> dict[str, Any]:
    avg = mean_metrics(rows.values(), HEADLINE_KEYS + _EXTRA_KEYS)
    sched = mean_metrics(sens["scheduler"].values(), ("gto", "lrr"))
    schemes = mean_metrics(sens["schemes"]["cr"].values())
    energy = mean_metrics(sens["schemes"]["energy"].values())
    out = dict(avg)
    nr = avg.get("sim_nondiv_random_fraction")
    out["sim_nondiv_not_random_fraction"] = None if nr is None else 1.0 - nr
    out["max_dummy_mov_fraction"] = max((r["dummy_mov_fraction"] for r in rows.values()
                                         if r.get("dummy_mov_fraction") is not None),
                                        default=None)
    out["gto_rf_energy_saving"] = sched.get("gto")
    out["lrr_rf_energy_saving"] = sched.get("lrr")
    out["cr_by_scheme"] = schemes
    out["energy_by_scheme"] = energy
    if schemes.get("4_0") and schemes.get("wc"):
        out["cr_4_0_over_wc"] = schemes["4_0"] / schemes["wc"]
    sw = sens["energy_sweeps"]
    out["comp_scale_2.5_saving"] = sw["comp_scale"].get("2.5")
    out["access_scale_2.5_saving"] = sw["access_scale"].get("2.5")
    out["wire_activity_1.0_saving"] = sw["wire_activity_frac"].get("1.0")
    worst = [v for d in sens["latency"].values() for k, v in d.items()
             if k == "8" and v is not None]
    out["latency_8_execution_time_increase"] = max(worst) - 1.0 if worst else None
    return out


def run_reproduction(*, quick: bool, out: str | Path, jobs: int | None = None,
                     dask: str | None = None, benchmarks: Sequence[str] | None = None,
                     size: str | None = None, variants: Sequence[str] | None = None,
                     simulate: Any = None, executor: Any = None) -> dict[str, Any]:
    """Run (or resume) the reproduction into ``out`` and return its summary.

    ``benchmarks``, ``size``, ``variants`` (keys of :data:`VARIANTS`), ``simulate`` (a job
    function) and ``executor`` override the defaults (tests, partial runs).
    """
    from warpsim.experiments.quick_runs import WC_QUICK_SIZES, quick_gpu_overrides

    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    benches = tuple(benchmarks or (QUICK_BENCHMARKS if quick else FULL_BENCHMARKS))
    sizes = {b: size or (WC_QUICK_SIZES.get(b, "small") if quick else "small") for b in benches}
    base = dict(PAPER_OVERRIDES)
    if quick:  # the scaled-down GPU (quick_runs): 5 SMs and 2 channels of the gtx480
        base = quick_gpu_overrides(PAPER_GPU, base)
    names = tuple(variants or VARIANTS)
    table = _jobs_for(benches, sizes, names, base)
    _run(table, folder, jobs=jobs, dask=dask, simulate=simulate, executor=executor)
    runs, failed = _records(folder, table)
    n_sms = {b: _n_sms(v["base"], table[v["base"]["job_id"]][2])
             for b, v in runs.items() if "base" in v}
    result = summarize(runs, n_sms=n_sms)
    rows, sens = result["rows"], result["sensitivity"]
    figures = draw_figures(folder / "figures", rows, sens)
    per_bench_keys = HEADLINE_KEYS + _EXTRA_KEYS
    resident = {b: residency(runs[b]["base"]) for b in rows}
    summary = {
        "reproduction": "warped-compression", "quick": quick,
        "size": size or ("quick" if quick else "small"), "sizes": sizes,
        "gpu": {"preset": PAPER_GPU, "overrides": base},
        "benchmarks": list(benches), "benchmarks_measured": sorted(rows),
        "failed": failed,
        **_headline(rows, sens),
        "per_benchmark": {b: {**{k: r.get(k) for k in per_bench_keys}, **resident[b]}
                          for b, r in rows.items()},
        "residency": resident,
        "sensitivity": {k: v for k, v in sens.items() if k in ("energy_sweeps", "latency")},
        "paper": PAPER,
        "figures": [str(p) for p in figures],
        "out": str(folder),
    }
    summary = _clean(summary)
    (folder / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    (folder / "metrics.json").write_text(json.dumps(_clean(result), indent=1) + "\n")
    if failed:
        _log.warning("warped-compression: %d jobs failed (see %s/summary.json)", len(failed),
                     folder)
    return summary


def reproduce_warped_compression(*, quick: bool, out: str | Path, jobs: int | None = None,
                                 dask: str | None = None) -> dict[str, Any]:
    """The registered reproduction (``warpsim reproduce warped-compression``)."""
    return run_reproduction(quick=quick, out=out, jobs=jobs, dask=dask)


register_reproduction(
    "warped-compression", reproduce_warped_compression,
    "Warped-Compression (ISCA'15): RF energy, CR, divergence, MOVs, gating (Figs. 2-21)")
