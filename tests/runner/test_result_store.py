"""The Parquet result store: atomic files, DuckDB views, one record per job, the writer lock."""

from __future__ import annotations

import pyarrow.parquet as pq
import pytest

from warpsim.errors import ConfigError, WarpsimError
from warpsim.runner.jobs import METADATA_COLUMNS
from warpsim.runner.store import ResultStore, load_results, query_results


def _rec(job_id: str, status: str = "ok", finished: str = "2026-01-01T00:00:01", **cols):
    return {"job_id": job_id, "status": status, "finished_at": finished, **cols}


def test_append_writes_one_complete_file_and_no_temporary(tmp_path):
    store = ResultStore(tmp_path)
    path = store.append([_rec("a", gpu_sim_insn=10), _rec("b", gpu_sim_insn=20)])
    assert path is not None and path.parent == tmp_path
    assert [p.name for p in tmp_path.iterdir()] == [path.name]
    table = pq.read_table(path)
    assert table.column("job_id").to_pylist() == ["a", "b"]
    assert table.column("gpu_sim_insn").to_pylist() == [10, 20]
    assert store.append([]) is None


def test_files_with_different_columns_are_read_by_name(tmp_path):
    store = ResultStore(tmp_path)
    store.append([_rec("a", gpu_sim_insn=10, energy_regfile_pj=1.5)])
    store.append([_rec("b", status="failed", error_type="ValueError")])
    store.append([_rec("c", gpgpu_n_tot_w_icount=7)])
    df = query_results(tmp_path, "SELECT job_id, gpu_sim_insn, error_type, "
                                 "gpgpu_n_tot_w_icount FROM results ORDER BY job_id")
    assert df["job_id"].tolist() == ["a", "b", "c"]
    assert df["gpu_sim_insn"].tolist()[0] == 10 and df["gpu_sim_insn"].isna().tolist() == [
        False, True, True]
    assert df["error_type"].tolist()[1] == "ValueError"
    assert df["gpgpu_n_tot_w_icount"].tolist()[2] == 7


def test_results_view_keeps_the_ok_record_else_the_latest(tmp_path):
    store = ResultStore(tmp_path)
    store.append([_rec("a", status="failed", finished="2026-01-01T00:00:01", error_type="E1")])
    store.append([_rec("a", status="ok", finished="2026-01-01T00:00:02")])
    store.append([_rec("a", status="failed", finished="2026-01-01T00:00:03", error_type="E3")])
    store.append([_rec("b", status="failed", finished="2026-01-01T00:00:01", error_type="E1")])
    store.append([_rec("b", status="failed", finished="2026-01-01T00:00:05", error_type="E5")])
    assert store.finished() == {"a": "ok", "b": "failed"}
    df = load_results(tmp_path).sort_values("job_id")
    assert df["status"].tolist() == ["ok", "failed"]
    assert df["error_type"].tolist()[1] == "E5"
    assert len(load_results(tmp_path, all_attempts=True)) == 5


def test_empty_folder_gives_an_empty_frame_with_the_record_columns(tmp_path):
    df = load_results(tmp_path / "none")
    assert len(df) == 0 and list(df.columns) == list(METADATA_COLUMNS)
    assert ResultStore(tmp_path / "none").finished() == {}


def test_second_writer_is_refused_while_the_first_holds_the_lock(tmp_path):
    first = ResultStore(tmp_path)
    first.lock()
    try:
        with pytest.raises(WarpsimError, match="another sweep"):
            ResultStore(tmp_path).lock()
    finally:
        first.unlock()
    with ResultStore(tmp_path):
        pass


def test_lock_removes_temporaries_of_a_killed_writer(tmp_path):
    stale = tmp_path / ".records-x.parquet.0123abcd.tmp"
    stale.write_bytes(b"half a file")
    with ResultStore(tmp_path) as store:
        assert not stale.exists()
        assert store.files() == []


def test_bad_sql_is_a_config_error_with_duckdbs_reason(tmp_path):
    ResultStore(tmp_path).append([_rec("a")])
    with pytest.raises(ConfigError) as info:
        query_results(tmp_path, "SELECT no_such_column FROM results")
    assert info.value.field == "sql"
    assert "no_such_column" in info.value.message


def test_manifest_round_trips(tmp_path):
    store = ResultStore(tmp_path)
    assert store.manifest() is None
    store.write_manifest({"name": "s", "jobs": [{"job_id": "a"}]})
    assert store.manifest() == {"name": "s", "jobs": [{"job_id": "a"}]}
    assert store.files() == []  # the manifest is not a record file


def test_compaction_merges_files_and_a_killed_one_loses_and_duplicates_nothing(tmp_path):
    import shutil

    store = ResultStore(tmp_path)
    for i in range(4):
        store.append([_rec(f"j{i}", gpu_sim_insn=i)] if i % 2 else [_rec(f"j{i}")])
    sources = store.files()
    saved = tmp_path.parent / "saved"
    saved.mkdir()
    for f in sources:
        shutil.copy(f, saved / f.name)
    merged = store.compact()
    assert store.files() == [merged] and len(list(tmp_path.glob("records-*"))) == 1
    assert sorted(load_results(tmp_path, all_attempts=True)["job_id"]) == [
        "j0", "j1", "j2", "j3"]
    # A compaction killed after its rename but before deleting the sources:
    for f in sources[:2]:
        shutil.copy(saved / f.name, f)
    assert store.files() == [merged]
    assert len(load_results(tmp_path, all_attempts=True)) == 4
    with store:  # the next writer removes the leftovers
        assert sorted(tmp_path.glob("records-*")) == [merged]
    store.append([_rec("j4")])
    assert store.compact() is not None and len(store.files()) == 1
    assert len(load_results(tmp_path, all_attempts=True)) == 5


def _damage(path, how: str) -> bytes:
    """Make ``path`` unreadable as Parquet (``truncate`` keeps its first half, ``garbage``
    replaces it by text, ``page`` overwrites its first page header but keeps the footer);
    returns the bytes now on disk."""
    data = path.read_bytes()
    if how == "truncate":
        data = data[:len(data) // 2]
    elif how == "garbage":
        data = b"not parquet at all\n"
    else:
        data = data[:4] + b"\xff" * 56 + data[60:]
    path.write_bytes(data)
    if how == "page":
        assert pq.read_metadata(path).num_rows == 1  # the footer still reads
    return data


@pytest.mark.parametrize("how", ["truncate", "garbage", "page"])
def test_an_unreadable_file_is_skipped_with_a_warning_naming_it(tmp_path, caplog, how):
    store = ResultStore(tmp_path)
    store.append([_rec("a", gpu_sim_insn=1)])
    bad = store.append([_rec("b", gpu_sim_insn=2)])
    store.append([_rec("c", gpu_sim_insn=3)])
    damaged = _damage(bad, how)
    df = query_results(tmp_path, "SELECT job_id, gpu_sim_insn FROM results ORDER BY job_id")
    assert df["job_id"].tolist() == ["a", "c"] and df["gpu_sim_insn"].tolist() == [1, 3]
    warned = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert len(warned) == 1 and str(bad) in warned[0] and "unreadable" in warned[0]
    assert ResultStore(tmp_path).finished() == {"a": "ok", "c": "ok"}
    assert bad.read_bytes() == damaged  # a reader never touches it


@pytest.mark.parametrize("how", ["truncate", "page"])
def test_compaction_merges_the_readable_files_and_keeps_the_unreadable_one(tmp_path, caplog,
                                                                           how):
    store = ResultStore(tmp_path)
    for job in "abc":
        store.append([_rec(job)])
    bad = store.files()[1]
    damaged = _damage(bad, how)
    merged = store.compact()
    assert merged is not None
    assert sorted(load_results(tmp_path)["job_id"]) == ["a", "c"]
    aside = bad.with_name(bad.name + ".unreadable")
    assert not bad.exists() and aside.read_bytes() == damaged  # moved aside, bytes intact
    assert sorted(p.name for p in tmp_path.glob("records-*")) == sorted([merged.name, aside.name])
    assert any(str(bad) in r.getMessage() and "aside" in r.getMessage()
               for r in caplog.records)
