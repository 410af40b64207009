"""The papers' own energy numbers for their structures, and tables built from them.

Follows: specs/warped-compression.md §6.4-§6.5 (Table 3 @45 nm; E_bank = 7 + 9.6 pJ; leakage
5.8 mW per bank; time at 1.4 GHz [A]); specs/wir.md §4.3 (Table III, energy per operation of
each added structure; "Energy accounting recipe"); specs/regless.md §6 (energy claims; the
paper gives area/power only as figures, Figs. 11-12 [FIG], so no per-access numbers exist;
§6.1's placeholder capacity ratio is reproduced, tagged [A]); specs/xiang-simt-efficiency.md
§A Table 2 (VRF/SRF area, static power and energy per access at 40 nm).

Mechanisms copy these numbers into their ``Config`` ``_pj`` / ``_mw`` defaults (STYLE.md §2.2,
§2.6); the tables below are the baseline side of each paper's comparison.
"""

from __future__ import annotations

from dataclasses import dataclass

from warpsim.power.gtx480 import GTX480_GPUWATTCH, GTX480_GPUWATTCH_LANE_GATED
from warpsim.power.table import EnergyEntry, EnergyTable, StaticEntry, StaticScope

__all__ = [
    "GTX480_WARPED_COMPRESSION",
    "GTX480_XIANG_VRF",
    "REGLESS_CLAIMS",
    "WARPED_COMPRESSION_TABLE3",
    "WIR_TABLE3",
    "XIANG_TABLE2",
    "RegLessClaims",
    "WIRTable3",
    "WarpedCompressionTable3",
    "XiangTable2",
    "regless_capacity_ratio",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class WarpedCompressionTable3:
    """Warped-Compression (Lee et al., ISCA 2015) Table 3, "Estimated energy and power values
    (@45nm)", plus the spec's derived wire energy (§6.4)."""

    wire_pj_per_mm: float = 9.6
    """128-bit wire, 300 fF/mm, 1.0 V, 50% toggle: 1/2 x 0.3 pF x 1 V^2 x 128 x 0.5 [T]."""
    wire_mm: float = 1.0
    """Distance data read from the banks travels [T]."""
    bank_access_pj: float = 7.0
    """CACTI 4 KB x 128-bit bank, per access [T]."""
    bank_leak_mw: float = 5.8
    """Leakage per bank [T]."""
    compressor_pj: float = 23.0
    """Compression unit energy per activation [T]."""
    compressor_leak_mw: float = 0.12
    """Compression unit leakage [T]."""
    decompressor_pj: float = 21.0
    """Decompression unit energy per activation [T]."""
    decompressor_leak_mw: float = 0.08
    """Decompression unit leakage [T]."""
    core_clock_mhz: float = 1400.0
    """Clock that converts cycles to time in the paper (Table 2: 1.4 GHz) [A]."""
    source: str = ("specs/warped-compression.md §6.4 Table 3 (@45 nm) [T]; wire energy and "
                   "E_bank = 7 + 9.6 pJ derived in §6.4 [D]")

    @property
    def bank_plus_wire_pj(self) -> float:
        """E_bank = SRAM access + 1 mm wire = 16.6 pJ per 128-bit bank read or write."""
        return self.bank_access_pj + self.wire_pj_per_mm * self.wire_mm


WARPED_COMPRESSION_TABLE3 = WarpedCompressionTable3()
"""Warped-Compression Table 3 as published."""


@dataclass(frozen=True, slots=True, kw_only=True)
class WIRTable3:
    """WIR (ISCA 2018) Table III, "Hardware costs": energy per operation of each structure."""

    rename_table_pj: float = 3.50
    """Rename table (4r 1w), per read or write."""
    reuse_buffer_pj: float = 4.71
    """Reuse buffer table (2r 2w), per lookup, write or pending retry."""
    hash_pj: float = 4.85
    """Hash generation (1024 -> 32 bits), per hash."""
    vsb_pj: float = 4.96
    """Value signature buffer table (2r 2w), per lookup or insert."""
    register_allocator_pj: float = 1.35
    """Register allocator (free-pool queue), per pop or push."""
    reference_count_pj: float = 0.32
    """Reference count, per +1 / -1 operation."""
    verify_cache_pj: float = 2.93
    """Verify cache, per lookup or fill."""
    source: str = "specs/wir.md §4.3 Table III (verbatim) [T]; recipe §4.3 [A]"

    @property
    def max_overhead_pj_per_inst(self) -> float:
        """Upper bound per executed convergent instruction (spec §4.3 [D]): about 51 pJ."""
        return (5 * self.rename_table_pj + 2 * self.reuse_buffer_pj + self.hash_pj
                + 2 * self.vsb_pj + 2 * self.register_allocator_pj
                + 12 * self.reference_count_pj + self.verify_cache_pj)


WIR_TABLE3 = WIRTable3()
"""WIR Table III as published (leakage of the structures is not given)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class XiangTable2:
    """Xiang's dissertation, uniform vectors (Study A) Table 2, "area / energy (40 nm)".

    [A] (spec): the energy pairs are read/write per 32-bit lane access; static power per SM.
    """

    vrf_area_mm2: float = 2.44
    """Vector register file area."""
    vrf_static_mw: float = 90.0
    """Vector register file static power (0.09 W)."""
    vrf_lane_read_pj: float = 2.46
    """VRF energy per 32-bit lane read (2.46 E-12 J)."""
    vrf_lane_write_pj: float = 5.82
    """VRF energy per 32-bit lane write (5.82 E-12 J)."""
    srf_area_mm2: float = 0.005
    """Scalar register file area."""
    srf_static_mw: float = 1.0
    """Scalar register file static power (0.001 W)."""
    srf_read_pj: float = 0.176
    """SRF energy per read (1.76 E-13 J)."""
    srf_write_pj: float = 0.162
    """SRF energy per write (1.62 E-13 J)."""
    source: str = "specs/xiang-simt-efficiency.md §A Table 2 (40 nm) [T]; per-lane reading [A]"


XIANG_TABLE2 = XiangTable2()
"""Xiang Table 2 as published."""


@dataclass(frozen=True, slots=True, kw_only=True)
class RegLessClaims:
    """RegLess (MICRO 2017) energy statements; the paper gives no per-access numbers."""

    regfile_energy_saving_frac: float = 0.753
    """Register-structure energy reduction of RegLess-512 [T]."""
    gpu_energy_saving_frac: float = 0.11
    """Total GPU energy saving of RegLess-512 [T]."""
    no_rf_bound_saving_frac: float = 0.167
    """GPU energy saving of removing the register file entirely ("No RF") [T]."""
    rfv_regfile_saving_frac: float = 0.452
    """RFV register-structure energy reduction [T]."""
    rfh_regfile_saving_frac: float = 0.620
    """RFH register-structure energy reduction [T]."""
    regfile_share_of_gpu_power_frac: float = 0.13
    """"the register file consumes up to 13% of total GPU power" (GPUWattch, GTX 980) [T]."""
    process_nm: int = 28
    """Synthesis node of the Verilog RF and RegLess designs [T]."""
    source: str = "specs/regless.md §6 and §7.3 (E1-E3) [T]; area/power are figures only [FIG]"


REGLESS_CLAIMS = RegLessClaims()
"""RegLess's published energy numbers (calibration targets, spec §6.1)."""


def regless_capacity_ratio(n_entries: int) -> float:
    """Energy and static power of a RegLess staging unit relative to the full register file.

    ``0.94 x n_entries / 2048 + 0.01`` (specs/regless.md §6.1, a placeholder [A], not from the
    paper): 0.069 at 128 entries, 0.245 at 512, 0.480 at 1024.
    """
    return 0.94 * n_entries / 2048 + 0.01


_WC = WARPED_COMPRESSION_TABLE3
_NON_RF_OUTSIDE_RF = EnergyEntry(
    counter="gpuwattch_non_rf_operands", component="operand_collector", energy_pj=53.0 * 32,
    source="reference/energy-and-configs.md §2.6 GPUWattch non-RF operand 53.0 pJ x 32 per "
           "warp operand, kept out of register_file: these tables' RF is the banks (and "
           "wires) only (specs/warped-compression.md §6.4; Xiang Table 2)")
GTX480_WARPED_COMPRESSION: EnergyTable = GTX480_GPUWATTCH.with_entries(
    (EnergyEntry(counter="regfile_granule_reads", component="register_file",
                 energy_pj=_WC.bank_plus_wire_pj,
                 source=f"{_WC.source}: 7 pJ bank + 9.6 pJ 1-mm wire per 128-bit bank read"),
     EnergyEntry(counter="regfile_granule_writes", component="register_file",
                 energy_pj=_WC.bank_plus_wire_pj,
                 source=f"{_WC.source}: 7 pJ bank + 9.6 pJ wire per 128-bit bank write [A]"),
     _NON_RF_OUTSIDE_RF),
    static=(StaticEntry(component="register_file", scope=StaticScope.RF_BANK,
                        power_mw=_WC.bank_leak_mw,
                        source=f"{_WC.source}: 5.8 mW leakage per 4 KB bank"),),
    replace_static_of=("register_file",),
    name="gtx480_warped_compression",
    source="GTX480 GPUWattch table with the register file of Warped-Compression Table 3 "
           "(45 nm, 16.6 pJ per bank access incl. wire, 5.8 mW per bank); the paper converts "
           "cycles at 1.4 GHz: pass clock_mhz=1400 [A]",
)
"""GPUWattch GTX480 with Warped-Compression's register file (its baseline, spec §6.5)."""

_X = XIANG_TABLE2
GTX480_XIANG_VRF: EnergyTable = GTX480_GPUWATTCH_LANE_GATED.with_entries(
    (EnergyEntry(counter="regfile_lane_reads", component="register_file",
                 energy_pj=_X.vrf_lane_read_pj, source=f"{_X.source}: VRF read per lane"),
     EnergyEntry(counter="regfile_lane_writes", component="register_file",
                 energy_pj=_X.vrf_lane_write_pj, source=f"{_X.source}: VRF write per lane"),
     _NON_RF_OUTSIDE_RF),
    static=(StaticEntry(component="register_file", scope=StaticScope.SM,
                        power_mw=_X.vrf_static_mw,
                        source=f"{_X.source}: VRF static 0.09 W per SM"),),
    drop_counters=("regfile_granule_reads", "regfile_granule_writes"),
    replace_static_of=("register_file",),
    name="gtx480_xiang_vrf",
    source="GTX480 GPUWattch table, lane-gated (Xiang counts scalar operations; 'McPAT "
           "modified in the style of GPUWattch', 40 nm) with the VRF of Xiang Table 2, "
           "charged per 32-bit lane access",
)
"""GPUWattch-style 40 nm table with Xiang's per-lane VRF (the uniform-vector baseline)."""
