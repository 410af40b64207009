"""Configuration of the uniform-vector mechanisms (Xiang, dissertation ch. 2): decode-time
detection of intra-warp uniform instructions, their execution as scalar operations (token bits
in the vector register file or a scalar register file with renaming), the inter-warp uniform
instruction reuse buffer (IRB) and opportunistic redundancy for reliability. Off by default;
``-o uniform_vectors.enabled=true`` turns it on.

Follows: specs/xiang-simt-efficiency.md §1.4-§1.11 (designs, configurations, sensitivity knobs)
and Table 2 (SRF energies); STYLE.md §2.3.
"""

from __future__ import annotations

from dataclasses import dataclass

from warpsim.arch.schema import ConfigBase

__all__ = ["DESIGNS", "SRF_RELEASES", "UniformVectorsConfig"]

DESIGNS = ("token", "srf")
SRF_RELEASES = ("id", "wb")
"""When an SR is released: at the redefining instruction's issue (ID) or retirement (WB)."""
"""Where a uniform value lives (spec §1.5 / §1.6): ``token`` (one token bit per vector register,
the scalar in lane warpsize - NumSP) or ``srf`` (a scalar register file with a rename table)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class UniformVectorsConfig(ConfigBase):
    """Uniform-vector parameters (``GPUConfig.uniform_vectors``)."""

    _PATH = "uniform_vectors"

    enabled: bool = False
    """Uniform detection, scalar execution and the IRB when True; False is the baseline."""
    design: str = "token"
    """One of ``DESIGNS``: token | srf (spec §1.5, §1.6)."""
    scalar_issue: bool = True
    """Detected intra-warp uniform instructions execute on one lane and hold the issue port one
    cycle (the Intra and Combined configurations, spec §1.11); False: detection only, only IRB
    hits are converted (the Inter configuration)."""
    n_irb_entries: int = 8
    """Entries of the per-SM inter-warp instruction reuse buffer (fully associative, LRU;
    spec §1.8, Fig. 12 sweeps 2-16); 0: no IRB (the Intra configuration); -1: the oracle IRB
    of spec §1.3 [A] (unlimited: one entry per static instruction, no capacity or
    partial-PC conflicts)."""
    n_srf_entries: int = 128
    """Scalar registers per SM of the ``srf`` design (spec §1.6, Fig. 11 sweeps 16-256)."""
    srf_release: str = "id"
    """When the ``srf`` design returns a redefined register's old scalar register to the free
    list (one of ``SRF_RELEASES``): ``id``, at the issue of the redefining instruction (the
    text, §2.4.2), or ``wb``, when it retires (spec §1.6: safe with older readers in
    flight)."""
    srf_rename_stage: bool = True
    """The ``srf`` design's extra front-end (rename) stage (§2.4.2, spec §1.6 [A]): a warp's
    first issue after a branch waits one more cycle. False: no extra stage."""
    broadcast_uniform: bool = True
    """Token set by the broadcast path (§2.4.1 item 2): a load whose lanes all read one address
    (its address registers hold one value in every lane, full mask) gives a tracked result even
    when decode did not detect its sources; in the ``srf`` design it takes a scalar register
    when one is free [A]. False: only decode-detected loads."""
    reliability: bool = False
    """Opportunistic redundancy (spec §1.9): converted instructions compute on two lanes and
    store two copies, IRB entries carry parity. Costs one more scalar op and lane write per
    converted instruction; the ``uv_*_protected`` coverage statistics are counted."""
    srf_read_pj: float = 0.176
    """Energy of one SRF read (Table 2: 1.76E-13 J) [A: read, write order]."""
    srf_write_pj: float = 0.162
    """Energy of one SRF write (Table 2: 1.62E-13 J)."""
    irb_access_pj: float = 0.88
    """Energy of one IRB lookup or fill [A: 5 SRF-word reads, spec §1.12]."""
    irb_fault_rate: float = 0.0
    """Fault injection: the probability that the entry an IRB tag hit reads holds a single-bit
    fault (one of its 136 opcode, source and result bits, uniformly [A]). With
    ``reliability`` the entry's parity detects it and the instruction executes (spec §1.9);
    without, a flipped result bit is reused silently (``uv_irb_silent_corruptions``)."""
    alu_fault_rate: float = 0.0
    """Fault injection: the probability that a thread ALU operation of the baseline stream is
    struck by a single-bit fault in its lane (at most one per warp instruction [A]); counted as
    detected (dual-lane compare), masked (an IRB hit runs no ALU) or silent. At most 1/32."""

    def __post_init__(self) -> None:
        self._validate()

    def _check(self) -> None:
        if self.design not in DESIGNS:
            self._fail("design", f"one of {', '.join(DESIGNS)}")
        self._at_least("n_irb_entries", -1)
        if self.srf_release not in SRF_RELEASES:
            self._fail("srf_release", f"one of {', '.join(SRF_RELEASES)}")
        if not 0.0 <= self.irb_fault_rate <= 1.0:
            self._fail("irb_fault_rate", "a probability in [0, 1]")
        if not 0.0 <= self.alu_fault_rate <= 1.0 / 32:
            self._fail("alu_fault_rate", "a probability in [0, 1/32] (at most one fault per "
                       "warp instruction)")
        self._at_least("n_srf_entries", 1)
        if self.n_irb_entries > 64:
            self._fail("n_irb_entries", "at most 64 (a fully associative buffer)")
        if self.n_srf_entries > 4096:
            self._fail("n_srf_entries", "at most 4096")
        for name in ("srf_read_pj", "srf_write_pj", "irb_access_pj"):
            if not getattr(self, name) >= 0:
                self._fail(name, "an energy >= 0")
        if not self.scalar_issue and self.n_irb_entries == 0:
            self._fail("n_irb_entries", "not 0 when scalar_issue is false (Inter "
                       "configuration: only IRB hits are converted)")
