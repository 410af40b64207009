"""The register-file share rows and their summary, against hand-computed fractions."""

from __future__ import annotations

import pytest

from warpsim.arch import GTX480
from warpsim.power import EnergyEntry, EnergyTable, StaticEntry, StaticScope
from warpsim.power.rf_share import (
    format_rf_share_table,
    rf_share_row,
    rf_share_summary,
)


def _table() -> EnergyTable:
    return EnergyTable(
        name="test_share", source="test",
        dynamic=(EnergyEntry(counter="regfile_granule_reads", component="register_file",
                             energy_pj=10.0, source="t"),
                 EnergyEntry(counter="gpuwattch_non_rf_operands", component="register_file",
                             energy_pj=500.0, source="t"),
                 EnergyEntry(counter="gpuwattch_sp_acc", component="alu_int",
                             energy_pj=1.0, source="t")),
        static=(StaticEntry(component="constant", scope=StaticScope.CHIP, power_mw=1000.0,
                            source="t"),))


def test_row_shares_are_hand_computed_fractions():
    # 700 cycles at 700 MHz = 1 us: the 1 W constant is 1e6 pJ.
    # RF: 100 granules x 10 pJ + 2 non-RF operands x 500 pJ = 2000 pJ; ALU 3000 units x 1 pJ.
    stats = {"gpu_sim_cycle": 700, "gpu_ipc": 2.5, "regfile_granule_reads": 100,
             "gpuwattch_non_rf_operands": 2, "gpuwattch_sp_acc": 3000}
    row = rf_share_row("micro", stats, GTX480, table=_table(), launches=1)
    assert row["rf_dynamic_j"] == pytest.approx(2000e-12)
    assert row["dynamic_j"] == pytest.approx(5000e-12)
    assert row["rf_dyn_frac"] == pytest.approx(0.4)
    assert row["rf_total_frac"] == pytest.approx(2000 / (5000 + 1e6))
    assert row["dyn_total_frac"] == pytest.approx(5000 / (5000 + 1e6))
    assert row["rf_non_rf_operand_j"] == pytest.approx(1000e-12)
    assert row["top_dynamic"][0] == ("alu_int", pytest.approx(0.6))
    assert row["cycles"] == 700 and row["ipc"] == 2.5


def test_activity_overrides_the_stats_counters():
    stats = {"gpu_sim_cycle": 700, "gpuwattch_sp_acc": 3000, "regfile_granule_reads": 100}
    row = rf_share_row("micro", stats, GTX480, table=_table(),
                       activity={"gpuwattch_sp_acc": 1000.0})
    assert row["rf_dyn_frac"] == pytest.approx(1000 / 2000)


def _row(name: str, rf: float, dyn: float, total: float) -> dict:
    return {"benchmark": name, "launches": 1, "cycles": 1, "ipc": 1.0, "verified": True,
            "rf_dynamic_j": rf, "dynamic_j": dyn, "rf_total_j": rf, "total_j": total,
            "rf_dyn_frac": rf / dyn, "rf_total_frac": rf / total, "dyn_total_frac": dyn / total,
            "rf_non_rf_operand_j": 0.0, "top_dynamic": [("register_file", rf / dyn)]}


def test_summary_mean_median_weighted_and_range_counts():
    rows = [_row("a", 1.0, 20.0, 40.0), _row("b", 3.0, 20.0, 40.0), _row("c", 10.0, 40.0, 50.0)]
    s = rf_share_summary(rows)
    # shares 0.05, 0.15, 0.25
    assert s["mean_rf_dyn_frac"] == pytest.approx(0.15)
    assert s["median_rf_dyn_frac"] == pytest.approx(0.15)
    assert s["weighted_rf_dyn_frac"] == pytest.approx(14.0 / 80.0)
    assert s["mean_rf_total_frac"] == pytest.approx((1 / 40 + 3 / 40 + 10 / 50) / 3)
    assert s["weighted_rf_total_frac"] == pytest.approx(14.0 / 130.0)
    assert (s["n_below"], s["n_in_range"], s["n_above"]) == (1, 1, 1)
    text = format_rf_share_table(rows, s)
    assert "**mean of 3**" in text and "**15.0%**" in text and "| c | 1 |" in text


def test_summary_of_no_rows_is_empty():
    assert rf_share_summary([]) == {"n": 0}
