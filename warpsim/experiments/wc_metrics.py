"""The Warped-Compression paper's metrics of one benchmark, and their averages, from counters.

Follows: specs/warped-compression.md §4 (Figs. 2, 3, 8: value similarity, divergence, compression
ratio by region), §8-§9 (what each figure reports) and §11 A3 (the compression ratio is the
bank-granular aggregate ``sum 8 / sum banks`` of a benchmark's writes, averaged arithmetically over
benchmarks; the byte-granular ``sum 128 / sum bytes`` is reported beside it). Inputs are flat
statistics dicts: the baseline run's engine counters and the WC run's ``wc_*`` counters (the
contract in docs/reproductions/warped-compression.md). A ratio whose denominator is zero (e.g.
the divergent region of a benchmark that never diverges, AES in the paper) is ``None`` and is
left out of the average, as the paper's "N/A" bars are.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from warpsim.experiments.wc_energy import (
    RFEnergyParams,
    baseline_rf_energy,
    energy_savings,
    run_cycles,
    wc_rf_energy,
)

__all__ = [
    "BDI_FULL_BANKS",
    "BDI_FULL_OPTIONS",
    "ENC_BANKS",
    "ENC_BYTES",
    "SIM_BINS",
    "benchmark_metrics",
    "compression_ratio",
    "energy_metrics",
    "mean_metrics",
]

ENC_BANKS = (1, 3, 5, 8)
"""Banks of the encodings 0=<4,0>, 1=<4,1>, 2=<4,2>, 3=uncompressed (Table 1)."""
ENC_BYTES = (4, 35, 66, 128)
"""Bytes of the same encodings (Eq. 1)."""
BDI_FULL_OPTIONS = ("4_0", "4_1", "4_2", "8_0", "8_1", "8_2", "8_4", "unc")
"""Options of the full BDI selector (Fig. 5, spec §3.6), as in ``wc_bdi_full_<option>``."""
BDI_FULL_BANKS = {"4_0": 1, "4_1": 3, "4_2": 5, "8_0": 1, "8_1": 2, "8_2": 3, "8_4": 5, "unc": 8}
"""Banks of each full-BDI option (Table 1)."""
SIM_BINS = ("zero", "128", "32k", "random")
"""Value-similarity bins of Fig. 2 (worst successive-lane distance, spec §4.1)."""


def _get(stats: Mapping[str, Any], name: str) -> float:
    value = stats.get(name, 0)
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return 0.0
    return float(value)


def _ratio(num: float, den: float) -> float | None:
    return num / den if den else None


def compression_ratio(counts: Sequence[float], *, byte: bool = False) -> float | None:
    """Aggregate compression ratio of writes with encoding histogram ``counts`` (4 entries:
    <4,0>, <4,1>, <4,2>, uncompressed): ``sum 8 / sum banks``, or ``sum 128 / sum bytes``."""
    n = sum(counts)
    size, full = (ENC_BYTES, 128) if byte else (ENC_BANKS, 8)
    return _ratio(full * n, sum(c * s for c, s in zip(counts, size, strict=True)))


def _enc(stats: Mapping[str, Any], prefix: str) -> list[float]:
    return [_get(stats, f"{prefix}_{i}") for i in range(4)]


def _bdi_full_cr(stats: Mapping[str, Any]) -> float | None:
    counts = {o: _get(stats, f"wc_bdi_full_{o}") for o in BDI_FULL_OPTIONS}
    return _ratio(8 * sum(counts.values()),
                  sum(n * BDI_FULL_BANKS[o] for o, n in counts.items()))


def energy_metrics(base: Mapping[str, Any], wc: Mapping[str, Any], params: RFEnergyParams,
                   n_sms: int, *, prefix: str = "") -> dict[str, float]:
    """Energy savings of ``wc`` against ``base`` and the Fig. 9 breakdown, normalised to the
    baseline's total energy (keys prefixed with ``prefix``)."""
    e_base = baseline_rf_energy(base, params, n_sms)
    e_wc = wc_rf_energy(wc, params, n_sms)
    e_res = wc_rf_energy(wc, params, n_sms, resident_only=True)
    sav = energy_savings(e_base, e_wc)
    sav_res = energy_savings(e_base, e_res)
    tot = e_base.total_pj or float("nan")
    return {
        f"{prefix}rf_energy_saving": sav["total"],
        f"{prefix}rf_dynamic_energy_saving": sav["dynamic"],
        f"{prefix}rf_bank_wire_energy_saving": sav["bank_wire"],
        f"{prefix}rf_leakage_energy_saving": sav["leakage"],
        f"{prefix}rf_energy_saving_resident": sav_res["total"],
        f"{prefix}rf_leakage_energy_saving_resident": sav_res["leakage"],
        f"{prefix}base_leakage_norm": e_base.leakage_pj / tot,
        f"{prefix}base_dynamic_norm": e_base.dynamic_pj / tot,
        f"{prefix}wc_leakage_norm": e_wc.leakage_pj / tot,
        f"{prefix}wc_dynamic_norm": e_wc.dynamic_pj / tot,
        f"{prefix}wc_comp_norm": e_wc.comp_pj / tot,
        f"{prefix}wc_decomp_norm": e_wc.decomp_pj / tot,
        f"{prefix}base_rf_energy_pj": e_base.total_pj,
        f"{prefix}wc_rf_energy_pj": e_wc.total_pj,
    }


def benchmark_metrics(base: Mapping[str, Any], wc: Mapping[str, Any], params: RFEnergyParams,
                      n_sms: int) -> dict[str, Any]:
    """Every per-benchmark quantity of the paper's Figs. 2-13 for one (baseline, WC) pair."""
    nondiv, div = _get(wc, "wc_warp_insts_nondiv"), _get(wc, "wc_warp_insts_div")
    insts = nondiv + div
    out: dict[str, Any] = {
        "compression_ratio_nondivergent": compression_ratio(_enc(wc, "wc_enc_nondiv")),
        "compression_ratio_divergent": compression_ratio(_enc(wc, "wc_whatif_enc_div")),
        "compression_ratio_nondivergent_byte": compression_ratio(_enc(wc, "wc_enc_nondiv"),
                                                                 byte=True),
        "compression_ratio_divergent_byte": compression_ratio(_enc(wc, "wc_whatif_enc_div"),
                                                              byte=True),
        "compression_ratio_stored": compression_ratio(
            [a + b for a, b in zip(_enc(wc, "wc_enc_nondiv"), _enc(wc, "wc_enc_div"),
                                   strict=True)]),
        "compression_ratio_all_whatif": compression_ratio(
            [a + b for a, b in zip(_enc(wc, "wc_enc_nondiv"), _enc(wc, "wc_whatif_enc_div"),
                                   strict=True)]),
        "compression_ratio_full_bdi": _bdi_full_cr(wc),
        "nondivergent_instruction_fraction": _ratio(nondiv, insts),
        "dummy_mov_fraction": _ratio(_get(wc, "wc_mov_insts"), insts),
        "execution_time_increase": run_cycles(wc) / run_cycles(base) - 1.0,
        "base_cycles": run_cycles(base),
        "wc_cycles": run_cycles(wc),
        "compressed_reg_fraction_nondivergent": _ratio(_get(wc, "wc_compressed_regs_nondiv"),
                                                       _get(wc, "wc_allocated_regs_nondiv")),
        "compressed_reg_fraction_divergent": _ratio(_get(wc, "wc_compressed_regs_div"),
                                                    _get(wc, "wc_allocated_regs_div")),
        "gated_bank_cycle_fraction": _ratio(_get(wc, "wc_gated_bank_cycles"),
                                            _get(wc, "wc_bank_cycles")),
        "gated_bank_cycle_fraction_resident": _ratio(_get(wc, "wc_gated_bank_cycles_resident"),
                                                     _get(wc, "wc_bank_cycles")),
        "banks_per_access": _ratio(_get(wc, "wc_bank_reads") + _get(wc, "wc_bank_writes")
                                   - _get(wc, "wc_mov_bank_reads")
                                   - _get(wc, "wc_mov_bank_writes"),
                                   (_get(wc, "wc_base_bank_reads")
                                    + _get(wc, "wc_base_bank_writes")) / 8.0),
        "base_access_agreement": _ratio(_get(wc, "wc_base_bank_reads")
                                        + _get(wc, "wc_base_bank_writes"),
                                        8.0 * (_get(base, "regfile_bank_reads")
                                               + _get(base, "regfile_bank_writes"))),
    }
    for region in ("nondiv", "div"):
        bins = [_get(wc, f"wc_sim_{region}_{b}") for b in SIM_BINS]
        for b, n in zip(SIM_BINS, bins, strict=True):
            out[f"sim_{region}_{b}_fraction"] = _ratio(n, sum(bins))
    full = [_get(wc, f"wc_bdi_full_{o}") for o in BDI_FULL_OPTIONS]
    for o, n in zip(BDI_FULL_OPTIONS, full, strict=True):
        out[f"bdi_full_{o}_fraction"] = _ratio(n, sum(full))
    per_bank = _get(wc, "wc_bank_cycles") / params.n_banks_per_sm
    for b in range(params.n_banks_per_sm):
        out[f"gated_fraction_b{b}"] = _ratio(_get(wc, f"wc_gated_bank_cycles_b{b}"), per_bank)
    out.update(energy_metrics(base, wc, params, n_sms))
    return out


def mean_metrics(rows: Iterable[Mapping[str, Any]],
                 keys: Iterable[str] | None = None) -> dict[str, float | None]:
    """Arithmetic mean over benchmarks of each key, skipping ``None`` and NaN (the paper's
    "average" bars); ``None`` when no benchmark has a value."""
    rows = list(rows)
    if keys is None:
        keys = dict.fromkeys(k for r in rows for k in r)
    out: dict[str, float | None] = {}
    for key in keys:
        vals = [float(r[key]) for r in rows
                if isinstance(r.get(key), int | float) and not isinstance(r.get(key), bool)
                and not math.isnan(float(r[key]))]
        out[key] = sum(vals) / len(vals) if vals else None
    return out
