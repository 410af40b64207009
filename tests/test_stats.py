"""The counter registry: declarations, ids for numba, export, per-SM detail, derived metrics."""

from __future__ import annotations

import math

import numpy as np
import pytest

import warpsim.stats as stats
from warpsim.errors import InternalError
from warpsim.stats import (
    BASELINE,
    DERIVED,
    REGISTRY,
    SCOPES,
    UNITS,
    Counter,
    CounterRegistry,
    Derived,
    derive,
    export,
    export_per_sm,
    make_counts,
)

GPGPUSIM_NAMES = ("gpu_sim_cycle", "gpu_sim_insn", "gpgpu_n_tot_w_icount", "gpu_tot_sim_cycle",
                  "gpu_tot_sim_insn", "gpgpu_n_shmem_bkconflict", "gpgpu_n_cache_bkconflict",
                  "L1D_total_cache_accesses", "L1D_total_cache_misses",
                  "L2_total_cache_accesses", "L2_total_cache_misses")
"""Names STYLE.md §2.5 requires verbatim (case kept)."""


def test_unit_and_scope_vocabulary():
    assert UNITS == {"count", "cycle", "byte", "pj"}
    assert {"gpu", "sm", "bank"} <= SCOPES


def test_baseline_declares_the_gpgpusim_and_engine_counters():
    names = set(REGISTRY.names)
    for name in GPGPUSIM_NAMES:
        assert name in names
    for name in ("regfile_bank_reads", "regfile_bank_writes", "regfile_bank_conflict_stalls",
                 "dram_reads", "dram_writes", "opcoll_alloc_stalls",
                 "sched_warp_insts_issued", "sched_idle_cycles",
                 "sched_scoreboard_stall_cycles"):
        assert name in names


def test_names_are_unique_and_declarations_valid():
    names = [c.name for c in BASELINE]
    assert len(names) == len(set(names))
    for c in BASELINE:
        assert c.unit in UNITS and c.scope in SCOPES and c.doc
        if c.unit == "cycle" and not c.name.startswith("gpgpu_"):  # GPGPU-Sim names kept
            assert "cycle" in c.name or c.name.endswith("_stalls"), c.name


def test_counter_ids_match_registry_order():
    consts = {k: v for k, v in vars(stats).items() if k.startswith("C_")}
    assert len(consts) == len(BASELINE) == stats.N_COUNTERS == REGISTRY.n_array
    for i, counter in enumerate(BASELINE):
        const = f"C_{counter.name.upper()}"
        assert consts[const] == i == REGISTRY.index(counter.name)
        assert const in stats.__all__


def test_counter_ids_are_usable_from_numba():
    numba = pytest.importorskip("numba")
    c_reads, c_cycle = stats.C_REGFILE_BANK_READS, stats.C_GPU_SIM_CYCLE

    @numba.njit(cache=False)
    def bump(counts, sm):
        counts[sm, c_reads] += 3
        counts[sm, c_cycle] = 7

    counts = make_counts(2)
    bump(counts, 1)
    assert counts[1, stats.C_REGFILE_BANK_READS] == 3
    assert counts[1, stats.C_GPU_SIM_CYCLE] == 7
    assert counts.sum() == 10


def test_bad_declarations_are_internal_errors():
    with pytest.raises(InternalError):
        Counter("x_events", "joule", "sm", "doc")
    with pytest.raises(InternalError):
        Counter("x_events", "count", "galaxy", "doc")
    with pytest.raises(InternalError):
        Counter("x events", "count", "sm", "doc")
    with pytest.raises(InternalError):
        Counter("x_events", "count", "sm", "")
    with pytest.raises(InternalError):
        CounterRegistry([BASELINE[0], BASELINE[0]])


def test_export_sums_sms_and_takes_max_for_cycles():
    counts = make_counts(3)
    assert counts.dtype == np.int64 and counts.shape == (3, len(BASELINE))
    counts[:, stats.C_GPU_SIM_CYCLE] = [100, 250, 180]
    counts[:, stats.C_GPU_SIM_INSN] = [3200, 6400, 32]
    counts[:, stats.C_L1D_TOTAL_CACHE_ACCESSES] = [10, 20, 30]
    counts[:, stats.C_L1D_TOTAL_CACHE_MISSES] = [1, 2, 3]
    flat = export(counts)
    assert flat["gpu_sim_cycle"] == 250
    assert flat["gpu_sim_insn"] == 9632
    assert flat["L1D_total_cache_accesses"] == 60 and flat["L1D_total_cache_misses"] == 6
    assert set(flat) == set(REGISTRY.names)  # zeros included
    assert flat["dram_reads"] == 0
    assert all(type(v) is int for v in flat.values())


def test_per_sm_detail_keeps_rows():
    counts = make_counts(2)
    counts[0, stats.C_REGFILE_BANK_READS] = 5
    counts[1, stats.C_REGFILE_BANK_READS] = 7
    detail = export_per_sm(counts)
    assert detail["regfile_bank_reads"] == [5, 7]
    assert detail["gpu_sim_cycle"] == [0, 0]


def test_mechanism_counters_must_be_declared():
    counts = make_counts(1)
    with pytest.raises(InternalError) as info:
        export(counts, {"wir_rb_lookups": 4})
    assert "wir_rb_lookups" in info.value.message
    mech = REGISTRY.with_counters([Counter("wir_rb_lookups", "count", "sm", "RB lookups"),
                                   Counter("wir_rb_hits", "count", "sm", "RB hits")])
    assert len(REGISTRY) == len(BASELINE)  # the baseline registry is not mutated
    flat = export(counts, {"wir_rb_lookups": 4}, registry=mech)
    assert flat["wir_rb_lookups"] == 4 and flat["wir_rb_hits"] == 0


def test_array_counter_cannot_be_passed_as_extra():
    with pytest.raises(InternalError):
        export(make_counts(1), {"gpu_sim_cycle": 4})


def test_undeclared_lookup_suggests():
    with pytest.raises(InternalError) as info:
        REGISTRY.index("gpu_sim_cycles")
    assert "gpu_sim_cycle" in info.value.message


def test_wrong_array_shape_or_dtype_is_rejected():
    with pytest.raises(InternalError):
        export(np.zeros((2, 3), dtype=np.int64))
    with pytest.raises(InternalError):
        export(np.zeros((2, len(BASELINE)), dtype=np.int32))


def test_derived_metrics_from_hand_computed_values():
    counts = make_counts(2)
    counts[:, stats.C_GPU_SIM_CYCLE] = [1000, 800]
    counts[:, stats.C_GPU_SIM_INSN] = [30000, 15000]
    counts[:, stats.C_L2_TOTAL_CACHE_ACCESSES] = [40, 60]
    counts[:, stats.C_L2_TOTAL_CACHE_MISSES] = [10, 15]
    metrics = derive(export(counts))
    assert metrics["gpu_ipc"] == pytest.approx(45.0)  # 45000 / max(1000, 800)
    assert metrics["L2_total_cache_miss_rate"] == pytest.approx(0.25)
    assert math.isnan(metrics["L1D_total_cache_miss_rate"])  # 0 / 0


def test_every_derived_metric_refers_to_declared_counters():
    for m in DERIVED:
        for name in (*m.numerator, *m.denominator):
            assert name in REGISTRY, (m.name, name)
    assert "gpu_ipc = (gpu_sim_insn) / (gpu_sim_cycle)" in [m.formula for m in DERIVED]


def test_derive_with_an_undeclared_name_is_an_error():
    with pytest.raises(InternalError):
        derive({"a": 1}, [Derived("x", ("a",), ("b",), "doc")])


def test_export_of_zero_sms():
    flat = export(make_counts(0))
    assert flat["gpu_sim_cycle"] == 0


def test_docs_list_every_counter_and_metric():
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "docs" / "configuration.md").read_text()
    missing = [c.name for c in BASELINE if f"`{c.name}`" not in text]
    missing += [m.name for m in DERIVED if f"`{m.name}`" not in text]
    assert not missing, f"docs/configuration.md lacks: {missing}"
