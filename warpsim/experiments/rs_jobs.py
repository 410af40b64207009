"""Job function of the Register-Sharing reproduction: the runner's timed ``simulate`` plus
per-kernel instruction and cycle counts.

The paper reports IPC per evaluated kernel (GPGPU-Sim ``gpu_sim_insn / gpu_sim_cycle``,
aggregated over the kernel's launches as Σinsn / Σcycles; spec §7.6), while a runner record
holds the benchmark's cumulative counters. :func:`simulate_rs` runs the job like
``warpsim.runner.simulate.run_timing`` with one more launch observer and stores the per-kernel
sums as the JSON column ``rs_kernels`` (``{kernel: {"gpu_sim_insn", "gpu_sim_cycle",
"launches", ...}}``).

A job's size may carry parameter overrides of a named size, ``"small+nx=256,ny=256"``
(``split_size``): the paper's effect needs more blocks per launch than an SM row holds
(14 SMs x M), which some of the suite's named sizes do not give.
"""

from __future__ import annotations

import json
import time
from typing import Any

from warpsim.errors import InternalError
from warpsim.runner.jobs import Job, split_size

__all__ = ["KERNEL_COUNTERS", "simulate_rs", "split_size"]

KERNEL_COUNTERS = ("gpu_sim_insn", "gpu_sim_cycle", "sm_active_cycles", "sm_active_warp_cycles",
                   "sched_idle_cycles",
                   "sched_pipe_stall_cycles", "sched_scoreboard_stall_cycles",
                   "rs_blocks_per_sm", "rs_baseline_blocks_per_sm", "rs_shared_pairs",
                   "rs_unshared_blocks", "rs_sharing_mode", "rs_lock_stall_cycles",
                   "rs_dwe_denials")
"""Launch statistics summed per kernel (block counts: the maximum over launches)."""
_MAX = {"rs_blocks_per_sm", "rs_baseline_blocks_per_sm", "rs_shared_pairs",
        "rs_unshared_blocks", "rs_sharing_mode"}


def _kernel_observer(per: dict[str, dict[str, Any]]) -> Any:
    def observe(kernel: Any, cfg: Any, result: Any) -> None:
        del cfg
        stats = getattr(result, "stats", None) or {}
        row = per.setdefault(str(kernel.name), {"launches": 0})
        row["launches"] += 1
        for name in KERNEL_COUNTERS:
            if name in stats:
                value = int(stats[name])
                row[name] = max(row.get(name, 0), value) if name in _MAX else \
                    row.get(name, 0) + value
    return observe


def simulate_rs(job: Job) -> dict[str, Any]:
    """Run ``job`` timed (as ``warpsim.runner.simulate.simulate``) and add the ``rs_kernels``
    column. Energy is left out (the reproduction compares performance only)."""
    from warpsim.bench import run_benchmark
    from warpsim.runner.residency import ResidencyObserver
    from warpsim.runtime import Device

    gpu = job.resolve()
    functional: dict[str, int] = {}
    per: dict[str, dict[str, Any]] = {}
    walls: list[float] = []

    def observe_timing(kernel: Any, cfg: Any, result: Any) -> None:
        del kernel, cfg
        walls.append(float(result.timing.wall_s))
        for name, value in (getattr(result.functional, "stats", None) or {}).items():
            functional[name] = functional.get(name, 0) + int(value)

    device = Device(config=gpu)
    resident = ResidencyObserver(gpu)
    device.add_launch_observer(_kernel_observer(per))
    device.add_launch_observer(observe_timing)
    device.add_launch_observer(resident)
    t0 = time.perf_counter()
    try:
        size, params = split_size(job.size)
        result = run_benchmark(job.benchmark, size=size, device=device, params=params or None)
        stats = dict(device.stats)
    finally:
        device.close()
    for name in ("gpu_sim_insn", "gpgpu_n_tot_w_icount"):
        if name in functional and stats.get(name) != functional[name]:
            raise InternalError(f"{job.benchmark}: the timing engine counted {name} = "
                                f"{stats.get(name)}, the functional executor {functional[name]}")
    extra = {"bench_launches": int(result.n_launches), "timing_wall_s": sum(walls),
             "bench_wall_s": time.perf_counter() - t0,
             "rs_kernels": json.dumps(per, sort_keys=True), **resident.columns()}
    return {"stats": stats, "energy": {}, "verified": bool(result.verified), "mode": "timing",
            "functional_cached": False, "extra": extra}
