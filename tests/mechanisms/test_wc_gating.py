"""Warped-Compression bank state and power gating (specs/warped-compression.md §5.6, §10 gating
tests) on the hook functions directly: after a <4,0> write bank 0 of the register's cluster is
on and banks 1-7 stay gated; a larger image wakes the missing banks, which take the wake-up
latency; CTA exit clears the valid entries and gates the banks; gated-cycle statistics."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from test_wc_walk import launch
from timing_helpers import EXIT, Inst
from wc_helpers import value_chunk, vrec

from warpsim.mechanisms.warped_compression.hooks import (
    wc_can_writeback,
    wc_on_cta_release,
    wc_on_operand_read,
    wc_on_warp_launch,
    wc_on_writeback,
)
from warpsim.stats import C_GPU_SIM_CYCLE, C_SM_ACTIVE_CYCLES, make_counts

LANE = np.arange(32)
ON_SINCE, VALID, ON_TIME, HSTATS = 6, 5, 9, 12


def _setup(overrides=()):
    insts = [Inst("mov", writes=(1,)), Inst("mov", writes=(1,)), Inst("mov", writes=(2,)),
             Inst("exit", kind=EXIT)]
    mech, ls = launch(insts, overrides)
    cols = mech.record_columns(ls, value_chunk([[vrec(0, [np.full(32, 5)]),
                                                 vrec(1, [LANE * 70000]),
                                                 vrec(2, [0x1000 + LANE]), vrec(3)]]))
    return mech, ls, mech.hook_state(ls, cols, 0)


def test_compressed_write_leaves_banks_1_to_7_gated_and_a_larger_image_wakes_them():
    mech, ls, hs = _setup()
    wc_on_warp_launch(hs, 0, 0, 0, 0, 0)  # warp slot 0 in CTA slot 0
    assert wc_can_writeback(hs, 0, 0, 0, 0, 100) is False  # bank 8 gated at launch: woken
    assert not wc_can_writeback(hs, 0, 0, 0, 0, 109)
    assert wc_can_writeback(hs, 0, 0, 0, 0, 110)  # 10-cycle wake-up
    assert wc_on_writeback(hs, 0, 0, 0, 0, 110) == 0
    cluster = (1 + 0) % 4 * 8  # register 1 of warp slot 0: banks 8..15
    assert hs[ON_SINCE][0, cluster] == 100 and hs[VALID][0, cluster] == 1
    assert (hs[ON_SINCE][0, cluster + 1:cluster + 8] == -1).all()  # banks 1-7 gated
    assert (hs[VALID][0, cluster + 1:cluster + 8] == 0).all()
    assert wc_on_operand_read(hs, 0, 0, 1, 0, 111) == 1
    # uncompressed write of r1: banks 9-15 wake; the write waits until cycle 130
    assert not wc_can_writeback(hs, 0, 0, 1, 1, 120)
    assert not wc_can_writeback(hs, 0, 0, 1, 1, 129)
    assert wc_can_writeback(hs, 0, 0, 1, 1, 130)
    wc_on_writeback(hs, 0, 0, 1, 1, 130)
    assert (hs[VALID][0, cluster:cluster + 8] == 1).all()
    h = dict(zip(("wakeups", "stalls"), hs[HSTATS][:2].tolist(), strict=False))
    assert h == {"wakeups": 1 + 7, "stalls": 4}  # one per refused attempt (the engine: per cycle)
    # CTA exit clears the valid bits: every bank gates again
    wc_on_cta_release(hs, 0, 0, 200)
    assert (hs[VALID] == 0).all() and (hs[ON_SINCE] == -1).all()
    assert hs[ON_TIME][0, cluster] == 100 and hs[ON_TIME][0, cluster + 1] == 80
    counts = make_counts(1)
    counts[:, C_GPU_SIM_CYCLE] = 300
    counts[:, C_SM_ACTIVE_CYCLES] = 250
    st = mech.finish_launch(ls, counts)
    assert st["wc_bank_cycles"] == 32 * 300
    assert st["wc_gated_bank_cycles"] == 32 * 300 - 100 - 7 * 80
    assert st["wc_gated_bank_cycles_resident"] == 32 * 250 - 100 - 7 * 80
    assert st["wc_gated_bank_cycles_b8"] == 200 and st["wc_gated_bank_cycles_b9"] == 220
    assert st["wc_gated_bank_cycles_b0"] == 300
    assert st["wc_wakeups"] == 8 and st["wc_wakeup_stall_cycles"] == 4


def test_smaller_image_invalidates_banks_and_gates_them():
    _, _, hs = _setup(["warped_compression.wakeup_latency_cycles=0"])
    wc_on_warp_launch(hs, 0, 0, 0, 0, 0)
    wc_on_writeback(hs, 0, 0, 1, 1, 10)  # uncompressed r1: banks 8-15
    wc_on_writeback(hs, 0, 0, 0, 0, 20)  # <4,0> r1: banks 9-15 lose their only entry
    assert hs[VALID][0, 8] == 1 and (hs[VALID][0, 9:16] == 0).all()
    assert (hs[ON_SINCE][0, 9:16] == -1).all() and (hs[ON_TIME][0, 9:16] == 10).all()


def test_compressors_limit_writes_per_cycle():
    _, _, hs = _setup(["warped_compression.n_compressors=1",
                       "warped_compression.power_gating=false"])
    wc_on_warp_launch(hs, 0, 0, 0, 0, 0)
    assert wc_can_writeback(hs, 0, 0, 0, 0, 5)
    assert not wc_can_writeback(hs, 0, 0, 2, 2, 5)  # the only compressor is taken
    assert wc_can_writeback(hs, 0, 0, 2, 2, 6)
    assert hs[HSTATS][2] == 1


def test_cta_release_clears_only_the_warps_the_engine_placed_in_that_slot():
    _, _, hs = _setup(["warped_compression.wakeup_latency_cycles=0"])
    warp_cta = hs[10]
    wc_on_warp_launch(hs, 0, 0, 1, 0, 0)  # warp slot 0 in CTA slot 1
    wc_on_warp_launch(hs, 0, 1, 0, 0, 0)  # warp slot 1 in CTA slot 0
    assert warp_cta[0, :3].tolist() == [1, 0, -1]
    wc_on_writeback(hs, 0, 0, 1, 1, 10)  # warp 0: r1 uncompressed, banks 8-15
    wc_on_cta_release(hs, 0, 0, 20)       # CTA slot 0 (warp 1) leaves: warp 0's r1 stays
    assert warp_cta[0, :3].tolist() == [1, -1, -1]
    assert (hs[VALID][0, 8:16] == 1).all()
    wc_on_cta_release(hs, 0, 1, 30)
    assert (hs[VALID] == 0).all() and warp_cta[0, 0] == -1
