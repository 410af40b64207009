"""Cycle-exact micro-kernel timelines of the ILP core (TLP core, bypassing, the per-SM
scoreboard's stall rules, branch handling) computed by hand.

Engine timing (tests/timing/test_engine_alu.py): an instruction issued at t enters a collector
at t+1, reads one register per cycle from t+2, is dispatched the cycle after its last read
(t+2 without register sources) and writes back ``latency`` cycles later (INT ADD 4, so an add
with one register source issued at t retires at t+7); a load that misses the stub memory is
dispatched at t+3, its line sent at t+4 and written back 200 cycles later (t+204). Writeback
precedes issue within a cycle; the launch lasts until the last busy cycle + 1. Decode stops
after a branch and resumes the cycle after the branch issues (one bubble).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "timing"))

from timing_helpers import (
    BRANCH,
    EXIT,
    FakeAlloc,
    FakeProgram,
    Inst,
    make_chunk,
    rec,
    simulate,
    small_config,
)
from timing_memstub import stub_memsys

from warpsim.errors import ConfigError
from warpsim.mechanisms.ilp.mechanism import ILPCore
from warpsim.timing.driver import TimingSimulator

X = Inst("exit", kind=EXIT)
SB8 = {"ilp.scoreboard_entries": 8}


class BranchProgram(FakeProgram):
    """A micro-kernel with branch targets and guards (``Program.targets`` / ``guards``)."""

    def __init__(self, insts, targets, guards):
        super().__init__(insts)
        self.targets = np.array([*targets, -1], np.int64)
        self.guards = [(g, False) for g in guards] + [(-1, False)]


def _run(over, insts, warps, prog=None, skip_idle=True):
    cfg = small_config(**{"ilp.enabled": True, **over})
    sim = TimingSimulator(cfg, mechanism=ILPCore(cfg), memsys=stub_memsys(None, 200),
                          skip_idle_cycles=skip_idle)
    sim.start(prog or FakeProgram(insts), FakeAlloc(insts), n_ctas=len(warps), cta_threads=32,
              regs_per_thread=8, shmem_bytes=0)
    sim.consume(make_chunk(warps, 1))
    r = sim.finish()
    return r.cycles, {k[4:]: v for k, v in r.stats.items() if k.startswith("ilp_") and v
                      and not k.startswith(("ilp_tb0_", "ilp_cta_"))}


def _indep(n):
    insts = [Inst("add", reads=(0,), writes=(i + 1,), n_imm=1) for i in range(n)] + [X]
    return insts, [[rec(i) for i in range(n + 1)]]


# -- the TLP core and bypassing --------------------------------------------------------------
@pytest.mark.parametrize("skip_idle", [True, False])
def test_tlp_core_keeps_one_instruction_in_flight_per_warp(skip_idle):
    # baseline: issue at 2..5, exit at 6, the last add retires at 5 + 7 = 12 -> 13 cycles.
    # TLP core: each add waits for the previous one's writeback: issues at 2, 9, 16, 23, the
    # exit at 30 -> 31 cycles; held at 3-8, 10-15, 17-22, 24-29: 24 warp-cycles
    insts, warps = _indep(4)
    assert simulate(small_config(), insts, warps).cycles == 13
    cycles, s = _run({}, insts, warps, skip_idle=skip_idle)
    assert cycles == 31
    assert s == {"stall_inflight": 24}


def test_bypass_makes_an_alu_result_usable_one_cycle_before_writeback():
    # spec §3.4.1: s' >= s + L instead of s + L + 1: issues at 2, 8, 14, 20, exit 26 -> 27
    cycles, s = _run({"ilp.bypass": True}, *_indep(4))
    assert cycles == 27
    assert s == {"stall_inflight": 20, "bypassed_insts": 4}


def test_scoreboard_lets_independent_instructions_issue_back_to_back():
    # 8 entries: issue at 2..5 like the baseline; each entry lives issue .. retire (7 cycles
    # at the end of cycles t .. t+6): occupancy 4 x 7
    cycles, s = _run(SB8, *_indep(4))
    assert cycles == 13
    assert s == {"sb_allocs": 4, "sb_commits": 4, "sb_occupancy_sum": 28}


def test_a_full_scoreboard_stalls_a_warp_that_has_entries_on_board():
    # 2 entries: adds at 2 and 3 (retire 9, 10); add 3 waits for a free entry (4..8: 5
    # cycles), issues at 9 when add 1 commits, add 4 at 10, exit 11; add 4 retires at 17
    cycles, s = _run({"ilp.scoreboard_entries": 2}, *_indep(4))
    assert cycles == 18
    assert s["stall_sb_full"] == 5
    assert s["sb_allocs"] == 4 and "sb_fallback_issues" not in s


def test_structural_fallback_issues_without_an_entry_under_the_one_in_flight_rule():
    # two 1-warp CTAs (warp 1 first issues at 4), one entry. Warp 0's add 1 takes it at 2
    # (retires 9); its add 2 finds the board full with its own entry on it: held 3-8, takes
    # the entry at 9 (retires 16). Warp 1 has nothing on board: its adds issue without an
    # entry (fallback) at 4 and 11 and hold warp 1 until they retire (11, 18): 5-10, 12-17.
    # The same timeline as the TLP core here; the exits issue at 16 and 18 -> 19 cycles
    insts = [Inst("add", reads=(0,), writes=(1,), n_imm=1),
             Inst("add", reads=(0,), writes=(2,), n_imm=1), X]
    warps = [[rec(0), rec(1), rec(2)], [rec(0), rec(1), rec(2)]]
    cycles, s = _run({"ilp.scoreboard_entries": 1}, insts, warps)
    assert cycles == 19
    assert s == {"stall_inflight": 12, "stall_sb_full": 6, "sb_allocs": 2,
                 "sb_fallback_issues": 2, "sb_commits": 2, "sb_occupancy_sum": 14}
    assert _run({}, insts, warps) == (19, {"stall_inflight": 24})


# -- the scoreboard's worked example and stall rules ------------------------------------------
EXAMPLE = [Inst("ld", space="global", reads=(5,), writes=(1,)),
           Inst("add", reads=(6,), writes=(2,), n_imm=1),
           Inst("ld", space="global", reads=(2,), writes=(3,)),
           Inst("add", reads=(1,), writes=(4,), n_imm=1), X]
EXAMPLE_WARP = [[rec(0, lines=[0x1000]), rec(1), rec(2, lines=[0x2000]), rec(3), rec(4)]]


def test_dissertation_example_tlp_core():
    # A: load r1 (2, back 206); B: add r2 (206, 213); C: load r3 <- r2 (213: RAW on B at
    # 207-212), back at 417; D: add <- r1 (417, 424); exit 424 -> 425. Held by the one-in-
    # flight rule at 3-205, 214-416 and 418-423
    cycles, s = _run({}, EXAMPLE, EXAMPLE_WARP)
    assert cycles == 425
    assert s == {"stall_inflight": 203 + 203 + 6, "stall_raw_alu": 6}


def test_dissertation_example_scoreboard_stalls_on_use_only():
    # §4.4.2: A misses; B issues (3) and completes (10); C reads r2 from the board (issues at
    # 10: RAW 4-9); D matches r1 incomplete: stalls (11-205) until A writes back at 206
    cycles, s = _run(SB8, EXAMPLE, EXAMPLE_WARP)
    assert cycles == 215
    assert s["stall_raw_alu"] == 6 and s["stall_raw_mem"] == 195
    assert s["sb_allocs"] == s["sb_commits"] == 4


def test_bypass_and_scoreboard_combine():
    # C issues one cycle earlier (9: RAW 4-8), D's wait grows by one; D retires a cycle early
    cycles, s = _run({**SB8, "ilp.bypass": True}, EXAMPLE, EXAMPLE_WARP)
    assert cycles == 214
    assert s["stall_raw_alu"] == 5 and s["stall_raw_mem"] == 196
    assert s["bypassed_insts"] == 2


def test_store_waits_until_oldest_and_a_load_waits_for_the_store():
    # A: load r1 (2, back 206); S: store waits until the warp has no entry on board (3-205),
    # issues 206, reads r2, r3 at 208, 209, dispatch 210, line 211, commits at 212; L: load
    # waits while the store is on board (207-211), issues 212, back at 416 -> 417
    insts = [Inst("ld", space="global", reads=(5,), writes=(1,)),
             Inst("st", space="global", reads=(2, 3)),
             Inst("ld", space="global", reads=(5,), writes=(4,)), X]
    warps = [[rec(0, lines=[0x1000]), rec(1, lines=[0x3000]), rec(2, lines=[0x5000]), rec(3)]]
    cycles, s = _run(SB8, insts, warps)
    assert cycles == 417
    assert s["stall_store_drain"] == 203 and s["stall_load_after_store"] == 5


@pytest.mark.parametrize("mask, cycles, waw", [(0xFFFFFFFF, 207, 6), (0xFF, 214, 202)])
def test_waw_is_allowed_only_when_the_new_mask_covers_the_old(mask, cycles, waw):
    # L: load r5 (2, commits 206) heads the warp's list; A: add r1 mask 0xFFFF (3, completes
    # 10, commits after L); B: add r1. The engine holds B until A completes (4-9). Mask
    # covering A's: B issues at 10 (NM of A cleared). Mask 0xFF: B waits until A commits
    # (206): 4-205; B retires at 213
    insts = [Inst("ld", space="global", reads=(6,), writes=(5,)),
             Inst("add", reads=(0,), writes=(1,), n_imm=1),
             Inst("add", reads=(0,), writes=(1,), n_imm=1), X]
    warps = [[rec(0, lines=[0x1000]), rec(1, mask=0xFFFF), rec(2, mask=mask),
              rec(3, mask=mask)]]
    got, s = _run(SB8, insts, warps)
    assert got == cycles
    assert s["stall_waw"] == waw


# -- branches ---------------------------------------------------------------------------------
FWD = [Inst("bra", kind=BRANCH, pred_reads_=(0,)), Inst("add", reads=(2,), writes=(3,), n_imm=1),
       Inst("bra", kind=BRANCH, pred_reads_=(0,)), Inst("add", reads=(2,), writes=(4,), n_imm=1),
       X]
FWD_PROG = ([3, -1, 4, -1], [0, -1, 0, -1])  # two forward conditional branches, not taken
FWD_WARP = [[rec(0), rec(1), rec(2), rec(3), rec(4)]]


@pytest.mark.parametrize("bp, cycles, control, correct", [
    # none: the branch (issued 2) is dispatched at 4 and resolves (retires) at 8; its warp's
    # next instruction is decoded at 3 and held 4-7; the same for the second branch
    ("none", 23, 8, 0),
    # static (forward: not taken, correct): the warp issues from the cycle after the branch
    # enters EX (t+3): one held cycle per branch; the same for gshare (weakly not taken)
    ("static", 17, 2, 2), ("gshare", 17, 2, 2), ("perfect", 17, 2, 2)])
def test_predicted_branches_free_their_warp_after_entering_execution(bp, cycles, control,
                                                                     correct):
    got, s = _run({**SB8, "ilp.branch_predictor": bp}, FWD, FWD_WARP,
                  prog=BranchProgram(FWD, *FWD_PROG))
    assert got == cycles
    assert s["stall_control"] == control
    assert s["branches"] == s["cond_branches"] == 2
    assert s.get("bp_correct", 0) == correct


def test_a_mispredicted_branch_holds_its_warp_until_it_resolves():
    # the same branches taken (each record's successor is its target): static predicts
    # forward not taken, wrong twice: like "none" (4 held cycles each)
    insts = FWD
    warps = [[rec(0), rec(3), rec(4)]]
    got_none, s_none = _run({**SB8, "ilp.branch_predictor": "none"}, insts, warps,
                            prog=BranchProgram(insts, *FWD_PROG))
    got, s = _run({**SB8, "ilp.branch_predictor": "static"}, insts, warps,
                  prog=BranchProgram(insts, *FWD_PROG))
    assert s["bp_predictions"] == 1 and "bp_correct" not in s
    assert got == got_none
    assert s["stall_control"] == s_none["stall_control"] == s["bp_nullified"]


def test_loop_branch_accuracy_static_and_gshare():
    # a backward loop branch taken 3 times then not: static 3/4; gshare from weakly-not-taken
    # counters (index pc ^ history: 1, 0, 2, 6 all fresh) predicts not taken 4 times: 1/4
    insts = [Inst("add", reads=(2,), writes=(3,), n_imm=1),
             Inst("bra", kind=BRANCH, pred_reads_=(0,)), X]
    prog = BranchProgram(insts, [-1, 0], [-1, 0])
    warps = [[rec(0), rec(1)] * 4 + [rec(2)]]
    for bp, good in (("static", 3), ("gshare", 1), ("perfect", 4)):
        _, s = _run({**SB8, "ilp.branch_predictor": bp}, insts, warps, prog=prog)
        assert s["bp_predictions"] == 4 and s["bp_correct"] == good, bp


def test_ilp_kinds_beyond_the_configured_kinds_are_refused():
    cfg = small_config(**{"ilp.enabled": True, "ilp.sm_kinds": "1"})
    with pytest.raises(ConfigError):
        ILPCore(cfg)


@pytest.mark.slow  # SM kinds compile the engine loop once more (minutes on a loaded machine)
@pytest.mark.parametrize("kinds, cycles", [("1", 31), ("0", 27), ("0,1", 27)])
def test_ilp_techniques_only_on_the_configured_sm_kinds(kinds, cycles):
    # two SMs of kinds 0 and 1; the one CTA runs on SM 0 (kind 0): a TLP core (31 cycles, as
    # GPU-H's TLP-SMs) unless kind 0 is listed, then an ILP core with bypass (27)
    over = {"sm.n_sms": 2, "sm_kinds.n_sms": "1,1", "ilp.sm_kinds": kinds, "ilp.bypass": True}
    got, s = _run(over, *_indep(4))
    assert got == cycles
    assert s == ({"stall_inflight": 24} if cycles == 31
                 else {"stall_inflight": 20, "bypassed_insts": 4})
