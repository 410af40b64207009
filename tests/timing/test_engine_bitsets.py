"""The engine's speed structures against independent oracles: trace records packed into rows
(``timing/records.py``) against the columns gathered by hand, the scheduler masks against
hand-written bit patterns, and the warp bitsets against the rows they mirror at every cycle of
a micro-kernel with barriers and memory loads.

Oracles: hand-computed masks and divergence flags; ``bin(x).count("1")`` for lane counts; the
warp rows and READY cycles themselves (each bit is defined by one field).
"""

from __future__ import annotations

import numpy as np
from timing_helpers import BARRIER, EXIT, Inst, make_chunk, rec, small_config
from timing_memstub import stub_memsys

from warpsim.errors import InternalError
from warpsim.mechanisms.hooks import noop_hooks
from warpsim.timing import consts as tc
from warpsim.timing import fields as fl
from warpsim.timing.driver import TimingSimulator
from warpsim.timing.records import pack_records
from warpsim.timing.warpbits import sched_bits, warp_bits_of


def test_packed_records_are_the_chunk_columns_in_warp_order():
    # warp 0: a branch that splits (0xF then 0x3), an equal mask, a wider mask, its last record
    # warp 1: a load of 2 lines (5 sectors), then a shared access of degree 3 by 2 of its
    # lanes (a strict subset: the load counts as splitting the warp)
    w0 = [rec(0, mask=0xF), rec(1, mask=0x3), rec(2, mask=0x3), rec(3, mask=0xF),
          rec(4, mask=0x1)]
    w1 = [rec(5, mask=0xFFFFFFFF, lines=(128, 256), nsec=5), rec(6, mask=0x80000001, bank=3)]
    chunk = make_chunk([w0, w1], 1)
    got = pack_records(chunk.order, chunk.offsets, chunk.pc, chunk.mask, chunk.exec_mask,
                       chunk.n_lines, chunk.n_sectors, chunk.bank_conflict, chunk.line_start)
    assert got.shape == (7, fl.N_REC_FIELDS)
    assert got[:, fl.F_REC_PC].tolist() == [0, 1, 2, 3, 4, 5, 6]
    assert got[:, fl.F_REC_NTHR].tolist() == [bin(m).count("1") for m in
                                              (0xF, 0x3, 0x3, 0xF, 0x1, 0xFFFFFFFF, 0x80000001)]
    assert got[:, fl.F_REC_DIVERGED].tolist() == [1, 0, 0, 1, 0, 1, 0]
    assert got[:, fl.F_REC_NLINES].tolist() == [0, 0, 0, 0, 0, 2, 0]
    assert got[:, fl.F_REC_NSEC].tolist() == [0, 0, 0, 0, 0, 5, 0]
    assert got[:, fl.F_REC_BANK].tolist() == [0, 0, 0, 0, 0, 0, 3]
    # the chunk interleaves the warps: warp 1's load is the chunk's second record, no lines
    # before it
    assert got[5, fl.F_REC_LINE0] == 0
    assert chunk.lines[got[5, fl.F_REC_LINE0] + 1] == 256


def test_scheduler_masks_split_the_warp_slots_by_slot_modulo():
    m = sched_bits(2, 70)
    assert m.shape == (2, 2)
    assert int(m[0, 0]) == 0x5555555555555555 and int(m[1, 0]) == 0xAAAAAAAAAAAAAAAA
    assert int(m[0, 1]) == 0b10101 and int(m[1, 1]) == 0b101010  # slots 64..69
    assert int(sched_bits(1, 3)[0, 0]) == 0b111


def test_warp_bitsets_mirror_the_warp_rows_at_every_cycle():
    # 3 CTAs of 2 warps on one SM (2 resident at a time): loads that miss, dependent adds,
    # a barrier each; stepped one cycle at a time (the cycle limit), bits checked each stop
    cfg = small_config(**{"sm.n_schedulers": 2})
    insts = [Inst("ld", space="global", reads=(1,), writes=(2,)),
             Inst("add", reads=(2,), writes=(3,), n_imm=1), Inst("bar", kind=BARRIER),
             Inst("add", reads=(3,), writes=(3,), n_imm=1), Inst("exit", kind=EXIT)]
    warp = [rec(0, lines=(4096,)), rec(1), rec(2), rec(3), rec(3), rec(4)]
    sim = TimingSimulator(cfg, hooks=noop_hooks(), memsys=stub_memsys(None, 40))
    sim.start(*_prog(insts), n_ctas=3, cta_threads=64, regs_per_thread=8, shmem_bytes=0)
    lw = sim._launch
    cap = int(lw.prm[tc.P_IBUF])
    stops = 0
    limit = 1
    sim.max_cycles = limit
    try:
        sim.consume(make_chunk([warp] * 6, 2))
    except InternalError:
        pass
    lw.state.sc[tc.SC_FINAL] = 1
    while lw.status != tc.ST_DONE:
        st = lw.state
        assert np.array_equal(st.warp_bits, warp_bits_of(st.warp, cap))
        stops += 1
        limit += 1
        sim.max_cycles = limit
        try:
            sim._run(lw)
        except InternalError:
            pass
    assert stops > 40  # it stopped inside the loads' latency (40 cycles), not only at the ends
    r = sim.finish()
    assert r.stats["sm_warps_launched"] == 6
    assert not lw.state.warp_bits.any()


def _prog(insts):
    from timing_helpers import FakeAlloc, FakeProgram

    return FakeProgram(insts), FakeAlloc(insts)
