"""Counters the energy model needs beyond ``stats.BASELINE``, and their fallbacks from it.

Follows: STYLE.md §2.5 (declared counters, ``<structure>_<event>`` names) and §2.6;
reference/energy-and-configs.md §2.1 (what GPUWattch/AccelWattch count: ``REG_RD``/``REG_WR``
per thread operand, ``DC_RH``/``DC_RM``/``DC_WH``/``DC_WM``, ``L2_RH``/..., ``IC_H``/``IC_M``).

The timing engine does not exist yet, so these counters are declared here as registry extras
(``POWER_REGISTRY = REGISTRY.with_counters(POWER_COUNTERS)``) rather than in ``stats.py``; the
engine may later move them into ``BASELINE`` (array-backed) under the same names and meanings.
Until it counts them, ``power_counts`` derives each one from baseline counters when it is
absent from the counter dict (the rules are listed in ``DERIVATION_RULES``).

Register-file accounting (docs/energy-model.md §3): the primary unit is the **128-bit bank
granule** (``regfile_granule_reads`` / ``regfile_granule_writes``): a full 32-lane warp register
is 8 granules (Warped-Compression's 8 x 128-bit banks), a GPGPU-Sim 1024-bit bank access is
8 granules, and GPUWattch's per-thread-operand count with ``-n_regfile_gating_group 4`` is
4 thread operands per granule. The per-lane counters (``regfile_lane_reads``/``_writes``) serve
tables that charge per 32-bit lane (Xiang Table 2).

GPUWattch activity (``gpuwattch_*``, docs/energy-model.md §4): per-opcode ALU access units,
INT/FP decoded instructions and non-RF operands as GPGPU-Sim counts them, computed from the
functional executor's per-PC counts by ``power.activity.gpuwattch_activity``; without them the
per-pipeline counters stand in (every INT warp instruction at the INT weight 25, every SFU one
at the SQRT weight 25, all 32 lanes).

Assumptions: [A] without per-access read/write hit/miss counts, L1D and L2 misses are split
between reads and writes in proportion to the reads' and writes' share of accesses.
"""

from __future__ import annotations

from collections.abc import Mapping

from warpsim.errors import InternalError
from warpsim.stats import REGISTRY, Counter, CounterRegistry

__all__ = [
    "DERIVATION_RULES",
    "LANES_PER_GRANULE",
    "POWER_COUNTERS",
    "POWER_REGISTRY",
    "power_counts",
]

LANES_PER_GRANULE = 4
"""32-bit lanes in one 128-bit granule (GPGPU-Sim ``-n_regfile_gating_group`` default 4)."""


def _c(name: str, unit: str, scope: str, doc: str) -> Counter:
    return Counter(name, unit, scope, doc)


POWER_COUNTERS: tuple[Counter, ...] = (
    # -- register file: granules, lanes, gating --------------------------------------------
    _c("regfile_granule_reads", "count", "bank", "128-bit bank granules read (8 per full "
       "warp register; fewer when compressed or when inactive 4-lane groups are gated)"),
    _c("regfile_granule_writes", "count", "bank", "128-bit bank granules written (8 per full "
       "warp register; fewer when compressed or when inactive 4-lane groups are gated)"),
    _c("regfile_lane_reads", "count", "bank", "32-bit thread operands read from the register "
       "file (active lanes of each warp register read)"),
    _c("regfile_lane_writes", "count", "bank", "32-bit thread operands written to the "
       "register file (active lanes of each warp register written)"),
    _c("regfile_gated_bank_cycles", "cycle", "bank", "sum over cycles of physical register "
       "banks (the table's regfile_bank_bytes each) that were power-gated"),
    # -- caches split by read/write and hit/miss (GPUWattch DC_*, L2_*, IC_*, CC_*, TC_*) ------
    _c("l1d_read_hits", "count", "cache", "L1D read accesses that hit (GPUWattch DC_RH)"),
    _c("l1d_read_misses", "count", "cache", "L1D read accesses that missed (DC_RM)"),
    _c("l1d_write_hits", "count", "cache", "L1D write accesses that hit (DC_WH)"),
    _c("l1d_write_misses", "count", "cache", "L1D write accesses that missed (DC_WM)"),
    _c("l1i_hits", "count", "cache", "instruction-cache hits (IC_H)"),
    _c("l1c_hits", "count", "cache", "constant-cache hits (CC_H)"),
    _c("l1t_hits", "count", "cache", "texture-cache hits (TC_H)"),
    _c("l2_read_hits", "count", "l2", "L2 read accesses that hit (L2_RH)"),
    _c("l2_read_misses", "count", "l2", "L2 read accesses that missed (L2_RM)"),
    _c("l2_write_hits", "count", "l2", "L2 write accesses that hit (L2_WH)"),
    _c("l2_write_misses", "count", "l2", "L2 write accesses that missed (L2_WM)"),
    # -- GPUWattch activity from the functional per-PC counts (power.activity) ---------------
    _c("gpuwattch_sp_acc", "count", "pipe", "GPUWattch SP_ACC units: INT lanes x weight 25, "
       "inactive lanes at half (-gpgpu_clock_gated_lanes 0)"),
    _c("gpuwattch_fpu_acc", "count", "pipe", "GPUWattch FPU_ACC units: FP, FP_MUL, FP_DIV, "
       "IMUL, IMUL24 lanes x weight (inactive lanes charged) + texture lanes"),
    _c("gpuwattch_sfu_acc", "count", "pipe", "GPUWattch SFU_ACC units: IMUL32, IDIV, "
       "transcendental lanes x weight (inactive lanes charged)"),
    _c("gpuwattch_sp_acc_active", "count", "pipe", "SP_ACC units of active lanes only "
       "(-gpgpu_clock_gated_lanes 1)"),
    _c("gpuwattch_fpu_acc_active", "count", "pipe", "FPU_ACC units of active lanes only"),
    _c("gpuwattch_sfu_acc_active", "count", "pipe", "SFU_ACC units of active lanes only"),
    _c("gpuwattch_fp_int_insts", "count", "scheduler", "INT- and FP-class decoded warp "
       "instructions (GPUWattch FP_INT; all but branches, barriers, membar, ret, exit, nop)"),
    _c("gpuwattch_non_rf_operands", "count", "sm", "warp operands after the first PTX operand "
       "that are not registers: immediates, special registers, symbols, memory operands "
       "(GPGPU-Sim incnon_rf_operands / 32)"),
)
"""Counters the energy tables charge that ``stats.BASELINE`` does not declare (yet)."""

POWER_REGISTRY: CounterRegistry = REGISTRY.with_counters(POWER_COUNTERS)
"""The baseline registry plus ``POWER_COUNTERS``: every table entry's counter is declared here
(or in a mechanism's ``COUNTERS``)."""

DERIVATION_RULES: dict[str, str] = {
    "regfile_granule_reads": "regfile_bank_reads x granules_per_bank_access",
    "regfile_granule_writes": "regfile_bank_writes x granules_per_bank_access",
    "regfile_lane_reads": "regfile_granule_reads x 4 (no active-mask information)",
    "regfile_lane_writes": "regfile_granule_writes x 4 (no active-mask information)",
    "regfile_gated_bank_cycles": "0 (the baseline never gates a bank)",
    "l1d_read_hits": "reads - read misses, reads = L1D accesses - L1D writes",
    "l1d_read_misses": "L1D misses x reads / accesses [A]",
    "l1d_write_hits": "L1D writes - write misses",
    "l1d_write_misses": "L1D misses - read misses",
    "l1i_hits": "L1I_total_cache_accesses - L1I_total_cache_misses",
    "l1c_hits": "L1C_total_cache_accesses - L1C_total_cache_misses",
    "l1t_hits": "L1T_total_cache_accesses - L1T_total_cache_misses",
    "l2_read_hits": "as l1d_read_hits over the L2_total_cache_* counters",
    "l2_read_misses": "as l1d_read_misses over the L2_total_cache_* counters",
    "l2_write_hits": "as l1d_write_hits over the L2_total_cache_* counters",
    "l2_write_misses": "as l1d_write_misses over the L2_total_cache_* counters",
    "gpuwattch_sp_acc": "exec_int32_warp_insts x 32 x 25",
    "gpuwattch_fpu_acc": "(exec_fp32_warp_insts + exec_fp64_warp_insts) x 32",
    "gpuwattch_sfu_acc": "exec_sfu_warp_insts x 32 x 25 (the SQRT weight) [A]",
    "gpuwattch_sp_acc_active": "exec_int32_thread_insts x 25",
    "gpuwattch_fpu_acc_active": "exec_fp32_thread_insts + exec_fp64_thread_insts",
    "gpuwattch_sfu_acc_active": "exec_sfu_thread_insts x 25 [A]",
    "gpuwattch_fp_int_insts": "exec_int32 + exec_fp32 + exec_fp64 warp instructions",
    "gpuwattch_non_rf_operands": "regfile_non_rf_operands (immediates only)",
}
"""How ``power_counts`` derives each power counter that a counter dict lacks."""


_INT_W, _SFU_W, _LANES = 25.0, 25.0, 32.0
_ACTIVITY_FALLBACKS: dict[str, tuple[tuple[str, float], ...]] = {
    "gpuwattch_sp_acc": (("exec_int32_warp_insts", _LANES * _INT_W),),
    "gpuwattch_fpu_acc": (("exec_fp32_warp_insts", _LANES), ("exec_fp64_warp_insts", _LANES)),
    "gpuwattch_sfu_acc": (("exec_sfu_warp_insts", _LANES * _SFU_W),),
    "gpuwattch_sp_acc_active": (("exec_int32_thread_insts", _INT_W),),
    "gpuwattch_fpu_acc_active": (("exec_fp32_thread_insts", 1.0),
                                 ("exec_fp64_thread_insts", 1.0)),
    "gpuwattch_sfu_acc_active": (("exec_sfu_thread_insts", _SFU_W),),
    "gpuwattch_fp_int_insts": (("exec_int32_warp_insts", 1.0), ("exec_fp32_warp_insts", 1.0),
                               ("exec_fp64_warp_insts", 1.0)),
    "gpuwattch_non_rf_operands": (("regfile_non_rf_operands", 1.0),),
}
"""``(counter, factor)`` sums standing in for absent GPUWattch activity counters."""


def _get(stats: Mapping[str, float], name: str) -> float:
    return float(stats.get(name, 0))


def _split_rw(stats: Mapping[str, float], prefix: str) -> dict[str, float]:
    """Read/write x hit/miss of one cache from its accesses, misses and writes totals."""
    acc = _get(stats, f"{prefix}_total_cache_accesses")
    miss = _get(stats, f"{prefix}_total_cache_misses")
    writes = _get(stats, f"{prefix}_total_cache_writes")
    reads = acc - writes
    if reads < 0 or miss > acc:
        raise InternalError(f"{prefix} counters are inconsistent: accesses {acc:g}, "
                            f"writes {writes:g}, misses {miss:g}")
    read_miss = miss * reads / acc if acc else 0.0
    write_miss = miss - read_miss
    return {"read_hits": reads - read_miss, "read_misses": read_miss,
            "write_hits": writes - write_miss, "write_misses": write_miss}


def _hits(stats: Mapping[str, float], prefix: str) -> float:
    acc = _get(stats, f"{prefix}_total_cache_accesses")
    miss = _get(stats, f"{prefix}_total_cache_misses")
    if miss > acc:
        raise InternalError(f"{prefix} counters are inconsistent: {miss:g} misses > "
                            f"{acc:g} accesses")
    return acc - miss


def power_counts(stats: Mapping[str, float], *,
                 granules_per_bank_access: float = 8.0) -> dict[str, float]:
    """``stats`` plus every ``POWER_COUNTERS`` entry it lacks, derived by ``DERIVATION_RULES``.

    Counters present in ``stats`` are kept as they are. ``granules_per_bank_access`` is the
    register-file bank width in 128-bit granules (``regfile.bank_width_bits / 128``: 8 for
    GPGPU-Sim's 1024-bit banks).

    Raises
    ------
    InternalError
        When ``regfile_granule_reads`` (``_writes``) is present and 0 while
        ``regfile_bank_reads`` (``_writes``) is positive (an engine that declares the granule
        counters must count them), or when cache totals are inconsistent.
    """
    out = {name: float(value) for name, value in stats.items()}
    for kind in ("reads", "writes"):
        granule, bank = f"regfile_granule_{kind}", f"regfile_bank_{kind}"
        if granule not in out:
            out[granule] = _get(stats, bank) * granules_per_bank_access
        elif out[granule] == 0 and _get(stats, bank) > 0:
            raise InternalError(f"{granule} = 0 but {bank} = {_get(stats, bank):g}: an engine "
                                f"that exports {granule} must count it")
        lane = f"regfile_lane_{kind}"
        if lane not in out:
            out[lane] = out[granule] * LANES_PER_GRANULE
    out.setdefault("regfile_gated_bank_cycles", 0.0)
    for prefix, key in (("L1D", "l1d"), ("L2", "l2")):
        names = [f"{key}_{part}" for part in ("read_hits", "read_misses", "write_hits",
                                              "write_misses")]
        if not all(n in out for n in names):
            split = _split_rw(stats, prefix)
            for part, value in split.items():
                out.setdefault(f"{key}_{part}", value)
    for prefix, name in (("L1I", "l1i_hits"), ("L1C", "l1c_hits"), ("L1T", "l1t_hits")):
        if name not in out:
            out[name] = _hits(stats, prefix)
    for name, terms in _ACTIVITY_FALLBACKS.items():
        if name not in out:
            out[name] = sum(_get(stats, c) * f for c, f in terms)
    return out

