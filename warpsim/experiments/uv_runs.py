"""Runs of the uniform-vector reproduction: one benchmark under one configuration of the
dissertation's Table 1 baseline (GTX285-like, 30 SMs x 8 SPs) or its 16-SP variant, reduced to
the numbers the analysis needs.

Follows: specs/xiang-simt-efficiency.md §1.11 (configurations), §1.12 (Table 3 benchmarks).
Every run is in-process (one ``Device`` per run); the numba cycle loop compiles once per process
per hook set (baseline, uniform vectors).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from warpsim.experiments.uv_analysis import coverage, redundancy, rf_alu_energy_pj

__all__ = ["ALU_FAULT_RATE", "BENCH_FULL", "BENCH_QUICK", "CONFIGS", "IRB_FAULT_RATE", "SIMD16",
           "BenchSel", "overrides_of", "run_one"]

_ON = ("uniform_vectors.enabled=true",)
ALU_FAULT_RATE = 1 / 64
"""[A] Faults per thread ALU operation in the reliable runs (about one per two warp
instructions: a sample of the instruction stream, not a physical rate)."""
IRB_FAULT_RATE = 0.01
"""[A] Faulty entries per IRB tag hit in the ``irb_faults_token`` run."""
_ALU_FAULTS = f"uniform_vectors.alu_fault_rate={ALU_FAULT_RATE}"
CONFIGS: dict[str, tuple[str, ...]] = {
    "base": (),
    "intra_token": (*_ON, "uniform_vectors.n_irb_entries=0"),
    "inter_token": (*_ON, "uniform_vectors.scalar_issue=false"),
    "combined_token": _ON,
    "intra_srf": (*_ON, "uniform_vectors.design=srf", "uniform_vectors.n_irb_entries=0"),
    "inter_srf": (*_ON, "uniform_vectors.design=srf", "uniform_vectors.scalar_issue=false"),
    "combined_srf": (*_ON, "uniform_vectors.design=srf"),
    "reliable_token": (*_ON, "uniform_vectors.reliability=true", _ALU_FAULTS),
    "reliable_srf": (*_ON, "uniform_vectors.design=srf", "uniform_vectors.reliability=true",
                     _ALU_FAULTS),
    # design points beside the dissertation's figures
    "oracle_token": (*_ON, "uniform_vectors.n_irb_entries=-1"),
    "nobcast_token": (*_ON, "uniform_vectors.broadcast_uniform=false"),
    "wb_srf": (*_ON, "uniform_vectors.design=srf", "uniform_vectors.srf_release=wb"),
    "norename_srf": (*_ON, "uniform_vectors.design=srf", "uniform_vectors.srf_rename_stage=false"),
    "irb_faults_token": (*_ON, "uniform_vectors.reliability=true",
                         f"uniform_vectors.irb_fault_rate={IRB_FAULT_RATE}"),
}
"""The dissertation's configurations (spec §1.11); ``inter_srf`` runs as ``inter_token`` in
this model (no conversion: the designs differ only in where a hit's result is written). The
reliable runs inject ALU lane faults (no timing effect: counted detections, spec §1.9); the
variants: the oracle IRB (Fig. 2's inter-warp bound), no broadcast-path tokens, SR release at
WB, no rename stage, and IRB parity faults."""

SIMD16 = ("sm.n_sms=15", "pipelines.fp32.initiation_interval_cycles=2",
          "pipelines.int32.initiation_interval_cycles=2")
"""Fig. 13: 16 SPs per SM (a warp instruction every 2 cycles), 15 SMs."""


@dataclass(frozen=True, slots=True)
class BenchSel:
    """One benchmark input: warpsim benchmark, named size, parameter overrides and the
    dissertation's benchmark it stands for (Table 3)."""

    name: str
    size: str
    params: tuple[tuple[str, Any], ...] = ()
    paper: str = ""
    overrides: tuple[str, ...] = ()
    """Config overrides this input needs on the GTX285 preset."""


BENCH_QUICK = (
    BenchSel("vector_add", "small", (), "VA"),
    BenchSel("matrix_mul", "tiny", (), "MM"),
    BenchSel("pathfinder", "tiny", (), "PF"),
)
BENCH_FULL = (
    *BENCH_QUICK,
    BenchSel("nqueens", "tiny", (), "NQU",
             ("shmem.size_bytes=49152", "shmem.cta_limit_bytes=49152")),  # [A] 30 KB / block
    BenchSel("fft", "tiny", (), "FFT"),
    BenchSel("convolution_separable", "tiny", (), "CONV"),
    BenchSel("bfs", "tiny", (), "BFS"),
    BenchSel("mersenne_twister", "tiny", (), "MT"),
    BenchSel("scalar_prod", "tiny", (), "SP"),
    BenchSel("ray", "tiny", (), "RAY"),
    BenchSel("dxtc", "tiny", (), "DT"),
    BenchSel("heartwall", "tiny", (), "HT"),
    BenchSel("hotspot", "tiny", (), "HS"),
)


def overrides_of(config: str, extra: tuple[str, ...] = ()) -> list[str]:
    """Config overrides of ``config`` (a ``CONFIGS`` key) plus ``extra``."""
    return [*CONFIGS[config], *extra]


def run_one(sel: BenchSel, config: str, extra: tuple[str, ...] = ()) -> dict[str, Any]:
    """Simulate ``sel`` under ``config`` on the GTX285 preset (``extra``: more overrides)."""
    from warpsim.bench import run_benchmark
    from warpsim.power import energy_for_gpu
    from warpsim.runtime import Device

    dev = Device(config="gtx285", overrides=overrides_of(config, (*sel.overrides, *extra)))
    t0 = time.perf_counter()
    try:
        res = run_benchmark(sel.name, size=sel.size, device=dev, params=dict(sel.params) or None)
        stats = dict(dev.stats)
        energy = energy_for_gpu(stats, dev.gpu_config)
    finally:
        dev.close()
    g = stats.get
    cycles = int(g("gpu_tot_sim_cycle", 0))
    act = g("dram_activates", 0)
    out: dict[str, Any] = {
        "bench": sel.name, "config": config, "verified": bool(res.verified), "cycles": cycles,
        "insn": int(g("gpu_sim_insn", 0)), "ipc": g("gpu_sim_insn", 0) / cycles if cycles else 0,
        "energy_j": energy.total_j, "dynamic_j": energy.dynamic_j, "static_j": energy.static_j,
        "rf_alu_pj": rf_alu_energy_pj(stats), "rf_alu_base_pj": rf_alu_energy_pj(
            stats, baseline=True),
        "dram_row_acc_per_act": ((g("dram_reads", 0) + g("dram_writes", 0)) / act
                                 if act else float("nan")),
        "uv": {k: v for k, v in stats.items() if k.startswith("uv_")},
        "wall_s": time.perf_counter() - t0,
    }
    if config != "base":
        out["redundancy"] = redundancy(stats)
        out["coverage"] = coverage(stats)
        w = g("gpgpu_n_tot_w_icount", 0)
        # Fig. 7 counts the paper's condition (destination = a uniform source): cow_narrow
        out["cow_ratio"] = g("uv_cow_narrow", 0) / w if w else float("nan")
        out["cow_all_ratio"] = g("uv_copy_insts", 0) / w if w else float("nan")
    return out
