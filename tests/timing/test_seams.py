"""The engine's seams, each driven by a small test mechanism with a hand-computed timeline:
issue outcomes (an ALU result "reused" 3 cycles after issue; an instruction parked until
another warp's producer retires), operand storage (operands served outside the banked register
file; every operand in one bank), unit choice (a mechanism's own 1-instance unit), and the
combination rules of several mechanisms' hooks.

Timeline conventions of tests/timing/test_engine_alu.py: the CTA is dispatched in cycle 0, its
warp issues its first instruction in cycle 2; an instruction issued at t enters a collector
unit at t+1, reads one source per cycle from t+2, is dispatched the cycle after its last read
and writes back ``latency`` (INT ADD: 4) cycles after dispatch, when a dependent instruction
issues; ``gpu_sim_cycle`` is the last busy cycle + 1. This file also runs with numba disabled
(``tests/test_without_jit.py``).
"""

from __future__ import annotations

import numpy as np
import pytest
from timing_helpers import (
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

from warpsim._jit import jit
from warpsim.errors import ConfigError
from warpsim.mechanisms.base import Mechanism
from warpsim.mechanisms.compose import CompositeMechanism, combine_hooks
from warpsim.mechanisms.hooks import noop_hooks
from warpsim.timing.consts import (
    ISSUE_COMPLETE,
    ISSUE_EXECUTE,
    ISSUE_PARK,
    MK_LD_GLOBAL,
    MK_NONE,
)
from warpsim.timing.driver import TimingSimulator
from warpsim.timing.fields import F_WARP_AGE, F_WARP_CTA

X = Inst("exit", kind=EXIT)


def _timed(mech, insts, warps, *, wpc=1, skip_idle=True, cfg=None):
    cfg = cfg or small_config()
    sim = TimingSimulator(cfg, mechanism=mech(cfg) if isinstance(mech, type) else mech,
                          memsys=stub_memsys(None, 200), skip_idle_cycles=skip_idle)
    n_ctas = len(warps) // wpc
    sim.start(FakeProgram(insts), FakeAlloc(insts), n_ctas=n_ctas, cta_threads=32 * wpc,
              regs_per_thread=8, shmem_bytes=0)
    sim.consume(make_chunk(warps, wpc))
    return sim.finish()


def _chain_insts(n, reads=(2,)):
    return [Inst("add", reads=reads, writes=(reads[0],), n_imm=2 - len(reads))
            for _ in range(n)] + [X]


# -- issue outcome: complete at a later cycle ----------------------------------------------------
@jit
def _reuse_on_issue(hs, sm, warp, pc, rec, cycle):  # pragma: no cover - jit
    hs[0] += 1
    return ISSUE_COMPLETE, cycle + 3


@jit
def _count_retire(hs, sm, warp, pc, rec, cycle):  # pragma: no cover - jit
    hs[1] += 1


class ReuseEverything(Mechanism):
    """Every ALU result is "reused": it completes 3 cycles after issue, with no operand read,
    no unit and no register write (WIR's reuse hit)."""

    name = "reuse_all"

    def __init__(self, cfg):
        super().__init__(cfg)
        self.hooks = self.hooks._replace(on_issue=_reuse_on_issue, on_retire=_count_retire)

    def start_launch(self, info):
        return np.zeros(2, np.int64)

    def hook_state(self, launch_state, rec_cols, rec_base):
        return launch_state

    def finish_launch(self, launch_state, counts):
        return {"reuse_all_issued": int(launch_state[0]), "reuse_all_retired": int(launch_state[1])}


@pytest.mark.parametrize("skip_idle", [True, False])
@pytest.mark.parametrize("n", [1, 4])
def test_reused_results_complete_three_cycles_after_issue(n, skip_idle):
    # issue at 2, 5, 8, ...: each link is the 3-cycle reuse; the exit issues at 2 + 3n
    r = _timed(ReuseEverything, _chain_insts(n), [[rec(i) for i in range(n + 1)]],
               skip_idle=skip_idle)
    assert r.cycles == 3 + 3 * n
    assert r.stats["issue_completed_insts"] == n
    assert r.stats["reuse_all_issued"] == r.stats["reuse_all_retired"] == n
    # nothing read, executed or written: the energy counters see no ALU or bank activity
    assert r.stats["regfile_bank_reads"] == 0
    assert r.stats["regfile_bank_writes"] == 0
    assert r.stats["exec_int32_warp_insts"] + r.stats["exec_fp32_warp_insts"] == 0
    assert r.stats["writeback_warp_insts"] == 0
    assert r.stats["gpgpu_n_tot_w_icount"] == n + 1


def test_baseline_chain_for_comparison():
    # the same chain without the mechanism: 7 cycles per link
    assert simulate(small_config(), _chain_insts(4), [[rec(i) for i in range(5)]]).cycles == 31


# -- issue outcome: park until another warp's producer retires -----------------------------------
@jit
def _park_on_issue(hs, sm, warp, pc, rec, cycle):  # pragma: no cover - jit
    if warp == 1:
        return ISSUE_PARK, np.int64(0)
    return ISSUE_EXECUTE, np.int64(0)


@jit
def _park_poll(hs, sm, warp, rec, cycle):  # pragma: no cover - jit
    hs[1] += 1
    if hs[0] > 0:
        return ISSUE_EXECUTE, np.int64(0)
    return ISSUE_PARK, np.int64(0)


@jit
def _park_retire(hs, sm, warp, pc, rec, cycle):  # pragma: no cover - jit
    if warp == 0:
        hs[0] = cycle


class ParkUntilWarp0Retires(Mechanism):
    """Warp slot 1's instructions wait, parked after issue, until warp slot 0 retired one."""

    name = "park"

    def __init__(self, cfg):
        super().__init__(cfg)
        self.hooks = self.hooks._replace(on_issue=_park_on_issue, poll_parked=_park_poll,
                                         on_retire=_park_retire)

    def start_launch(self, info):
        return np.zeros(2, np.int64)

    def hook_state(self, launch_state, rec_cols, rec_base):
        return launch_state

    def finish_launch(self, launch_state, counts):
        return {"park_released_at": int(launch_state[0]), "park_polls": int(launch_state[1])}


@pytest.mark.parametrize("skip_idle", [True, False])
def test_parked_instruction_executes_after_the_other_warps_producer_retires(skip_idle):
    # two 1-warp CTAs (dispatched at 0 and 1); GTO: warp 0 issues add, exit at 2, 3; warp 1
    # add at 4 (parked), exit at 5. Warp 0's add writes back at 2 + 3 + 4 = 9, when warp 1's
    # add is released into its ID_OC register: as if issued at 9 it writes back at 16.
    insts = [Inst("add", reads=(1,), writes=(1,), n_imm=1), X]
    r = _timed(ParkUntilWarp0Retires, insts, [[rec(0), rec(1)], [rec(0), rec(1)]],
               skip_idle=skip_idle)
    assert r.stats["park_released_at"] == 9
    assert r.stats["issue_parked_insts"] == 1
    assert r.cycles == 17
    # without the mechanism warp 1's add writes back at 4 + 7 = 11
    assert simulate(small_config(), insts, [[rec(0), rec(1)], [rec(0), rec(1)]]).cycles == 12
    # it polled at 5, 6, 7, 8 (held) and 9 (released): skipped cycles are not polled
    assert r.stats["park_polls"] == (5 if not skip_idle else r.stats["park_polls"])
    assert r.stats["regfile_bank_reads"] == 2 and r.stats["writeback_warp_insts"] == 2


# -- operand storage -----------------------------------------------------------------------------
@jit
def _outside_rf(hs, sm, warp, rec, reg, bank):  # pragma: no cover - jit
    return -1


class OperandsElsewhere(Mechanism):
    """Every operand read and written outside the banked register file (a scalar register file
    or a staging unit serving them)."""

    name = "elsewhere"

    def __init__(self, cfg):
        super().__init__(cfg)
        self.hooks = self.hooks._replace(operand_bank=_outside_rf, dest_bank=_outside_rf)


def test_operands_served_outside_the_register_file_take_no_bank():
    # the collector still spends its read step (the storage is read through the same stage),
    # so the chain keeps 7 cycles per link; no bank is read or written
    r = _timed(OperandsElsewhere, _chain_insts(4), [[rec(i) for i in range(5)]])
    assert r.cycles == 3 + 7 * 4
    assert r.stats["regfile_bank_reads"] == 0
    assert r.stats["regfile_bank_writes"] == 0
    # each add has one immediate and one register source: both count as non-RF operands now
    assert r.stats["regfile_non_rf_operands"] == 4 + 4


@jit
def _bank_zero(hs, sm, warp, rec, reg, bank):  # pragma: no cover - jit
    return 0


class OneBank(Mechanism):
    """Every source operand lives in bank 0 (one read port): two sources take two steps."""

    name = "one_bank"

    def __init__(self, cfg):
        super().__init__(cfg)
        self.hooks = self.hooks._replace(operand_bank=_bank_zero)


def test_operands_remapped_into_one_bank_serialise():
    # GPGPU-Sim 4.x collectors read several operands per step: sources r2 and r3 sit in
    # banks 2 and 3 and are read in one step (7 cycles per link); in one bank, in two (8)
    cfg = small_config(**{"regfile.collector_single_read_per_cycle": False})
    insts, trace = _chain_insts(4, (2, 3)), [[rec(i) for i in range(5)]]
    assert simulate(cfg, insts, trace).cycles == 3 + 7 * 4
    r = _timed(OneBank, insts, trace, cfg=cfg)
    assert r.cycles == 3 + 8 * 4
    assert r.stats["regfile_bank_reads"] == 8
    assert r.stats["regfile_bank_conflict_stalls"] == 4


# -- unit choice ---------------------------------------------------------------------------------
@jit
def _to_lane_unit(hs, sm, warp, rec, unit_type, ii):  # pragma: no cover - jit
    return hs[0], np.int64(4)


class OneLaneUnit(Mechanism):
    """A mechanism-added unit type with one instance; every collected instruction runs there
    with an initiation interval of 4 (a narrow unit taking 4 cycles per warp instruction)."""

    name = "one_lane"
    extra_units = (("one_lane_unit", 1),)

    def __init__(self, cfg):
        super().__init__(cfg)
        self.hooks = self.hooks._replace(unit_choice=_to_lane_unit)

    def start_launch(self, info):
        return np.array([info.unit_types.get("one_lane_unit", 0)], np.int64)

    def hook_state(self, launch_state, rec_cols, rec_base):
        return launch_state


def test_instructions_sent_to_a_mechanisms_unit_follow_its_interval():
    # independent adds issue at 2, 3, 4 and would dispatch at 5, 6, 7 (baseline: 3 + 9 = 12
    # cycles); the single added unit accepts one every 4 cycles: 5, 9, 13; last result 17
    n = 3
    insts = [Inst("add", reads=(0,), writes=(i + 1,), n_imm=1) for i in range(n)] + [X]
    trace = [[rec(i) for i in range(n + 1)]]
    assert simulate(small_config(), insts, trace).cycles == n + 9
    r = _timed(OneLaneUnit, insts, trace)
    assert r.cycles == 18
    assert r.stats["opcoll_dispatch_stalls"] > 0


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


def test_combined_hooks_follow_the_documented_rules():
    a = noop_hooks()._replace(result_delay=_delay2, operand_bank=_bank_plus, can_issue=_veto_odd,
                              extra_operand=_extra_none, on_cycle_end=_end_at,
                              on_operand_read=_reads3, on_issue=_reuse_on_issue)
    b = noop_hooks()._replace(result_delay=_delay3, operand_bank=_bank_plus, can_issue=_veto_big,
                              extra_operand=_extra_seven, on_cycle_end=_end_at,
                              on_operand_read=_reads3, poll_parked=_park_poll)
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
    hs[1][0] = 1
    assert h.poll_parked(hs, 0, 0, 0, 0)[0] == ISSUE_EXECUTE
    # hooks nobody implements stay the shared no-op (free in the engine)
    assert h.unit_choice is noop_hooks().unit_choice
    hs[1][0] = 5
    assert h.on_cycle_end(hs, np.zeros((1, 1), np.int64), 0) == 5


@jit
def _observe_issue(hs, sm, warp, pc, rec, cycle):  # pragma: no cover - jit
    hs[0] += 1
    return ISSUE_EXECUTE, np.int64(0)


class CountRetires(Mechanism):
    """An observer: counts the issues it is asked about and every retire."""

    name = "count"

    def __init__(self, cfg):
        super().__init__(cfg)
        self.hooks = self.hooks._replace(on_issue=_observe_issue, on_retire=_count_retire)

    def start_launch(self, info):
        return np.zeros(2, np.int64)

    def hook_state(self, launch_state, rec_cols, rec_base):
        return launch_state

    def finish_launch(self, launch_state, counts):
        return {"count_issued": int(launch_state[0]), "count_retired": int(launch_state[1])}


def test_two_mechanisms_in_one_run_each_keep_their_own_state():
    # reuse first, then an observer: every add completes 3 cycles after issue as with reuse
    # alone; the observer is not asked about issues the reuse completed (rule "first") but
    # sees every retire; each keeps its own state
    cfg = small_config()
    n = 4
    trace = [[rec(i) for i in range(n + 1)]]
    r = _timed(CompositeMechanism(cfg, [ReuseEverything(cfg), CountRetires(cfg)]),
               _chain_insts(n), trace)
    assert r.cycles == 3 + 3 * n
    assert r.stats["reuse_all_issued"] == r.stats["reuse_all_retired"] == n
    assert r.stats["count_issued"] == 0
    assert r.stats["count_retired"] == n
    # the observer alone changes nothing: the baseline timeline, every issue seen
    alone = _timed(CountRetires, _chain_insts(n), trace)
    assert alone.cycles == 3 + 7 * n
    assert alone.stats["count_issued"] == alone.stats["count_retired"] == n


def test_clashing_statistics_of_two_mechanisms_are_refused():
    cfg = small_config()
    with pytest.raises(ConfigError, match="distinct names"):
        _timed(CompositeMechanism(cfg, [ReuseEverything(cfg), ReuseEverything(cfg)]),
               _chain_insts(1), [[rec(0), rec(1)]])


# -- memory port ---------------------------------------------------------------------------------
W_PENDING, W_SENT, W_BACK = 0, 1, 2


@jit
def _port_launch(hs, sm, warp, cta_slot, pos, cycle):  # pragma: no cover - jit
    hs[warp, W_PENDING] = 1


@jit
def _port_request(hs, sm, cycle):  # pragma: no cover - jit
    for w in range(hs.shape[0] - 1):
        if hs[w, W_PENDING] != 0:
            return MK_LD_GLOBAL, np.int64(0x10000 + 128 * w), np.int64(4), np.int64(w)
    return MK_NONE, np.int64(0), np.int64(0), np.int64(0)


@jit
def _port_sent(hs, sm, tag, accepted, cycle):  # pragma: no cover - jit
    if accepted:
        hs[tag, W_PENDING] = 0
        hs[tag, W_SENT] = cycle
    else:
        hs[hs.shape[0] - 1, 0] += 1


@jit
def _port_complete(hs, sm, tag, cycle):  # pragma: no cover - jit
    hs[tag, W_BACK] = cycle


@jit
def _port_can_issue(hs, sm, warp, pc, cycle):  # pragma: no cover - jit
    return hs[warp, W_BACK] > 0


class PreloadALinePerWarp(Mechanism):
    """Each warp, when launched, loads one line through the SM's L1 port and issues nothing
    until the line is back (a register preload)."""

    name = "preload"

    def __init__(self, cfg):
        super().__init__(cfg)
        self.hooks = self.hooks._replace(on_warp_launch=_port_launch, mem_request=_port_request,
                                         on_mem_sent=_port_sent, on_mem_complete=_port_complete,
                                         can_issue=_port_can_issue)

    def start_launch(self, info):
        return np.zeros((info.cfg.sm.n_max_warps + 1, 3), np.int64)  # last row: refusals

    def hook_state(self, launch_state, rec_cols, rec_base):
        return launch_state

    def finish_launch(self, launch_state, counts):
        a = launch_state
        return {"preload_sent_w0": int(a[0, W_SENT]), "preload_back_w0": int(a[0, W_BACK]),
                "preload_sent_w1": int(a[1, W_SENT]), "preload_back_w1": int(a[1, W_BACK]),
                "preload_refused": int(a[-1, 0])}


@pytest.mark.parametrize("skip_idle", [True, False])
def test_a_mechanisms_lines_go_through_the_l1_port_one_per_cycle(skip_idle):
    # one CTA of two warps, dispatched at 0 (their requests queued at launch). The port takes
    # one line per cycle: warp 0's at 1, warp 1's at 2; both miss (200 cycles): back at 201 and
    # 202. Warp 0's add issues at 201; GTO keeps warp 0, whose exit issues at 202; warp 1's add
    # issues at 203 and writes back 7 cycles later
    insts = [Inst("add", reads=(1,), writes=(1,), n_imm=1), X]
    r = _timed(PreloadALinePerWarp, insts, [[rec(0), rec(1)], [rec(0), rec(1)]], wpc=2,
               skip_idle=skip_idle)
    s = r.stats
    assert (s["preload_sent_w0"], s["preload_sent_w1"]) == (1, 2)
    assert (s["preload_back_w0"], s["preload_back_w1"]) == (201, 202)
    assert s["mech_mem_lines"] == 2 and s["preload_refused"] == 0
    assert s["mech_mem_refusals"] == 0
    assert r.cycles == 203 + 7 + 1
    # the lines are the memory system's own accesses: no core load instruction was counted
    assert s["gpgpu_n_load_insn"] == 0


def test_the_core_and_the_mechanism_share_the_port():
    # the warp waits for its preload (sent at 1, back at 201), then its own global load goes
    # through the same port: one line each, counted apart (the core's as a load instruction)
    insts = [Inst("ld", space="global", reads=(1,), writes=(2,)), X]
    r = _timed(PreloadALinePerWarp, insts, [[rec(0, lines=[0x80000]), rec(1)]])
    assert r.stats["preload_back_w0"] == 201
    assert r.stats["mech_mem_lines"] == 1
    assert r.stats["gpgpu_n_load_insn"] == 32


# -- read-only view of the core state ------------------------------------------------------------
@jit
def _record_age(hs, sm, warp, pc, rec, cycle):  # pragma: no cover - jit
    out, warp_state = hs
    out[warp] = warp_state[sm, warp, F_WARP_AGE] * 1000 + warp_state[sm, warp, F_WARP_CTA]
    return ISSUE_EXECUTE, np.int64(0)


class SeeWarpAges(Mechanism):
    """Reads the engine's warp table (dispatch age, CTA slot) through ``bind_core``."""

    name = "see"

    def __init__(self, cfg):
        super().__init__(cfg)
        self.hooks = self.hooks._replace(on_issue=_record_age)

    def start_launch(self, info):
        return {"out": np.full(4, -1, np.int64)}

    def bind_core(self, launch_state, core):
        launch_state["warp"] = core.warp

    def hook_state(self, launch_state, rec_cols, rec_base):
        return launch_state["out"], launch_state["warp"]

    def finish_launch(self, launch_state, counts):
        return {f"see_w{w}": int(v) for w, v in enumerate(launch_state["out"])}


def test_a_mechanism_reads_the_core_state_through_read_only_views():
    # three 1-warp CTAs dispatched at 0, 1, 2 into warp slots 0, 1, 2 and CTA slots 0, 1, 2:
    # dispatch ages 0, 1, 2
    insts = [Inst("add", reads=(1,), writes=(1,), n_imm=1), X]
    r = _timed(SeeWarpAges, insts, [[rec(0), rec(1)] for _ in range(3)])
    assert [r.stats[f"see_w{w}"] for w in range(3)] == [0, 1001, 2002]
    assert r.stats["see_w3"] == -1


def test_the_core_views_refuse_writes():
    from warpsim.timing.state import make_core_state, read_only_view
    from warpsim.timing.static import build_static

    insts = [X]
    cfg = small_config()
    view = read_only_view(make_core_state(cfg, build_static(FakeProgram(insts),
                                                            FakeAlloc(insts), cfg), 1))
    with pytest.raises(ValueError, match="read-only"):
        view.warp[0, 0, F_WARP_AGE] = 5
