"""The cycle loop is compiled once per machine, not once per process: hooks and memory ports
are typed by what they are (``warpsim/_bundle.py``), so numba's on-disk cache matches in a new
process, and any edit of a hook's or the engine's source gives a new type (never a stale
loop). Oracle: numba's own cache statistics and type identities. (That a second process loads
the cycle loop from the cache is checked by tests/timing/test_compile_notice.py, whose first
process compiles it anyway.)"""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numba
import pytest

from warpsim import _bundle
from warpsim.mechanisms.hooks import noop_hooks

_PROBE = textwrap.dedent("""
    import numba
    from warpsim.mechanisms.hooks import noop_hooks
    print(numba.typeof(noop_hooks()).name)
""")


def _python(code: str) -> str:
    env = dict(os.environ)
    env["NUMBA_DISABLE_JIT"] = "0"  # about numba's cache: also in the no-JIT pass
    return subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                          text=True, timeout=900, env=env).stdout.strip()


def test_the_same_hooks_have_the_same_type_in_a_new_process():
    assert _python(_PROBE) == numba.typeof(noop_hooks()).name


def test_different_functions_are_different_types():
    hooks = noop_hooks()
    other = hooks._replace(on_issue=hooks.poll_parked)
    assert numba.typeof(other) != numba.typeof(hooks)
    assert numba.typeof(other) == numba.typeof(hooks._replace(on_issue=hooks.poll_parked))


def test_editing_a_hooks_source_changes_its_key(tmp_path, monkeypatch):
    mod = tmp_path / "probe_hook_mod.py"
    mod.write_text("from warpsim._jit import jit\n@jit\ndef hook(hs):\n    return 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    m = importlib.import_module("probe_hook_mod")
    before = _bundle.function_key(m.hook)
    assert before == _bundle.function_key(m.hook)            # stable
    mod.write_text("from warpsim._jit import jit\n@jit\ndef hook(hs):\n    return 2\n")
    monkeypatch.setattr(_bundle, "_DIR_DIGESTS", {})
    m = importlib.reload(m)
    assert _bundle.function_key(m.hook) != before


@pytest.mark.needs_jit
def test_a_cached_function_is_recompiled_when_a_callee_in_another_file_changes(tmp_path):
    """numba's cache checks only the function's own file: warpsim's ``jit`` also stamps it
    with its package's sources, so editing a callee's file (not the caller's) is seen."""
    pkg = tmp_path / "cachepkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "callee.py").write_text("from warpsim._jit import jit\n\n@jit\n"
                                   "def g(x):\n    return x + 1\n")
    (pkg / "caller.py").write_text("from warpsim._jit import jit\nfrom cachepkg.callee import g"
                                   "\n\n@jit\ndef f(x):\n    return g(x) * 10\n")
    probe = "from cachepkg.caller import f; print(f(1))"
    env = {**os.environ, "NUMBA_DISABLE_JIT": "0",
           "PYTHONPATH": os.pathsep.join([str(tmp_path), str(Path(__file__).parents[2])])}

    def run() -> str:
        return subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True,
                              text=True, check=True).stdout.strip()

    assert run() == "20"
    assert run() == "20"  # from the cache
    (pkg / "callee.py").write_text("from warpsim._jit import jit\n\n@jit\n"
                                   "def g(x):\n    return x + 2\n")
    assert run() == "30"  # not the stale 20
