"""``warpsim validate-sampling``: the benchmark suite timed in full and sampled, side by side.

Follows: issue 17 (the validation of sampled simulation: per-benchmark cycle error and speed-up,
their mean and maximum; targets mean <= 3 %, max <= 10 %, speed-up >= 5x at paper sizes).
Speed-up is the wall time of the whole run (functional pass, trace handling, timing), numba and
CUDA compilation excluded, full over sampled; a warm-up run at ``tiny`` comes first, and each
benchmark runs sampled before full (one-time costs left count against sampling).
"""

from __future__ import annotations

import math
import time
from dataclasses import asdict, dataclass
from typing import Any

from warpsim.sampling.options import SampleOptions

__all__ = ["ValidationRow", "format_markdown", "format_table", "summarize", "validate"]


@dataclass(slots=True)
class ValidationRow:
    """One benchmark, full and sampled."""

    benchmark: str
    launches: int
    cycles_full: int
    cycles_sampled: int
    error: float
    """(sampled - full) / full."""
    error_est: float
    """The sampled run's own estimate of its relative cycle error."""
    projected_fraction: float
    reused: int
    projected: int
    wall_full_s: float
    wall_sampled_s: float
    speedup: float
    verified: bool
    replay_ratio: float = 1.0
    """Warp instructions of the run over those the timing engine replayed sampled: the
    engine-work speed-up, independent of the machine's load."""


def _run(name: str, size: str, gpu: Any, sample: Any) -> tuple[dict[str, Any], float, Any]:
    """One timed run: (device stats, wall seconds without compilation, benchmark result)."""
    import warpsim
    from warpsim.bench import run_benchmark

    compile_s: list[float] = []
    dev = warpsim.Device(config=gpu, sample=sample)
    dev.add_launch_observer(lambda k, c, r: compile_s.append(r.timing.numba_compile_s))
    t0 = time.perf_counter()
    try:
        result = run_benchmark(name, size=size, device=dev)
        wall = time.perf_counter() - t0 - sum(compile_s) - float(result.compile_seconds)
        stats = dict(dev.stats)
    finally:
        dev.close()
    return stats, max(wall, 1e-9), result


def validate(benchmarks: list[str], *, size: str = "small", config: str = "gtx480",
             overrides: tuple[str, ...] = (), options: SampleOptions | None = None,
             progress: Any = None) -> list[ValidationRow]:
    """Run each benchmark full and sampled (``options``, default ``SampleOptions()``) on
    ``config`` with ``overrides`` (e.g. ``warped_compression.enabled=true``)."""
    from warpsim.arch import resolve_config
    from warpsim.bench import get_benchmark

    for name in benchmarks:
        get_benchmark(name)
    gpu = resolve_config(config, overrides=list(overrides))
    options = options or SampleOptions()
    if benchmarks:  # the process's first run pays one-time costs (jitted helpers): not timed
        _run(benchmarks[0], "tiny", gpu, options)
        _run(benchmarks[0], "tiny", gpu, False)
    rows = []
    for name in benchmarks:  # sampled first: what is left of first-run costs counts against it
        samp, ws, rs = _run(name, size, gpu, options)
        full, wf, rf = _run(name, size, gpu, False)
        cf, cs = int(full["gpu_sim_cycle"]), int(samp["gpu_sim_cycle"])
        row = ValidationRow(
            benchmark=name, launches=int(rf.n_launches), cycles_full=cf, cycles_sampled=cs,
            error=(cs - cf) / cf if cf else 0.0, error_est=float(samp["sample_error_est"]),
            projected_fraction=float(samp["sample_projected_fraction"]),
            reused=int(samp["sample_launches_reused"]),
            projected=int(samp["sample_launches_projected"]), wall_full_s=wf,
            wall_sampled_s=ws, speedup=wf / ws, verified=bool(rf.verified and rs.verified),
            replay_ratio=int(full["gpgpu_n_tot_w_icount"]) / max(
                1, int(samp["sample_replayed_warp_insts"])))
        rows.append(row)
        if progress is not None:
            progress(row)
    return rows


def summarize(rows: list[ValidationRow]) -> dict[str, float]:
    """Mean and maximum absolute cycle error, geometric-mean and total speed-up."""
    if not rows:
        return {}
    errs = [abs(r.error) for r in rows]
    return {"mean_abs_error": sum(errs) / len(errs), "max_abs_error": max(errs),
            "geomean_speedup": math.exp(sum(math.log(r.speedup) for r in rows) / len(rows)),
            "total_speedup": sum(r.wall_full_s for r in rows) / sum(r.wall_sampled_s
                                                                    for r in rows),
            "sampled_benchmarks": sum(1 for r in rows if r.reused or r.projected),
            "geomean_replay_ratio": math.exp(sum(math.log(r.replay_ratio) for r in rows)
                                             / len(rows))}


_HEAD = ("benchmark", "launches", "cycles full", "cycles sampled", "error %", "est. %",
         "projected %", "reused", "proj. launches", "full s", "sampled s", "speed-up",
         "engine work")


def _cells(r: ValidationRow) -> tuple[str, ...]:
    return (r.benchmark, str(r.launches), str(r.cycles_full), str(r.cycles_sampled),
            f"{100 * r.error:+.2f}", f"{100 * r.error_est:.2f}",
            f"{100 * r.projected_fraction:.1f}", str(r.reused), str(r.projected),
            f"{r.wall_full_s:.2f}", f"{r.wall_sampled_s:.2f}", f"{r.speedup:.2f}x",
            f"{r.replay_ratio:.2f}x")


def _summary_line(s: dict[str, float]) -> str:
    return (f"mean |error| {100 * s['mean_abs_error']:.2f} %, max |error| "
            f"{100 * s['max_abs_error']:.2f} %, speed-up geomean {s['geomean_speedup']:.2f}x, "
            f"total {s['total_speedup']:.2f}x, engine work geomean "
            f"{s['geomean_replay_ratio']:.2f}x, {int(s['sampled_benchmarks'])} benchmarks "
            "sampled")


def format_table(rows: list[ValidationRow]) -> str:
    """Aligned text columns and the summary line."""
    body = [_HEAD, *(_cells(r) for r in rows)]
    widths = [max(len(x[i]) for x in body) for i in range(len(_HEAD))]
    lines = ["  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                       for i, (c, w) in enumerate(zip(x, widths, strict=True))) for x in body]
    return "\n".join([*lines, "", _summary_line(summarize(rows))]) if rows else "(no rows)"


def format_markdown(rows: list[ValidationRow]) -> str:
    """A Markdown table (docs/sampling.md) and the summary line."""
    out = ["| " + " | ".join(_HEAD) + " |", "|" + "---|" * len(_HEAD)]
    out += ["| " + " | ".join(_cells(r)) + " |" for r in rows]
    return "\n".join([*out, "", _summary_line(summarize(rows))]) if rows else "(no rows)"


def as_json(rows: list[ValidationRow]) -> dict[str, Any]:
    """``{"rows": [...], "summary": {...}}``."""
    return {"rows": [asdict(r) for r in rows], "summary": summarize(rows)}
