"""What a driver of sampled simulation (``warpsim/sampling``) may ask and change of a running
timed launch, besides ``TimingSimulator.start`` / ``consume`` / ``finish``: the GPU-wide wave
size, the launch's progress between deliveries of CTAs, and ending it early. The sampler used
to read the simulator's private launch state; this is that seam, owned by the timing package.

Follows: ARCHITECTURE.md §5 (the driver owns the launch; mechanisms and samplers go through
named entry points) and docs/sampling.md (intra-kernel sampling: replay whole waves, pause as
each later wave starts, stop once the rate is stable)."""

from __future__ import annotations

from typing import Any

from warpsim.timing import consts as tc

__all__ = ["end_launch_after", "launch_progress", "resident_ctas"]


def resident_ctas(sim: Any, kernel: str, cta_threads: int, regs_per_thread: int,
                  shmem_bytes: int) -> int:
    """CTAs resident at once on the whole GPU (every SM's CTA slots, a mechanism's extra ones
    included): one wave of the launch. ``LaunchError`` when no SM fits a CTA."""
    _, caps = sim._sm_caps(kernel, cta_threads, int(regs_per_thread), int(shmem_bytes), None)
    return max(1, int(caps[caps > 0].sum()))


def launch_progress(sim: Any) -> tuple[int, int]:
    """``(cycles, ctas)`` of the running launch: cycles since it started and CTAs dispatched
    to SMs so far (the engine runs as far as the CTAs delivered allow)."""
    lw = sim._need_launch()
    return (int(lw.state.sc[tc.SC_CYCLE]) - lw.start_cycle, int(lw.state.sc[tc.SC_NEXT_CTA]))


def end_launch_after(sim: Any, n_ctas: int) -> None:
    """Make the running launch end with its first ``n_ctas`` CTAs (all of them delivered
    already): ``finish`` then drains those and reports them as the whole launch."""
    lw = sim._need_launch()
    n = int(n_ctas)
    if not 0 < n <= int(lw.prm[tc.P_N_CTAS]):
        raise ValueError(f"end_launch_after({n}): the launch has {int(lw.prm[tc.P_N_CTAS])} "
                         "CTAs")
    lw.prm[tc.P_N_CTAS] = n
