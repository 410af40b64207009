"""Running sweeps: the local pool, a Dask LocalCluster, failing jobs, kill and resume.

The job functions (``sweep_jobfns``) report ``gpu_sim_insn = 1000 * len(benchmark) + seed``;
the tests recompute that formula for each record.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import psutil  # a dependency of dask's distributed, which warpsim requires
import pyarrow.parquet as pq
import pytest
import sweep_jobfns as fns

from warpsim.errors import ConfigError
from warpsim.runner.executors import InlineExecutor
from warpsim.runner.jobs import git_revision, warpsim_version
from warpsim.runner.store import ResultStore, load_results
from warpsim.runner.sweep import parse_sweep, run_sweep

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]


def _spec(benchmarks=("a", "b", "cc"), seeds=(0, 1), configs=None):
    return parse_sweep({"name": "t", "benchmarks": list(benchmarks), "seeds": list(seeds),
                        "configs": configs or {"base": {}, "banks32": {"overrides": {
                            "regfile.n_banks": 32}}}}, check_benchmarks=False)


def _check_ok_records(df, spec):
    want = {j.job_id: j for j in spec.jobs()}
    assert sorted(df["job_id"]) == sorted(want)
    for row in df.itertuples():
        job = want[row.job_id]
        assert row.status == "ok" and row.benchmark == job.benchmark
        assert row.gpu_sim_insn == fns.expected_insn(job.benchmark, job.seed)
        assert row.energy_regfile_pj == 2.0 and row.variant == job.variant


def test_local_pool_sweep_records_every_job_once(tmp_path):
    spec = _spec()
    summary = run_sweep(spec, tmp_path, jobs=2, simulate=fns.instant, progress=False)
    assert (summary.total, summary.ok, summary.failed, summary.skipped) == (12, 12, 0, 0)
    df = load_results(tmp_path)
    _check_ok_records(df, spec)
    assert len(load_results(tmp_path, all_attempts=True)) == 12
    assert set(df["warpsim_version"]) == {warpsim_version()}
    assert set(df["git_revision"]) == {git_revision()}
    assert df["config_hash"].str.len().eq(64).all() and df["wall_s"].ge(0).all()
    banks = df.loc[df["label"] == "banks32", "config"].iloc[0]
    assert '"n_banks": 32' in banks
    assert len(df["pid"].unique()) <= 2 and os.getpid() not in set(df["pid"])
    assert ResultStore(tmp_path).manifest()["name"] == "t"


def test_dask_local_cluster_runs_the_same_sweep(tmp_path):
    distributed = pytest.importorskip("distributed")
    spec = _spec(benchmarks=("a", "cc"), seeds=(0,))
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        # The scheduler's address, as `warpsim sweep --dask ADDRESS` passes it.
        summary = run_sweep(spec, tmp_path, dask=cluster.scheduler_address,
                            simulate=fns.failing_on_b, progress=False)
    assert (summary.ok, summary.failed) == (4, 0)
    _check_ok_records(load_results(tmp_path), spec)


def test_failing_job_is_recorded_and_the_sweep_goes_on(tmp_path):
    spec = _spec()
    summary = run_sweep(spec, tmp_path, jobs=2, simulate=fns.failing_on_b, progress=False)
    assert (summary.ok, summary.failed) == (8, 4)
    df = load_results(tmp_path)
    bad = df[df["benchmark"] == "b"]
    assert len(bad) == 4 and set(bad["status"]) == {"failed"}
    assert set(bad["error_type"]) == {"ValueError"}
    assert bad["error_message"].str.contains("benchmark b cannot run").all()
    assert bad["traceback"].str.contains("failing_on_b").all()
    assert bad["gpu_sim_insn"].isna().all()
    assert set(df.loc[df["benchmark"] != "b", "status"]) == {"ok"}
    assert {j for j, _ in summary.failures} == set(bad["job_id"])


def test_retry_failed_supersedes_the_failed_records(tmp_path):
    spec = _spec()
    run_sweep(spec, tmp_path, executor=InlineExecutor(), simulate=fns.failing_on_b,
              progress=False)
    again = run_sweep(spec, tmp_path, executor=InlineExecutor(), simulate=fns.instant,
                      resume=True, progress=False)
    assert (again.skipped, again.ok) == (12, 0)  # resume alone keeps failed records
    retry = run_sweep(spec, tmp_path, executor=InlineExecutor(), simulate=fns.instant,
                      resume=True, retry_failed=True, progress=False)
    assert (retry.skipped, retry.ok) == (8, 4)
    _check_ok_records(load_results(tmp_path), spec)
    assert len(load_results(tmp_path, all_attempts=True)) == 16


def test_a_folder_with_records_needs_resume(tmp_path):
    spec = _spec(benchmarks=("a",), seeds=(0,))
    run_sweep(spec, tmp_path, executor=InlineExecutor(), simulate=fns.instant, progress=False)
    with pytest.raises(ConfigError, match="--resume"):
        run_sweep(spec, tmp_path, executor=InlineExecutor(), simulate=fns.instant,
                  progress=False)


def test_invalid_configuration_fails_only_its_job(tmp_path):
    spec = _spec(benchmarks=("a",), seeds=(0,))
    # A job built by hand with an override the configuration rejects at resolve time.
    from dataclasses import replace

    bad = replace(spec.configs[0], label="bad", overrides=(("regfile.n_banks", 0),))
    spec = replace(spec, configs=(*spec.configs, bad))
    summary = run_sweep(spec, tmp_path, executor=InlineExecutor(), progress=False,
                        simulate=None)
    df = load_results(tmp_path).set_index("label")
    assert df.loc["bad", "status"] == "failed" and df.loc["bad", "error_type"] == "ConfigError"
    assert "regfile.n_banks" in df.loc["bad", "error_message"]
    assert summary.failed >= 1


_SWEEP_SCRIPT = """
import sys
sys.path.insert(0, {here!r})
import sweep_jobfns
from warpsim.runner.sweep import parse_sweep, run_sweep
spec = parse_sweep({spec!r}, check_benchmarks=False)
run_sweep(spec, {out!r}, jobs=2, simulate=sweep_jobfns.{fn}, resume=True, progress=False)
"""


def test_killed_sweep_resumes_without_losing_or_duplicating_records(tmp_path):
    data = {"name": "kill", "benchmarks": ["a", "bb", "ccc", "dddd"], "seeds": list(range(5))}
    spec = parse_sweep(data, check_benchmarks=False)
    out = tmp_path / "out"
    script = textwrap.dedent(_SWEEP_SCRIPT).format(here=str(HERE), spec=data, out=str(out),
                                                   fn="sleepy")
    env = dict(os.environ, SWEEP_TEST_SLEEP_S="0.25")
    proc = subprocess.Popen([sys.executable, "-c", script], env=env, cwd=ROOT,
                            start_new_session=True, stderr=subprocess.PIPE)
    store = ResultStore(out)
    deadline = time.monotonic() + 60
    try:
        while len(store.files()) < 5:
            assert proc.poll() is None, proc.stderr.read().decode()
            assert time.monotonic() < deadline, "the sweep wrote no records"
            time.sleep(0.02)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)  # the sweep and its spawned workers
        proc.wait()
    before = load_results(out, all_attempts=True)
    assert 5 <= len(before) < 20, "killed too late to test a resume"
    assert before["job_id"].is_unique
    summary = run_sweep(spec, out, jobs=2, simulate=fns.instant, resume=True, progress=False)
    assert summary.skipped == len(before)
    assert summary.ok == 20 - len(before) and summary.failed == 0
    after = load_results(out, all_attempts=True)
    assert len(after) == 20 and after["job_id"].is_unique  # none lost, none duplicated
    _check_ok_records(after, spec)
    kept = after.set_index("job_id").loc[before["job_id"], "finished_at"]
    assert kept.tolist() == before["finished_at"].tolist()  # finished records untouched
    assert not list(out.glob(".*.tmp"))


def test_a_job_that_kills_its_worker_fails_alone(tmp_path):
    spec = _spec(benchmarks=("a", "b", "cc", "ddd"), seeds=(0,),
                 configs={"base": {}})
    summary = run_sweep(spec, tmp_path, jobs=2, simulate=fns.dies_on_b, progress=False)
    df = load_results(tmp_path).set_index("benchmark")
    assert (summary.ok, summary.failed) == (3, 1)
    assert df.loc["b", "status"] == "failed"
    assert "worker process died" in df.loc["b", "error_message"]
    assert set(df.drop(index="b")["status"]) == {"ok"}


def _alive(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def test_kill_9_of_a_sweep_takes_its_workers_with_it(tmp_path):
    marks = tmp_path / "marks"
    marks.mkdir()
    data = {"name": "orphans", "benchmarks": ["a", "bb"], "seeds": [0]}
    script = textwrap.dedent(_SWEEP_SCRIPT).format(here=str(HERE), spec=data,
                                                   out=str(tmp_path / "out"), fn="marked_sleepy")
    env = dict(os.environ, SWEEP_TEST_SLEEP_S="300", SWEEP_TEST_MARK_DIR=str(marks))
    proc = subprocess.Popen([sys.executable, "-c", script], env=env, cwd=ROOT,
                            stderr=subprocess.PIPE)
    workers: dict[int, int] = {}  # worker pid -> its parent's pid, as the worker saw it
    try:
        deadline = time.monotonic() + 120
        while len(workers) < 2:  # both workers are inside a 300 s job
            assert proc.poll() is None, proc.stderr.read().decode()
            assert time.monotonic() < deadline, "the workers never started their jobs"
            time.sleep(0.05)
            workers = {int(m.name): int(m.read_text()) for m in marks.iterdir()
                       if m.read_text()}
        assert set(workers.values()) == {proc.pid}
        os.kill(proc.pid, signal.SIGKILL)  # the sweep alone, as `kill -9 PID` does
        proc.wait()
        gone_by = time.monotonic() + 5
        while any(map(_alive, workers)) and time.monotonic() < gone_by:
            time.sleep(0.05)
        assert not [pid for pid in workers if _alive(pid)], "workers outlived their sweep"
    finally:
        for pid in workers:  # never leave an orphan behind, even when the test fails
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
        if proc.poll() is None:
            proc.kill()
            proc.wait()


@pytest.mark.parametrize("damage", ["truncate", "page"])
def test_resume_moves_an_unreadable_record_file_aside_and_reruns_its_job(tmp_path, caplog,
                                                                         damage):
    spec = _spec()
    run_sweep(spec, tmp_path, executor=InlineExecutor(), simulate=fns.instant, progress=False)
    files = ResultStore(tmp_path).files()
    assert len(files) == 12
    bad = files[4]
    lost_job = pq.read_table(bad).column("job_id").to_pylist()
    data = bad.read_bytes()  # damaged on disk: cut short, or a page header overwritten
    data = data[:100] if damage == "truncate" else data[:4] + b"\xff" * 56 + data[60:]
    bad.write_bytes(data)
    kept = load_results(tmp_path).set_index("job_id")["finished_at"]
    summary = run_sweep(spec, tmp_path, executor=InlineExecutor(), simulate=fns.instant,
                        progress=False, resume=True)
    assert (summary.skipped, summary.ok, summary.failed) == (11, 1, 0)
    after = load_results(tmp_path, all_attempts=True)
    _check_ok_records(after, spec)  # every job once: the lost one ran again
    rerun = after.set_index("job_id").loc[lost_job, "finished_at"]
    assert (rerun > kept.max()).all()
    aside = bad.with_name(bad.name + ".unreadable")
    assert not bad.exists() and aside.read_bytes() == data
    assert any(str(bad) in r.getMessage() for r in caplog.records if r.levelname == "WARNING")
