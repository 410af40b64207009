"""The timing side of ``Device``: launches timed on the configured GPU, concurrent kernels,
cumulative statistics and activity counters for the energy model.

Follows: ARCHITECTURE.md §4 (the timing model replays the functional trace); GPUWattch's
activity counters (docs/energy-model.md §4.1).
"""

from __future__ import annotations

from typing import Any

from warpsim.errors import WarpsimError
from warpsim.runtime.kernel import Kernel, LaunchConfig

__all__ = ["TimedDevice", "TimedLaunch"]


class TimedDevice:
    """Mixin of ``Device``: everything that needs the timing simulator (made on first use)."""

    gpu_config: Any
    _timing_sim: Any
    _activity: dict[str, float]
    _l2_fills: list[tuple[int, int]]

    def _note_host_copy(self, address: int, nbytes: int) -> None:
        """A host-to-device copy: with ``l2.fill_on_host_copy`` its lines go into the timed
        GPU's L2 before the next launch (timing/l2_warm.py)."""
        cfg = self.gpu_config
        if cfg is not None and cfg.l2.fill_on_host_copy and nbytes > 0:
            self._l2_fills.append((int(address), int(nbytes)))

    def _apply_l2_fills(self) -> None:
        from warpsim.timing.l2_warm import warm_l2

        ms = self._timing_sim.ms
        for address, nbytes in self._l2_fills:
            warm_l2(ms.p, ms.caches, address, nbytes)
        self._l2_fills.clear()

    def concurrent(self, sm_sets: Any, *, restart: bool = False) -> Any:
        """Run the launches of a ``with`` block as concurrent kernels on disjoint SM sets (the
        k-th launch on ``sm_sets[k]``: SM indices, or an int naming an SM kind of the
        configuration's ``sm_kinds``); their timing runs when the block ends and
        ``group.results`` holds one ``timing.concurrent.ConcurrentResult`` per launch. With
        ``restart`` each kernel runs again until every kernel finished once (the dissertation's
        weighted-speedup window). Functional results are available at once.

        >>> # with dev.concurrent([range(0, 8), range(8, 15)]) as group:
        >>> #     k1[grid, block](a, b); k2[grid, block](c)
        >>> # group.results[0].window_ipc
        """
        from warpsim.runtime.concurrent import ConcurrentGroup

        return ConcurrentGroup(self, sm_sets, restart)

    @property
    def stats(self) -> dict[str, Any]:
        """Timing counters summed over every timed launch on this device (``gpu_tot_*``)."""
        if self._timing_sim is None:
            return {}
        flat = self._timing_sim.cumulative_stats()
        sampler = getattr(self, "sampler", None)
        if sampler is not None:  # sampled launches: projected and reused counts added
            flat = sampler.adjust(flat)
        return {**flat, **self._activity}

    @property
    def mechanism(self) -> Any:
        """The mechanism object the configuration enables (a ``CompositeMechanism`` for
        several), as the timing model uses it: its per-launch records (e.g. WarpMan's
        ``launches``) are readable after a launch. None on the baseline engine, on a
        functional-only device and before the first timed launch."""
        return None if self._timing_sim is None else self._timing_sim.mechanism

    def _with_activity(self, kernel: Kernel, functional: Any, timing: Any) -> Any:
        """Add the launch's GPUWattch activity counters (per-opcode ALU access units,
        non-register operands: docs/energy-model.md §4.1), derived from the per-PC counts of
        what issued (the functional pass) and what reached a unit (the timing engine: a
        mechanism that completes instructions without a unit saves ALU energy), to its timing
        statistics and to the device's running sums."""
        from warpsim.power.activity import gpuwattch_activity, inst_info
        from warpsim.timing.fields import F_ACT_EXEC_THREADS, F_ACT_EXEC_WARPS

        infos = getattr(kernel, "_activity_infos", None)
        if infos is None:
            program = kernel.module.image.program(kernel.name)
            infos = [inst_info(i) for i in program.insts]
            kernel._activity_infos = infos
        pa = timing.pc_activity
        if pa is None:
            act = gpuwattch_activity(infos, functional.pc_warp_counts,
                                     functional.pc_thread_counts)
        else:
            n = len(infos)  # the engine's last row is the implicit exit
            act = gpuwattch_activity(infos, functional.pc_warp_counts,
                                     functional.pc_thread_counts, pa[:n, F_ACT_EXEC_WARPS],
                                     pa[:n, F_ACT_EXEC_THREADS])
        timing.stats.update(act)
        for name, value in act.items():
            self._activity[name] = self._activity.get(name, 0.0) + value
        return timing

    def _start_timing(self, kernel: Kernel, cfg: LaunchConfig) -> Any:
        """Begin timing one launch (the simulator, and its memory system, persist)."""
        program, alloc, regs, tables, shmem = self._timing_inputs(kernel, cfg)
        if self._l2_fills:
            self._apply_l2_fills()
        self._timing_sim.start(program, alloc, n_ctas=cfg.n_blocks,
                               cta_threads=cfg.threads_per_block, regs_per_thread=int(regs),
                               shmem_bytes=shmem, tables=tables, kernel=kernel.name)
        return self._timing_sim

    def _timing_inputs(self, kernel: Kernel, cfg: LaunchConfig) -> tuple[Any, ...]:
        """The timing simulator (made on first use) and what a launch of ``kernel`` needs:
        ``(program, alloc, regs_per_thread, tables, shmem_bytes)``."""
        from warpsim.mechanisms.hooks import noop_hooks
        from warpsim.mechanisms.registry import mechanism_for
        from warpsim.ptx.regalloc import allocate_registers
        from warpsim.timing.driver import TimingSimulator
        from warpsim.timing.static import build_static

        if self._timing_sim is None:
            mech = mechanism_for(self.gpu_config)
            self._timing_sim = (TimingSimulator(self.gpu_config, hooks=noop_hooks())
                                if mech is None else
                                TimingSimulator(self.gpu_config, mechanism=mech))
        mech = self._timing_sim.mechanism
        program = kernel.module.image.program(kernel.name)
        cached = getattr(kernel, "_timing_static", None)
        if cached is None:
            alloc = allocate_registers(program.fn, schedule=False)  # PTX order, as replayed
            if mech is not None:
                alloc = mech.compile_pass(program, alloc)
            try:
                regs = kernel.get_regs_per_thread()
            except WarpsimError:  # no ptxas: the allocator's count, comparable with ptxas's
                regs = alloc.regs_per_thread
            extra = mech.extra_units if mech is not None else ()
            cached = (alloc, regs, build_static(program, alloc, self.gpu_config, extra))
            kernel._timing_static = cached
        alloc, regs, tables = cached
        shmem = int(program.shared_static_bytes) + int(cfg.shared_bytes)
        return program, alloc, int(regs), tables, shmem


class TimedLaunch:
    """A timed launch: the functional ``LaunchResult`` (its attributes are available here too)
    plus ``stats`` (the timing counters and derived metrics) and ``timing`` (``TimingResult``:
    per-SM counters, cycles, simulation speed, numba compile time)."""

    def __init__(self, functional: Any, timing: Any) -> None:
        self.functional = functional
        self.timing = timing
        self.stats: dict[str, Any] = timing.stats

    def __getattr__(self, name: str) -> Any:
        return getattr(self.functional, name)

    def __repr__(self) -> str:
        s = self.stats
        return (f"<warpsim TimedLaunch {self.functional.kernel}: {s['gpu_sim_cycle']} cycles, "
                f"{s['gpu_sim_insn']} thread instructions, ipc {s['gpu_ipc']:.3g}>")
