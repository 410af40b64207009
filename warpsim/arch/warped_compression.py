"""Configuration of Warped-Compression (Lee et al., ISCA 2015): BDI register compression with
register-bank power gating. Off by default; ``-o warped_compression.enabled=true`` turns it on.

Follows: specs/warped-compression.md §3.3-§3.7 (encodings and variants), §5.2 (latencies and
units), §5.6 (gating), §6.4 Table 3 (energies), §12 (knobs); STYLE.md §2.3.
"""

from __future__ import annotations

from dataclasses import dataclass

from warpsim.arch.schema import ConfigBase

__all__ = ["WC_SCHEMES", "WarpedCompressionConfig"]

WC_SCHEMES = ("wc", "4_0", "4_1", "4_2", "full_bdi")
"""``scheme`` values: the default <4,0>/<4,1>/<4,2> choice, the single-choice variants (spec
§3.7) and the full-BDI selector with 8-byte bases (spec §3.6)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class WarpedCompressionConfig(ConfigBase):
    """Warped-Compression parameters (``GPUConfig.warped_compression``)."""

    _PATH = "warped_compression"

    enabled: bool = False
    """Compress registers (and gate empty banks) when True; False is the baseline engine."""
    scheme: str = "wc"
    """Encoding choice: ``wc`` (<4,0>, <4,1>, <4,2>, else uncompressed), ``4_0`` / ``4_1`` /
    ``4_2`` (one fixed encoding), ``full_bdi`` (spec §3.6 selector, <8,x> included)."""
    n_compressors: int = 2
    """Compressions that may start per SM per cycle (Table 2)."""
    n_decompressors: int = 4
    """Decompressions that may start per SM per cycle (Table 2)."""
    comp_latency_cycles: int = 2
    """Extra cycles between a result and its register write (Table 2, Fig. 20)."""
    decomp_latency_cycles: int = 1
    """Extra cycles between operand collection and execution (Table 2, Fig. 21)."""
    latency_only_when_compressed: bool = False
    """Charge the latencies only to compressed writes / reads of compressed operands [A8]."""
    power_gating: bool = True
    """Gate register banks whose entries are all invalid (spec §5.6)."""
    wakeup_latency_cycles: int = 10
    """Cycles a gated bank needs before it can be written (Table 2)."""
    gate_idle_timeout_cycles: int = 0
    """Cycles a bank stays on after its last valid entry left (0: gate at once) [A15]."""
    bank_access_pj: float = 7.0
    """SRAM energy of one 128-bit bank access (Table 3)."""
    wire_pj_per_mm: float = 9.6
    """Energy of one 128-bit transfer over 1 mm at 50 % activity (Table 3)."""
    wire_mm: float = 1.0
    """Wire length between the banks and the execution units (Sec. 6.1)."""
    wire_activity_frac: float = 0.5
    """Fraction of wires toggling (Table 3 assumes 0.5; Fig. 19 sweeps it)."""
    bank_leak_mw: float = 5.8
    """Leakage power of one 4 KB bank (Table 3)."""
    comp_pj: float = 23.0
    """Energy per compressor activation (Table 3)."""
    decomp_pj: float = 21.0
    """Energy per decompressor activation (Table 3)."""
    comp_leak_mw: float = 0.12
    """Leakage power of one compressor (Table 3)."""
    decomp_leak_mw: float = 0.08
    """Leakage power of one decompressor (Table 3)."""
    gated_leak_frac: float = 0.0
    """Leakage of a gated bank as a fraction of an active one [A15]."""
    wakeup_pj: float = 0.0
    """Energy of one bank wake-up [A15]."""
    energy_clock_mhz: float = 1400.0
    """Clock that converts cycles to time for leakage (Table 2: 1.4 GHz) [A17]."""

    def __post_init__(self) -> None:
        self._validate()

    def _check(self) -> None:
        if self.scheme not in WC_SCHEMES:
            self._fail("scheme", f"one of {', '.join(WC_SCHEMES)}")
        for name in ("n_compressors", "n_decompressors"):
            self._at_least(name, 1)
        for name in ("comp_latency_cycles", "decomp_latency_cycles", "wakeup_latency_cycles",
                     "gate_idle_timeout_cycles", "bank_access_pj", "wire_pj_per_mm", "wire_mm",
                     "bank_leak_mw", "comp_pj", "decomp_pj", "comp_leak_mw", "decomp_leak_mw",
                     "wakeup_pj"):
            self._at_least(name, 0)
        self._frac("wire_activity_frac")
        self._frac("gated_leak_frac")
        if not self.energy_clock_mhz > 0:
            self._fail("energy_clock_mhz", "> 0")
