"""The sampled timed launch of a ``Device``: functional pass in full, timing of a sub-trace,
kernel-level reuse and intra-kernel projection, and the device's running sums.

Follows: issue 17 ("Sampled simulation"); docs/sampling.md. The functional pass runs the whole
launch (results stay exact). Its chunks stream into a collector that keeps only the CTAs the
timing model will replay (at most ``waves`` CTA waves; all of a short launch) and counts every
CTA's work. Afterwards the launch either reuses a measured launch of its class
(``reuse.ReuseTable``) or replays the kept CTAs on the device's ``TimingSimulator`` wave by wave
(pausing at the dispatch of each later wave's first CTA) and projects the rest
(``project.project_cycles``). The engine is unchanged: it only sees fewer CTAs.
[A] A wave is the CTAs every SM holds at once (sum over SMs of the CTA slots of the launch).
[A] The memory system's state after a sampled launch is the state after its replayed CTAs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from warpsim.sampling.options import SampleOptions
from warpsim.sampling.project import (
    EXACT_FROM_FUNCTIONAL,
    Stop,
    is_stable,
    project_cycles,
    scale_stats,
)
from warpsim.sampling.reuse import Measured, Profile, ReuseTable
from warpsim.sampling.subtrace import cta_records, slice_ctas
from warpsim.timing.launch_control import end_launch_after, launch_progress, resident_ctas

__all__ = ["LaunchSample", "Sampler"]


def _scale_activity(pa: np.ndarray, ratio: float) -> np.ndarray:
    """Per-PC executed warps and lanes (``TimingResult.pc_activity``) times ``ratio``, lanes
    kept at most 32 per warp."""
    from warpsim.timing.fields import F_ACT_EXEC_THREADS, F_ACT_EXEC_WARPS

    out = np.rint(pa * ratio).astype(np.int64)
    out[:, F_ACT_EXEC_THREADS] = np.minimum(out[:, F_ACT_EXEC_THREADS],
                                            32 * out[:, F_ACT_EXEC_WARPS])
    return out


class _Collector:
    """The functional pass's trace sink: keeps CTAs ``< n_keep``, counts every CTA's work."""

    def __init__(self, n_keep: int, user_sink: Any) -> None:
        self.n_keep = n_keep
        self.user_sink = user_sink
        self.pieces: list[Any] = []
        self.work: list[tuple[int, np.ndarray]] = []
        self.lines = 0

    def __call__(self, chunk: Any) -> None:
        self.work.append(cta_records(chunk))
        self.lines += int(chunk.n_lines.sum(dtype=np.int64))
        sub = slice_ctas(chunk, 0, self.n_keep)
        if sub is not None:
            self.pieces.append(sub)
        if self.user_sink is not None:
            self.user_sink(chunk)

    def work_per_cta(self, n_ctas: int) -> np.ndarray:
        out = np.zeros(n_ctas, np.int64)
        for first, recs in self.work:
            out[first:first + recs.size] = recs
        return out


@dataclass(slots=True)
class LaunchSample:
    """How one launch was timed under sampling."""

    kernel: str
    mode: str
    """``"replayed"`` (all CTAs), ``"projected"`` (first waves, rest projected) or
    ``"reused"`` (an earlier launch's result)."""
    cycles: int
    projected_fraction: float
    error: float
    replayed_ctas: int
    n_ctas: int
    stops: tuple[Stop, ...] = ()
    """Where the replay paused (cycle from the launch's start, CTAs dispatched)."""
    replayed_warp_insts: int = 0
    """Warp instructions the timing engine replayed (0 for a reuse)."""


@dataclass(slots=True)
class Sampler:
    """Sampled simulation for one device (``Device(sample=...)``)."""

    options: SampleOptions
    table: ReuseTable = field(init=False)
    launches: list[LaunchSample] = field(default_factory=list)
    delta: dict[str, int] = field(default_factory=dict)
    """Projected minus measured counters summed over launches (what the device's timing
    simulator did not count: the projected CTAs and the reused launches)."""

    def __post_init__(self) -> None:
        self.table = ReuseTable(self.options.tolerance)

    # -- the launch ------------------------------------------------------------------------------
    def launch(self, dev: Any, kernel: Any, cfg: Any, params: bytes, textures: dict,
               depth: int = 0) -> Any:
        """Run one launch (nested ``depth`` deep in dynamic parallelism) functionally in full
        and timed under sampling; returns the ``TimedLaunch`` whose stats carry ``sampled``,
        ``sample_projected_fraction`` and ``sample_error_est``."""
        from warpsim.runtime.timed import TimedLaunch

        inputs = dev._timing_inputs(kernel, cfg)
        sim = dev._timing_sim
        n_ctas = cfg.n_blocks
        wave = self.wave_ctas(sim, kernel.name, cfg, inputs)
        sampled = self.options.intra and n_ctas >= self.options.min_waves * wave
        ahead = int(dev.gpu_config.sm.n_sms)  # the engine asks for CTAs this many early
        n_max = min(n_ctas, self.options.max_waves * wave + ahead) if sampled else n_ctas
        col = _Collector(n_max, dev.trace_sink)
        functional = dev._run_functional(kernel, cfg, params, textures, trace=True, sink=col,
                                         depth=depth)
        profile = Profile(np.asarray(functional.pc_warp_counts, np.int64), col.lines)
        key = (kernel, cfg.grid, cfg.block, cfg.shared_bytes, cfg.cooperative)
        hit = self.table.find(key, profile) if self.options.reuse else None
        if hit is not None:
            timing = self._reuse(hit[0], hit[1] + hit[2], profile, functional, sim)
            self.launches.append(LaunchSample(kernel.name, "reused", timing.cycles, 1.0,
                                              float(timing.stats["sample_error_est"]), 0,
                                              n_ctas))
        else:
            timing, info = self._replay(dev, sim, kernel.name, cfg, inputs, col, n_max,
                                        wave, functional)
            self.launches.append(info)
            if self.options.reuse:
                self.table.add(key, Measured(profile, dict(timing.stats), info.error,
                                             dict(timing.occupancy), timing.pc_activity))
        return TimedLaunch(functional, dev._with_activity(kernel, functional, timing))

    @staticmethod
    def _feed(sim: Any, col: _Collector, lo: int, hi: int) -> None:
        """Deliver CTAs ``lo .. hi - 1`` of the kept trace to the replay."""
        for piece in col.pieces:
            sub = slice_ctas(piece, lo, hi)
            if sub is not None:
                sim.consume(sub)

    @staticmethod
    def wave_ctas(sim: Any, name: str, cfg: Any, inputs: tuple) -> int:
        """CTAs resident at once on the whole GPU (the sum of every SM's CTA slots)."""
        _, _, regs, _, shmem = inputs
        return resident_ctas(sim, name, cfg.threads_per_block, int(regs), int(shmem))

    def _replay(self, dev: Any, sim: Any, name: str, cfg: Any, inputs: tuple, col: _Collector,
                n_max: int, wave: int, functional: Any) -> tuple[Any, LaunchSample]:
        """Replay the first CTAs (all when ``n_max`` is the launch) on the device's simulator,
        wave by wave, pausing as each later wave starts; stop once the last two wave intervals
        ran at the same rate (``options.stability``), after ``options.waves`` waves at least
        and ``n_max`` CTAs at most, then project the rest."""
        program, alloc, regs, tables, shmem = inputs
        if dev._l2_fills:
            dev._apply_l2_fills()
        n_ctas = cfg.n_blocks
        work = col.work_per_cta(n_ctas)
        sim.start(program, alloc, n_ctas=n_max, cta_threads=cfg.threads_per_block,
                  regs_per_thread=int(regs), shmem_bytes=shmem, tables=tables, kernel=name)
        ahead = int(dev.gpu_config.sm.n_sms)  # the engine pauses this many CTAs early
        bounds = [k * wave + ahead for k in range(1, n_ctas // wave + 1)
                  if k * wave + ahead < n_max] if n_max < n_ctas else []
        stops: list[Stop] = []
        lo, n_keep = 0, n_max
        for k, b in enumerate(bounds, 1):
            self._feed(sim, col, lo, b)
            lo = b
            stops.append(Stop(*launch_progress(sim)))
            if k >= self.options.waves and is_stable(stops, work, self.options.stability):
                n_keep = b
                end_launch_after(sim, b)  # the launch ends with the CTAs delivered so far
                break
        if n_keep == n_max:
            self._feed(sim, col, lo, n_max)
        timing = sim.finish()
        if n_keep == n_ctas:
            replayed = int(work.sum())
            if self.delta:  # the run's totals include earlier projected launches
                from warpsim.stats import derive

                timing.stats.update(self._exact(functional, sim, 0))
                timing.stats.update(derive(timing.stats))
            timing.stats.update(sampled=0, sample_projected_fraction=0.0,
                                sample_error_est=0.0)
            return timing, LaunchSample(name, "replayed", timing.cycles, 0.0, 0.0, n_keep,
                                        n_ctas, replayed_warp_insts=replayed)
        proj = project_cycles(stops, timing.cycles, work, n_keep)
        measured = dict(timing.stats)
        exact = self._exact(functional, sim, proj.cycles - timing.cycles)
        stats = scale_stats(measured, proj.cycles, proj.cycles / max(1, timing.cycles),
                            proj.work_ratio, exact)
        stats.update(sampled=1, sample_projected_fraction=proj.projected_fraction,
                     sample_error_est=proj.error)
        self._add_delta(stats, measured)
        timing.stats = stats
        timing.cycles = proj.cycles
        if timing.pc_activity is not None:
            timing.pc_activity = _scale_activity(timing.pc_activity, proj.work_ratio)
        return timing, LaunchSample(name, "projected", proj.cycles, proj.projected_fraction,
                                    proj.error, n_keep, n_ctas, tuple(stops),
                                    int(work[:n_keep].sum()))

    def _reuse(self, m: Measured, distance: float, profile: Profile, functional: Any,
               sim: Any) -> Any:
        """A ``TimingResult`` for a launch that reuses ``m``, scaled by the work ratio."""
        from warpsim.timing.driver import TimingResult

        ratio = profile.warp_insts / max(1, m.profile.warp_insts)
        cycles = round(int(m.stats["gpu_sim_cycle"]) * ratio)
        exact = self._exact(functional, sim, cycles)
        stats = scale_stats(m.stats, cycles, ratio, ratio, exact)
        stats.update(sampled=1, sample_projected_fraction=1.0,
                     sample_error_est=m.error + distance)
        self._add_delta(stats, {})
        pa = None if m.pc_activity is None else _scale_activity(m.pc_activity, ratio)
        return TimingResult(stats=stats, per_sm={}, cycles=cycles, wall_s=0.0,
                            warp_inst_per_s=0.0, numba_compile_s=0.0,
                            occupancy=dict(m.occupancy), pc_activity=pa)

    def _exact(self, functional: Any, sim: Any, extra_cycles: int) -> dict[str, int]:
        """The counters known exactly: instructions (functional pass) and the run's totals."""
        exact = {n: int(functional.stats[n]) for n in EXACT_FROM_FUNCTIONAL}
        tot = sim.cumulative_stats()
        exact["gpu_tot_sim_cycle"] = (int(tot["gpu_sim_cycle"]) + self.delta.get(
            "gpu_sim_cycle", 0) + int(extra_cycles))
        exact["gpu_tot_sim_insn"] = (int(tot["gpu_sim_insn"]) + self.delta.get(
            "gpu_sim_insn", 0))
        return exact

    def _add_delta(self, stats: dict[str, Any], measured: dict[str, Any]) -> None:
        for name, value in stats.items():
            if name.startswith("sample") or name in ("gpu_tot_sim_cycle", "gpu_tot_sim_insn"):
                continue
            if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
                d = int(value) - int(measured.get(name, 0))
                if d:
                    self.delta[name] = self.delta.get(name, 0) + d

    # -- the device's sums -------------------------------------------------------------------------
    def adjust(self, flat: dict[str, Any]) -> dict[str, Any]:
        """The device's cumulative statistics with the projected and reused counts added, and
        the run's sampling summary (``sampled``, ``sample_projected_fraction``,
        ``sample_error_est``, ``sample_launches_*``, ``sample_replayed_warp_insts``)."""
        from warpsim.stats import derive

        out = dict(flat)
        for name, d in self.delta.items():
            out[name] = out.get(name, 0) + d
        if "gpu_sim_cycle" in out:
            out["gpu_tot_sim_cycle"] = out["gpu_sim_cycle"]
            out["gpu_tot_sim_insn"] = out.get("gpu_sim_insn", 0)
            out.update(derive(out))
        total = sum(s.cycles for s in self.launches)
        proj = sum(s.cycles * s.projected_fraction for s in self.launches)
        err = sum(s.cycles * s.error for s in self.launches)
        modes = [s.mode for s in self.launches]
        out.update(sampled=int(any(m != "replayed" for m in modes)),
                   sample_projected_fraction=proj / total if total else 0.0,
                   sample_error_est=err / total if total else 0.0,
                   sample_launches_replayed=modes.count("replayed"),
                   sample_launches_projected=modes.count("projected"),
                   sample_launches_reused=modes.count("reused"),
                   sample_replayed_warp_insts=sum(s.replayed_warp_insts for s in self.launches))
        return out
