"""Configuration of RegLess (Kloosterman et al., MICRO-50 2017): operand staging units filled
per compiler region under a capacity manager, instead of a register file. Off by default;
``-o regless.enabled=true`` turns it on.

Follows: specs/regless.md §5.1 (capacities 128-2048 entries per SM, multiples of 32), A4
(registers per region), A8 (predicated writes are soft), STYLE.md §2.3.
"""

from __future__ import annotations

from dataclasses import dataclass

from warpsim.arch.schema import ConfigBase

__all__ = ["RegLessConfig"]


@dataclass(frozen=True, slots=True, kw_only=True)
class RegLessConfig(ConfigBase):
    """RegLess parameters (``GPUConfig.regless``)."""

    _PATH = "regless"

    enabled: bool = False
    """Operand staging units and the capacity manager when True; False is the baseline."""
    design: str = "regless"
    """``regless``: the paper's design. ``rfv``: its RFV baseline (Jeon et al., MICRO'15), a
    renamed physical register file of ``entries_per_sm`` registers (the paper: 1024, half the
    file) allocated at first write and released at the compiler's release points; meant with
    ``sm.sched_policy=two_level`` (spec §5.3)."""
    entries_per_sm: int = 512
    """OSU capacity per SM in warp-registers (paper: 512 = 25 % of a 2048-entry file); split
    over one shard per warp scheduler x 8 banks, so a multiple of 8 x ``sm.n_schedulers``."""
    max_regs_per_region: int = 0
    """Algorithm 1's "maximum registers per region" (spec A4); 0: a quarter of one shard's
    capacity (32 at 512 entries per SM with 4 schedulers)."""
    predicated_is_soft: bool = True
    """A guarded write is a soft definition (spec A8): the region preloads the register."""
    compressor: bool = True
    """The compressor between the OSU and the L1 (§4.4): evicted lines that match its 5 lane
    patterns stay in its line cache or go to memory as compressed lines, and a preload miss
    costs +1 cycle for its bit-vector check (+2 more when compressed). False: every evicted
    dirty line is one 128 B store and no check is made (§6.4's "no compressor" ablation)."""
    compressor_lines: int = 16
    """128 B lines of each shard's compressor cache (Table 1: 16), 15 registers each."""
    osu_energy_ratio: float = 0.0
    """Energy and static power of the OSUs and capacity managers relative to the full register
    file (spec §6.1; the paper gives only figures); 0: the spec's placeholder
    ``0.94 x entries_per_sm / 2048 + 0.01`` (0.245 at 512 entries) [A]."""
    compressor_pj: float = 4.65
    """Energy of one compressor operation (a bit-vector check of a preload miss or the pattern
    match of an evicted line): 0.02 x a full warp-register read (8 granules x 29.08 pJ),
    spec §6.1 [A]."""
    compressor_leak_mw: float = 6.5
    """Static power of the 4 compressors of one SM (16 x 128 B lines each: half a 4 KB bank's
    3.26 mW each, CACTI 7) [A]."""
    meta_word_pj: float = 67.0
    """Fetch and decode of one metadata word: an I-cache hit (63.4 pJ) plus a decode (3.61 pJ)
    of the GPUWattch table (spec §3.7: metadata travels in the instruction stream) [A]."""

    def __post_init__(self) -> None:
        self._validate()

    def _check(self) -> None:
        self._at_least("entries_per_sm", 8)
        if self.entries_per_sm > 8192:
            self._fail("entries_per_sm", "at most 8192 entries per SM")
        self._at_least("max_regs_per_region", 0)
        self._at_least("compressor_lines", 1)
        if self.design not in ("regless", "rfv"):
            self._fail("design", "one of regless, rfv")
        for name in ("osu_energy_ratio", "compressor_pj", "compressor_leak_mw", "meta_word_pj"):
            self._at_least(name, 0)
