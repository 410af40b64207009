"""Reports: geometric means, normalised tables, figure files and the self-contained page."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from warpsim.errors import ConfigError
from warpsim.report import GMEAN, geomean, make_report, normalized_table
from warpsim.runner.store import ResultStore


def test_geomean_skips_missing_and_non_positive_values():
    assert geomean([1.0, 4.0]) == pytest.approx(2.0)
    assert geomean([2.0, float("nan"), 0.0, -1.0, 8.0]) == pytest.approx(4.0)
    assert math.isnan(geomean([]))


def _frame():
    # ipc: base 1.0 / 2.0, fast 2.0 / 8.0 -> normalised 2 and 4, gmean sqrt(8)
    return pd.DataFrame({
        "benchmark": ["x", "x", "y", "y"], "variant": ["base", "fast", "base", "fast"],
        "status": ["ok"] * 4, "ipc": [1.0, 2.0, 2.0, 8.0]})


def test_normalized_table_divides_by_the_baseline_and_adds_the_gmean():
    table = normalized_table(_frame(), "ipc", "base")
    assert list(table.index) == ["x", "y", GMEAN] and list(table.columns) == ["base", "fast"]
    assert table["base"].tolist() == [1.0, 1.0, 1.0]
    assert table["fast"].tolist()[:2] == [2.0, 4.0]
    assert table.loc[GMEAN, "fast"] == pytest.approx(math.sqrt(8.0))


def test_normalized_table_rejects_unknown_metric_and_baseline():
    with pytest.raises(ConfigError):
        normalized_table(_frame(), "cycles", "base")
    with pytest.raises(ConfigError):
        normalized_table(_frame(), "ipc", "nosuch")


def _timing_store(directory):
    store = ResultStore(directory)
    rows = []
    for i, (bench, variant, insn, cycles, rf, dram) in enumerate([
            ("bfs", "base", 1000, 500, 10.0, 30.0), ("bfs", "wir", 1000, 400, 6.0, 30.0),
            ("nn", "base", 2000, 1000, 20.0, 20.0), ("nn", "wir", 2000, 1000, 10.0, 20.0)]):
        rows.append({"job_id": f"j{i}", "status": "ok", "finished_at": str(i),
                     "benchmark": bench, "variant": variant, "mode": "timing",
                     "gpu_sim_insn": insn, "gpu_sim_cycle": cycles,
                     "gpgpu_n_tot_w_icount": insn // 32 + 1, "wall_s": 0.1,
                     "energy_regfile_pj": rf, "energy_dram_pj": dram})
    rows.append({"job_id": "j9", "status": "failed", "finished_at": "9", "benchmark": "lud",
                 "variant": "wir", "error_type": "ConfigError",
                 "error_message": "bad configuration value x\n  hint: y", "wall_s": 0.0})
    for row in rows:
        store.append([row])
    store.write_manifest({"name": "timing", "variants": ["base", "wir"],
                          "jobs": [{"job_id": r["job_id"]} for r in rows]})


def test_report_page_is_self_contained_with_figures_and_tables(tmp_path):
    _timing_store(tmp_path / "res")
    page_path = make_report(tmp_path / "res", tmp_path / "rep")
    page = page_path.read_text()
    assert page_path == tmp_path / "rep" / "report.html"
    for forbidden in ("<script", "<link", 'src="http', "src='http", "url(http"):
        assert forbidden not in page
    assert page.count('src="data:image/png;base64,') >= 3
    for heading in ("Normalised IPC", "Normalised energy", "Energy breakdown", "Failed jobs"):
        assert f">{heading}</h2>" in page
    assert "bad configuration value x" in page
    # IPC of wir on bfs is 1000/400 over 1000/500 = 1.25; nn 1.0; gmean sqrt(1.25)
    assert "1.25" in page and f"{math.sqrt(1.25):.4g}" in page
    figures = {p.name for p in (tmp_path / "rep" / "figures").iterdir()}
    assert {"normalised_ipc.png", "normalised_ipc.svg", "energy_breakdown.png",
            "energy_breakdown.svg"} <= figures
    assert (tmp_path / "rep" / "figures" / "normalised_ipc.png").read_bytes()[:4] == \
        b"\x89PNG"


def test_report_without_timing_counters_says_so(tmp_path):
    store = ResultStore(tmp_path)
    store.append([{"job_id": "a", "status": "ok", "finished_at": "1", "benchmark": "bfs",
                   "variant": "base", "mode": "functional", "gpu_sim_insn": 64,
                   "gpgpu_n_tot_w_icount": 4, "wall_s": 0.1}])
    page = make_report(tmp_path, formats=("svg",)).read_text()
    assert "No timing counters" in page and "Normalised IPC</h2>" in page
    assert (tmp_path / "report" / "figures" / "simt_efficiency.svg").exists()
    assert "0.5" in page  # SIMT efficiency 64 / (32 * 4)


def test_report_of_an_empty_folder_or_unknown_baseline_is_a_config_error(tmp_path):
    with pytest.raises(ConfigError):
        make_report(tmp_path / "empty")
    _timing_store(tmp_path / "res")
    with pytest.raises(ConfigError, match="baseline"):
        make_report(tmp_path / "res", baseline="nosuch")
