"""The timing engine's compile says so on stderr, on a terminal or with WARPSIM_PROGRESS=1,
and nothing is printed otherwise (tests' captured output stays clean)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from warpsim.timing.progress import compile_notice

ROOT = Path(__file__).resolve().parents[2]
_START = "warpsim: compiling the timing engine (once per machine, ~25 s)..."
_DONE = re.compile(r"^warpsim: compiling the timing engine\.\.\. done in (\d+\.\d) s$", re.M)


def test_slow_compile_prints_start_and_duration(monkeypatch, capsys):
    monkeypatch.setenv("WARPSIM_PROGRESS", "1")
    with compile_notice(delay_s=0.05):
        time.sleep(0.4)
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert lines[0] == _START and len(lines) == 2
    seconds = float(_DONE.search(captured.err).group(1))
    assert 0.4 <= seconds < 5.0


def test_fast_body_prints_nothing(monkeypatch, capsys):
    """An engine compiled already (the body returns at once) is not announced."""
    monkeypatch.setenv("WARPSIM_PROGRESS", "1")
    with compile_notice(delay_s=2.0):
        pass
    time.sleep(0.1)
    assert capsys.readouterr().err == ""


def test_not_a_terminal_and_no_variable_prints_nothing(monkeypatch, capsys):
    monkeypatch.delenv("WARPSIM_PROGRESS", raising=False)
    with compile_notice(delay_s=0.01):
        time.sleep(0.2)
    assert capsys.readouterr().err == ""


_CLI = ("import sys\n"
        "from warpsim.cli import main\n"
        "from warpsim.timing.engine import run_engine\n"
        "rc = main(sys.argv[1:])\n"
        "print('cycle loops loaded from the cache:', sum(run_engine.stats.cache_hits.values()),"
        " file=sys.stderr)\n"
        "sys.exit(rc)\n")
"""``python -m warpsim.cli``, and numba's count of cycle loops it loaded from the on-disk cache
as the last line of stderr (numba's own statistic: the oracle that nothing was compiled)."""
_HITS = re.compile(r"^cycle loops loaded from the cache: (\d+)$", re.M)


def _run_vector_add(progress: str | None, cache_dir=None) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    if cache_dir is not None:  # a numba cache of its own: the engine compiles in this process
        env["NUMBA_CACHE_DIR"] = str(cache_dir)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
    env.pop("WARPSIM_PROGRESS", None)
    env["NUMBA_DISABLE_JIT"] = "0"  # the notice is about compiling: also in the no-JIT pass
    if progress is not None:
        env["WARPSIM_PROGRESS"] = progress
    return subprocess.run([sys.executable, "-c", _CLI, "run", "vector_add", "--size", "tiny",
                           "--json", "-q"], capture_output=True, text=True, env=env,
                          timeout=900)


@pytest.mark.needs_jit
def test_a_second_process_loads_the_cycle_loop_from_the_cache():
    """The machine's own numba cache (the one every test process shares): once one process has
    the cycle loop (this call, or any earlier test's), a second process loads it (numba counts
    a cache hit) and gives the same statistics — the loop is compiled once per machine, not
    once per process (``warpsim/_bundle.py``)."""
    first = _run_vector_add(None)
    assert first.returncode == 0, first.stderr
    second = _run_vector_add(None)
    assert second.returncode == 0, second.stderr
    assert int(_HITS.search(second.stderr).group(1)) >= 1
    assert _untimed(json.loads(second.stdout)) == _untimed(json.loads(first.stdout))


@pytest.mark.slow  # a whole engine compile into an empty cache (~90 s of CPU)
@pytest.mark.needs_jit
def test_fresh_process_announces_the_engine_compile(tmp_path):
    """A process that compiles the cycle loop (an empty numba cache): both lines on stderr, the
    record unchanged (the compile time it reports is within the announced duration). A second
    process loads the loop from that cache (numba counts a cache hit, the same statistics):
    the loop is compiled once per machine, not once per process (``warpsim/_bundle.py``)."""
    proc = _run_vector_add("1", tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert _START in proc.stderr.splitlines()
    announced = float(_DONE.search(proc.stderr).group(1))
    assert int(_HITS.search(proc.stderr).group(1)) == 0
    record = json.loads(proc.stdout)
    assert record["benchmark"] == "vector_add"
    assert 0 < record["numba_compile_s"] <= announced + 0.1
    quiet = _run_vector_add(None, tmp_path)  # stderr is a pipe here: not a terminal
    assert quiet.returncode == 0, quiet.stderr
    assert "compiling the timing engine" not in quiet.stderr
    assert int(_HITS.search(quiet.stderr).group(1)) >= 1
    assert _untimed(json.loads(quiet.stdout)) == _untimed(record)


def _untimed(value):
    """A record without its wall-clock fields (``*_s``, speeds): the statistics alone."""
    if isinstance(value, dict):
        return {k: _untimed(v) for k, v in value.items()
                if not k.endswith("_s") and "speed" not in k and "per_s" not in k}
    if isinstance(value, list):
        return [_untimed(v) for v in value]
    return value
