"""The same engine code must run as plain Python: STYLE.md §2.4 asks CI to run the unit tests
once with numba and once with ``NUMBA_DISABLE_JIT=1``. This test is that second pass, for the
suites whose code is jitted (timing engine, memory system, trace annotations, SIMT stack
helpers), run in a fresh interpreter so that the environment variable takes effect before numba
is imported. Tests about numba's compiler and cache (marker ``needs_jit``: a fresh process
compiling the cycle loop) are left out: with the JIT off they would only compile it again."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
JITTED_SUITES = ["tests/timing", "tests/functional/test_trace.py",
                 "tests/functional/test_trace_values.py", "tests/functional/test_simt_kernels.py"]


def test_jitted_suites_pass_with_numba_disabled(tmp_path):
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", PYTHONDONTWRITEBYTECODE="1")
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider",
         "-m", "not slow and not needs_jit",
         "--basetemp", str(tmp_path / "nojit"), *JITTED_SUITES],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=900,
    )
    assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-2000:]
    assert " passed" in out.stdout
