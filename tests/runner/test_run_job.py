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


def _compiling(job):
    import time

    time.sleep(0.05)  # the job's wall time includes a (pretend) 0.04 s engine compile
    return {"stats": {"gpu_sim_insn": 3000}, "extra": {"numba_compile_s": 0.04}}


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


def test_rate_leaves_out_the_engine_compile():
    rec = run_job(JOB, _compiling)
    assert rec["sim_rate_insn_per_s"] == pytest.approx(3000 / (rec["wall_s"] - 0.04))


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


# -- the default job function, on the real suite and timing engine ------------------------------

_TIMED = Job(benchmark="vector_add", size="tiny", label="base")


@pytest.fixture(scope="module")
def timed_record():
    pytest.importorskip("warpsim.bench")
    return run_job(_TIMED, sweep="t")


def test_timed_job_records_timing_counters_and_energy(timed_record):
    rec = timed_record
    assert rec["status"] == "ok", rec["traceback"]
    assert rec["mode"] == "timing" and rec["verified"] is True
    assert rec["functional_cached"] is False
    assert rec["gpu_sim_cycle"] > 0 and rec["gpu_tot_sim_cycle"] == rec["gpu_sim_cycle"]
    # Derived metrics follow from the counters they are defined by.
    assert rec["gpu_ipc"] == pytest.approx(rec["gpu_sim_insn"] / rec["gpu_sim_cycle"])
    assert rec["energy_total_pj"] > 0
    assert rec["energy_total_pj"] == pytest.approx(
        rec["energy_dynamic_total_pj"] + rec["energy_static_total_pj"])
    assert json.loads(rec["energy_breakdown"])["table"] == rec["energy_table"]
    assert 0 < rec["timing_wall_s"] <= rec["wall_s"]
    assert rec["timing_warp_inst_per_s"] == pytest.approx(
        rec["gpgpu_n_tot_w_icount"] / rec["timing_wall_s"])
    assert rec["bench_launches"] == 1 and rec["numba_compile_s"] >= 0


def test_timed_job_counts_equal_the_functional_run(timed_record):
    # Oracle: the functional executor alone, on a device without timing.
    from warpsim.runner.simulate import clear_functional_cache, simulate_functional

    clear_functional_cache()
    functional = simulate_functional(_TIMED)
    assert functional["mode"] == "functional" and functional["energy"] == {}
    assert functional["functional_cached"] is False
    for name in ("gpu_sim_insn", "gpgpu_n_tot_w_icount"):
        assert timed_record[name] == functional["stats"][name]
    assert simulate_functional(_TIMED)["functional_cached"] is True


def test_timed_job_uses_the_jobs_configuration(timed_record):
    from warpsim.runner.simulate import simulate

    # One SM instead of 15: the same work takes more cycles on the overridden configuration.
    small = Job(benchmark="vector_add", size="tiny", overrides=(("sm.n_sms", 1),))
    base = timed_record
    one = simulate(small)["stats"]
    assert one["gpu_sim_insn"] == base["gpu_sim_insn"]
    assert one["gpu_sim_cycle"] > base["gpu_sim_cycle"]


def test_timed_job_records_its_residency(timed_record):
    # vector_add tiny: 2000 threads in 256-thread CTAs = 8 CTAs of 8 warps, one on each of 8
    # of the 15 SMs (round robin); an SM never holds more than its one CTA's 8 warps
    rec = timed_record
    assert (rec["res_n_sms"], rec["res_max_warps_per_sm"]) == (15, 48)
    assert (rec["res_sms_with_cta"], rec["res_peak_warps"]) == (8, 8)
    assert 0 < rec["sm_active_warp_cycles"] / rec["sm_active_cycles"] <= 8


def test_a_size_may_override_parameters_of_a_named_size():
    from warpsim.runner.simulate import simulate

    # n = 512: 2 CTAs of 8 warps, on 2 SMs
    out = simulate(Job(benchmark="vector_add", size="tiny+n=512"))
    assert out["verified"] is True
    assert (out["extra"]["res_sms_with_cta"], out["extra"]["res_peak_warps"]) == (2, 8)


def test_job_with_mechanisms_is_refused_with_a_hint():
    from warpsim.runner.simulate import simulate

    job = Job(benchmark="vector_add", mechanisms=(("ltrf", ()),))
    with pytest.raises(ConfigError, match="hint:"):
        simulate(job)
