"""`warpsim run`: a timed benchmark run from the command line, with its energy.

The instruction count is checked against an independent oracle: the same benchmark run on a
functional-only Device, summing each launch's thread instructions through a launch observer.
"""

from __future__ import annotations

import json
import math

import pytest

import warpsim
from warpsim.bench import run_benchmark
from warpsim.cli import main


def _functional_thread_instructions(name: str, size: str) -> int:
    """Thread instructions of a functional (untimed) run of the benchmark, summed over launches."""
    gpu = warpsim.Device()
    counts: list[int] = []
    gpu.add_launch_observer(lambda kernel, cfg, result: counts.append(
        int(result.thread_instructions)))
    assert run_benchmark(name, size=size, device=gpu).verified
    gpu.close()
    return sum(counts)


def test_run_vector_add_json_energy_matches_functional_count(
        capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(["run", "vector_add", "--size", "tiny", "--config", "gtx480", "--json",
               "--energy", "-q"])
    out = capsys.readouterr().out
    assert rc == 0
    record = json.loads(out)
    assert record["benchmark"] == "vector_add"
    assert record["config"] == "gtx480"
    assert record["size"] == "tiny"
    assert record["verified"] is True
    stats = record["stats"]
    assert stats["gpu_sim_insn"] == _functional_thread_instructions("vector_add", "tiny")
    assert stats["gpu_sim_cycle"] > 0
    assert stats["gpgpu_n_tot_w_icount"] > 0
    assert math.isclose(stats["gpu_ipc"], stats["gpu_sim_insn"] / stats["gpu_sim_cycle"])
    assert all(v is None or isinstance(v, (int, float)) for v in stats.values())
    assert record["wall_s"] > 0 and record["warp_inst_per_s"] > 0
    energy = record["energy"]
    assert energy["total_j"] > 0
    assert math.isclose(energy["total_j"], energy["dynamic_j"] + energy["static_j"],
                        rel_tol=1e-12)
    assert energy["by_component"]["register_file"] > 0
    assert "register_file" in energy["dynamic_by_component"]

    # The text summary of the same run (the timing engine is compiled by now: one test pays).
    rc = main(["run", "vector_add", "--size", "tiny", "--energy", "-q"])
    text = capsys.readouterr().out
    assert rc == 0
    assert "verified" in text
    for key in ("gpu_sim_cycle", "gpu_sim_insn", "gpu_ipc", "L1D_total_cache_misses",
                "regfile_bank_conflict_stalls", "warp_inst_per_s", "register_file"):
        assert key in text
    assert f"gpu_sim_insn                     = {stats['gpu_sim_insn']}" in text


def test_run_unknown_benchmark_exits_2_with_message(capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(["run", "no_such_benchmark", "--size", "tiny"])
    err = capsys.readouterr().err
    assert rc == 2
    assert "no_such_benchmark" in err and "vector_add" in err


def test_run_bad_override_exits_2_naming_the_field(capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(["run", "vector_add", "--size", "tiny", "-o", "regfile.n_bogus_banks=4"])
    err = capsys.readouterr().err
    assert rc == 2
    assert "regfile.n_bogus_banks" in err


def test_run_bad_override_value_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(["run", "vector_add", "--size", "tiny", "-o", "sm.n_schedulers=abc"])
    err = capsys.readouterr().err
    assert rc == 2
    assert "sm.n_schedulers" in err
