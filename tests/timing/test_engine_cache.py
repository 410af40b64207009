"""The cycle loop is compiled once per machine, not once per process: hooks and memory ports
are typed by what they are (``warpsim/_bundle.py``), so numba's on-disk cache matches in a new
process, and any edit of a hook's or the engine's source gives a new type (never a stale
loop). Oracle: numba's own cache statistics and type identities."""

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

_RUN = textwrap.dedent("""
    import numpy as np, warpsim
    from warpsim.timing.engine import run_engine
    src = '''
    .version 7.0
    .target sm_80
    .address_size 64
    .visible .entry k(.param .u64 p) {
      .reg .b32 %r<3>; .reg .b64 %rd<3>;
      ld.param.u64 %rd1, [p]; cvta.to.global.u64 %rd2, %rd1;
      mov.u32 %r1, %tid.x; add.s32 %r2, %r1, 1; st.global.u32 [%rd2], %r2; ret; }
    '''
    gpu = warpsim.Device(config="gtx480", overrides=["sm.n_sms=1"])
    out = gpu.device_array(1, np.uint32)
    gpu.load_ptx(src).get_kernel("k")[1, 32](out)
    print(sum(run_engine.stats.cache_hits.values()), gpu.last_launch.stats["gpu_sim_cycle"])
""")


def _python(code: str, cache_dir: Path | None = None) -> str:
    env = dict(os.environ)
    env["NUMBA_DISABLE_JIT"] = "0"  # about numba's cache: also in the no-JIT pass
    if cache_dir is not None:  # numba's cache of this test alone (other tests write theirs)
        env["NUMBA_CACHE_DIR"] = str(cache_dir)
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
def test_a_second_process_loads_the_cycle_loop_from_the_cache():
    """The first process compiles and stores the loop, or loads it when another test or run
    compiled it already (numba's cache of this checkout: not a folder of its own, so the suite
    pays for one compile of the baseline loop, not one more); the second always loads it."""
    _, cycles = _python(_RUN).split()
    hits, again = _python(_RUN).split()
    assert int(hits) >= 1 and again == cycles


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
