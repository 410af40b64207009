"""Thread block 0's counts and the branch-hazard classification of the ILP core (C-R7: the
dissertation §4.4.3 counts NQU's TB0 branches that "do not present a control hazard ... due
to TLP" and those that "result in pipeline stalls"), on hand-built micro-kernels.

Timing facts used (tests/mechanisms/test_ilp_timeline.py): a branch issued at t resolves
(writes back) at t + 6, so its warp waits t+1 .. t+5; under the TLP core an add holds its
warp 7 cycles (one issue per 7 cycles at most); with the 8-entry scoreboard a warp's
independent adds issue back to back. One SM, one scheduler.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "timing"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from test_ilp_timeline import FWD, FWD_PROG, FWD_WARP, SB8, BranchProgram, X
from timing_helpers import BRANCH, FakeAlloc, Inst, make_chunk, rec, small_config
from timing_memstub import stub_memsys

from warpsim.mechanisms.ilp.mechanism import ILPCore, cta_counts
from warpsim.timing.driver import TimingSimulator


def _run(over, insts, warps, prog):
    cfg = small_config(**{"ilp.enabled": True, **over})
    sim = TimingSimulator(cfg, mechanism=ILPCore(cfg), memsys=stub_memsys(None, 200))
    sim.start(prog, FakeAlloc(insts), n_ctas=len(warps), cta_threads=32, regs_per_thread=8,
              shmem_bytes=0)
    sim.consume(make_chunk(warps, 1))
    st = sim.finish().stats
    return {k[4:]: int(st[k]) for k in ("ilp_tb0_warp_insts", "ilp_tb0_branches",
                                        "ilp_tb0_branch_stalls", "ilp_cta_max_warp_insts",
                                        "ilp_branches", "ilp_branch_stalls")}


def test_cta_counts_of_a_chunk_by_hand():
    # CTA 0: warps of 3 and 2 records (one branch, pc 1); CTA 1: one warp of 4 records with
    # two branches (pc 1 twice); pc 7 is beyond the flag table (the implicit exit): no branch
    warps = [[rec(0), rec(1), rec(2)], [rec(0), rec(7)], [rec(1), rec(0), rec(1), rec(2)]]
    chunk = make_chunk(warps, 2)  # warps 0, 1 in CTA 0; warp 2 in CTA 1
    is_branch = np.array([False, True, False])
    insts, branches = cta_counts(chunk, is_branch, 2)
    assert insts.tolist() == [5, 4] and branches.tolist() == [1, 2]


# CTA 0: bra (forward, not taken), add, exit; CTA 1: eight independent adds, exit
_N = 8
_INSTS = [Inst("bra", kind=BRANCH, pred_reads_=(0,)), Inst("add", reads=(0,), writes=(1,),
                                                             n_imm=1)] + [
    Inst("add", reads=(0,), writes=(i + 2,), n_imm=1) for i in range(_N)] + [X]
_PROG = BranchProgram(_INSTS, [2] + [-1] * (_N + 1), [0] + [-1] * (_N + 1))
_BRANCHY = [rec(0), rec(1), rec(_N + 2)]
_ADDS = [rec(2 + i) for i in range(_N)] + [rec(_N + 2)]


def test_a_lone_warp_stalls_on_every_branch():
    # one warp, two branches: nothing else can use the slots t+1 .. t+5 of either branch
    s = _run({}, FWD, FWD_WARP, BranchProgram(FWD, *FWD_PROG))
    assert s == {"tb0_warp_insts": 5, "tb0_branches": 2, "tb0_branch_stalls": 2,
                 "cta_max_warp_insts": 5, "branches": 2, "branch_stalls": 2}


def test_tlp_core_cannot_hide_a_branch_with_one_other_warp():
    # TB0's branch (issued 2, resolves 8) waits 3..7: CTA 1's warp issues at most once in
    # those five cycles (its adds hold it 7 cycles each): a pipeline stall
    s = _run({}, _INSTS, [_BRANCHY, _ADDS], _PROG)
    assert s == {"tb0_warp_insts": 3, "tb0_branches": 1, "tb0_branch_stalls": 1,
                 "cta_max_warp_insts": 9, "branches": 1, "branch_stalls": 1}


def test_another_warp_issuing_every_cycle_hides_the_branch():
    # with the scoreboard CTA 1's independent adds issue back to back at 3 .. 10: every slot
    # of TB0's branch (waiting 3..7) is used, no hazard
    s = _run(SB8, _INSTS, [_BRANCHY, _ADDS], _PROG)
    assert s["tb0_branches"] == 1 and s["tb0_branch_stalls"] == 0
    assert s["branch_stalls"] == 0


def test_branch_stalls_of_another_block_are_not_tb0s():
    # the same warps in the other order: CTA 1 has the branch and its stall; TB0 has none
    s = _run({}, _INSTS, [_ADDS, _BRANCHY], _PROG)
    assert s == {"tb0_warp_insts": 9, "tb0_branches": 0, "tb0_branch_stalls": 0,
                 "cta_max_warp_insts": 9, "branches": 1, "branch_stalls": 1}
