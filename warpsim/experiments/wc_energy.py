"""Register-file energy of the Warped-Compression paper (Lee et al., ISCA 2015), from counters.

Follows: specs/warped-compression.md §6.4-§6.5 (Table 3, the energy equations), §7 (the offline
scalings of Figs. 17-19) and §9.3 (the reading of "dynamic" that includes comp/decomp energy).
Everything is a pure function of a run's statistics, so energy sweeps need no re-simulation::

    E_base = 8 (N_rd + N_wr) E_bank + n_sms 32 P_bank T_base
    E_WC   = (N_rd + N_wr)_WC E_bank                          "dynamic" (MOV accesses included)
           + N_comp E_comp + N_decomp E_decomp                "compression", "decompression"
           + P_bank t (bank_cycles - (1 - g) gated_bank_cycles)
           + n_sms (n_c P_comp + n_d P_decomp) T_WC           "leakage"
    E_bank = (E_access + E_wire/mm x mm x alpha / 0.5) x access_scale

with ``E_wire`` given at 50 % activity (Table 3: 9.6 pJ/mm = 1/2 C V^2 128 x 0.5), ``t`` one cycle
at ``clock_mhz`` (1.4 GHz, spec A17) and ``g`` the gated banks' leakage fraction (0, spec A15).
Assumptions: the baseline's 128-bit bank accesses are 8 per warp-register access of the engine
(``regfile_bank_reads/writes`` count warp registers); wake-up energy (``wakeup_pj``, default 0)
is charged as dynamic energy; comp/decomp leakage never gates (spec §6.4).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from warpsim.errors import ConfigError

__all__ = [
    "BANKS_PER_WARP_REG",
    "RFEnergy",
    "RFEnergyParams",
    "baseline_rf_energy",
    "energy_savings",
    "run_cycles",
    "wc_rf_energy",
]

BANKS_PER_WARP_REG = 8
"""128-bit banks holding one uncompressed 128-byte warp register (spec §2.2)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class RFEnergyParams:
    """Energy parameters of the paper's register file (Table 3 defaults, spec §6.4, §12)."""

    bank_access_pj: float = 7.0
    """SRAM access of one 128-bit bank (CACTI, 4 KB bank)."""
    wire_pj_per_mm: float = 9.6
    """128-bit wire transfer per mm at 50 % activity."""
    wire_mm: float = 1.0
    """Distance from the banks to the execution units."""
    wire_activity_frac: float = 0.5
    """Fraction of the 128 wires that toggle (Fig. 19 sweeps it)."""
    bank_leak_mw: float = 5.8
    """Leakage of one bank while not gated."""
    comp_pj: float = 23.0
    """Compressor activation."""
    decomp_pj: float = 21.0
    """Decompressor activation."""
    comp_leak_mw: float = 0.12
    """Leakage of one compressor."""
    decomp_leak_mw: float = 0.08
    """Leakage of one decompressor."""
    n_compressors: int = 2
    """Compressors per SM."""
    n_decompressors: int = 4
    """Decompressors per SM."""
    gated_leak_frac: float = 0.0
    """Leakage of a gated bank relative to an active one."""
    wakeup_pj: float = 0.0
    """Energy of one bank wake-up."""
    clock_mhz: float = 1400.0
    """Clock converting cycles to time for leakage (Table 2)."""
    n_banks_per_sm: int = 32
    """128-bit banks per SM."""
    comp_scale: float = 1.0
    """Multiplier of the comp/decomp activation energies (Fig. 17)."""
    access_scale: float = 1.0
    """Multiplier of the per-bank access energy, SRAM + wire (Fig. 18, spec A11)."""

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if not isinstance(value, int | float) or value < 0:
                raise ConfigError(f"wc_energy.{f.name}", value, "a number >= 0")
        if self.clock_mhz <= 0:
            raise ConfigError("wc_energy.clock_mhz", self.clock_mhz, "a clock > 0 MHz")

    @property
    def bank_pj(self) -> float:
        """Energy of one 128-bit bank read or write, SRAM plus wire (16.6 pJ by default)."""
        wire = self.wire_pj_per_mm * self.wire_mm * self.wire_activity_frac / 0.5
        return (self.bank_access_pj + wire) * self.access_scale

    @property
    def cycle_ns(self) -> float:
        """One cycle in nanoseconds (mW x ns = pJ)."""
        return 1000.0 / self.clock_mhz

    def replace(self, **changes: Any) -> RFEnergyParams:
        """A copy with ``changes`` applied."""
        return dataclasses.replace(self, **changes)

    @classmethod
    def from_config(cls, section: Any, **changes: Any) -> RFEnergyParams:
        """The parameters of a ``GPUConfig.warped_compression`` section (or its ``to_dict()``),
        fields it lacks at their Table 3 defaults."""
        get = section.get if isinstance(section, Mapping) else \
            (lambda name, default: getattr(section, name, default))
        names = {"comp_pj": "comp_pj", "decomp_pj": "decomp_pj", "clock_mhz": "energy_clock_mhz"}
        values: dict[str, Any] = {}
        for f in dataclasses.fields(cls):
            if f.name in ("n_banks_per_sm", "comp_scale", "access_scale"):
                continue
            value = get(names.get(f.name, f.name), None)
            if value is not None:
                values[f.name] = value
        values.update(changes)
        return cls(**values)


@dataclass(frozen=True, slots=True)
class RFEnergy:
    """Register-file energy of one run by the paper's Fig. 9 categories, in pJ."""

    leakage_pj: float
    dynamic_pj: float
    """Bank + wire accesses (and wake-ups)."""
    comp_pj: float = 0.0
    decomp_pj: float = 0.0

    @property
    def total_pj(self) -> float:
        """All four categories."""
        return self.leakage_pj + self.dynamic_pj + self.comp_pj + self.decomp_pj

    @property
    def dynamic_with_units_pj(self) -> float:
        """Dynamic energy including comp/decomp activations (the paper's "dynamic", §9.3)."""
        return self.dynamic_pj + self.comp_pj + self.decomp_pj

    def to_dict(self) -> dict[str, float]:
        """The categories and the total."""
        return {"leakage_pj": self.leakage_pj, "dynamic_pj": self.dynamic_pj,
                "comp_pj": self.comp_pj, "decomp_pj": self.decomp_pj,
                "total_pj": self.total_pj}


def _num(stats: Mapping[str, Any], name: str, default: float | None = None) -> float:
    value = stats.get(name)
    if value is None or value != value:  # missing or NaN
        if default is None:
            raise ConfigError("statistics", name, "a counter of the run (missing)")
        return float(default)
    return float(value)


def run_cycles(stats: Mapping[str, Any]) -> float:
    """Core cycles of a whole run (all launches): ``gpu_tot_sim_cycle``, else ``gpu_sim_cycle``."""
    tot = _num(stats, "gpu_tot_sim_cycle", 0.0)
    return tot if tot > 0 or "gpu_sim_cycle" not in stats else _num(stats, "gpu_sim_cycle")


def baseline_rf_energy(stats: Mapping[str, Any], params: RFEnergyParams,
                       n_sms: int) -> RFEnergy:
    """Energy of the uncompressed, never-gated register file of a baseline run (spec §6.5).

    ``stats`` needs ``regfile_bank_reads``, ``regfile_bank_writes`` (warp-register accesses)
    and the run's cycles.
    """
    accesses = BANKS_PER_WARP_REG * (_num(stats, "regfile_bank_reads")
                                     + _num(stats, "regfile_bank_writes"))
    leak = n_sms * params.n_banks_per_sm * params.bank_leak_mw * run_cycles(stats) \
        * params.cycle_ns
    return RFEnergy(leakage_pj=leak, dynamic_pj=accesses * params.bank_pj)


def wc_rf_energy(stats: Mapping[str, Any], params: RFEnergyParams, n_sms: int, *,
                 resident_only: bool = False) -> RFEnergy:
    """Energy of a Warped-Compression run from its ``wc_*`` counters (spec §6.5).

    ``resident_only`` counts gated bank-cycles only while the SM holds CTAs (spec A16,
    ``wc_gated_bank_cycles_resident``).
    """
    cycles = run_cycles(stats)
    bank_cycles = _num(stats, "wc_bank_cycles", n_sms * params.n_banks_per_sm * cycles)
    gated = _num(stats, "wc_gated_bank_cycles_resident" if resident_only
                 else "wc_gated_bank_cycles", 0.0)
    leak_banks = params.bank_leak_mw * (bank_cycles - (1.0 - params.gated_leak_frac) * gated)
    leak_units = n_sms * (params.n_compressors * params.comp_leak_mw
                          + params.n_decompressors * params.decomp_leak_mw) * cycles
    accesses = _num(stats, "wc_bank_reads") + _num(stats, "wc_bank_writes")
    return RFEnergy(
        leakage_pj=(leak_banks + leak_units) * params.cycle_ns,
        dynamic_pj=accesses * params.bank_pj + _num(stats, "wc_wakeups", 0) * params.wakeup_pj,
        comp_pj=_num(stats, "wc_comp_activations") * params.comp_pj * params.comp_scale,
        decomp_pj=_num(stats, "wc_decomp_activations") * params.decomp_pj * params.comp_scale)


def energy_savings(base: RFEnergy, wc: RFEnergy) -> dict[str, float]:
    """Fractions of the baseline energy saved: total, dynamic (comp/decomp included, spec §9.3),
    bank+wire only, and leakage."""
    def saving(new: float, old: float) -> float:
        return 1.0 - new / old if old > 0 else float("nan")

    return {"total": saving(wc.total_pj, base.total_pj),
            "dynamic": saving(wc.dynamic_with_units_pj, base.dynamic_with_units_pj),
            "bank_wire": saving(wc.dynamic_pj, base.dynamic_pj),
            "leakage": saving(wc.leakage_pj, base.leakage_pj)}
