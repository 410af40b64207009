"""Energy of RegLess's register structures and of the whole GPU against the full register file
(Kloosterman et al., MICRO-50 2017, §6.3, Figs. 14-15), from two runs' statistics.

Follows: specs/regless.md §6 (what the paper's Verilog "register structures" contain: banks,
arbitration, operand collectors) and §6.1 (the event model, its capacity ratio and the
compressor's energy); docs/reproductions/regless.md. Pure functions of counters, through
``warpsim.power`` (``energy_for_gpu``; RegLess's own units through its ``ENERGY``/``STATIC``
declaration)::

    E_RF(base)  = the register_file component of the baseline run (granule reads/writes,
                  non-RF operands through the collectors, bank leakage)
    E_OSU       = ratio(C) x the register_file component of the RegLess run, whose granule
                  counts include 8 granule writes per line preloaded from memory and 8 granule
                  reads per dirty line evicted (spec §6.1: fills and read-outs)
    E_comp      = compressor_ops x compressor_pj + compressor_leak_mw x n_sms x T
    E_meta      = meta_words x meta_word_pj              (fetch and decode of the metadata)
    E_RS        = E_OSU + E_comp + E_meta                 -> rf_energy_saving = 1 - E_RS / E_RF
    E_GPU(RL)   = E_total(RegLess run) - E_RF(RegLess run) + E_OSU   (E_comp, E_meta and the
                  register lines' L1/L2/DRAM traffic are in E_total already)
    E_L1(lines) = line_loads x L1 read-hit pJ + line_stores x L1 write-hit pJ   (reported only)

RFV (``regless.design=rfv``, spec §6.1): E_RS = ratio(1024 entries) x its register file; no
compressor, the rename table and metadata cost nothing (the paper's assumption).

RFH (``mechanisms/regless/rfh.py``, spec §6.1), on its run (the baseline with the two-level
scheduler): with e_rd / e_wr the run's granule read / write energy per operand read / value
written, E_RS = its register file - granule reads/writes + e_rd x MRF reads + e_wr x MRF
writes + e_rd x (0.1 x ORF accesses + 0.03 x LRF accesses).

Assumptions: [A] ratio(C) = ``regless.osu_energy_ratio`` or, when 0, the spec's placeholder
0.94 C / 2048 + 0.01 (the paper's area/power are figures only); the GPUWattch GTX480 table is
the gtx980 preset's (``power.presets``): no GTX 980 table exists.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from warpsim.power import (
    energy_for_gpu,
    power_counts,
    regless_capacity_ratio,
    table_for_gpu,
)

__all__ = ["GRANULES_PER_LINE", "RegLessEnergy", "osu_ratio", "regless_energy",
           "rfh_access_saving", "rfh_energy"]

GRANULES_PER_LINE = 8
"""128-bit granules of one 128 B warp register (power/counters.py)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class RegLessEnergy:
    """Joules of one benchmark: the baseline's register file and GPU, RegLess's parts."""

    rf_base_j: float
    """Register file of the baseline run."""
    gpu_base_j: float
    """Whole GPU, baseline run."""
    osu_j: float
    """OSUs and capacity managers (the ratio-scaled register file of the RegLess run)."""
    compressor_j: float
    """Compressor operations and leakage."""
    meta_j: float
    """Metadata fetch and decode."""
    reg_l1_j: float
    """L1 accesses of register lines (part of ``gpu_j`` already)."""
    gpu_j: float
    """Whole GPU, RegLess run."""

    @property
    def rs_j(self) -> float:
        """RegLess's register structures: OSU + compressor + metadata."""
        return self.osu_j + self.compressor_j + self.meta_j

    @property
    def rf_energy_saving(self) -> float:
        """1 - E_RS / E_RF(base) (the paper's 75.3 % at 512 entries)."""
        return 1.0 - self.rs_j / self.rf_base_j if self.rf_base_j else float("nan")

    @property
    def rf_energy_saving_with_l1(self) -> float:
        """The same with the register lines' L1 accesses counted as register energy."""
        return (1.0 - (self.rs_j + self.reg_l1_j) / self.rf_base_j if self.rf_base_j
                else float("nan"))

    @property
    def gpu_energy_saving(self) -> float:
        """1 - E_GPU(RegLess) / E_GPU(base) (the paper's 11 %)."""
        return 1.0 - self.gpu_j / self.gpu_base_j if self.gpu_base_j else float("nan")

    @property
    def no_rf_bound(self) -> float:
        """GPU saving of a register file that costs nothing at baseline speed (paper 16.7 %)."""
        return self.rf_base_j / self.gpu_base_j if self.gpu_base_j else float("nan")

    def to_dict(self) -> dict[str, float]:
        """Joules and savings for the reproduction's JSON."""
        return {"rf_base_j": self.rf_base_j, "gpu_base_j": self.gpu_base_j,
                "osu_j": self.osu_j, "compressor_j": self.compressor_j, "meta_j": self.meta_j,
                "reg_l1_j": self.reg_l1_j, "gpu_j": self.gpu_j, "rs_j": self.rs_j,
                "rf_energy_saving": self.rf_energy_saving,
                "rf_energy_saving_with_l1": self.rf_energy_saving_with_l1,
                "gpu_energy_saving": self.gpu_energy_saving, "no_rf_bound": self.no_rf_bound}


def osu_ratio(rl: Any) -> float:
    """OSU energy and static power relative to the full register file (``rl`` the ``regless``
    config section): ``osu_energy_ratio``, or the spec's placeholder when it is 0."""
    return rl.osu_energy_ratio or regless_capacity_ratio(rl.entries_per_sm)


def _entry_pj(table: Any, counter: str) -> float:
    return sum(e.energy_pj for e in table.dynamic if e.counter == counter)


def regless_energy(base_stats: Mapping[str, float], rl_stats: Mapping[str, float],
                   base_gpu: Any, rl_gpu: Any) -> RegLessEnergy:
    """Energy of the baseline run (``base_stats`` on ``base_gpu``) and the RegLess run
    (``rl_stats`` on ``rl_gpu``, RegLess enabled) in the GPU preset's energy table."""
    table = table_for_gpu(base_gpu.name)
    bd_base = energy_for_gpu(base_stats, base_gpu, table, mechanisms=())
    rl = rl_gpu.regless
    counts = dict(power_counts(rl_stats,
                               granules_per_bank_access=rl_gpu.regfile.bank_width_bits / 128))
    counts["regfile_granule_writes"] = (counts.get("regfile_granule_writes", 0.0)
                                        + GRANULES_PER_LINE * rl_stats.get("rl_preload_mem", 0))
    counts["regfile_granule_reads"] = (counts.get("regfile_granule_reads", 0.0)
                                       + GRANULES_PER_LINE * rl_stats.get("rl_evictions_dirty",
                                                                          0))
    bd_rl = energy_for_gpu(counts, rl_gpu, table)
    rf_rl = bd_rl.by_component_j["register_file"]
    osu = osu_ratio(rl) * rf_rl
    comp = meta = 0.0
    if rl.design == "regless":  # RFV: no compressor, free rename table and metadata (§6)
        comp = (rl_stats.get("rl_compressor_ops", 0) * rl.compressor_pj * 1e-12
                + rl.compressor_leak_mw * 1e-3 * rl_gpu.sm.n_sms * bd_rl.seconds)
        meta = rl_stats.get("rl_meta_words", 0) * rl.meta_word_pj * 1e-12
    mech = bd_rl.by_component_j.get("regless", 0.0)
    reg_l1 = (rl_stats.get("rl_line_loads", 0) * _entry_pj(table, "l1d_read_hits")
              + rl_stats.get("rl_line_stores", 0) * _entry_pj(table, "l1d_write_hits")) * 1e-12
    return RegLessEnergy(rf_base_j=bd_base.by_component_j["register_file"],
                         gpu_base_j=bd_base.total_j, osu_j=osu, compressor_j=comp,
                         meta_j=meta, reg_l1_j=reg_l1,
                         gpu_j=bd_rl.total_j - rf_rl + osu - mech + comp + meta)


def _rfh_accesses_j(bd: Any, a: Mapping[str, float]) -> tuple[float, float]:
    """(the run's granule read + write energy, RFH's MRF/ORF/LRF access energy instead)."""
    from warpsim.mechanisms.regless.rfh import LRF_PJ_RATIO, ORF_PJ_RATIO

    reads = a["mrf_reads"] + a["orf_reads"] + a["lrf_reads"]
    e_rd_all = bd.by_counter_j.get("regfile_granule_reads", 0.0)
    e_wr_all = bd.by_counter_j.get("regfile_granule_writes", 0.0)
    e_rd = e_rd_all / reads if reads else 0.0
    e_wr = e_wr_all / a["values"] if a["values"] else 0.0
    return e_rd_all + e_wr_all, (e_rd * a["mrf_reads"] + e_wr * a["mrf_writes"]
                                 + e_rd * (ORF_PJ_RATIO * (a["orf_reads"] + a["orf_writes"])
                                           + LRF_PJ_RATIO * (a["lrf_reads"] + a["lrf_writes"])))


def rfh_access_saving(rfh_stats: Mapping[str, float], accesses: Mapping[str, float],
                      rfh_gpu: Any) -> float:
    """RFH's saving on register accesses alone (leakage and collectors left out)."""
    bd = energy_for_gpu(rfh_stats, rfh_gpu, table_for_gpu(rfh_gpu.name), mechanisms=())
    full, rfh = _rfh_accesses_j(bd, accesses)
    return 1.0 - rfh / full if full else float("nan")


def rfh_energy(base_stats: Mapping[str, float], rfh_stats: Mapping[str, float],
               accesses: Mapping[str, float], base_gpu: Any, rfh_gpu: Any) -> RegLessEnergy:
    """Energy of the baseline run and the RFH run (``accesses``: the compiler's dynamic MRF,
    ORF and LRF counts, ``rfh.KINDS``), as ``regless_energy`` reports RegLess's."""
    table = table_for_gpu(base_gpu.name)
    bd_base = energy_for_gpu(base_stats, base_gpu, table, mechanisms=())
    bd = energy_for_gpu(rfh_stats, rfh_gpu, table, mechanisms=())
    full, instead = _rfh_accesses_j(bd, accesses)
    rf = bd.by_component_j["register_file"]
    rs = rf - full + instead
    return RegLessEnergy(rf_base_j=bd_base.by_component_j["register_file"],
                         gpu_base_j=bd_base.total_j, osu_j=rs, compressor_j=0.0, meta_j=0.0,
                         reg_l1_j=0.0, gpu_j=bd.total_j - rf + rs)
