"""The ``writeback_read_bank`` seam (a register the writeback must read: WIR's verify read),
driven by a small test mechanism with a hand-computed timeline.

Conventions of tests/timing/test_seams.py: one SM, one scheduler, GTO; the CTA is dispatched
in cycle 0, its warp issues in cycle 2; an add issued at t reads its source at t+2, is
dispatched at t+3 and writes back 4 cycles later; register r of warp 0 lives in bank r.
The kernel: ``add r1, r0, 1`` (issued 2, written back 9), ``add r2, r0, 1`` (issued 3, written
back 10), exit (issued 4): 11 cycles.
"""

from __future__ import annotations

import numpy as np
import pytest
from timing_helpers import EXIT, FakeAlloc, FakeProgram, Inst, make_chunk, rec, small_config
from timing_memstub import stub_memsys

from warpsim._jit import jit
from warpsim.mechanisms.base import Mechanism
from warpsim.timing.driver import TimingSimulator

DELAY, VERIFY = 1, 2
"""Probe modes: the first add's result one cycle later; r2's writeback reads bank 1."""


@jit
def _result_delay(hs, sm, warp, rec, cycle):  # pragma: no cover - jit
    cfg = hs
    if cfg[0] & DELAY and cfg[1] == 0:
        cfg[1] = 1
        return 1
    return 0


@jit
def _writeback_read_bank(hs, sm, warp, rec, reg):  # pragma: no cover - jit
    return np.int64(1) if hs[0] & VERIFY and reg == 2 else np.int64(-1)


class WritebackReader(Mechanism):
    name = "wbread"

    def __init__(self, cfg, mode):
        super().__init__(cfg)
        self.mode = mode
        self.hooks = self.hooks._replace(result_delay=_result_delay,
                                         writeback_read_bank=_writeback_read_bank)

    def start_launch(self, info):
        return np.array([self.mode, 0], np.int64)

    def hook_state(self, launch_state, rec_cols, rec_base):
        return launch_state


INSTS = [Inst("add", reads=(0,), writes=(1,), n_imm=1),
         Inst("add", reads=(0,), writes=(2,), n_imm=1), Inst("exit", kind=EXIT)]


def _run(mode):
    cfg = small_config()
    sim = TimingSimulator(cfg, mechanism=WritebackReader(cfg, mode),
                          memsys=stub_memsys(None, 200))
    sim.start(FakeProgram(INSTS), FakeAlloc(INSTS), n_ctas=1, cta_threads=32,
              regs_per_thread=8, shmem_bytes=0)
    sim.consume(make_chunk([[rec(0), rec(1), rec(2)]], 1))
    return sim.finish()


@pytest.mark.parametrize(("mode", "cycles", "reads", "stalls"), [
    (0, 11, 2, 0),
    # both results ready at 10: r1 (bank 1) and r2 (bank 2) write in the same cycle
    (DELAY, 11, 2, 0),
    # r2's writeback at 10 also reads bank 1, free then (r1 wrote at 9): one more bank read
    (VERIFY, 11, 3, 0),
    # r1 writes bank 1 at 10, so r2's verify read of bank 1 waits: r2 written at 11
    (DELAY | VERIFY, 12, 3, 1),
])
def test_verify_read_takes_the_banks_port(mode, cycles, reads, stalls):
    r = _run(mode)
    assert r.cycles == cycles
    assert r.stats["regfile_bank_reads"] == reads
    assert r.stats["regfile_bank_writes"] == 2
    assert r.stats["regfile_write_conflict_stalls"] == stalls
