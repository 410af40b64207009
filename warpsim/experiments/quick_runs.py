"""``--quick`` reproductions on a scaled-down GPU with inputs that fill it (issue 17).

Follows: issue 17 ("``--quick`` reproductions that mean something"). A quick run used to take
``tiny`` inputs on the paper's 15-SM GPU: one or two CTAs, most SMs idle, so results driven by
occupancy (Warped-Compression's bank gating and slowdown, Register Sharing's extra blocks) were
meaningless. A quick run now takes

- the paper's GPU scaled down by :func:`warpsim.arch.scaled.scaled_overrides` (gtx480 15 SMs /
  6 channels -> 5 / 2; c2050 14 / 6 -> 7 / 3; per-SM resources, latencies and clocks kept);
- per benchmark an input (:data:`WC_QUICK_SIZES`: a named size plus parameter overrides,
  ``runner.jobs.split_size``) whose CTAs give each of those SMs the resident warps the
  paper-size input gives each SM of the full GPU (CTAs per SM limited by registers, shared
  memory or threads, as at paper size), in more than one wave where the paper-size input has
  several, at a cost of seconds per job. Register Sharing's quick benchmarks keep their
  ``small`` inputs (``rs_configs.QUICK``): they already launch hundreds of register-limited
  blocks, and on 7 SMs each SM runs twice the waves it runs on 14, so the end-of-kernel tail
  that docs/reproductions/register-sharing.md blames for part of the losses weighs half.

The occupancies each choice reaches are measured (``warpsim.runner.residency``) and listed
in docs/reproductions/warped-compression.md and register-sharing.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from warpsim.runner.jobs import Job
from warpsim.runner.sweep import SweepSpec

__all__ = ["WC_QUICK_SIZES", "JobListSpec", "quick_gpu_overrides"]

WC_QUICK_SIZES: dict[str, str] = {
    # pathfinder: 256 threads, 16 regs: 6 CTAs (48 warps) per SM by threads; 33 000 columns =
    # 153 CTAs = 5 waves of 30 on 5 SMs (paper: 100 000 = 463 CTAs on 15 SMs); one launch of
    # 20 rows (the paper's 100 rows are 5 such launches)
    "pathfinder": "paper+cols=33000,rows=21",
    # LIB: 64 threads, 32 regs: 8 CTA slots; paper 4096 paths = 64 CTAs on 15 SMs (4.3 per
    # SM); 1344 paths = 21 CTAs on 5 SMs, shorter path loops (the cost is per step)
    "monte_carlo": "paper+npath=1344,nn=40,nmat=20",
    # aes: 256 threads, 26 regs: 4 CTAs per SM by registers; 10 240 blocks = 40 CTAs = 2 waves
    # (paper: 16 384 = 64 CTAs, 4.3 per SM)
    "aes": "paper+nblocks=10240",
    # bfs: 512 threads, 22 regs: 2 CTAs per SM by registers (bfs_update 12 regs: 3); 16 384
    # nodes = 32 CTAs = 3 waves of 10 per level (paper 65 536 nodes = 128 CTAs on 15 SMs)
    "bfs": "paper+nodes=16384",
    # dwt2d: 256-thread row kernels (15-18 regs: 6 CTAs by threads) and a 64-thread column
    # kernel; 384 x 384 (paper 1024 x 1024 on 15 SMs: 2.4x the pixels per SM; small 256 x 256
    # on 5 SMs leaves them idle 28 % of the time)
    "dwt2d": "paper+width=384,height=384",
    # spmv: 192 threads, 28-32 regs: 5-6 CTAs per SM by registers; 12 288 rows = 64 CTAs,
    # 2 waves, the small size's row lengths (paper: 146 689 rows = 764 CTAs on 15 SMs), one
    # repeat (memory-bound: the slowest per instruction)
    "spmv": "small+rows=12288,repeats=1",
}
"""Warped-Compression's quick inputs on the scaled gtx480 (5 SMs, 2 channels)."""


def quick_gpu_overrides(gpu: str, overrides: Any = ()) -> dict[str, Any]:
    """``overrides`` (a mapping or pairs) plus the scaled-down SM and channel counts of
    ``gpu`` with those overrides applied (:func:`warpsim.arch.scaled.scaled_overrides`)."""
    from warpsim.arch import resolve_config
    from warpsim.arch.scaled import scaled_overrides

    over = dict(overrides)
    return {**over, **scaled_overrides(resolve_config(gpu, overrides=over))}


@dataclass(frozen=True, slots=True)
class JobListSpec(SweepSpec):
    """A sweep whose jobs are an explicit list (per-benchmark sizes, or configurations that
    are not a cartesian product of configs x mechanisms)."""

    job_list: tuple[Job, ...] = ()

    def jobs(self) -> list[Job]:
        """The listed jobs, in order."""
        return list(self.job_list)
