"""One job to one record: counters, energy in pJ, rates, and failures kept with their context."""

from __future__ import annotations

import json

import pytest

from warpsim.errors import ConfigError
from warpsim.runner.jobs import METADATA_COLUMNS, Job, energy_columns, run_job

JOB = Job(benchmark="bfs", size="tiny", overrides=(("regfile.n_banks", 32),), label="b32")


def _counts(job):
    return {"stats": {"gpu_sim_insn": 3000, "gpgpu_n_tot_w_icount": 100}, "mode": "test",
            "verified": True}


def _config_error(job):
    raise ConfigError("wir.rb_entries", 3, "a power of two", hint="try 4")


def _not_a_mapping(job):
    return [1, 2]


def _collides(job):
    return {"stats": {"status": 1}}


def test_record_has_metadata_counters_and_rate():
    rec = run_job(JOB, _counts, sweep="s")
    assert list(rec)[:len(METADATA_COLUMNS)] == list(METADATA_COLUMNS)
    assert rec["status"] == "ok" and rec["sweep"] == "s" and rec["variant"] == "b32"
    assert rec["job_id"] == JOB.job_id and rec["mechanisms"] == "baseline"
    assert json.loads(rec["overrides"]) == [["regfile.n_banks", 32]]
    assert json.loads(rec["config"])["regfile"]["n_banks"] == 32
    assert rec["gpu_sim_insn"] == 3000 and rec["verified"] is True
    assert rec["sim_rate_insn_per_s"] == pytest.approx(3000 / rec["wall_s"])


def test_warpsim_error_is_recorded_with_its_context():
    rec = run_job(JOB, _config_error)
    assert rec["status"] == "failed" and rec["error_type"] == "ConfigError"
    assert rec["error_message"].startswith("bad configuration value wir.rb_entries = 3")
    assert json.loads(rec["error_context"]) == {"field": "wir.rb_entries", "value": 3,
                                                "expected": "a power of two"}
    assert "_config_error" in rec["traceback"]
    assert "gpu_sim_insn" not in rec


@pytest.mark.parametrize("fn", [_not_a_mapping, _collides])
def test_malformed_job_results_are_failures_not_crashes(fn):
    rec = run_job(JOB, fn)
    assert rec["status"] == "failed" and rec["error_type"] == "InternalError"


def test_flat_energy_in_pj_gets_a_total():
    assert energy_columns({"regfile": 2.0, "energy_dram_pj": 3.0}) == {
        "energy_regfile_pj": 2.0, "energy_dram_pj": 3.0, "energy_total_pj": 5.0}
    assert energy_columns(None) == {}


def test_power_breakdown_is_converted_from_joules_to_pj():
    model = pytest.importorskip("warpsim.power.model")
    bd = model.EnergyBreakdown(table="t", seconds=1e-6,
                               dynamic_by_component_j={"regfile": 2e-12, "dram": 5e-12},
                               static_by_component_j={"regfile": 1e-12, "dram": 0.0},
                               by_counter_j={})
    cols = energy_columns(bd)
    assert cols["energy_regfile_pj"] == pytest.approx(3.0)
    assert cols["energy_dram_pj"] == pytest.approx(5.0)
    assert cols["energy_dynamic_total_pj"] == pytest.approx(7.0)
    assert cols["energy_static_total_pj"] == pytest.approx(1.0)
    assert cols["energy_total_pj"] == pytest.approx(8.0)
    assert json.loads(cols["energy_breakdown"])["table"] == "t"
