"""Metrics of the uniform-vector reproduction from a run's statistics: the Fig. 2 redundancy
ratios, the dynamic energy of the register files, ALUs and added structures (Table 2), the
reliability coverage (Figs 14-15), and geometric means.

Follows: specs/xiang-simt-efficiency.md §1.3 (counting rules), §1.9 (coverage definitions),
§1.12 (Table 2 energies, calibration hints), §1.13 (the paper's numbers).
Assumptions:
  [A] VRF energy is per 32-bit lane access (Table 2: 2.46 pJ read, 5.82 pJ write); an ALU lane
      operation costs ``ALU_LANE_PJ`` (the text gives none: "extracted from GPUWattch").
  [A] The dynamic-energy saving is the change in (VRF + ALU + SRF + IRB) energy over the
      baseline's whole dynamic energy from warpsim's power model (GTX285 run).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["ALU_LANE_PJ", "PAPER", "VRF_READ_PJ", "VRF_WRITE_PJ", "coverage", "gm_ratio",
           "rf_alu_energy_pj", "redundancy"]

VRF_READ_PJ = 2.46
VRF_WRITE_PJ = 5.82
SRF_READ_PJ = 0.176
SRF_WRITE_PJ = 0.162
ALU_LANE_PJ = 10.0
"""[A] One 32-bit ALU lane operation at 40 nm (GPUWattch-class; the text gives no value)."""
IRB_ACCESS_PJ = 0.88

PAPER: dict[str, Any] = {
    "intra_redundancy": 0.181, "inter_redundancy": 0.089, "combined_redundancy": 0.184,
    "va_intra": 0.415, "va_inter": 0.285, "va_combined": 0.424,
    "speedup_token": {"intra": 0.074, "inter": 0.081, "combined": 0.120},
    "speedup_srf": {"intra": 0.067, "inter": 0.072, "combined": 0.107},
    "dynamic_energy_saving_token": 0.136, "dynamic_energy_saving_srf": 0.147,
    "total_energy_saving_token": {"intra": 0.098, "inter": 0.080, "combined": 0.127},
    "total_energy_saving_srf": {"intra": 0.103, "inter": 0.076, "combined": 0.122},
    "irb_size": {2: 0.108, 4: 0.115, 8: 0.120, 16: 0.123},
    "simd16": {"intra": 0.003, "inter": 0.082, "combined": 0.085},
    "alu_coverage": {"token": 0.211, "srf": 0.195}, "alu_coverage_max_va": 0.429,
    "vrf_coverage": 0.141, "vrf_coverage_max": 0.400, "cow_ratio_avg": 0.0001,
    "cow_ratio_max_fft": 0.00044,
}
"""The dissertation's numbers (spec §1.13)."""


def _ratio(a: float, b: float) -> float:
    return a / b if b else float("nan")


def redundancy(stats: Mapping[str, Any]) -> dict[str, float]:
    """Fig. 2 ratios: redundant scalar operations over all dynamic thread instructions
    (``gpu_sim_insn``): intra 31 per detected instruction, inter 32 per IRB hit, combined
    31 per detected + 1 per hit (spec §1.3); ``intra_true``: 31 per instruction the trace finds
    uniform (full mask, every result uniform): what a perfect detector would count."""
    n = float(stats.get("gpu_sim_insn", 0))
    return {"intra": _ratio(stats.get("uv_redundant_ops_intra", 0), n),
            "inter": _ratio(stats.get("uv_redundant_ops_inter", 0), n),
            "combined": _ratio(stats.get("uv_redundant_ops_combined", 0), n),
            "intra_true": _ratio(31 * stats.get("uv_walk_true_uniform_insts", 0), n)}


def rf_alu_energy_pj(stats: Mapping[str, Any], *, baseline: bool = False) -> float:
    """VRF lane accesses, ALU lane operations, SRF and IRB accesses priced by Table 2
    (``baseline``: the same instruction stream without the mechanism, from ``uv_base_*``)."""
    g = stats.get
    if baseline:
        return (g("uv_base_vrf_lane_reads", 0) * VRF_READ_PJ
                + g("uv_base_vrf_lane_writes", 0) * VRF_WRITE_PJ
                + g("uv_base_alu_lane_ops", 0) * ALU_LANE_PJ)
    return (g("uv_vrf_lane_reads", 0) * VRF_READ_PJ + g("uv_vrf_lane_writes", 0) * VRF_WRITE_PJ
            + g("uv_alu_lane_ops", 0) * ALU_LANE_PJ + g("uv_srf_reads", 0) * SRF_READ_PJ
            + g("uv_srf_writes", 0) * SRF_WRITE_PJ
            + (g("uv_irb_lookups", 0) + g("uv_irb_fills", 0)) * IRB_ACCESS_PJ)


def coverage(stats: Mapping[str, Any]) -> dict[str, float]:
    """ALU coverage (protected ALU thread operations / all) and VRF coverage (protected live
    register-cycles / all), spec §1.9."""
    return {"alu": _ratio(stats.get("uv_alu_ops_protected", 0), stats.get("uv_alu_ops_total", 0)),
            "vrf": _ratio(stats.get("uv_vrf_protected_live_cycles", 0),
                          stats.get("uv_vrf_live_cycles", 0))}


def gm_ratio(values: Sequence[float]) -> float:
    """Geometric mean of (1 + v) minus 1 over the finite values (the paper's GM of ratios)."""
    vs = [v for v in values if isinstance(v, (int, float)) and math.isfinite(v) and v > -1]
    if not vs:
        return float("nan")
    return math.exp(sum(math.log1p(v) for v in vs) / len(vs)) - 1.0
