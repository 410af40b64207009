"""Warp schedulers: LRR, GTO, oldest-first and two-level issue order, stall classification.
Two warps of one CTA on one scheduler, both decoded in cycle 1 (two fetches per cycle), each with
three independent adds and an exit; pipeline timing as in test_engine_alu.py (an add issued in t
writes back at t + 7)."""

from __future__ import annotations

import numpy as np
import pytest
from timing_helpers import EXIT, Inst, rec, simulate, small_config

from warpsim.timing.consts import POL_GTO, POL_LRR, POL_OLDEST
from warpsim.timing.sched import policy_key

X = Inst("exit", kind=EXIT)


def _two_warps(policy, **over):
    cfg = small_config(**{"sm.sched_policy": policy, "sm.n_fetch_per_cycle": 2, **over})
    # writes r4..r6 (banks 4..7 for the two warps) never block the reads of r0 (banks 0, 1)
    insts = [Inst("add", reads=(0,), writes=(i + 4,), n_imm=1) for i in range(3)] + [X]
    return simulate(cfg, insts, [[rec(0), rec(1), rec(2), rec(3)]] * 2, wpc=2)


def test_gto_keeps_issuing_from_the_same_warp():
    # warp 0 issues at 2, 3, 4 (+exit 5); warp 1 at 6, 7, 8: its last add writes back at 15
    assert _two_warps("gto").cycles == 16


def test_lrr_alternates_warps():
    # issue order w0 w1 w0 w1 w0 w1 (2..7), exits at 8, 9; the last add writes back at 14
    assert _two_warps("lrr").cycles == 15


def test_oldest_first_behaves_as_gto_without_greed_here():
    # oldest first: warp 0 (older) whenever ready, like GTO in this straight-line case
    assert _two_warps("oldest").cycles == 16


def test_two_level_with_one_active_warp_is_greedy():
    assert _two_warps("two_level", **{"sm.n_two_level_active_warps": 1}).cycles == 16


def test_policy_keys():
    from warpsim.timing.fields import F_WARP_AGE, N_WARP_FIELDS

    age = np.zeros((1, 4, N_WARP_FIELDS), np.int64)
    age[0, :, F_WARP_AGE] = [5, 3, 9, 1]
    # GTO: the last-issued warp first, then the oldest (smallest age)
    assert policy_key(age, POL_GTO, 1, 4, 0, 2, 2) == -1
    assert policy_key(age, POL_GTO, 1, 4, 0, 3, 2) == 1
    assert policy_key(age, POL_OLDEST, 1, 4, 0, 0, 0) == 5
    # LRR over a scheduler's 2 warps (slots 1, 3 of 2 schedulers): after slot 1 comes slot 3
    assert policy_key(age, POL_LRR, 2, 4, 0, 3, 1) == 0
    assert policy_key(age, POL_LRR, 2, 4, 0, 1, 1) == 1


def test_scoreboard_stalls_are_counted_per_scheduler_cycle():
    # a chain of 2 dependent adds: the second waits on the scoreboard from cycle 3 to 8
    insts = [Inst("add", reads=(2,), writes=(2,), n_imm=1)] * 2 + [X]
    r = simulate(small_config(), insts, [[rec(0), rec(1), rec(2)]], skip_idle=False)
    assert r.stats["sched_scoreboard_stall_cycles"] == 6


@pytest.mark.parametrize("skip", [True, False])
def test_barrier_releases_when_the_last_warp_arrives(skip):
    # warp 0: 3 dependent adds (issued 2, 9, 16), bar at 17, add at 18, exit 19;
    # warp 1: bar at 3 (waits), then add at 20 (GTO served warp 0 first), writeback 27
    from timing_helpers import BARRIER

    cfg = small_config(**{"sm.n_fetch_per_cycle": 2})
    insts = [Inst("add", reads=(2,), writes=(2,), n_imm=1), Inst("bar", kind=BARRIER),
             Inst("add", reads=(4,), writes=(4,), n_imm=1), X,
             Inst("add", reads=(5,), writes=(5,), n_imm=1)]
    w0 = [rec(0)] * 3 + [rec(1), rec(2), rec(3)]
    w1 = [rec(1), rec(4), rec(3)]
    r = simulate(cfg, insts, [w0, w1], wpc=2, skip_idle=skip)
    assert r.cycles == 28
    assert r.stats["sm_barrier_waits"] == 2
