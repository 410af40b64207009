"""The default job function of a sweep: run one benchmark on one configuration.

Follows: ARCHITECTURE.md §6-§7. Today a job runs its benchmark on the functional simulator
(``warpsim.bench.run_benchmark`` over ``warpsim.Device``) and records the functional counts
(``gpu_sim_insn``: thread instructions, ``gpgpu_n_tot_w_icount``: warp instructions) and whether
the outputs verified. No timing counter is produced or estimated: there is no cycle-level engine
yet, so records have ``mode = "functional"`` and no ``gpu_sim_cycle`` column.

The seam: :func:`run_timing` is the one function the timing-engine issue fills in. It receives
the resolved ``GPUConfig``, the job (mechanisms and their overrides included) and the functional
run (with its trace when :data:`NEEDS_TRACE` is true) and returns the timing counters and
energy; :func:`simulate` then records ``mode = "timing"``.

Functional results are cached per worker process by :attr:`Job.functional_key`
(benchmark, size, seed), so the timing configurations of one benchmark share one functional run
(and, once traces are captured, one trace).

Deviations: the benchmark suite seeds its inputs from the benchmark name and size; the job's
``seed`` is recorded but does not yet change the inputs.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from warpsim.errors import ConfigError
from warpsim.runner.jobs import Job

__all__ = [
    "NEEDS_TRACE",
    "FunctionalRun",
    "clear_functional_cache",
    "run_functional",
    "run_timing",
    "simulate",
]

NEEDS_TRACE = False
"""Whether :func:`run_timing` consumes the functional trace (the timing issue sets it)."""

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
    traces: list[Any] = field(default_factory=list, repr=False)
    """Per-launch traces when captured (``NEEDS_TRACE``)."""


def _counting_device(stats: dict[str, int], traces: list[Any], trace: bool) -> Any:
    """A ``warpsim.Device`` that sums every launch's functional counters into ``stats``."""
    from warpsim.runtime import Device

    class _CountingDevice(Device):  # type: ignore[misc, valid-type]
        def _launch(self, *args: Any, **kwargs: Any) -> Any:
            result = super()._launch(*args, **kwargs)
            for name, value in (getattr(result, "stats", None) or {}).items():
                stats[name] = stats.get(name, 0) + int(value)
            if trace and getattr(result, "trace", None) is not None:
                traces.append(result.trace)
            return result

    return _CountingDevice(trace=trace)


def run_functional(job: Job, *, trace: bool = False) -> tuple[FunctionalRun, bool]:
    """The functional run of ``job``'s benchmark, from the per-process cache when present.

    Returns
    -------
    (FunctionalRun, bool)
        The run and whether it came from the cache.
    """
    key = job.functional_key
    with _CACHE_LOCK:
        hit = _CACHE.get(key)
        if hit is not None and (hit.traces or not trace):
            _CACHE.move_to_end(key)
            return hit, True
    from warpsim.bench import run_benchmark

    stats: dict[str, int] = {}
    traces: list[Any] = []
    device = _counting_device(stats, traces, trace)
    t0 = time.perf_counter()
    result = run_benchmark(job.benchmark, size=job.size, device=device)
    run = FunctionalRun(stats=stats, verified=bool(result.verified),
                        n_launches=int(result.n_launches), wall_s=time.perf_counter() - t0,
                        traces=traces)
    with _CACHE_LOCK:
        _CACHE[key] = run
        while len(_CACHE) > _CACHE_ENTRIES:
            _CACHE.popitem(last=False)
    return run, False


def clear_functional_cache() -> None:
    """Forget this process's cached functional runs."""
    with _CACHE_LOCK:
        _CACHE.clear()


def run_timing(job: Job, gpu: Any, functional: FunctionalRun) -> dict[str, Any] | None:
    """THE TIMING SEAM: the cycle-level simulation of ``job`` on ``gpu``; None while there is
    no timing engine.

    The timing issue replaces this body with a call into ``warpsim.timing`` and returns
    ``{"stats": <every baseline and mechanism counter, zeros included>, "energy":
    <warpsim.power energy breakdown .to_dict(), in pJ>}``. ``job.mechanism_overrides()`` gives
    the mechanism selection in the engine's form.
    """
    del job, gpu, functional
    return None


def simulate(job: Job) -> dict[str, Any]:
    """Run ``job``: resolve its configuration, run it functionally, then (when available) timed.

    Returns
    -------
    dict
        ``stats`` (counter name -> value), ``energy`` (component -> pJ; empty without timing),
        ``verified``, ``mode`` (``"functional"`` or ``"timing"``), ``functional_cached`` and
        ``extra`` columns (``bench_launches``, ``functional_wall_s``).

    Raises
    ------
    ConfigError
        For an invalid configuration, or mechanisms asked for before the timing engine exists.
    """
    gpu = job.resolve()
    functional, cached = run_functional(job, trace=NEEDS_TRACE)
    timed = run_timing(job, gpu, functional)
    extra = {"bench_launches": functional.n_launches, "functional_wall_s": functional.wall_s}
    if timed is None:
        if job.mechanisms:
            raise ConfigError("mechanisms", "+".join(job.mechanism_names),
                              "no mechanisms: they need the cycle-level timing engine, which "
                              "does not exist yet",
                              hint="remove 'mechanisms' from the sweep for functional runs")
        return {"stats": dict(functional.stats), "energy": {}, "verified": functional.verified,
                "mode": "functional", "functional_cached": cached, "extra": extra}
    return {"stats": {**functional.stats, **dict(timed.get("stats", {}))},
            "energy": dict(timed.get("energy", {})), "verified": functional.verified,
            "mode": "timing", "functional_cached": cached, "extra": extra}
