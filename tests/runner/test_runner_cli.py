"""The sweep / results / report / reproduce sub-commands, through their argparse front end."""

from __future__ import annotations

import json

import pytest

from warpsim.runner.cli import main
from warpsim.runner.store import ResultStore


@pytest.fixture
def results_dir(tmp_path):
    store = ResultStore(tmp_path / "res")
    store.append([{"job_id": "a", "status": "ok", "finished_at": "1", "benchmark": "bfs",
                   "variant": "base", "gpu_sim_insn": 100, "wall_s": 0.5}])
    store.append([{"job_id": "b", "status": "failed", "finished_at": "2", "benchmark": "nn",
                   "variant": "base", "error_message": "boom", "wall_s": 0.25}])
    return tmp_path / "res"


def test_results_query_prints_the_rows(results_dir, capsys):
    code = main(["results", "query", str(results_dir),
                 "SELECT job_id, gpu_sim_insn FROM results WHERE status = 'ok'",
                 "--format", "json"])
    assert code == 0
    assert json.loads(capsys.readouterr().out) == [{"job_id": "a", "gpu_sim_insn": 100}]


def test_results_summary_counts_per_variant(results_dir, capsys):
    assert main(["results", "summary", str(results_dir), "--format", "csv"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "variant,jobs,ok,failed,wall_s" and out[1] == "base,2,1,1,0.75"


def test_missing_folder_and_bad_sql_exit_with_status_2(results_dir, tmp_path, capsys):
    assert main(["results", "query", str(tmp_path / "nope"), "SELECT 1"]) == 2
    assert "no result folder" in capsys.readouterr().err
    assert main(["results", "query", str(results_dir), "SELEC nonsense"]) == 2
    assert "error: bad configuration value sql" in capsys.readouterr().err


def test_sweep_dry_run_lists_the_jobs(tmp_path, capsys):
    spec = tmp_path / "s.yaml"
    spec.write_text("name: dry\nbenchmarks: [vector_add]\nseeds: [0, 1]\n")
    pytest.importorskip("warpsim.bench")
    assert main(["sweep", str(spec), "--dry-run", "--out", str(tmp_path / "o")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 3 and out[-1].startswith("2 jobs")
    assert not (tmp_path / "o").exists()


def test_sweep_with_unknown_key_exits_with_status_2(tmp_path, capsys):
    spec = tmp_path / "s.yaml"
    spec.write_text("name: bad\nbenchmarkz: [vector_add]\n")
    assert main(["sweep", str(spec)]) == 2
    assert "benchmarkz" in capsys.readouterr().err


def test_reproduce_list_says_when_nothing_is_registered(capsys):
    assert main(["reproduce", "--list"]) == 0
    assert capsys.readouterr().out.strip()


def test_query_summary_and_compact_skip_an_unreadable_file_and_name_it(results_dir, capsys,
                                                                       caplog):
    store = ResultStore(results_dir)
    store.append([{"job_id": "c", "status": "ok", "finished_at": "3", "benchmark": "bfs",
                   "variant": "v2", "gpu_sim_insn": 300, "wall_s": 1.0}])
    bad = store.files()[1]  # job b's record
    bad.write_bytes(b"PAR1 damaged")
    assert main(["results", "query", str(results_dir),
                 "SELECT job_id FROM results ORDER BY job_id", "--format", "csv"]) == 0
    assert capsys.readouterr().out.split() == ["job_id", "a", "c"]
    assert main(["results", "summary", str(results_dir), "--format", "csv"]) == 0
    assert capsys.readouterr().out.split() == ["variant,jobs,ok,failed,wall_s", "base,1,1,0,0.5",
                                               "v2,1,1,0,1.0"]
    warnings = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert len(warnings) == 2 and all(str(bad) in w for w in warnings)
    assert main(["results", "compact", str(results_dir)]) == 0
    assert "merged 2 record files" in capsys.readouterr().out
    assert (results_dir / (bad.name + ".unreadable")).read_bytes() == b"PAR1 damaged"
    assert main(["results", "query", str(results_dir), "SELECT count(*) AS n FROM results",
                 "--format", "csv"]) == 0
    assert capsys.readouterr().out.split() == ["n", "2"]


@pytest.mark.parametrize("command", [["results", "summary"], ["results", "query", "_",
                                                              "SELECT * FROM results"],
                                     ["results", "compact"], ["report"]])
def test_a_folder_that_is_not_a_result_folder_is_refused(tmp_path, capsys, command):
    (tmp_path / "notes.txt").write_text("not a sweep\n")
    argv = [a if a != "_" else str(tmp_path) for a in command]
    if "_" not in command:
        argv.append(str(tmp_path))
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {tmp_path} is not a result folder") and "Traceback" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]  # nothing written


def test_summary_of_a_sweep_folder_without_records_has_no_rows(tmp_path, capsys):
    ResultStore(tmp_path).write_manifest({"name": "empty", "jobs": []})
    assert main(["results", "summary", str(tmp_path)]) == 0
    assert capsys.readouterr().out.strip() == "(no rows)"
