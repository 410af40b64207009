"""RFV, the paper's renamed half-size register file baseline (``regless.design=rfv``), in the
cycle loop on a hand-worked kernel: ``mov r0; mov r1; mov r2; add r3, r0, r1; add r4, r3, r2;
exit``. Registers are mapped at their first write's issue and released at their erase (r0, r1
at the first add's issue; r2, r3 at the second's; r4 at its writeback), so one warp holds at
most 4 (r0-r3, at the first add) of its 5 registers."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "timing"))

from rl_helpers import plan
from timing_helpers import EXIT, FakeAlloc, FakeProgram, Inst, make_chunk, rec, small_config
from timing_memstub import stub_memsys

from warpsim.errors import ConfigError
from warpsim.mechanisms.hooks import noop_hooks
from warpsim.mechanisms.regless.mechanism import RegLess
from warpsim.timing.driver import TimingSimulator

SRC = """mov.u32 %r0, 1
mov.u32 %r1, 2
mov.u32 %r2, 3
add.u32 %r3, %r0, %r1
add.u32 %r4, %r3, %r2
exit"""
INSTS = [Inst("mov", writes=(0,), n_imm=1), Inst("mov", writes=(1,), n_imm=1),
         Inst("mov", writes=(2,), n_imm=1), Inst("add", reads=(0, 1), writes=(3,)),
         Inst("add", reads=(3, 2), writes=(4,)), Inst("exit", kind=EXIT)]
WARP = [rec(pc) for pc in range(6)]


def _time(n_warps, entries=None):
    cfg = small_config() if entries is None else small_config(**{
        "regless.enabled": True, "regless.design": "rfv", "regless.entries_per_sm": entries})
    engine = {"hooks": noop_hooks()}
    if entries is not None:
        mech = RegLess(cfg)
        mech.plans["micro"] = plan(SRC, max_regs=8, bank=max(1, entries // 8))
        engine = {"mechanism": mech}
    sim = TimingSimulator(cfg, memsys=stub_memsys(None, 200), **engine)
    sim.start(FakeProgram(INSTS), FakeAlloc(INSTS, 5), n_ctas=n_warps, cta_threads=32,
              regs_per_thread=5, shmem_bytes=0)
    sim.consume(make_chunk([WARP] * n_warps, 1))
    return sim.finish()


@pytest.mark.slow
def test_a_large_file_never_stalls_and_times_like_the_baseline():
    """Slow: RFV's hooks are a cycle loop of their own (a numba compilation of minutes)."""
    on, base = _time(1, entries=64), _time(1)
    assert on.cycles == base.cycles
    s = on.stats
    assert s["rl_rfv_peak_registers"] == 4
    assert s["rl_rfv_alloc_stalls"] == 0 and s["rl_rfv_throttled_stalls"] == 0
    assert s["rl_regions_executed"] == 0   # no capacity manager in RFV


@pytest.mark.slow
def test_a_small_file_throttles_the_younger_warp():
    # 8 physical registers for 2 warps of 5: once fewer than 5 are free, only the oldest warp
    # may allocate, so the younger one waits for the first add to release r0 and r1
    on, base = _time(2, entries=8), _time(2)
    s = on.stats
    assert s["rl_rfv_throttled_stalls"] > 0
    assert s["rl_rfv_peak_registers"] <= 8
    assert on.cycles > base.cycles


def test_design_must_be_known():
    with pytest.raises(ConfigError):
        small_config(**{"regless.design": "rfh"})
