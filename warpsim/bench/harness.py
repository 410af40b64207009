"""Benchmark harness: compile once, generate seeded inputs, run the launch sequence, verify.

Follows: ARCHITECTURE.md §2 (`bench/`). The launch sequence goes through the public host API
(`warpsim.Device`), so a benchmark run is exactly what a user's host program would do.
"""

from __future__ import annotations

import logging
import time
import weakref
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from warpsim.bench.spec import SIZES, Benchmark, Params
from warpsim.errors import ConfigError

__all__ = ["BenchResult", "Launcher", "compare", "execute"]

_log = logging.getLogger(__name__)

_MODULES: weakref.WeakKeyDictionary[Any, dict[str, Any]] = weakref.WeakKeyDictionary()
"""Compiled modules per live Device, keyed by kernels.cu path: compile once per device."""


@dataclass(frozen=True, slots=True)
class BenchResult:
    """The outcome of one benchmark run."""

    name: str
    size: str
    verified: bool
    n_launches: int
    """Kernel launches in the whole sequence."""
    launches: dict[str, int]
    """Launches per kernel name."""
    kernel_seconds: dict[str, float]
    """Host wall time spent in launches, per kernel name."""
    total_seconds: float
    """Wall time of the launch sequence (copies and host work included)."""
    compile_seconds: float
    reference_seconds: float
    mismatches: tuple[str, ...] = ()
    """Why verification failed, one line per output (empty when verified)."""
    params: dict[str, Any] = field(default_factory=dict)
    """The parameters the run used (the named size plus overrides)."""
    outputs: dict[str, np.ndarray] = field(default_factory=dict, repr=False)


class _CountedKernel:
    """A kernel whose launches are counted and timed by its :class:`Launcher`."""

    def __init__(self, launcher: Launcher, name: str, kernel: Any) -> None:
        self._launcher = launcher
        self._name = name
        self._kernel = kernel

    def __getitem__(self, config: Any) -> Callable[..., None]:
        configured = self._kernel[config]

        def launch(*args: Any) -> None:
            t0 = time.perf_counter()
            configured(*args)
            dt = time.perf_counter() - t0
            self._launcher.launches[self._name] = self._launcher.launches.get(self._name, 0) + 1
            self._launcher.kernel_seconds[self._name] = (
                self._launcher.kernel_seconds.get(self._name, 0.0) + dt)

        return launch


class Launcher:
    """What a host module's ``launch`` sees: the device, the compiled module, counted kernels."""

    def __init__(self, gpu: Any, module: Any) -> None:
        self.gpu = gpu
        self.module = module
        self.launches: dict[str, int] = {}
        self.kernel_seconds: dict[str, float] = {}
        self._kernels: dict[str, _CountedKernel] = {}

    def kernel(self, name: str) -> _CountedKernel:
        """The kernel ``name`` of this benchmark's module, launched as ``k[grid, block](...)``."""
        if name not in self._kernels:
            self._kernels[name] = _CountedKernel(self, name, self.module.get_kernel(name))
        return self._kernels[name]

    def to_device(self, array: np.ndarray) -> Any:
        """Copy a host array to a new device array."""
        return self.gpu.to_device(np.ascontiguousarray(array))

    def zeros(self, shape: int | tuple[int, ...], dtype: Any) -> Any:
        """A zero-filled device array (device_array contents are not guaranteed)."""
        return self.gpu.to_device(np.zeros(shape, dtype=dtype))

    def empty(self, shape: int | tuple[int, ...], dtype: Any) -> Any:
        """An uninitialised device array."""
        return self.gpu.device_array(shape, dtype)

    def texture(self, array: Any) -> Any:
        """A texture object over a device array (1-D linear, point sampling)."""
        return self.gpu.texture(array)

    def set_symbol(self, name: str, values: np.ndarray) -> None:
        """Write a ``__constant__`` / ``__device__`` symbol of the module."""
        raw = np.ascontiguousarray(values).view(np.uint8).reshape(-1)
        target = self.module.get_global(name).view(np.uint8).reshape(-1)
        if raw.size > target.size:
            raise ConfigError(f"symbol {name}", f"{raw.size} bytes",
                              f"at most {target.size} bytes")
        if raw.size < target.size:
            target = target[0:raw.size]
        target.copy_to_device(raw)


def compare(name: str, got: np.ndarray, want: np.ndarray, rtol: float, atol: float) -> str | None:
    """A mismatch message for one output, or None: integers exact, floats within rtol/atol."""
    got = np.asarray(got)
    want = np.asarray(want)
    if got.shape != want.shape:
        return f"{name}: shape {got.shape} != reference {want.shape}"
    if got.dtype.kind in "iub" or (rtol == 0.0 and atol == 0.0):
        bad = np.flatnonzero(got.reshape(-1) != want.reshape(-1).astype(got.dtype))
        if bad.size == 0:
            return None
        i = int(bad[0])
        return (f"{name}: {bad.size} of {got.size} elements differ; first at flat index {i}: "
                f"{got.reshape(-1)[i]!r} != {want.reshape(-1)[i]!r}")
    g = got.astype(np.float64)
    w = want.astype(np.float64)
    ok = np.isclose(g, w, rtol=rtol, atol=atol) | (np.isnan(g) & np.isnan(w))
    if bool(ok.all()):
        return None
    bad = np.flatnonzero(~ok.reshape(-1))
    i = int(bad[0])
    return (f"{name}: {bad.size} of {got.size} elements outside rtol={rtol} atol={atol}; first "
            f"at flat index {i}: {g.reshape(-1)[i]!r} vs {w.reshape(-1)[i]!r}")


def _seed(name: str, size: str) -> int:
    return zlib.crc32(f"warpsim.bench:{name}:{size}".encode())


def _module_for(gpu: Any, bench: Benchmark) -> tuple[Any, float]:
    per_device = _MODULES.setdefault(gpu, {})
    key = str(bench.source)
    if key in per_device:
        return per_device[key], 0.0
    t0 = time.perf_counter()
    module = gpu.compile(bench.source)
    per_device[key] = module
    return module, time.perf_counter() - t0


def execute(bench: Benchmark, size: str = "tiny", device: Any = None,
            params: Params | None = None) -> BenchResult:
    """Run ``bench`` at a named size on ``device`` (a new ``warpsim.Device`` when None).

    ``params`` overrides individual parameters of the named size.
    """
    if size not in bench.sizes:
        raise ConfigError(f"{bench.name}.size", size, f"one of {tuple(bench.sizes)}",
                          hint=f"the suite's sizes are {SIZES}")
    if bench.generate is None or bench.launch is None or bench.reference is None:
        raise ConfigError(f"{bench.name}.launch", None,
                          "a host module with generate, launch and reference")
    p: dict[str, Any] = dict(bench.sizes[size])
    if params:
        p.update(params)
    if device is None:
        import warpsim.runtime as runtime

        device = runtime.Device()
    module, compile_s = _module_for(device, bench)
    rng = np.random.default_rng(_seed(bench.name, size))
    inputs = bench.generate(p, rng)
    ctx = Launcher(device, module)
    t0 = time.perf_counter()
    outputs = bench.launch(ctx, inputs, p)
    total = time.perf_counter() - t0
    t1 = time.perf_counter()
    want = bench.reference(inputs, p)
    ref_s = time.perf_counter() - t1
    if bench.verify is not None:
        problems: Sequence[str] = bench.verify(outputs, want, p)
    else:
        problems = []
        for key, value in want.items():
            if key not in outputs:
                problems.append(f"{key}: missing from the device outputs")
                continue
            msg = compare(key, outputs[key], value, bench.rtol, bench.atol)
            if msg:
                problems.append(msg)
    if problems:
        _log.warning("%s/%s failed verification: %s", bench.name, size, "; ".join(problems))
    return BenchResult(
        name=bench.name, size=size, verified=not problems,
        n_launches=sum(ctx.launches.values()), launches=dict(ctx.launches),
        kernel_seconds=dict(ctx.kernel_seconds), total_seconds=total,
        compile_seconds=compile_s, reference_seconds=ref_s, mismatches=tuple(problems),
        params=p, outputs=dict(outputs))
