"""The engine's seams, each driven by a small test mechanism with a hand-computed timeline:
issue outcomes (an ALU result "reused" 3 cycles after issue; an instruction parked until
another warp's producer retires), operand storage (operands served outside the banked register
file; every operand in one bank; a register the writeback reads, WIR's verify read), unit
choice (a mechanism's own 1-instance unit), the memory
port (a line per warp through the L1 port), read-only views of the core state, and the
combination rules of several mechanisms' hooks.

Timeline conventions of tests/timing/test_engine_alu.py: the CTA is dispatched in cycle 0, its
warp issues its first instruction in cycle 2; an instruction issued at t enters a collector
unit at t+1, reads one source per cycle from t+2, is dispatched the cycle after its last read
and writes back ``latency`` (INT ADD: 4) cycles after dispatch, when a dependent instruction
issues; ``gpu_sim_cycle`` is the last busy cycle + 1. One scheduler, GTO. This file also runs
with numba disabled (``tests/test_without_jit.py``).

The test mechanisms are one ``Probe`` (tests/timing/seams_probe.py) whose behaviour a mode word
selects, so that the cycle loop is compiled once for all of them and test_seams_dispatch.py.
"""

from __future__ import annotations

import numpy as np
import pytest
from seams_probe import (
    BANK0,
    DELAY,
    LANE,
    OBSERVE,
    OUTSIDE,
    PARK,
    PRELOAD,
    REUSE,
    SEE,
    VERIFY,
    Probe,
    timed,
)
from timing_helpers import EXIT, FakeAlloc, FakeProgram, Inst, rec, simulate, small_config

from warpsim._jit import jit
from warpsim.errors import ConfigError
from warpsim.mechanisms.compose import CompositeMechanism, combine_hooks
from warpsim.mechanisms.hooks import noop_hooks
from warpsim.timing.consts import ISSUE_COMPLETE, ISSUE_EXECUTE, ISSUE_PARK
from warpsim.timing.fields import F_WARP_AGE

X = Inst("exit", kind=EXIT)


def _chain_insts(n, reads=(2,)):
    return [Inst("add", reads=reads, writes=(reads[0],), n_imm=2 - len(reads))
            for _ in range(n)] + [X]


def _chain(n):
    return [[rec(i) for i in range(n + 1)]]


# -- a probe with nothing switched on is the baseline ---------------------------------------------
def test_probe_with_no_mode_gives_the_baseline_timeline():
    insts = [Inst("add", reads=(1,), writes=(1,), n_imm=1), X]
    warps = [[rec(0), rec(1)], [rec(0), rec(1)]]
    base = simulate(small_config(), insts, warps)
    r = timed(0, insts, warps)
    assert r.cycles == base.cycles == 12  # warp 1's add issues at 4, writes back at 11
    for k in ("regfile_bank_reads", "regfile_bank_writes", "writeback_warp_insts",
              "exec_int32_warp_insts", "exec_fp32_warp_insts"):
        assert r.stats[k] == base.stats[k], k


# -- issue outcome: complete at a later cycle ----------------------------------------------------
@pytest.mark.parametrize("skip_idle", [True, False])
@pytest.mark.parametrize("n", [1, 4])
def test_reused_results_complete_three_cycles_after_issue(n, skip_idle):
    # issue at 2, 5, 8, ...: each link is the 3-cycle reuse; the exit issues at 2 + 3n
    r = timed(REUSE, _chain_insts(n), _chain(n), skip_idle=skip_idle)
    assert r.cycles == 3 + 3 * n
    assert r.stats["issue_completed_insts"] == n
    assert r.stats["probe_issued_w0"] == r.stats["probe_retired_w0"] == n
    # nothing read, executed or written: the energy counters see no ALU or bank activity
    assert r.stats["regfile_bank_reads"] == 0
    assert r.stats["regfile_bank_writes"] == 0
    assert r.stats["exec_int32_warp_insts"] + r.stats["exec_fp32_warp_insts"] == 0
    assert r.stats["writeback_warp_insts"] == 0
    assert r.stats["gpgpu_n_tot_w_icount"] == n + 1


def test_baseline_chain_for_comparison():
    # the same chain without the mechanism: 7 cycles per link
    assert simulate(small_config(), _chain_insts(4), _chain(4)).cycles == 31


# -- issue outcome: park until another warp's producer retires -----------------------------------
@pytest.mark.parametrize("skip_idle", [True, False])
def test_parked_instruction_executes_after_the_other_warps_producer_retires(skip_idle):
    # two 1-warp CTAs (dispatched at 0 and 1); GTO: warp 0 issues add, exit at 2, 3; warp 1
    # add at 4 (parked), exit at 5. Warp 0's add writes back at 2 + 3 + 4 = 9; parked
    # instructions are polled at the issue stage, so warp 1's add is released at 9 as if issued
    # then: collector 10, read 11, dispatch 12, writeback 16; the launch ends at 17
    insts = [Inst("add", reads=(1,), writes=(1,), n_imm=1), X]
    warps = [[rec(0), rec(1)], [rec(0), rec(1)]]
    r = timed(PARK, insts, warps, skip_idle=skip_idle)
    assert r.stats["probe_released"] == 9
    assert r.stats["issue_parked_insts"] == 1
    assert r.cycles == 17
    if not skip_idle:  # parked after the poll of cycle 4; polled at 5-8 (held), 9 (released)
        assert r.stats["probe_polls"] == 5
    # a counter in the engine's counts array counts skipped cycles too: parked at the end of
    # cycles 4, 5, 6, 7 and 8 (released at the issue stage of 9), with or without skipping
    assert r.stats["probe_parked_cycles"] == 5
    assert r.stats["regfile_bank_reads"] == 2 and r.stats["writeback_warp_insts"] == 2


# -- operand storage -----------------------------------------------------------------------------
def test_operands_served_outside_the_register_file_take_no_bank():
    # the collector still spends its read step (the storage is read through the same stage),
    # so the chain keeps 7 cycles per link; no bank is read or written
    r = timed(OUTSIDE, _chain_insts(4), _chain(4))
    assert r.cycles == 3 + 7 * 4
    assert r.stats["regfile_bank_reads"] == 0
    assert r.stats["regfile_bank_writes"] == 0
    # each add has one immediate and one register source: both count as non-RF operands now
    assert r.stats["regfile_non_rf_operands"] == 4 + 4


def test_operands_remapped_into_one_bank_serialise():
    # GPGPU-Sim 4.x collectors read several operands per step: sources r2 and r3 sit in
    # banks 2 and 3 and are read in one step (7 cycles per link); in one bank, in two (8)
    cfg = small_config(**{"regfile.collector_single_read_per_cycle": False})
    insts = _chain_insts(4, (2, 3))
    assert simulate(cfg, insts, _chain(4)).cycles == 3 + 7 * 4
    r = timed(BANK0, insts, _chain(4), cfg=cfg)
    assert r.cycles == 3 + 8 * 4
    assert r.stats["regfile_bank_reads"] == 8
    assert r.stats["regfile_bank_conflict_stalls"] == 4


# -- unit choice ---------------------------------------------------------------------------------
def test_instructions_sent_to_a_mechanisms_unit_follow_its_interval():
    # independent adds issue at 2, 3, 4 and would dispatch at 5, 6, 7 (baseline: 3 + 9 = 12
    # cycles); the single added unit accepts one every 4 cycles: 5, 9, 13; last result 17
    n = 3
    insts = [Inst("add", reads=(0,), writes=(i + 1,), n_imm=1) for i in range(n)] + [X]
    assert simulate(small_config(), insts, _chain(n)).cycles == n + 9
    r = timed(LANE, insts, _chain(n))
    assert r.cycles == 18
    assert r.stats["opcoll_dispatch_stalls"] > 0


# -- memory port ---------------------------------------------------------------------------------
@pytest.mark.parametrize("skip_idle", [True, False])
def test_a_mechanisms_lines_go_through_the_l1_port_one_per_cycle(skip_idle):
    # one CTA of two warps, dispatched at 0 (their requests queued at launch). The port takes
    # one line per cycle: warp 0's at 1, warp 1's at 2; both miss (200 cycles): back at 201 and
    # 202. Warp 0's add issues at 201; GTO keeps warp 0, whose exit issues at 202; warp 1's add
    # issues at 203 and writes back 7 cycles later
    insts = [Inst("add", reads=(1,), writes=(1,), n_imm=1), X]
    r = timed(PRELOAD, insts, [[rec(0), rec(1)], [rec(0), rec(1)]], wpc=2,
               skip_idle=skip_idle)
    s = r.stats
    assert (s["probe_sent_w0"], s["probe_sent_w1"]) == (1, 2)
    assert (s["probe_back_w0"], s["probe_back_w1"]) == (201, 202)
    assert s["mech_mem_lines"] == 2 and s["probe_refused"] == 0
    assert s["mech_mem_refusals"] == 0
    assert r.cycles == 203 + 7 + 1
    # the lines are the memory system's own accesses: no core load instruction was counted
    assert s["gpgpu_n_load_insn"] == 0


def test_the_core_and_the_mechanism_share_the_port():
    # the warp waits for its preload (sent at 1, back at 201), then its own global load goes
    # through the same port: one line each, counted apart (the core's as a load instruction)
    insts = [Inst("ld", space="global", reads=(1,), writes=(2,)), X]
    r = timed(PRELOAD, insts, [[rec(0, lines=[0x80000]), rec(1)]])
    assert r.stats["probe_back_w0"] == 201
    assert r.stats["mech_mem_lines"] == 1
    assert r.stats["gpgpu_n_load_insn"] == 32


# -- read-only view of the core state ------------------------------------------------------------
def test_a_mechanism_reads_the_core_state_through_read_only_views():
    # three 1-warp CTAs dispatched at 0, 1, 2 into warp slots 0, 1, 2 and CTA slots 0, 1, 2:
    # dispatch ages 0, 1, 2 (seen at each warp's first issue as age * 1000 + CTA slot)
    insts = [Inst("add", reads=(1,), writes=(1,), n_imm=1), X]
    r = timed(SEE, insts, [[rec(0), rec(1)] for _ in range(3)])
    assert [r.stats[f"probe_seen_w{w}"] for w in range(3)] == [0, 1001, 2002]


def test_the_core_views_refuse_writes():
    from warpsim.timing.state import make_core_state, read_only_view
    from warpsim.timing.static import build_static

    cfg = small_config()
    view = read_only_view(make_core_state(cfg, build_static(FakeProgram([X]), FakeAlloc([X]),
                                                            cfg), 1))
    with pytest.raises(ValueError, match="read-only"):
        view.warp[0, 0, F_WARP_AGE] = 5


# -- combination rules ---------------------------------------------------------------------------
@jit
def _delay2(hs, sm, warp, rec, cycle):  # pragma: no cover - jit
    return 2


@jit
def _delay3(hs, sm, warp, rec, cycle):  # pragma: no cover - jit
    return 3


@jit
def _bank_plus(hs, sm, warp, rec, reg, bank):  # pragma: no cover - jit
    return bank + hs[0]


@jit
def _veto_odd(hs, sm, warp, pc, cycle):  # pragma: no cover - jit
    return warp % 2 == 0


@jit
def _veto_big(hs, sm, warp, pc, cycle):  # pragma: no cover - jit
    return warp < 4


@jit
def _extra_none(hs, sm, warp, rec):  # pragma: no cover - jit
    return -1


@jit
def _extra_seven(hs, sm, warp, rec):  # pragma: no cover - jit
    return 7


@jit
def _end_at(hs, counters, cycle):  # pragma: no cover - jit
    return hs[0]


@jit
def _reads3(hs, sm, warp, reg, bank, cycle):  # pragma: no cover - jit
    return 3


@jit
def _complete_later(hs, sm, warp, pc, rec, cycle):  # pragma: no cover - jit
    return ISSUE_COMPLETE, cycle + 3


@jit
def _hold_while_zero(hs, sm, warp, rec, cycle):  # pragma: no cover - jit
    if hs[0] == 0:
        return ISSUE_PARK, np.int64(0)
    return ISSUE_EXECUTE, np.int64(0)


def test_combined_hooks_follow_the_documented_rules():
    a = noop_hooks()._replace(result_delay=_delay2, operand_bank=_bank_plus, can_issue=_veto_odd,
                              extra_operand=_extra_none, on_cycle_end=_end_at,
                              on_operand_read=_reads3, on_issue=_complete_later)
    b = noop_hooks()._replace(result_delay=_delay3, operand_bank=_bank_plus, can_issue=_veto_big,
                              extra_operand=_extra_seven, on_cycle_end=_end_at,
                              on_operand_read=_reads3, poll_parked=_hold_while_zero)
    h = combine_hooks([a, b])
    hs = (np.array([10, 0], np.int64), np.array([0, 0], np.int64))
    assert h.result_delay(hs, 0, 0, 0, 0) == 5                      # sum
    assert h.operand_bank(hs, 0, 0, 0, 0, 1) == 11                  # chain: 1 + 10 + 0
    assert [h.can_issue(hs, 0, w, 0, 0) for w in range(6)] == [True, False, True, False,
                                                                False, False]  # and
    assert h.extra_operand(hs, 0, 0, 0) == 7                        # first that is not -1
    assert h.on_cycle_end(hs, np.zeros((1, 1), np.int64), 0) == 0   # min(10, 0)
    assert h.on_operand_read(hs, 0, 0, 0, 0, 0) == 5                # 1 + 2 + 2
    # on_issue: only a implements it (b stays out); poll_parked: b holds (hs[1][0] == 0)
    assert tuple(h.on_issue(hs, 0, 0, 0, 0, 4)) == (ISSUE_COMPLETE, 7)
    assert h.poll_parked(hs, 0, 0, 0, 0)[0] == ISSUE_PARK
    hs[1][0] = 5
    assert h.poll_parked(hs, 0, 0, 0, 0)[0] == ISSUE_EXECUTE
    assert h.on_cycle_end(hs, np.zeros((1, 1), np.int64), 0) == 5
    # hooks nobody implements stay the shared no-op (free in the engine); the same hook
    # functions give the same combined functions (one compiled cycle loop per combination)
    assert h.unit_choice is noop_hooks().unit_choice
    assert combine_hooks([a, b]).on_issue is h.on_issue


def test_two_mechanisms_in_one_run_each_keep_their_own_state():
    # reuse first, then an observer: every add completes 3 cycles after issue as with reuse
    # alone; the observer is not asked about issues the reuse completed (rule "first") but
    # sees every retire; each keeps its own state
    cfg = small_config()
    n = 4
    both = CompositeMechanism(cfg, [Probe(cfg, REUSE, "reuse"), Probe(cfg, OBSERVE, "obs")])
    r = timed(both, _chain_insts(n), _chain(n))
    assert r.cycles == 3 + 3 * n
    assert r.stats["reuse_issued_w0"] == r.stats["reuse_retired_w0"] == n
    assert r.stats["obs_issued_w0"] == 0
    assert r.stats["obs_retired_w0"] == n
    # the observer alone changes nothing: the baseline timeline, every issue seen
    alone = timed(OBSERVE, _chain_insts(n), _chain(n))
    assert alone.cycles == 3 + 7 * n
    assert alone.stats["probe_issued_w0"] == alone.stats["probe_retired_w0"] == n


def test_clashing_statistics_of_two_mechanisms_are_refused():
    cfg = small_config()
    with pytest.raises(ConfigError, match="distinct names"):
        timed(CompositeMechanism(cfg, [Probe(cfg, REUSE), Probe(cfg, OBSERVE)]),
               _chain_insts(1), _chain(1))


# -- a register the writeback reads (writeback_read_bank: WIR's verify read) ---------------------
# ``add r1, r0, 1`` (issued 2, written back 9), ``add r2, r0, 1`` (issued 3, written back 10),
# exit (issued 4): 11 cycles; register r of warp 0 lives in bank r. DELAY: the first result one
# cycle later; VERIFY: r2's writeback reads bank 1
WB_INSTS = [Inst("add", reads=(0,), writes=(1,), n_imm=1),
            Inst("add", reads=(0,), writes=(2,), n_imm=1), X]


@pytest.mark.parametrize(("mode", "cycles", "reads", "stalls"), [
    (0, 11, 2, 0),
    # both results ready at 10: r1 (bank 1) and r2 (bank 2) write in the same cycle
    (DELAY, 11, 2, 0),
    # r2's writeback at 10 also reads bank 1, free then (r1 wrote at 9): one more bank read
    (VERIFY, 11, 3, 0),
    # r1 writes bank 1 at 10, so r2's read of bank 1 waits: r2 written at 11
    (DELAY | VERIFY, 12, 3, 1),
])
def test_a_read_at_writeback_takes_the_banks_port(mode, cycles, reads, stalls):
    r = timed(mode, WB_INSTS, [[rec(0), rec(1), rec(2)]])
    assert r.cycles == cycles
    assert r.stats["regfile_bank_reads"] == reads
    assert r.stats["regfile_bank_writes"] == 2
    assert r.stats["regfile_write_conflict_stalls"] == stalls
