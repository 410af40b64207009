"""Coarse-grained L1 fetch in the cycle loop against a hand-computed micro-kernel, and its
pieces (record columns, dueling rule, configuration) against hand values.

Micro-kernel (tests/timing/test_engine_memory.py conventions: the fixed-latency stand-in hits
in 35 cycles when the SM accessed the line before, misses in 200): load 1 of line 0x1000 is
issued at 2, dispatched at 5, sent at 6 and back at 206; load 2 reads load 1's result, issues at
206, is dispatched at 209 and sent at 210. Load 2 touches 0x1080, the other half of load 1's
aligned 256 B group: the baseline misses (back at 410, 411 cycles), coarse2 fetched 0x1080
when load 1 issued, so load 2 hits (back at 245, 246 cycles).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "timing"))

from timing_helpers import EXIT, Inst, rec, simulate, small_config

from warpsim.arch import GTX480, apply_overrides
from warpsim.errors import ConfigError
from warpsim.mechanisms.coarse_fetch.hooks import cf_mem_request, cf_on_cycle_end, cf_on_issue
from warpsim.mechanisms.coarse_fetch.mechanism import CoarseFetch
from warpsim.mechanisms.coarse_fetch.state import (
    P_EPOCHS,
    P_FOLLOW,
    P_NEXT_EPOCH,
    STAT_NAMES,
    group_columns,
    make_state,
)
from warpsim.stats import C_GPU_SIM_INSN, N_COUNTERS
from warpsim.timing.consts import MK_LD_GLOBAL, MK_NONE, MK_ST_GLOBAL

X = Inst("exit", kind=EXIT)
LD1 = Inst("ld", space="global", reads=(1,), writes=(2,))
LD2 = Inst("ld", space="global", reads=(2,), writes=(3,))
INSTS = [LD1, LD2, X]


def _cf(lines=2, **over):
    """The separate path (each neighbour a load of its own through the memory port): the
    fixed-latency stand-in has no L1 fetch group (test_cf_paired.py tests the paired path)."""
    return small_config(**{"coarse_fetch.enabled": True, "coarse_fetch.n_group_lines": lines,
                           "coarse_fetch.pairing": "separate", **over})


def _run(cfg, second):
    mech = CoarseFetch(cfg) if cfg.coarse_fetch.enabled else None
    return simulate(cfg, INSTS, [[rec(0, lines=[0x1000]), rec(1, lines=[second]), rec(2)]],
                    mechanism=mech)


def test_baseline_second_load_misses():
    r = _run(small_config(), 0x1080)
    assert r.cycles == 411
    assert r.stats["mem_load_latency_cycles"] == (206 - 5) + (410 - 209)


@pytest.mark.parametrize("lines", [2, 4])
def test_coarse_fetch_makes_the_neighbouring_line_hit(lines):
    r = _run(_cf(lines), 0x1080)
    assert r.cycles == 246
    assert r.stats["mem_load_latency_cycles"] == (206 - 5) + (245 - 209)
    # load 1 queues its group's other lines; load 2's group is remembered (not checked again)
    assert r.stats["cf_lines_queued"] == lines - 1
    assert r.stats["cf_lines_sent"] == lines - 1 == r.stats["cf_lines_returned"]
    assert r.stats["cf_groups_filtered"] == 1


def test_coarse2_does_not_reach_the_next_group():
    # 0x1100 is in the next 256 B group: coarse2 does not fetch it (a miss as the baseline);
    # coarse4's 512 B group holds it
    assert _run(_cf(2), 0x1100).cycles == 411
    assert _run(_cf(4), 0x1100).cycles == 246


def test_group_columns_pack_base_and_own_lines():
    pc = np.array([0, 1, 0], np.int32)
    pc_mem = np.array([MK_LD_GLOBAL, MK_ST_GLOBAL, MK_NONE])
    n_lines = np.array([3, 1, 0], np.uint8)
    line_start = np.array([0, 3, 4], np.int64)
    lines = np.array([0x1000, 0x1080, 0x1380, 0x2000], np.uint64)
    c2 = group_columns(pc, n_lines, line_start, lines, pc_mem, 2)
    # groups 0x1000 (both lines touched: mask 0b11) and 0x1300 (line 1 only: 0b10)
    assert c2[0].tolist() == [2, 0x1000 | 0b11, 0x1300 | 0b10, 0, 0]
    assert c2[1].tolist() == [0] * 5 and c2[2].tolist() == [0] * 5  # a store, no lines
    c4 = group_columns(pc, n_lines, line_start, lines, pc_mem, 4)
    # 512 B groups: 0x1000 holds lines 0, 1 (0b0011); 0x1200 holds 0x1380 as line 3 (0b1000)
    assert c4[0].tolist() == [2, 0x1000 | 0b0011, 0x1200 | 0b1000, 0, 0]


def test_a_queued_neighbour_the_next_load_touches_is_cancelled():
    hs = make_state(_cf(2), 1)
    # record 0: line 0x1000 of group 0x1000 (mask 0b01); record 1: line 0x1080 (mask 0b10);
    # record 2: line 0x2000 of group 0x2000
    cols = np.array([[1, 0x1000 | 1, 0, 0, 0], [1, 0x1000 | 2, 0, 0, 0],
                     [1, 0x2000 | 1, 0, 0, 0]], np.int64)
    hs = hs._replace(cols=cols)
    cf_on_issue.py_func(hs, 0, 0, 0, 0, 2)   # queues 0x1080
    cf_on_issue.py_func(hs, 0, 0, 0, 2, 3)   # queues 0x2080
    assert hs.q_ht[0].tolist() == [0, 2] and hs.q[0, :2].tolist() == [0x1080, 0x2080]
    cf_on_issue.py_func(hs, 0, 1, 0, 1, 4)   # touches 0x1080 itself: cancelled, group filtered
    assert hs.q[0, :2].tolist() == [-1, 0x2080]
    assert cf_mem_request.py_func(hs, 0, 5) == (MK_LD_GLOBAL, 0x2080, 4, 0)
    assert hs.q_ht[0].tolist() == [1, 1]     # the cancelled entry left the queue
    names = dict(zip(STAT_NAMES, hs.st.tolist(), strict=True))
    assert names["lines_cancelled"] == 1 and names["lines_queued"] == 2
    assert names["groups_filtered"] == 1


def _duel_state(follow=1):
    cfg = apply_overrides(GTX480, {"coarse_fetch.enabled": True, "coarse_fetch.dueling": True,
                                   "coarse_fetch.dueling_epoch_cycles": 100})
    return make_state(cfg, follow)


def test_dueling_followers_take_the_leader_with_more_instructions():
    hs = _duel_state(follow=1)
    assert hs.mode[0] == 0 and hs.mode[1] == 1 and hs.mode[2:].tolist() == [1] * 13
    counters = np.zeros((15, N_COUNTERS), np.int64)
    assert cf_on_cycle_end.py_func(hs, counters, 10) == 110  # first cycle: epoch ends at 110
    counters[0, C_GPU_SIM_INSN] = 500  # the baseline leader ran more in the epoch
    counters[1, C_GPU_SIM_INSN] = 300
    assert cf_on_cycle_end.py_func(hs, counters, 50) == 110  # mid-epoch: nothing changes
    assert hs.mode[2:].tolist() == [1] * 13
    assert cf_on_cycle_end.py_func(hs, counters, 110) == 210
    assert hs.mode[0] == 0 and hs.mode[1] == 1 and hs.mode[2:].tolist() == [0] * 13
    counters[0, C_GPU_SIM_INSN] += 100  # equal progress: the followers keep the baseline
    counters[1, C_GPU_SIM_INSN] += 100
    cf_on_cycle_end.py_func(hs, counters, 210)
    assert hs.prm[P_FOLLOW] == 0 and hs.mode[2:].tolist() == [0] * 13
    counters[1, C_GPU_SIM_INSN] += 1  # the coarse leader ahead
    cf_on_cycle_end.py_func(hs, counters, 320)
    assert hs.mode[2:].tolist() == [1] * 13 and hs.prm[P_NEXT_EPOCH] == 420
    assert hs.prm[P_EPOCHS] == 3


def test_bad_configurations_are_config_errors():
    with pytest.raises(ConfigError, match="n_group_lines"):
        apply_overrides(GTX480, {"coarse_fetch.n_group_lines": 3})
    with pytest.raises(ConfigError, match="n_leader_coarse_sm"):
        apply_overrides(GTX480, {"coarse_fetch.n_leader_coarse_sm": 0})
    with pytest.raises(ConfigError, match=r"l1d\.line_bytes"):
        CoarseFetch(_cf(**{"l1d.line_bytes": 64, "l1d.sector_bytes": 32}))
    with pytest.raises(ConfigError, match="bypass_global"):
        CoarseFetch(_cf(**{"l1d.bypass_global": True}))
    with pytest.raises(ConfigError, match="n_leader_base_sm"):
        CoarseFetch(_cf(**{"coarse_fetch.dueling": True, "coarse_fetch.n_leader_base_sm": 3}))


def test_idle_skipping_changes_nothing_with_dueling():
    # 3 SMs (base leader, coarse leader, one follower), epochs of 50 cycles: every statistic,
    # the dueling decisions included, is the same with idle-cycle skipping on and off
    cfg = small_config(**{"sm.n_sms": 3, "coarse_fetch.enabled": True,
                          "coarse_fetch.pairing": "separate",
                          "coarse_fetch.dueling": True, "coarse_fetch.dueling_epoch_cycles": 50})
    warps = [[rec(0, lines=[0x1000 + 0x1000 * c]), rec(1, lines=[0x1080 + 0x1000 * c]), rec(2)]
             for c in range(3)]
    on = simulate(cfg, INSTS, warps, mechanism=CoarseFetch(cfg), skip_idle=True)
    off = simulate(cfg, INSTS, warps, mechanism=CoarseFetch(cfg), skip_idle=False)
    def numbers(st):  # NaN ratios (no L2 traffic with the stand-in) compare unequal
        return {k: v for k, v in st.items() if v == v}

    assert numbers(on.stats) == numbers(off.stats) and on.cycles == off.cycles
    assert on.stats["cf_dueling_epochs"] >= 4
    # SM 0 (baseline leader) misses its second load; SMs 1 and 2 (coarse) hit theirs
    assert on.stats["cf_loads_coarse_sm"] == 4 and on.stats["cf_lines_sent"] == 2


def test_two_warps_touching_neighbouring_lines():
    # one CTA of two warps: warp 0 loads 0x1000, warp 1 the neighbouring 0x1080. Warp 0's load
    # is dispatched at 5 and sent at 6 (back at 206), which frees the LD/ST unit at 7: warp 1's
    # (issued at 3) is dispatched at 7 and sent at 8. Baseline: warp 1 misses too (back at 208),
    # the kernel ends at 209. coarse2: 0x1080 was fetched in an idle port cycle after warp 0
    # issued, so warp 1 hits (back at 43); the kernel ends with warp 0, at 207
    ld = Inst("ld", space="global", reads=(1,), writes=(2,))
    insts = [ld, X]
    warps = [[rec(0, lines=[0x1000]), rec(1)], [rec(0, lines=[0x1080]), rec(1)]]
    base = simulate(small_config(), insts, warps, wpc=2)
    cfg = _cf(2)
    coarse = simulate(cfg, insts, warps, wpc=2, mechanism=CoarseFetch(cfg))
    assert base.cycles == 209 and coarse.cycles == 207
    assert base.stats["mem_load_latency_cycles"] == (206 - 5) + (208 - 7)
    assert coarse.stats["mem_load_latency_cycles"] == (206 - 5) + (43 - 7)
    assert coarse.stats["cf_lines_sent"] == 1 and coarse.stats["cf_lines_cancelled"] == 0
