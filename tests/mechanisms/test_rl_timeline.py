"""RegLess in the cycle loop, against hand-computed timelines (one SM, one scheduler = one
shard; conventions of tests/mechanisms/test_wm_timeline.py: a warp placed at t is fetched from
t+1, one warp per cycle round robin, offered to issue from t+2; an ``add`` issued at t writes
back at t+7; ``exit`` issues the cycle after and the warp exits when the add writes back).

RegLess adds: the warp waits on the capacity manager's stack until its region's first
instruction has been offered (t+2, later when the region's metadata words fill more than the
first fetch's spare decode slot: tests/mechanisms/test_rl_meta_slots.py), is admitted at the
end of that cycle, and activates after 1 + (preloads in its busiest bank) + 1 (compressor
bit-vector check of a miss) cycles."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "timing"))

from rl_helpers import plan
from timing_helpers import EXIT, FakeAlloc, FakeProgram, Inst, make_chunk, rec, small_config
from timing_memstub import stub_memsys

from warpsim.mechanisms.hooks import noop_hooks
from warpsim.mechanisms.regless.mechanism import RegLess
from warpsim.timing.driver import TimingSimulator

X = Inst("exit", kind=EXIT)


def _run(insts, src, warps, wpc, base_warps=None, **over):
    cfg = small_config(**{"regless.enabled": True, **over})
    mech = RegLess(cfg)
    mech.plans["micro"] = plan(src, max_regs=mech.max_regs, bank=mech.bank_entries)
    sim = TimingSimulator(cfg, mechanism=mech, memsys=stub_memsys(None, 200))
    sim.start(FakeProgram(insts), FakeAlloc(insts, 8), n_ctas=len(warps) // wpc,
              cta_threads=32 * wpc, regs_per_thread=8, shmem_bytes=0)
    sim.consume(make_chunk(warps, wpc))
    on = sim.finish()
    base = TimingSimulator(small_config(), hooks=noop_hooks(), memsys=stub_memsys(None, 200))
    base_warps = warps if base_warps is None else base_warps
    base.start(FakeProgram(insts), FakeAlloc(insts, 8), n_ctas=len(base_warps) // wpc,
               cta_threads=32 * wpc, regs_per_thread=8, shmem_bytes=0)
    base.consume(make_chunk(base_warps, wpc))
    return on, base.finish()


def test_one_warp_waits_three_cycles_for_its_region():
    # region [add, exit], input R1 (never written: no memory access); admitted at the end of
    # cycle 2, active at 2 + 1 + 1 + 1 = 5: the add issues at 5 instead of 2
    insts = [Inst("add", reads=(1,), writes=(1,), n_imm=1), X]
    on, base = _run(insts, "add.u32 %r1, %r1, 1\nexit", [[rec(0), rec(1)]], 1,
                    **{"regless.entries_per_sm": 32})
    assert on.cycles - base.cycles == 3
    s = on.stats
    assert (s["rl_regions_executed"], s["rl_preloads"], s["rl_preload_undefined"]) == (1, 1, 1)
    assert s["rl_preload_l1"] == 0 and s["rl_cm_capacity_stall_cycles"] == 0
    assert s["rl_osu_reads"] == 1 and s["rl_osu_writes"] == 1


def test_second_warp_waits_for_capacity_until_the_first_region_ends():
    # every bank holds 1 entry (8 per SM) and the region reads R0..R7 (one per bank). Its
    # 8 inputs take 3 metadata words in front of the add (header, one more preload word, the
    # flag word), 2 decode slots per fetch. Fetch is round robin from slot cycle % slots, one
    # warp per cycle: warp 1 decodes 2 words at 1, warp 0 2 words at 2 and its last word + the
    # add at 3, its exit at 4 (its I-buffer has room), warp 1 its last word + the add at 5.
    # Warp 0 is offered at 4, admitted at the end of 4, active at 7: add at 7, exit at 8 (one
    # issue per warp per cycle on this config), which ends its region and frees the banks.
    # Warp 1, offered at 6, stalls at the end of cycles 6 and 7, is admitted at 8, active at
    # 11: its add issues at 11, 8 cycles after the add of a lone warp 0 (offered, and issued,
    # at 3); it finishes last
    src = "add.u32 %r0, %r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7\nexit"
    insts = [Inst("add", reads=tuple(range(8)), writes=(0,)), X]
    on, lone = _run(insts, src, [[rec(0), rec(1)], [rec(0), rec(1)]], 2,
                    base_warps=[[rec(0), rec(1)], [rec(1)]],  # warp 1 only exits
                    **{"regless.entries_per_sm": 8, "regless.max_regs_per_region": 8})
    assert on.cycles - lone.cycles == 8
    s = on.stats
    assert s["rl_regions_executed"] == 2 and s["rl_preloads"] == 16
    assert s["rl_cm_capacity_stall_cycles"] == 2
    assert s["rl_meta_words_fetched"] == 6
