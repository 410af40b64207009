"""Configuration of Register Sharing (Jatala et al.): extra thread blocks on wasted registers,
Owner-Warp-First scheduling, declaration reordering and dynamic warp execution. Off by default;
``-o register_sharing.enabled=true`` turns it on.

Follows: specs/register-sharing.md §3-§6 and §12 (the mechanism's parameters; defaults = the
paper's evaluated configuration: t = 0.1, DWE period 1000 cycles, step 0.1), STYLE.md §2.3.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from warpsim.arch.schema import ConfigBase

__all__ = ["DWE_STALL_METRICS", "LOCK_RULES", "RegisterSharingConfig"]

DWE_STALL_METRICS = ("pipeline_stall", "all_nonissue")
"""What DWE compares between SM_i and SM_0 per window (spec §4.3)."""
LOCK_RULES = ("block", "warp")
"""When a warp may take its pair's lock (``lock_rule``)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class RegisterSharingConfig(ConfigBase):
    """Register-Sharing parameters (``GPUConfig.register_sharing``)."""

    _PATH = "register_sharing"

    enabled: bool = False
    """Launch extra thread blocks on shared registers when True; False is the baseline."""
    threshold_frac: float = 0.1
    """Sharing threshold t in (0, 1]: a shared warp keeps floor(t·r) private registers per
    thread; "% sharing" = (1 - t)·100. Paper default t = 0.1 (90% sharing), spec §1, §3.2."""
    lock_rule: str = "block"
    """``block``: the paper's deadlock-avoidance rule as stated (Sec. 4.3): a warp may take its
    lock only while no warp of the partner block holds one. ``warp`` [A]: a warp waits only for
    its corresponding partner warp (more overlap; the paper's Fig. 5 barrier deadlock becomes
    possible and then stops the run with the engine's deadlock error)."""
    owf: bool = False
    """Owner-Warp-First scheduling (spec §4.1): owner > unshared > non-owner warps, then oldest
    dynamic warp id; replaces the configured policy's ordering (not with two_level)."""
    owf_greedy: bool = False
    """OWF variant [A]: the warp that issued last on its scheduler keeps priority (GTO-like)."""
    unroll_reorder: bool = False
    """Unroll and reorder register declarations (spec §4.2): sequence numbers by first use in
    static order, so early instructions touch only private registers."""
    unroll_affects_banks: bool = False
    """[A] Also renumber the physical registers by the reordered sequence for the bank mapping
    (GPGPU-Sim's side effect, spec §4.2); False keeps banks on the original numbering."""
    dwe: bool = False
    """Dynamic Warp Execution (spec §4.3): throttle long-latency memory instructions of
    non-owner warps with a per-SM probability."""
    dwe_window_cycles: int = 1000
    """DWE monitoring period in core cycles (paper: 1000)."""
    dwe_step_frac: float = 0.1
    """DWE probability step p per window (paper: 0.1); a multiple of 0.1."""
    dwe_sticky: bool = False
    """[A] DWE variant: a denial holds for the rest of the window (default: a fresh draw per
    issue attempt)."""
    dwe_stall_metric: str = "pipeline_stall"
    """[A] Stall cycles DWE compares: ``pipeline_stall`` (sched_pipe_stall_cycles) or
    ``all_nonissue`` (every scheduler-cycle without an issue)."""
    n_rng_seed: int = 1
    """Seed of DWE's counter-based random draws (an integer >= 0; named ``n_`` by the unit rule,
    it is not a count)."""

    def __post_init__(self) -> None:
        self._validate()

    def _check(self) -> None:
        if not 0.0 < self.threshold_frac <= 1.0:
            self._fail("threshold_frac", "a number in (0, 1]",
                       hint="t = 0.1 means 90% sharing; t = 1 means none")
        self._at_least("dwe_window_cycles", 1)
        step = Fraction(repr(float(self.dwe_step_frac)))
        if not (0 < step <= 1 and (step * 10).denominator == 1):
            self._fail("dwe_step_frac", "a multiple of 0.1 in (0, 1]")
        if self.lock_rule not in LOCK_RULES:
            self._fail("lock_rule", f"one of {', '.join(LOCK_RULES)}")
        if self.dwe_stall_metric not in DWE_STALL_METRICS:
            self._fail("dwe_stall_metric", f"one of {', '.join(DWE_STALL_METRICS)}")
        self._at_least("n_rng_seed", 0)
