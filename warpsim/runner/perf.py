"""The benchmark command's core (``warpsim perf``): simulation speed on a fixed set of kernels.

Functional half:

Follows: ARCHITECTURE.md §8 (performance targets, measured with trace emission on, kernels of
>= 1e6 threads). Three kernels from ``perf_kernels.cu`` — compute-bound (64-iteration FMA and
integer-hash loop), memory-bound (SAXPY) and divergent (per-lane trip counts, if/else) — run
from fixed seeded inputs through the public host API; every output is checked against numpy
before its time is reported, so the benchmark never measures a wrong result.
Assumptions: [A] wall time of a launch is the host time of the ``kernel[grid, block](...)`` call
(argument packing and checks included, host-device copies excluded); [A] the reported time is
the median over ``repeat`` launches, after one untimed one-block warm-up launch (PTX-to-program
translation, numba cache loads); [A] traces are streamed to a counting sink and dropped, as a
timing run consumes them batch by batch.

Timing half: the benchmarks of :data:`TIMING_BENCHMARKS` from ``warpsim.bench`` (streaming,
dense compute, shared-memory reduction, stencil, transcendental-heavy, irregular graph) at
:data:`TIMING_SIZE` on a timed ``warpsim.Device(config="gtx480")``, each on a fresh device per
repeat; every run must verify against the suite's numpy reference and every repeat must
simulate the same number of cycles (determinism), else ``InternalError``.
Assumptions: [A] a benchmark's timing wall time is the sum over its launches of
``TimingResult.wall_s``: the timing engine and its trace handling (batches consumed while the
functional pass runs), excluding the functional pass itself, host copies, verification and
numba compilation; the reported time is the median over ``repeat`` runs; [A] the cycle loop's
numba compilation is measured once, by an untimed warm-up run (``vector_add`` at ``tiny``)
before the first benchmark, and reported as ``numba_compile_s``, never inside a rate.
"""

from __future__ import annotations

import logging
import platform
import resource
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from warpsim.errors import ConfigError, InternalError

__all__ = ["BENCHMARKS", "PERF_KERNELS", "TIMING_BENCHMARKS", "TIMING_CONFIG", "TIMING_SIZE",
           "run_perf"]

_log = logging.getLogger(__name__)

PERF_KERNELS = Path(__file__).with_name("perf_kernels.cu")
"""CUDA source of the benchmark kernels."""

BENCHMARKS = ("compute", "memory", "divergent")
"""Benchmark names, in the order they run."""

TIMING_BENCHMARKS = ("vector_add", "matrix_mul", "reduction", "hotspot", "black_scholes", "bfs")
"""``warpsim.bench`` benchmarks of the timing half, in the order they run."""

TIMING_SIZE = "small"
"""Their input size (a few seconds of timing each)."""

TIMING_CONFIG = "gtx480"
"""The GPU preset they are timed on."""

_WARMUP = ("vector_add", "tiny")
_BLOCK = 256
_SEED = 20260522


@dataclass(slots=True)
class _Case:
    """One benchmark: a launch closure and a verification of its outputs."""

    name: str
    kernel: str
    kind: str
    n_threads: int
    launch: Callable[[int, int], Any]
    """``launch(blocks, n)``: run the kernel on the first ``n`` elements with ``blocks`` blocks."""
    verify: Callable[[], str | None]
    outputs: tuple[Any, ...]
    """Device arrays the kernel writes (poisoned before every launch)."""


def _grid(n: int) -> int:
    return (n + _BLOCK - 1) // _BLOCK


def _float_mismatch(name: str, got: np.ndarray, want: np.ndarray, rtol: float) -> str | None:
    ok = np.isclose(got.astype(np.float64), want.astype(np.float64), rtol=rtol, atol=1e-6)
    if ok.all():
        return None
    i = int(np.flatnonzero(~ok)[0])
    return f"{name}: {int((~ok).sum())} of {got.size} differ; first at {i}: {got[i]!r} vs " \
           f"{want[i]!r}"


def _int_mismatch(name: str, got: np.ndarray, want: np.ndarray) -> str | None:
    bad = np.flatnonzero(got != want)
    if bad.size == 0:
        return None
    i = int(bad[0])
    return f"{name}: {bad.size} of {got.size} differ; first at {i}: {got[i]!r} vs {want[i]!r}"


def _compute_case(gpu: Any, mod: Any, rng: np.random.Generator, n: int) -> _Case:
    x = rng.uniform(-0.9, 0.9, n).astype(np.float32)
    d_x = gpu.to_device(x)
    d_y = gpu.device_array(n, np.float32)
    d_h = gpu.device_array(n, np.uint32)
    kernel = mod.get_kernel("perf_compute")

    def verify() -> str | None:
        b = np.ones(n, np.float64)
        k = np.arange(n, dtype=np.uint32)
        xd = x.astype(np.float64)
        for _ in range(64):
            b = (xd * b + 0.5).astype(np.float32).astype(np.float64)  # fmaf: one rounding
            k = k * np.uint32(1664525) + np.uint32(1013904223)
            k ^= k >> np.uint32(13)
        return _float_mismatch("perf_compute y", d_y.copy_to_host(), b.astype(np.float32),
                               1e-5) or _int_mismatch("perf_compute h", d_h.copy_to_host(), k)

    return _Case("compute", "perf_compute", "compute-bound", n,
                 lambda g, m: kernel[g, _BLOCK](d_x, d_y, d_h, np.int32(m)), verify, (d_y, d_h))


def _memory_case(gpu: Any, mod: Any, rng: np.random.Generator, n: int) -> _Case:
    a = np.float32(2.5)
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    d_x, d_y = gpu.to_device(x), gpu.to_device(y)
    d_z = gpu.device_array(n, np.float32)
    kernel = mod.get_kernel("perf_saxpy")

    def verify() -> str | None:
        want = (np.float64(a) * x.astype(np.float64) + y).astype(np.float32)
        return _float_mismatch("perf_saxpy z", d_z.copy_to_host(), want, 1e-6)

    return _Case("memory", "perf_saxpy", "memory-bound", n,
                 lambda g, m: kernel[g, _BLOCK](np.int32(m), a, d_x, d_y, d_z), verify, (d_z,))


def _divergent_reference(v: np.ndarray) -> np.ndarray:
    n = v.size
    trips = v & np.uint32(31)
    acc = v.copy()
    for t in range(32):
        live = trips > t
        odd = (acc & np.uint32(1)) == 1
        up = acc * np.uint32(3) + np.uint32(1)
        up ^= up >> np.uint32(7)
        down = (acc >> np.uint32(1)) + (acc << np.uint32(3)) + np.uint32(t)
        acc = np.where(live, np.where(odd, up, down), acc)
    i = np.arange(n, dtype=np.uint32)
    odd_i = (i & np.uint32(1)) == 1
    a = (acc ^ np.uint32(0x5BD1E995)) * np.uint32(0x9E3779B9)
    b = acc + i
    b = (b << np.uint32(5)) | (b >> np.uint32(27))
    return np.where(odd_i, a, b).astype(np.uint32)


def _divergent_case(gpu: Any, mod: Any, rng: np.random.Generator, n: int) -> _Case:
    v = rng.integers(0, 2**32, n, dtype=np.uint32)
    d_in = gpu.to_device(v)
    d_out = gpu.device_array(n, np.uint32)
    kernel = mod.get_kernel("perf_divergent")

    def verify() -> str | None:
        return _int_mismatch("perf_divergent out", d_out.copy_to_host(), _divergent_reference(v))

    return _Case("divergent", "perf_divergent", "divergent", n,
                 lambda g, m: kernel[g, _BLOCK](d_in, d_out, np.int32(m)), verify, (d_out,))


_CASES = {"compute": _compute_case, "memory": _memory_case, "divergent": _divergent_case}


def _instruction_counts(result: Any) -> tuple[int, int]:
    """(thread instructions, warp instructions) of one launch, from the executor's result."""
    return int(result.thread_instructions), int(result.warp_instructions)


def peak_rss_mb() -> float:
    """Peak resident set size of this process in MiB (``ru_maxrss``)."""
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return rss / (1024 * 1024) if sys.platform == "darwin" else rss / 1024


def run_perf(functional: bool = True, timing: bool = True, repeat: int = 3, *,
             n_threads: int = 1 << 20, benchmarks: tuple[str, ...] = BENCHMARKS,
             trace: bool = True, timing_benchmarks: tuple[str, ...] = TIMING_BENCHMARKS,
             timing_size: str = TIMING_SIZE, timing_config: Any = TIMING_CONFIG,
             ) -> dict[str, Any]:
    """Measure simulation speed on the fixed benchmark set.

    Parameters
    ----------
    functional
        Measure the functional pass (trace emission on).
    timing
        Measure the timing pass on ``timing_benchmarks``.
    repeat
        Launches (functional) or runs (timing) per benchmark; times are medians.
    n_threads
        Threads per launch (>= 1e6 for the reported numbers; smaller for tests).
    benchmarks
        A subset of ``BENCHMARKS``.
    trace
        Emit per-warp traces (the measured configuration; off only for comparisons).
    timing_benchmarks, timing_size, timing_config
        ``warpsim.bench`` names, their size and the GPU configuration (preset name or
        ``GPUConfig``) of the timing half (defaults: the reported set).

    Returns
    -------
    dict
        ``benchmarks`` (one entry per kernel: threads, thread and warp instructions, wall
        seconds, rates, verified, trace records and bytes streamed by the last launch),
        ``functional_thread_inst_per_s`` and ``functional_warp_inst_per_s`` (medians over the
        set), ``timing_benchmarks`` (one entry per benchmark: launches, thread and warp
        instructions, cycles, timing wall seconds, ``timing_warp_inst_per_s``, verified),
        ``timing_warp_inst_per_s`` (median over the set), ``timing_warp_inst_per_s_total``
        (all warp instructions over all timing wall time), ``numba_compile_s``,
        ``peak_rss_mb``, ``compile_s`` and the environment.

    Raises
    ------
    ConfigError
        For a bad argument (an unknown timing benchmark or size included).
    InternalError
        When a benchmark computes a wrong result, or repeats differ in instruction or cycle
        counts.
    """
    if not functional and not timing:
        raise ConfigError("perf.functional", functional, "functional and/or timing enabled")
    if isinstance(repeat, bool) or not isinstance(repeat, int) or repeat < 1:
        raise ConfigError("perf.repeat", repeat, "a positive integer")
    if isinstance(n_threads, bool) or not isinstance(n_threads, int) or n_threads < 1:
        raise ConfigError("perf.n_threads", n_threads, "a positive integer")
    unknown = [b for b in benchmarks if b not in _CASES]
    if unknown:
        raise ConfigError("perf.benchmarks", tuple(benchmarks), f"names from {BENCHMARKS}")
    if timing:
        _check_timing_args(timing_benchmarks, timing_size)
    from warpsim.runtime import Device

    report: dict[str, Any] = {
        "functional": functional, "timing": timing, "repeat": repeat, "n_threads": n_threads,
        "trace": trace, "benchmarks": [], "functional_thread_inst_per_s": None,
        "functional_warp_inst_per_s": None, "timing_warp_inst_per_s": None, "notes": [],
    }
    if functional:
        sink = _TraceCounter()
        gpu = Device(trace=trace, trace_sink=sink)
        t0 = time.perf_counter()
        mod = gpu.compile(PERF_KERNELS)
        report["compile_s"] = time.perf_counter() - t0
        rng = np.random.default_rng(_SEED)
        for name in benchmarks:
            case = _CASES[name](gpu, mod, rng, n_threads)
            report["benchmarks"].append(_measure(gpu, case, mod, repeat, sink))
        gpu.close()
        rates = [b["thread_inst_per_s"] for b in report["benchmarks"]]
        warp_rates = [b["warp_inst_per_s"] for b in report["benchmarks"]]
        report["functional_thread_inst_per_s"] = statistics.median(rates)
        report["functional_warp_inst_per_s"] = statistics.median(warp_rates)
    if timing:
        report.update(_run_timing(tuple(timing_benchmarks), timing_size, timing_config, repeat))
    report["peak_rss_mb"] = peak_rss_mb()
    report["environment"] = {
        "python": platform.python_version(), "numpy": np.__version__,
        "machine": platform.machine(), "processor": platform.processor(),
    }
    return report


class _TraceCounter:
    """Trace sink of the benchmark: counts each chunk's records and bytes, then drops it, so
    that peak memory is bounded by one CTA batch (ARCHITECTURE.md §8)."""

    def __init__(self) -> None:
        self.records = 0
        self.nbytes = 0

    def __call__(self, chunk: Any) -> None:
        self.records += chunk.n_records
        self.nbytes += chunk.nbytes()


def _measure(gpu: Any, case: _Case, mod: Any, repeat: int,
             sink: _TraceCounter) -> dict[str, Any]:
    kernel = mod.get_kernel(case.kernel)
    walls: list[float] = []
    counts: set[tuple[int, int]] = set()
    t0 = time.perf_counter()
    case.launch(1, min(case.n_threads, _BLOCK))  # warm-up: PTX -> program, numba cache loads
    warmup = time.perf_counter() - t0
    for _ in range(repeat):
        for out in case.outputs:  # poison, so that a launch that writes nothing cannot pass
            gpu.memset(out, 0xFF)
        sink.records = sink.nbytes = 0
        t0 = time.perf_counter()
        case.launch(_grid(case.n_threads), case.n_threads)
        walls.append(time.perf_counter() - t0)
        counts.add(_instruction_counts(kernel.last_launch))
    problem = case.verify()  # the outputs of the last launch
    if problem:
        raise InternalError(f"warpsim perf: {case.kernel} computed a wrong result "
                            f"({problem}); the functional model is broken")
    if len(counts) != 1:
        raise InternalError(f"warpsim perf: {case.kernel} executed a different number of "
                            f"instructions in repeated launches: {sorted(counts)}")
    thread_inst, warp_inst = counts.pop()
    wall = statistics.median(walls)
    _log.info("perf %s: %.3f s, %.3g thread-inst/s", case.name, wall, thread_inst / wall)
    return {
        "name": case.name, "kernel": case.kernel, "kind": case.kind, "threads": case.n_threads,
        "thread_instructions": thread_inst, "warp_instructions": warp_inst,
        "wall_s": wall, "wall_s_all": walls, "warmup_s": warmup,
        "thread_inst_per_s": thread_inst / wall,
        "warp_inst_per_s": warp_inst / wall, "verified": True,
        "trace_records": sink.records, "trace_bytes": sink.nbytes,
    }


# -- the timing half -----------------------------------------------------------------------------


def _check_timing_args(names: tuple[str, ...], size: str) -> None:
    from warpsim.bench import SIZES, get_benchmark

    if not names or isinstance(names, str):
        raise ConfigError("perf.timing_benchmarks", names, "a non-empty tuple of benchmark names")
    for name in names:
        get_benchmark(name)  # ConfigError naming the valid ones
    if size not in SIZES:
        raise ConfigError("perf.timing_size", size, f"one of {tuple(SIZES)}")


def _timed_run(name: str, size: str, config: Any) -> tuple[bool, list[Any], dict[str, Any]]:
    """One run of a benchmark on a fresh timed device: (verified, per-launch TimingResults,
    cumulative counters)."""
    from warpsim.bench import run_benchmark
    from warpsim.runtime import Device

    timings: list[Any] = []
    device = Device(config=config)
    device.add_launch_observer(lambda kernel, cfg, result: timings.append(result.timing))
    try:
        result = run_benchmark(name, size=size, device=device)
        stats = dict(device.stats)
    finally:
        device.close()
    return bool(result.verified), timings, stats


def _run_timing(names: tuple[str, ...], size: str, config: Any,
                repeat: int) -> dict[str, Any]:
    t0 = time.perf_counter()
    _, warm, _ = _timed_run(*_WARMUP, config)  # compiles the cycle loop once per process
    warmup_s = time.perf_counter() - t0
    compile_s = sum(float(t.numba_compile_s) for t in warm)
    entries = [_measure_timing(name, size, config, repeat) for name in names]
    late = sum(e.pop("numba_compile_s") for e in entries)  # 0 unless a kernel needed its own
    rates = [e["timing_warp_inst_per_s"] for e in entries]
    total_wall = sum(e["timing_wall_s"] for e in entries)
    total_warp = sum(e["warp_instructions"] for e in entries)
    return {
        "timing_benchmarks": entries, "timing_size": size,
        "timing_config": getattr(config, "name", config),
        "timing_warp_inst_per_s": statistics.median(rates),
        "timing_warp_inst_per_s_total": total_warp / total_wall,
        "numba_compile_s": compile_s + late, "timing_warmup_s": warmup_s,
    }


def _measure_timing(name: str, size: str, config: Any, repeat: int) -> dict[str, Any]:
    walls: list[float] = []
    runs: set[tuple[int, int, int, int]] = set()
    compile_s = 0.0
    for _ in range(repeat):
        verified, timings, stats = _timed_run(name, size, config)
        if not verified:
            raise InternalError(f"warpsim perf: {name} ({size}) computed a wrong result on "
                                "the timed device; the functional model is broken")
        walls.append(sum(float(t.wall_s) for t in timings))
        compile_s += sum(float(t.numba_compile_s) for t in timings)
        runs.add((len(timings), int(stats["gpu_sim_cycle"]), int(stats["gpu_sim_insn"]),
                  int(stats["gpgpu_n_tot_w_icount"])))
    if len(runs) != 1:
        raise InternalError(f"warpsim perf: {name} ({size}) is not deterministic: repeated "
                            "runs gave (launches, cycles, thread instructions, warp "
                            f"instructions) {sorted(runs)}")
    launches, cycles, thread_inst, warp_inst = runs.pop()
    wall = statistics.median(walls)
    _log.info("perf timing %s: %d cycles, %.3f s, %.3g warp-inst/s", name, cycles, wall,
              warp_inst / wall)
    return {
        "name": name, "size": size, "launches": launches, "cycles": cycles,
        "thread_instructions": thread_inst, "warp_instructions": warp_inst,
        "ipc": thread_inst / cycles, "timing_wall_s": wall, "timing_wall_s_all": walls,
        "timing_warp_inst_per_s": warp_inst / wall, "verified": True,
        "numba_compile_s": compile_s,
    }
