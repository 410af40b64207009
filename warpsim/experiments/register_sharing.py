"""Reproduction of "The More We Share, The More We Have" (Jatala, Anantpur, Karkare): Register
Sharing on a Tesla C2050-like GPU (``warpsim reproduce register-sharing [--quick] [--json]``).

Runs, through the runner (resumable result folder), the paper's configurations (spec §7.7:
Unshared-LRR / GTO / two-level / 64K registers, Shared-LRR-NoOpt, -Unrolled, -Unrolled-Dyn,
Shared-OWF-Unroll-Dyn, Shared-GTO-Unroll-Dyn) and the threshold sweep (Tables 4/5) on our
Set-1-like (register-limited) benchmarks, and Fig. 15's configurations on Set-2-like ones;
then computes the paper's metrics (``rs_analysis``), draws Figs. 8-15 and Tables 4-5
(``rs_figures``), adds the exact occupancy tables (Table 5 for the paper's kernels, our
benchmarks' blocks per SM), and writes ``summary.json`` and the runner's HTML report.

Follows: specs/register-sharing.md §7-§9; docs/reproductions/register-sharing.md gives the
numbers next to the paper's.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from warpsim.experiments.rs_configs import (
    C2050_OVERRIDES,
    FULL,
    QUICK,
    SET1_CONFIGS,
    SET2_CONFIGS,
    THRESHOLDS,
    BenchSel,
    experiment_jobs,
)
from warpsim.runner.jobs import Job
from warpsim.runner.reproduce import register_reproduction
from warpsim.runner.sweep import SweepSpec

__all__ = ["PAPER_SET1", "occupancy_tables", "reproduce_register_sharing", "run_experiment"]

_log = logging.getLogger(__name__)

PAPER_SET1 = {"backprop": (256, 24), "b+tree": (508, 24), "hotspot": (256, 36),
              "LIB": (192, 36), "MUM": (256, 28), "mri-q": (256, 24), "sgemm": (128, 48),
              "stencil": (512, 28)}
"""The paper's Table 2 kernels: threads per block, registers per thread."""


@dataclass(frozen=True, slots=True)
class _JobListSpec(SweepSpec):
    """A sweep whose jobs are an explicit list (the configurations are not a cartesian
    product of configs x mechanisms)."""

    job_list: tuple[Job, ...] = ()

    def jobs(self) -> list[Job]:
        return list(self.job_list)


def occupancy_tables(sel: BenchSel | None = None) -> dict[str, Any]:
    """Exact occupancy (no timing): Table 5 of the paper's kernels on C2050 and, for ``sel``'s
    benchmarks, each kernel's baseline and shared blocks per SM at t = 0.1."""
    from warpsim.arch import resolve_config
    from warpsim.mechanisms.register_sharing.occupancy import sharing_occupancy

    cfg = resolve_config("c2050", overrides=C2050_OVERRIDES)
    table5 = {}
    for app, (threads, regs) in PAPER_SET1.items():
        row = {}
        for t in THRESHOLDS:
            o = sharing_occupancy(cfg, threads, regs, 0, t)
            row[f"{t:g}"] = [o.blocks, o.shared_pairs, o.unshared_blocks]
        table5[app] = row
    ours: dict[str, Any] = {}
    if sel is not None:
        try:
            from warpsim.bench import list_benchmarks

            rows = {r["name"]: r for r in list_benchmarks()}
        except Exception as exc:  # no ptxas: the engine's own counts are in the records
            _log.info("no register counts for the occupancy table: %s", exc)
            rows = {}
        for bench in (*sel.set1, *sel.set2):
            row = rows.get(bench)
            if row is None:
                continue
            for kernel, regs in row["registers"].items():
                threads = row["threads_per_block"].get(kernel)
                if threads is None:
                    continue
                smem = row["shared_bytes"].get(kernel, 0)
                try:
                    o = sharing_occupancy(cfg, threads, regs, smem, 0.1)
                except Exception:  # a kernel that does not fit at all
                    continue
                ours[f"{bench}/{kernel}"] = {
                    "threads": threads, "regs": regs, "smem": smem,
                    "baseline_blocks": o.baseline_blocks, "baseline_limit": o.baseline_limit,
                    "blocks": o.blocks, "shared_pairs": o.shared_pairs,
                    "unshared_blocks": o.unshared_blocks, "limit": o.limit}
    return {"paper_table5": table5, "benchmarks": ours}


def _residency(records: list[dict], sel: BenchSel) -> dict[str, dict[str, Any]]:
    """Resident warps per SM of each benchmark's evaluated kernel (``warpsim.runner.residency``)
    in Unshared-LRR, with Shared-OWF-Unroll-Dyn's as ``resident_warps_shared``."""
    from warpsim.experiments.rs_analysis import LRR, MAIN, index_records, kernel_counts
    from warpsim.runner.residency import residency

    idx = index_records(records)
    out: dict[str, dict[str, Any]] = {}
    for bench, (size, kernel) in (*sel.set1.items(), *sel.set2.items()):
        rows = {}
        for label in (LRR, MAIN):
            rec = idx.get((bench, size, label))
            if rec is None:
                continue
            # the kernel's cycles and SM activity (records before the per-kernel SM counts:
            # the benchmark's, never a mix)
            per_kernel = kernel_counts(rec, kernel)
            rows[label] = residency({**rec, **per_kernel} if "sm_active_cycles" in
                                    per_kernel else rec)
        if LRR in rows:
            out[bench] = {**rows[LRR], "resident_warps_shared":
                          rows.get(MAIN, {}).get("resident_warps")}
    return out


def run_experiment(sel: BenchSel, out: str | Path, *, jobs: int | None = None,
                   dask: str | None = None, executor: Any = None, simulate: Any = None,
                   set1_labels: tuple[str, ...] = SET1_CONFIGS,
                   set2_labels: tuple[str, ...] = SET2_CONFIGS,
                   name: str = "register-sharing", figures: bool = True,
                   report: bool = True, gpu: dict[str, Any] | None = None) -> dict[str, Any]:
    """Run (or resume) the jobs of ``sel`` into ``out``, analyse, and write figures, tables,
    ``summary.json`` and (``report``) the runner's HTML report. ``simulate`` (job function),
    ``executor`` and the configuration labels may be replaced (tests); ``gpu`` replaces the
    c2050 overrides (``rs_configs.C2050_OVERRIDES``; the quick run's scaled-down GPU)."""
    from warpsim.experiments.rs_analysis import analyse
    from warpsim.experiments.rs_figures import write_figures
    from warpsim.experiments.rs_jobs import simulate_rs
    from warpsim.runner.store import load_results
    from warpsim.runner.sweep import run_sweep

    out = Path(out)
    job_list = tuple(experiment_jobs(sel, set1_labels, set2_labels, gpu))
    spec = _JobListSpec(
        name=name, benchmarks=tuple(dict.fromkeys(j.benchmark for j in job_list)),
        sizes=tuple(dict.fromkeys(j.size for j in job_list)), seeds=(0,), configs=(),
        mechanisms=(), description="Register Sharing (Jatala et al.) on a C2050-like GPU",
        source={"set1": {b: list(v) for b, v in sel.set1.items()},
                "set2": {b: list(v) for b, v in sel.set2.items()},
                "set1_configs": list(set1_labels), "set2_configs": list(set2_labels)},
        job_list=job_list)
    sweep = run_sweep(spec, out, jobs=jobs, dask=dask, executor=executor, resume=True,
                      simulate=simulate or simulate_rs, progress=False)
    records = load_results(out).to_dict("records")
    summary = analyse(records, sel, set1_labels, set2_labels)
    summary["residency"] = _residency(records, sel)
    for bench, row in summary["residency"].items():
        summary["per_benchmark"][bench].update(row)
    summary["gpu"] = {"preset": "c2050", "overrides": C2050_OVERRIDES if gpu is None else gpu}
    summary["occupancy"] = occupancy_tables(sel)
    summary["jobs"] = {"total": sweep.total, "skipped": sweep.skipped, "ok": sweep.ok,
                       "failed": sweep.failed,
                       "failures": [list(f) for f in sweep.failures][:20]}
    summary["figures"] = ([str(p) for p in write_figures(summary, out / "figures")]
                          if figures else [])
    summary["out"] = str(out)
    summary["report"] = None
    if report:
        try:
            from warpsim.report import make_report

            summary["report"] = str(make_report(out, baseline="Unshared-LRR"))
        except Exception as exc:  # a convenience; the summary is the result
            summary["report_error"] = f"{type(exc).__name__}: {exc}"
    (out / "summary.json").write_text(json.dumps(summary, indent=2, default=str))
    return summary


def reproduce_register_sharing(*, quick: bool, out: Path, jobs: int | None = None,
                               dask: str | None = None) -> dict[str, Any]:
    """``warpsim reproduce register-sharing``: the quick (3 + 2 benchmarks on the c2050
    scaled down to 7 SMs and 3 channels, ``quick_runs``) or full selection; returns the
    summary (printed as JSON by the CLI)."""
    if not quick:
        return run_experiment(FULL, out, jobs=jobs, dask=dask)
    from warpsim.experiments.quick_runs import quick_gpu_overrides

    return run_experiment(QUICK, out, jobs=jobs, dask=dask,
                          gpu=quick_gpu_overrides("c2050", C2050_OVERRIDES))


register_reproduction(
    "register-sharing", reproduce_register_sharing,
    "Register Sharing (Jatala et al.): Figs. 8-15, Tables 4-5 on a C2050-like GPU")
