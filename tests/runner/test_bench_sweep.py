"""End to end over the real benchmark suite: the shipped quick sweep, its records and report.

Runs only when ``warpsim.bench.run_benchmark`` is importable. Jobs run in-process
(``InlineExecutor``) to keep the suite fast; the executors have their own tests.
"""

from __future__ import annotations

from pathlib import Path

import pytest

bench = pytest.importorskip("warpsim.bench")
if not hasattr(bench, "run_benchmark"):
    pytest.skip("warpsim.bench.run_benchmark is not there yet", allow_module_level=True)

from warpsim.runner.executors import InlineExecutor  # noqa: E402
from warpsim.runner.simulate import clear_functional_cache  # noqa: E402
from warpsim.runner.store import load_results  # noqa: E402
from warpsim.runner.sweep import load_sweep, run_sweep  # noqa: E402

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "sweep-quick.yaml"


def test_quick_example_sweep_runs_functionally_and_reports(tmp_path):
    clear_functional_cache()
    spec = load_sweep(EXAMPLE)
    summary = run_sweep(spec, tmp_path, executor=InlineExecutor(), progress=False)
    df = load_results(tmp_path)
    assert summary.failed == 0, df[["benchmark", "error_message"]].to_string()
    assert len(df) == len(spec.jobs()) == len(spec.benchmarks) * 2
    assert set(df["mode"]) == {"functional"} and df["verified"].all()
    assert "gpu_sim_cycle" not in df.columns  # no timing engine yet: no timing counters
    assert (df["gpu_sim_insn"] > 0).all()
    assert (df["gpu_sim_insn"] <= 32 * df["gpgpu_n_tot_w_icount"]).all()
    # Functional counts do not depend on the timing configuration, and are shared.
    per_bench = df.groupby("benchmark")["gpu_sim_insn"].nunique()
    assert (per_bench == 1).all()
    assert df.groupby("benchmark")["functional_cached"].sum().eq(1).all()

    from warpsim.report import make_report

    page = make_report(tmp_path).read_text()
    assert "No timing counters" in page and "SIMT efficiency" in page
