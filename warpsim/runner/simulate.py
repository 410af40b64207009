"""The default job function of a sweep: run one benchmark, timed, on one configuration.

Follows: ARCHITECTURE.md §6-§7 and docs/timing-model.md. :func:`simulate` runs the job's
benchmark (``warpsim.bench.run_benchmark``) on a timed ``warpsim.Device(config=<the job's
resolved GPUConfig>)``: the functional pass emits per-warp traces that the cycle-level engine
consumes batch by batch, so one pass yields outputs, functional counts and timing. The record
gets the device's cumulative timing counters (the flat ``warpsim.stats`` dict over every launch,
derived metrics such as ``gpu_ipc`` included), the ``warpsim.power`` energy breakdown of those
counters, and timing wall time and rate columns; ``mode = "timing"``.

Counters are collected with ``Device.add_launch_observer`` (no subclass of ``Device``). A job's
size may add parameter overrides to a named size (``"paper+nodes=16384"``,
``warpsim.runner.jobs.split_size``); the record also gets the resident-warps columns of
``warpsim.runner.residency`` (``res_*``).

:func:`simulate_functional` is the functional-only job function (``mode = "functional"``,
functional counts only, cached per worker process by :attr:`Job.functional_key` so jobs that
differ only in their timing configuration share one run); inject it with
``run_sweep(spec, out, simulate=simulate_functional)``.

Assumptions: [A] ``timing_wall_s`` is the sum over launches of ``TimingResult.wall_s`` (the
engine and its trace handling, numba compilation excluded); ``numba_compile_s`` is the cycle
loop's compile time paid by this job (non-zero only for the first timed job of a process).
Deviations: the benchmark suite seeds its inputs from the benchmark name and size; the job's
``seed`` is recorded but does not yet change the inputs. A job's mechanisms become their
``GPUConfig`` sections (``Job.resolve``), so the timed device runs them; a mechanism warpsim
does not implement is a ``ConfigError``, and functional-mode jobs refuse mechanisms.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from warpsim.errors import ConfigError, InternalError
from warpsim.runner.jobs import Job, split_size

__all__ = [
    "FunctionalRun",
    "TimedRun",
    "clear_functional_cache",
    "run_functional",
    "run_timing",
    "simulate",
    "simulate_functional",
]

_CACHE_ENTRIES = 16
_CACHE: OrderedDict[tuple[str, str, int], FunctionalRun] = OrderedDict()
"""Per-process functional results, most recently used last."""
_CACHE_LOCK = threading.Lock()
"""Dask workers may run several jobs as threads of one process."""


@dataclass(slots=True)
class FunctionalRun:
    """What the functional run of one (benchmark, size, seed) produced."""

    stats: dict[str, int]
    """Functional counters summed over every launch (``gpu_sim_insn``, ...)."""
    verified: bool
    n_launches: int
    wall_s: float


@dataclass(slots=True)
class TimedRun:
    """What the timed run of one job produced."""

    stats: dict[str, Any]
    """``Device.stats``: timing counters summed over every launch, derived metrics included."""
    energy: dict[str, Any]
    """``energy_for_gpu(stats, gpu).to_dict()`` (joules, by component)."""
    verified: bool
    n_launches: int
    wall_s: float
    """Wall time of the whole benchmark run (functional pass, timing, verification)."""
    timing_wall_s: float
    """Sum of ``TimingResult.wall_s`` over launches (numba compilation excluded)."""
    numba_compile_s: float
    """Sum of ``TimingResult.numba_compile_s`` over launches."""
    functional_stats: dict[str, int] = field(default_factory=dict)
    """The functional executor's counters summed over launches (a cross-check)."""
    residency: dict[str, int] = field(default_factory=dict)
    """``warpsim.runner.residency`` record columns (SMs with a CTA, peak resident warps)."""


def _summing_observer(stats: dict[str, int]) -> Any:
    """A launch observer that sums each launch's functional counters into ``stats``."""

    def observe(kernel: Any, cfg: Any, result: Any) -> None:
        del kernel, cfg
        functional = getattr(result, "functional", result)  # a TimedLaunch wraps it
        for name, value in (getattr(functional, "stats", None) or {}).items():
            stats[name] = stats.get(name, 0) + int(value)

    return observe


def run_functional(job: Job) -> tuple[FunctionalRun, bool]:
    """The functional run of ``job``'s benchmark, from the per-process cache when present.

    Returns
    -------
    (FunctionalRun, bool)
        The run and whether it came from the cache.
    """
    key = job.functional_key
    with _CACHE_LOCK:
        hit = _CACHE.get(key)
        if hit is not None:
            _CACHE.move_to_end(key)
            return hit, True
    from warpsim.bench import run_benchmark
    from warpsim.runtime import Device

    stats: dict[str, int] = {}
    device = Device()
    device.add_launch_observer(_summing_observer(stats))
    t0 = time.perf_counter()
    try:
        result = run_benchmark(job.benchmark, size=job.size, device=device)
    finally:
        device.close()
    run = FunctionalRun(stats=stats, verified=bool(result.verified),
                        n_launches=int(result.n_launches), wall_s=time.perf_counter() - t0)
    with _CACHE_LOCK:
        _CACHE[key] = run
        while len(_CACHE) > _CACHE_ENTRIES:
            _CACHE.popitem(last=False)
    return run, False


def clear_functional_cache() -> None:
    """Forget this process's cached functional runs."""
    with _CACHE_LOCK:
        _CACHE.clear()


def run_timing(job: Job, gpu: Any) -> TimedRun:
    """Run ``job``'s benchmark on a timed ``warpsim.Device(config=gpu)``.

    Raises
    ------
    InternalError
        When the engine's instruction counts differ from the functional executor's.
    """
    from warpsim.bench import run_benchmark
    from warpsim.power import energy_for_gpu
    from warpsim.runner.residency import ResidencyObserver
    from warpsim.runtime import Device

    functional: dict[str, int] = {}
    walls: list[float] = []
    compiles: list[float] = []

    def observe_timing(kernel: Any, cfg: Any, result: Any) -> None:
        del kernel, cfg
        walls.append(float(result.timing.wall_s))
        compiles.append(float(result.timing.numba_compile_s))

    device = Device(config=gpu)
    resident = ResidencyObserver(gpu)
    device.add_launch_observer(_summing_observer(functional))
    device.add_launch_observer(observe_timing)
    device.add_launch_observer(resident)
    t0 = time.perf_counter()
    try:
        size, params = split_size(job.size)
        result = run_benchmark(job.benchmark, size=size, device=device, params=params or None)
        wall = time.perf_counter() - t0
        stats = dict(device.stats)
    finally:
        device.close()
    for name in ("gpu_sim_insn", "gpgpu_n_tot_w_icount"):
        if name in functional and stats.get(name) != functional[name]:
            raise InternalError(f"{job.benchmark}: the timing engine counted {name} = "
                                f"{stats.get(name)}, the functional executor {functional[name]}")
    energy = energy_for_gpu(stats, gpu).to_dict()
    return TimedRun(stats=stats, energy=energy, verified=bool(result.verified),
                    n_launches=int(result.n_launches), wall_s=wall,
                    timing_wall_s=sum(walls), numba_compile_s=sum(compiles),
                    functional_stats=functional, residency=resident.columns())


def _refuse_mechanisms(job: Job) -> None:
    if job.mechanisms:
        raise ConfigError("mechanisms", "+".join(job.mechanism_names),
                          "no mechanisms in functional mode: mechanisms change the timing only",
                          hint="run the job timed (the default mode)")


def simulate(job: Job) -> dict[str, Any]:
    """Run ``job`` timed: resolve its configuration, run its benchmark on a timed device.

    Returns
    -------
    dict
        ``stats`` (the cumulative timing counters and derived metrics), ``energy`` (the
        ``EnergyBreakdown.to_dict()``; the record stores it as ``energy_*_pj`` columns),
        ``verified``, ``mode = "timing"``, ``functional_cached = False`` and ``extra`` columns
        (``bench_launches``, ``timing_wall_s``, ``timing_warp_inst_per_s``,
        ``numba_compile_s`` and ``warpsim.runner.residency.RESIDENCY_COLUMNS``).

    Raises
    ------
    ConfigError
        For an invalid configuration (mechanisms are config sections: see ``Job.resolve``).
    """
    gpu = job.resolve()
    run = run_timing(job, gpu)
    warp_insts = float(run.stats.get("gpgpu_n_tot_w_icount", 0))
    rate = warp_insts / run.timing_wall_s if run.timing_wall_s > 0 else float("nan")
    extra = {"bench_launches": run.n_launches, "timing_wall_s": run.timing_wall_s,
             "timing_warp_inst_per_s": rate, "numba_compile_s": run.numba_compile_s,
             **run.residency}
    return {"stats": run.stats, "energy": run.energy, "verified": run.verified,
            "mode": "timing", "functional_cached": False, "extra": extra}


def simulate_functional(job: Job) -> dict[str, Any]:
    """Run ``job`` on the functional simulator only (no timing counters, no energy).

    Returns
    -------
    dict
        ``stats`` (``gpu_sim_insn``, ``gpgpu_n_tot_w_icount``), ``energy`` (empty),
        ``verified``, ``mode = "functional"``, ``functional_cached`` and ``extra`` columns
        (``bench_launches``, ``functional_wall_s``).

    Raises
    ------
    ConfigError
        For an invalid configuration, or mechanisms (they need the timing engine).
    """
    job.resolve()
    _refuse_mechanisms(job)
    functional, cached = run_functional(job)
    extra = {"bench_launches": functional.n_launches, "functional_wall_s": functional.wall_s}
    return {"stats": dict(functional.stats), "energy": {}, "verified": functional.verified,
            "mode": "functional", "functional_cached": cached, "extra": extra}
