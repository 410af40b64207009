"""``--sample`` and ``warpsim validate-sampling`` on the command line: bad options are clear
errors before anything runs; the tables show what a validation row holds."""

from __future__ import annotations

import pytest

from warpsim.cli import main
from warpsim.runner.validate_sampling import ValidationRow, format_markdown, summarize


@pytest.mark.parametrize("argv, words", [
    (["run", "vector_add", "--sample", "waves=2"], "sample.waves"),
    (["run", "vector_add", "--sample", "speed=max"], "key=value"),
    (["reproduce", "warped-compression", "--sample", "min_waves=3"], "sample.min_waves"),
    (["validate-sampling", "--benchmarks", "no_such_bench"], "no_such_bench"),
    (["validate-sampling", "--sample", "tolerance=2"], "sample.tolerance"),
])
def test_bad_sampling_options_fail_before_running(argv, words, capsys, monkeypatch):
    monkeypatch.delenv("WARPSIM_SAMPLE", raising=False)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("error:") and words in err


def _row(name, full, sampled, wf, ws, reused=0, projected=1):
    return ValidationRow(name, 1, full, sampled, (sampled - full) / full, 0.01, 0.5, reused,
                         projected, wf, ws, wf / ws, True, replay_ratio=4.0 if projected else 1.0)


def test_summary_is_mean_and_max_error_and_speedups():
    rows = [_row("a", 1000, 1020, 10.0, 2.0), _row("b", 2000, 1950, 4.0, 4.0, projected=0)]
    s = summarize(rows)
    assert s["mean_abs_error"] == pytest.approx((0.02 + 0.025) / 2)
    assert s["max_abs_error"] == pytest.approx(0.025)
    assert s["geomean_speedup"] == pytest.approx(5 ** 0.5)
    assert s["total_speedup"] == pytest.approx(14 / 6) and s["sampled_benchmarks"] == 1
    assert s["geomean_replay_ratio"] == pytest.approx(2.0)
    md = format_markdown(rows).splitlines()
    assert md[0].startswith("| benchmark |") and md[2].startswith("| a | 1 | 1000 | 1020 | +2.00")
    assert md[2].endswith("| 5.00x | 4.00x |")
    assert md[-1].startswith("mean |error| 2.25 %, max |error| 2.50 %")
