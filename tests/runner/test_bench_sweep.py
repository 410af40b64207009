"""End to end over the real benchmark suite: the shipped quick sweep, timed, its records and
report; and the functional-only job function.

Jobs run in-process (``InlineExecutor``) to keep the suite fast; the executors have their own tests.
"""

from __future__ import annotations

import json
from pathlib import Path

from warpsim.runner.executors import InlineExecutor
from warpsim.runner.simulate import (
    clear_functional_cache,
    simulate_functional,
)
from warpsim.runner.store import load_results
from warpsim.runner.sweep import load_sweep, run_sweep

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "sweep-quick.yaml"


def test_quick_example_sweep_runs_timed_and_reports(tmp_path):
    spec = load_sweep(EXAMPLE)
    summary = run_sweep(spec, tmp_path, executor=InlineExecutor(), progress=False)
    df = load_results(tmp_path)
    assert summary.failed == 0, df[["benchmark", "error_message"]].to_string()
    assert len(df) == len(spec.jobs()) == len(spec.benchmarks) * 2
    assert set(df["mode"]) == {"timing"} and df["verified"].all()
    assert (df["gpu_sim_cycle"] > 0).all() and (df["energy_total_pj"] > 0).all()
    assert (df["gpu_sim_insn"] > 0).all()
    assert (df["gpu_sim_insn"] <= 32 * df["gpgpu_n_tot_w_icount"]).all()
    # Instruction counts do not depend on the timing configuration.
    per_bench = df.groupby("benchmark")["gpu_sim_insn"].nunique()
    assert (per_bench == 1).all()
    # The variants differ only in register banks: the record's configuration says so.
    banks = df.set_index(["benchmark", "variant"])["config"].map(
        lambda c: json.loads(c)["regfile"]["n_banks"])
    assert set(banks.xs("base", level="variant")) == {16}
    assert set(banks.xs("banks32", level="variant")) == {32}

    from warpsim.report import make_report

    page = make_report(tmp_path).read_text()
    assert "Normalised IPC" in page and "No timing counters" not in page
    assert "SIMT efficiency" in page


def test_functional_job_function_shares_one_run_per_benchmark(tmp_path):
    clear_functional_cache()
    spec = load_sweep(EXAMPLE)
    run_sweep(spec, tmp_path, executor=InlineExecutor(), progress=False,
              simulate=simulate_functional)
    df = load_results(tmp_path)
    assert set(df["mode"]) == {"functional"} and df["verified"].all()
    assert "gpu_sim_cycle" not in df.columns
    assert df.groupby("benchmark")["functional_cached"].sum().eq(1).all()
    from warpsim.report import make_report

    assert "No timing counters" in make_report(tmp_path).read_text()
