"""``Device.concurrent``: kernels launched inside a ``with`` block run concurrently on disjoint
SM sets in the timing model.

Follows: ``timing/concurrent.py`` (the co-simulation); Xiang's dissertation §4.5 (concurrent
kernel pairs on GPU-H, weighted speedup).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from warpsim.errors import ConfigError, LaunchError

__all__ = ["ConcurrentGroup"]


class ConcurrentGroup:
    """The launches of one ``with dev.concurrent(sm_sets):`` block (see ``Device.concurrent``).

    ``results``: one ``timing.concurrent.ConcurrentResult`` per launch once the block ended;
    ``functional``: each launch's functional ``LaunchResult``."""

    def __init__(self, device: Any, sm_sets: Sequence[Any], restart: bool) -> None:
        if not device.timing:
            raise ConfigError("Device.timing", False, "a timed Device for concurrent kernels",
                              hint="create it with warpsim.Device(config='gtx480')")
        self._dev = device
        self._sets = list(sm_sets)
        self._restart = bool(restart)
        self._launches: list[Any] = []
        self._kernels: list[Any] = []
        self.functional: list[Any] = []
        self.results: list[Any] | None = None

    def __enter__(self) -> ConcurrentGroup:
        if self._dev._group is not None:
            raise LaunchError("<concurrent>", "Device.concurrent blocks do not nest")
        self._dev._group = self
        return self

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> bool:
        self._dev._group = None
        if exc_type is None and self._launches:
            self._time()
        return False

    def _sms(self, spec: Any, kernel: str) -> list[int]:
        from warpsim.arch.sm_kinds import sm_kinds

        if isinstance(spec, int):
            kinds = sm_kinds(self._dev.gpu_config)
            if not 0 <= spec < len(kinds):
                raise LaunchError(kernel, f"SM kind {spec} in Device.concurrent; the GPU has "
                                  f"{len(kinds)} kind(s)", hint="pass SM indices or a kind of "
                                  "the configuration's sm_kinds")
            return list(kinds[spec].sms)
        return [int(x) for x in spec]

    def launch(self, kernel: Any, cfg: Any, params: bytes, textures: dict) -> Any:
        """Run the launch functionally now, keeping its trace for the group's timing."""
        from warpsim.timing.concurrent import ConcurrentLaunch

        dev = self._dev
        k = len(self._launches)
        if k >= len(self._sets):
            raise LaunchError(kernel.name, f"launch {k + 1} inside Device.concurrent, which "
                              f"has {len(self._sets)} SM set(s)",
                              hint="give one SM set per kernel launched in the block")
        sms = self._sms(self._sets[k], kernel.name)
        chunks: list[Any] = []
        user_sink = dev.trace_sink

        def sink(chunk: Any) -> None:
            chunks.append(chunk)
            if user_sink is not None:
                user_sink(chunk)

        result = dev._run_functional(kernel, cfg, params, textures, trace=True, sink=sink)
        if result.children:
            raise LaunchError(kernel.name, "device-side launches (dynamic parallelism) inside "
                              "Device.concurrent are not supported",
                              hint="launch the kernel outside the concurrent block")
        program, alloc, regs, tables, shmem = dev._timing_inputs(kernel, cfg)
        self._launches.append(ConcurrentLaunch(program, alloc, cfg.n_blocks,
                                               cfg.threads_per_block, regs, shmem, chunks, sms,
                                               tables, kernel.name))
        self._kernels.append(kernel)
        self.functional.append(result)
        return dev._finish_launch(kernel, cfg, result)

    def _time(self) -> None:
        from warpsim.timing.concurrent import run_concurrent

        dev = self._dev
        self.results = run_concurrent(dev._timing_sim, self._launches, restart=self._restart)
        for kernel, functional, res in zip(self._kernels, self.functional, self.results,
                                           strict=True):
            for run in res.runs:  # every run replays the same functional pass
                dev._with_activity(kernel, functional, run)
