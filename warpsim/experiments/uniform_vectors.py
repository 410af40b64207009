"""Reproduction of uniform vectors (Xiang, "Toward Efficient SIMT Execution", ch. 2) on the
GTX285-like configuration: ``warpsim reproduce uniform-vectors [--quick] [--json]``.

Runs warpsim's own benchmarks standing for the dissertation's Table 3 (``uv_runs.BENCH_QUICK``
/ ``BENCH_FULL``) under the baseline and the Intra / Inter / Combined configurations of both
designs, with and without redundancy for reliability (spec §1.11); then the IRB-size study
(Fig. 12), the SRF-size study (Fig. 11) and the 16-SP study (Fig. 13). Writes
``summary.json`` into the result folder and returns the summary (the CLI prints it with
``--json``): ``intra_redundancy``,
``inter_redundancy``, ``combined_redundancy``, ``speedup_token``, ``speedup_srf``,
``dynamic_energy_saving_token``, ``dynamic_energy_saving_srf``, ``alu_coverage``,
``vrf_coverage``, ``per_benchmark``, ``irb_size``, ``srf_size``, ``simd16``, ``failed``,
``paper``; beside the figures (``VARIANTS``): the oracle IRB's redundancy, the speedups without
broadcast-path tokens, with SR release at WB and without the rename stage, and the injected
faults with their detections (``fault_injection``); ``storage_bits`` (the added structures).

Follows: specs/xiang-simt-efficiency.md §1.11-§1.14; docs/reproductions/uniform-vectors.md.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

from warpsim.experiments.uv_analysis import PAPER, gm_ratio
from warpsim.experiments.uv_runs import BENCH_FULL, BENCH_QUICK, SIMD16, BenchSel, run_one
from warpsim.runner.reproduce import register_reproduction

__all__ = ["reproduce_uniform_vectors", "run_experiment"]

_log = logging.getLogger(__name__)

VARIANTS = ("oracle_token", "nobcast_token", "wb_srf", "norename_srf", "irb_faults_token")
MAIN = ("base", "intra_token", "inter_token", "combined_token", "intra_srf", "inter_srf",
        "combined_srf", "reliable_token", "reliable_srf", *VARIANTS)
QUICK = ("base", "intra_token", "inter_token", "combined_token", "intra_srf", "combined_srf",
         "reliable_token", "reliable_srf", *VARIANTS)
IRB_SIZES = (2, 4, 16)
SRF_SIZES = (16, 32, 64, 256)


def _saving(base: dict[str, Any], r: dict[str, Any], key: str) -> float:
    """1 - E(run)/E(base): warpsim's power model plus the Table 2 lane-level VRF/ALU change
    the power model does not see (``uv_analysis`` [A])."""
    delta = (r["rf_alu_base_pj"] - r["rf_alu_pj"]) * 1e-12
    return 1.0 - (r[key] - delta) / base[key] if base[key] else float("nan")


def _per_bench(runs: dict[str, dict[str, Any]]) -> dict[str, Any]:
    base = runs["base"]
    out: dict[str, Any] = {"cycles_base": base["cycles"], "ipc_base": base["ipc"],
                           "verified": all(r["verified"] for r in runs.values())}
    for cfg, r in runs.items():
        if cfg == "base":
            continue
        out[cfg] = {"cycles": r["cycles"], "ipc": r["ipc"],
                    "speedup": base["cycles"] / r["cycles"] - 1.0,
                    "dynamic_energy_saving": _saving(base, r, "dynamic_j"),
                    "energy_saving": _saving(base, r, "energy_j"),
                    "redundancy": r["redundancy"], "coverage": r["coverage"],
                    "cow_ratio": r["cow_ratio"], "cow_all_ratio": r["cow_all_ratio"],
                    "detected": r["uv"].get("uv_detected_insts", 0),
                    "walk_true_uniform": r["uv"].get("uv_walk_true_uniform_insts", 0),
                    # soundness: detected instructions whose result the trace finds non-uniform
                    "detected_not_true": r["uv"].get("uv_walk_detected_not_true", 0),
                    "converted": r["uv"].get("uv_converted_insts", 0),
                    "irb_hits": r["uv"].get("uv_irb_hits", 0),
                    "srf_full": r["uv"].get("uv_not_converted_srf_full", 0),
                    "srf_peak": r["uv"].get("uv_srf_peak_occupancy", 0),
                    "broadcast_loads": r["uv"].get("uv_broadcast_loads", 0),
                    "faults": {k: r["uv"].get(f"uv_{k}", 0) for k in _FAULT_STATS}}
    return out


_FAULT_STATS = ("alu_faults", "alu_faults_detected", "alu_faults_masked", "irb_faults",
                "irb_parity_errors", "irb_silent_corruptions")


def _variants(per: dict[str, Any]) -> dict[str, Any]:
    """The design points beside the figures: the oracle IRB's Fig. 2 ratios, the speedups
    without broadcast-path tokens, with SR release at WB and without the rename stage, the
    faults injected into the reliable runs with their detections, and the energy overhead of
    the redundancy (reliable over Combined, Fig. 16's text: +0.29 / +0.17 % dynamic)."""
    def tot(cfg: str, key: str) -> int:
        return sum(p[cfg]["faults"][key] for p in per.values() if cfg in p)

    faults = {}
    for d in ("token", "srf"):
        n = tot(f"reliable_{d}", "alu_faults")
        safe = tot(f"reliable_{d}", "alu_faults_detected") + tot(f"reliable_{d}",
                                                                 "alu_faults_masked")
        per_bench = [(p[f"reliable_{d}"]["faults"]["alu_faults_detected"]
                      + p[f"reliable_{d}"]["faults"]["alu_faults_masked"])
                     / p[f"reliable_{d}"]["faults"]["alu_faults"] for p in per.values()
                     if f"reliable_{d}" in p and p[f"reliable_{d}"]["faults"]["alu_faults"]]
        # ratio_gm compares with alu_coverage (the GM of the counted coverage)
        faults[f"alu_{d}"] = {"injected": n, "detected_or_masked": safe,
                              "ratio": safe / n if n else float("nan"),
                              "ratio_gm": gm_ratio(per_bench)}
    n = tot("irb_faults_token", "irb_faults")
    faults["irb_token"] = {"injected": n, "parity_detected": tot("irb_faults_token",
                                                                 "irb_parity_errors"),
                           "speedup": _gm(per, "irb_faults_token", "speedup")}
    overhead = {}
    for d in ("token", "srf"):
        for kind, key in (("dynamic", "dynamic_energy_saving"), ("total", "energy_saving")):
            # E(reliable) / E(combined) - 1 from the savings over the same baseline
            overhead[f"{kind}_{d}"] = gm_ratio([
                (1.0 - p[f"reliable_{d}"][key]) / (1.0 - p[f"combined_{d}"][key]) - 1.0
                for p in per.values() if f"reliable_{d}" in p and f"combined_{d}" in p])
    return {
        "reliability_energy_overhead": overhead,
        "inter_redundancy_oracle": _gm_red(per, "inter", "oracle_token"),
        "combined_redundancy_oracle": _gm_red(per, "combined", "oracle_token"),
        "speedup_token_oracle_irb": _gm(per, "oracle_token", "speedup"),
        "speedup_token_no_broadcast": _gm(per, "nobcast_token", "speedup"),
        "intra_redundancy_no_broadcast": _gm_red(per, "intra", "nobcast_token"),
        "speedup_srf_release_wb": _gm(per, "wb_srf", "speedup"),
        "speedup_srf_no_rename_stage": _gm(per, "norename_srf", "speedup"),
        "fault_injection": faults,
    }


def _storage() -> dict[str, dict[str, int]]:
    """Bits per SM of the added structures on the GTX285 preset (Table 1)."""
    from warpsim.arch import GTX285, apply_overrides
    from warpsim.mechanisms.uniform_vectors.storage import storage_bits

    on = ["uniform_vectors.enabled=true"]
    return {"combined": storage_bits(apply_overrides(GTX285, on)),
            "reliable": storage_bits(apply_overrides(
                GTX285, [*on, "uniform_vectors.reliability=true"]))}


def _gm(per: dict[str, Any], cfg: str, key: str) -> float:
    return gm_ratio([p[cfg][key] for p in per.values() if cfg in p])


def _gm_red(per: dict[str, Any], kind: str, cfg: str = "combined_token") -> float:
    return gm_ratio([p[cfg]["redundancy"][kind] for p in per.values() if cfg in p])


def run_experiment(benches: tuple[BenchSel, ...], out: str | Path, *,
                   configs: tuple[str, ...] = MAIN, sensitivity: bool = True,
                   runner: Any = None) -> dict[str, Any]:
    """Run every benchmark under ``configs`` (and the sensitivity studies), analyse, write
    ``summary.json`` into ``out``. ``runner`` replaces ``run_one`` (tests)."""
    run = runner or run_one
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    per: dict[str, Any] = {}
    failed: dict[str, str] = {}
    for sel in benches:
        runs = {}
        try:
            for cfg in configs:
                _log.info("uniform-vectors: %s %s", sel.name, cfg)
                runs[cfg] = run(sel, cfg)
        except Exception as exc:  # a benchmark that cannot run on this configuration
            failed[sel.name] = f"{type(exc).__name__}: {exc}"
            _log.warning("uniform-vectors: %s failed: %s", sel.name, exc)
            continue
        per[sel.name] = _per_bench(runs)
        per[sel.name]["paper_benchmark"] = sel.paper
        per[sel.name]["input"] = {"size": sel.size, **dict(sel.params)}
    cov = {d: {"alu": gm_ratio([p[f"reliable_{d}"]["coverage"]["alu"] for p in per.values()
                                if f"reliable_{d}" in p]),
               "vrf": gm_ratio([p[f"reliable_{d}"]["coverage"]["vrf"] for p in per.values()
                                if f"reliable_{d}" in p])} for d in ("token", "srf")}
    summary: dict[str, Any] = {
        "intra_redundancy": _gm_red(per, "intra"),
        "inter_redundancy": _gm_red(per, "inter"),
        "combined_redundancy": _gm_red(per, "combined"),
        "intra_redundancy_true": _gm_red(per, "intra_true"),
        "speedup_token": {k: _gm(per, f"{k}_token", "speedup")
                          for k in ("intra", "inter", "combined")},
        "speedup_srf": {k: _gm(per, f"{k}_srf", "speedup")
                        for k in ("intra", "inter", "combined")},
        "dynamic_energy_saving_token": _gm(per, "combined_token", "dynamic_energy_saving"),
        "dynamic_energy_saving_srf": _gm(per, "combined_srf", "dynamic_energy_saving"),
        "energy_saving_token": {k: _gm(per, f"{k}_token", "energy_saving")
                                for k in ("intra", "inter", "combined")},
        "energy_saving_srf": {k: _gm(per, f"{k}_srf", "energy_saving")
                              for k in ("intra", "inter", "combined")},
        "alu_coverage": cov["token"]["alu"], "alu_coverage_srf": cov["srf"]["alu"],
        "vrf_coverage": cov["token"]["vrf"], "vrf_coverage_srf": cov["srf"]["vrf"],
        "cow_ratio": _gm(per, "combined_token", "cow_ratio"),
        "detected_not_true": sum(p[c]["detected_not_true"] for p in per.values()
                                 for c in p if isinstance(p[c], dict) and "detected_not_true"
                                 in p[c]),
        **_variants(per),
        "storage_bits": _storage(),
        "per_benchmark": per,
        "failed": failed,
        "paper": PAPER,
    }
    if sensitivity:
        ok = tuple(sel for sel in benches if sel.name in per)
        summary["irb_size"] = _irb_sizes(ok, run, per)
        summary["simd16"] = _simd16(ok, run)
        summary["srf_size"] = _srf_sizes(ok, run, per)
    summary["out"] = str(out)
    (out / "summary.json").write_text(json.dumps(summary, indent=2, default=str))
    return summary


def _irb_sizes(benches: tuple[BenchSel, ...], run: Any, per: dict[str, Any]) -> dict[str, Any]:
    """Fig. 12: Combined (token) speedup with 2, 4, 8 (the main run) and 16 IRB entries."""
    res: dict[str, Any] = {"per_benchmark": {}}
    for sel in benches:
        row = {8: per[sel.name]["combined_token"]["speedup"]}
        base = per[sel.name]["cycles_base"]
        for n in IRB_SIZES:
            r = run(sel, "combined_token", (f"uniform_vectors.n_irb_entries={n}",))
            row[n] = base / r["cycles"] - 1.0
        res["per_benchmark"][sel.name] = row
    for n in (2, 4, 8, 16):
        res[str(n)] = gm_ratio([row[n] for row in res["per_benchmark"].values()])
    return res


def _srf_sizes(benches: tuple[BenchSel, ...], run: Any, per: dict[str, Any]) -> dict[str, Any]:
    """Fig. 11: Combined (SRF) speedup with 16 ... 256 scalar registers; "unlimited" is the
    token design."""
    res: dict[str, Any] = {"per_benchmark": {}}
    for sel in benches:
        base = per[sel.name]["cycles_base"]
        row: dict[Any, float] = {128: per[sel.name]["combined_srf"]["speedup"],
                                 "unlimited": per[sel.name]["combined_token"]["speedup"]}
        for n in SRF_SIZES:
            r = run(sel, "combined_srf", (f"uniform_vectors.n_srf_entries={n}",))
            row[n] = base / r["cycles"] - 1.0
        res["per_benchmark"][sel.name] = row
    for n in (*SRF_SIZES[:3], 128, SRF_SIZES[3], "unlimited"):
        res[str(n)] = gm_ratio([row[n] for row in res["per_benchmark"].values()])
    return res


def _simd16(benches: tuple[BenchSel, ...], run: Any) -> dict[str, Any]:
    """Fig. 13: 15 SMs x 16 SPs, token design, against a 15 x 16 baseline."""
    per: dict[str, Any] = {}
    for sel in benches:
        runs = {c: run(sel, c, SIMD16) for c in ("base", "intra_token", "inter_token",
                                                  "combined_token")}
        b = runs["base"]
        per[sel.name] = {c.removesuffix("_token"): b["cycles"] / r["cycles"] - 1.0
                         for c, r in runs.items() if c != "base"}
        per[sel.name]["dynamic_energy_saving"] = _saving(b, runs["combined_token"], "dynamic_j")
        per[sel.name]["energy_saving"] = _saving(b, runs["combined_token"], "energy_j")
    return {"per_benchmark": per,
            **{k: gm_ratio([p[k] for p in per.values()])
               for k in ("intra", "inter", "combined", "dynamic_energy_saving",
                         "energy_saving")}}


def reproduce_uniform_vectors(*, quick: bool, out: Path, jobs: int | None = None,
                              dask: str | None = None) -> dict[str, Any]:
    """``warpsim reproduce uniform-vectors``: the quick (3 benchmarks) or full selection;
    ``jobs`` and ``dask`` are accepted for the CLI and unused (the runs are in-process)."""
    del jobs, dask
    if quick:
        return run_experiment(BENCH_QUICK, out, configs=QUICK)
    return run_experiment(BENCH_FULL, out)


register_reproduction(
    "uniform-vectors", reproduce_uniform_vectors,
    "Uniform vectors (Xiang, dissertation ch. 2): Fig. 2 redundancy, token / SRF speedups and "
    "energy, IRB size and 16-SP studies, reliability coverage")
