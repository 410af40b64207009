"""Configuration of the ILP shader core (Xiang, dissertation ch. 4; CCGrid 2015): the TLP
core's one instruction in flight per warp, ALU data bypassing, the many-thread-aware per-SM
scoreboard and branch prediction, on every SM or on some SM kinds only (GPU-H). Off by default;
``-o ilp.enabled=true`` turns on the TLP core, the other fields add the ILP techniques.

Follows: specs/xiang-simt-efficiency.md §3.2 (TLP core), §3.4 (mechanisms), §3.5 (GPU-H),
§3.8 (assumptions), STYLE.md §2.3.
"""

from __future__ import annotations

from dataclasses import dataclass

from warpsim.arch.schema import ConfigBase

__all__ = ["PREDICTORS", "ILPConfig"]

PREDICTORS = ("none", "static", "gshare", "perfect")
"""Branch handling (spec §3.4.3): ``none`` (a branch holds its warp until it resolves),
``static`` (backward taken, forward not taken), ``gshare`` (per-SM pattern table, per-warp
history), ``perfect`` (the reference)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ILPConfig(ConfigBase):
    """ILP-core parameters (``GPUConfig.ilp``)."""

    _PATH = "ilp"

    enabled: bool = False
    """The dissertation's core model when True (TLP core: a warp issues again only when its
    in-flight instruction has written back); False is the baseline engine."""
    bypass: bool = False
    """ALU data bypassing EX_L -> EX1 (spec §3.4.1): an ALU result is usable one cycle before
    its writeback. Memory instructions are never bypassed."""
    scoreboard_entries: int = 0
    """Entries of the many-thread-aware scoreboard per SM (spec §3.4.2; paper: 8); 0: no
    scoreboard (the TLP core's one instruction in flight per warp)."""
    branch_predictor: str = "none"
    """One of ``PREDICTORS`` (spec §3.4.3)."""
    gshare_history_bits: int = 9
    """``gshare``: history bits per warp; the SM's pattern table has ``2**bits`` two-bit
    counters (paper: 1 kbit = 512 counters, 9 bits)."""
    sm_kinds: tuple[int, ...] = ()
    """SM kinds (``sm_kinds`` section) whose SMs have ILP cores (bypass, scoreboard, branch
    prediction); the other SMs are TLP cores. Empty: every SM. GPU-H: the ILP-SM kind."""

    def __post_init__(self) -> None:
        self._validate()

    def _check(self) -> None:
        self._at_least("scoreboard_entries", 0)
        if self.scoreboard_entries > 64:
            self._fail("scoreboard_entries", "0 .. 64")
        if self.branch_predictor not in PREDICTORS:
            self._fail("branch_predictor", f"one of {', '.join(PREDICTORS)}")
        self._at_least("gshare_history_bits", 1)
        if self.gshare_history_bits > 16:
            self._fail("gshare_history_bits", "1 .. 16")
        if any(k < 0 for k in self.sm_kinds):
            self._fail("sm_kinds", "kind indices >= 0")
        if len(set(self.sm_kinds)) != len(self.sm_kinds):
            self._fail("sm_kinds", "distinct kind indices")
