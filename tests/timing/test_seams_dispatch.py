"""The seam "warp-level dispatch and release" (WarpMan, Xiang's dissertation §3.4), driven by
small test mechanisms with hand-computed timelines: a CTA's warps admitted one by one as a
live-warp cap frees up (``warps_to_place``, ``release_warp_slot``), a CTA started on the warp
slots a finished warp freed, a barrier of a partially dispatched CTA waiting for its warps not
placed yet, and the clear error of a mechanism that never places them.

Timeline conventions of tests/timing/test_engine_alu.py: a warp placed in cycle t decodes in
t+1 (one warp fetched per SM per cycle, round robin from slot ``cycle % n_warp_slots``) and
issues its first instruction in t+2; an ``add`` issued at t writes back at t+7 (collector t+1,
read t+2, dispatch t+3, latency 4), a ``sin`` at t+42 (latency 39); a warp exits in the cycle
its last instruction writes back, and the dispatcher places warps in that same cycle (after
the SMs ticked). ``gpu_sim_cycle`` is the last busy cycle + 1. This file also runs with numba
disabled (``tests/test_without_jit.py``).
"""

from __future__ import annotations

import numpy as np
import pytest
from seams_probe import DISPATCH, Probe, timed
from timing_helpers import BARRIER, EXIT, Inst, rec, simulate, small_config

from warpsim._jit import jit
from warpsim.errors import LaunchError
from warpsim.mechanisms.compose import combine_hooks
from warpsim.mechanisms.hooks import noop_hooks

X = Inst("exit", kind=EXIT)
ADD = Inst("add", reads=(1,), writes=(1,), n_imm=1)
SIN = Inst("sin", types=("f32",), mods=("approx",), reads=(2,), writes=(3,))
BAR = Inst("bar", kind=BARRIER)
INSTS = [ADD, X, SIN, BAR]           # pc 0: add, 1: exit, 2: sin, 3: bar
SHORT = [rec(0), rec(1)]             # add, exit: exits 9 cycles after it is placed
LONG = [rec(2), rec(1)]              # sin, exit


def warp_by_warp(cfg, cap=1, release=True):
    """Warp-level dispatch (the shared seam probe's DISPATCH mode, one compiled cycle loop with
    tests/timing/test_seams.py): at most ``cap`` live warps per SM (0: only the free warp
    slots limit), a CTA started whenever one of its warps may be placed, its other warps
    placed as live warps exit; an exited warp's slot is freed at its exit when ``release``."""
    return Probe(cfg, DISPATCH, "warp_by_warp", cap=cap, release=release)


def _timed(mech, warps, wpc, *, skip_idle=True, cfg=None):
    return timed(mech, INSTS, warps, wpc=wpc, skip_idle=skip_idle, cfg=cfg)


@pytest.mark.parametrize("skip_idle", [True, False])
def test_warps_of_a_cta_are_admitted_one_by_one_as_the_cap_frees(skip_idle):
    # cap 1: warp 0 placed at 0 exits at 9, when warp 1 takes its freed slot 0; warp 2 at 18;
    # the CTA ends at 27 (baseline: all three placed at 0)
    cfg = small_config()
    m = warp_by_warp(cfg, cap=1)
    r = _timed(m, [SHORT] * 3, 3, skip_idle=skip_idle, cfg=cfg)
    assert m.launches == [(0, 0, 0, 0), (0, 1, 0, 9), (0, 2, 0, 18)]
    assert m.exits == [(0, 9), (0, 18), (0, 27)]
    assert r.cycles == 28
    assert r.per_sm["sm_ctas_launched"] == [1] and r.per_sm["sm_warps_launched"] == [3]
    base = simulate(cfg, INSTS, [SHORT] * 3, wpc=3, skip_idle=skip_idle)
    assert base.cycles < 28 and base.stats["sched_warp_insts_issued"] == 6
    assert r.stats["sched_warp_insts_issued"] == 6


def test_slots_of_exited_warps_stay_taken_without_release():
    # the same cap, slots freed only with the CTA: each warp takes the next slot
    cfg = small_config()
    m = warp_by_warp(cfg, cap=1, release=False)
    r = _timed(m, [SHORT] * 3, 3, cfg=cfg)
    assert m.launches == [(0, 0, 0, 0), (0, 1, 1, 9), (0, 2, 2, 18)]
    assert r.cycles == 28


def test_remaining_warps_of_a_started_cta_go_before_a_new_cta():
    # two CTAs of two warps, cap 1: CTA 0's warp 1 takes the slot warp 0 frees at 9 (the new
    # CTA 1 waits); CTA 0 ends at 18 and CTA 1 starts in its CTA slot 0: warps at 18 and 27
    cfg = small_config()
    m = warp_by_warp(cfg, cap=1)
    r = _timed(m, [SHORT] * 4, 2, cfg=cfg)
    assert m.launches == [(0, 0, 0, 0), (0, 1, 0, 9), (0, 0, 0, 18), (0, 1, 0, 27)]
    assert r.cycles == 37
    assert r.per_sm["sm_ctas_launched"] == [2] and r.per_sm["sm_warps_launched"] == [4]


def test_a_cta_starts_on_the_warp_slot_a_finished_warp_freed():
    # 2 warp slots, CTAs of 2 warps (baseline occupancy: 1 CTA per SM; the mechanism's: the
    # 8 CTA slots). CTA 0: warp 0 (slot 0) sin,
    # warp 1 (slot 1) add. Cycle 1 fetches slot 1 (1 % 2), cycle 2 slot 0: warp 1's add
    # issues at 2 (exit at 3, GTO keeps the last warp), warp 0's sin at 4 (writes back 46).
    # Warp 1 exits at 9 and frees slot 1: CTA 1 starts with one warp there (1 free slot,
    # beyond the baseline's occupancy), exits at 18; its warp 1 takes slot 1 at 18 and exits
    # at 27; CTA 0 ends at 46. (The SFU is set to latency 39 / interval 4 so that warp 0's
    # sin outlives the other warps; the gtx480 preset's is 8 / 8.)
    cfg = small_config(**{"sm.n_max_threads": 64, "sm.n_max_threads_per_cta": 64,
                          "pipelines.sfu.latency_cycles": 39,
                          "pipelines.sfu.initiation_interval_cycles": 4})
    m = warp_by_warp(cfg, cap=0)
    warps = [LONG, SHORT, SHORT, SHORT]
    r = _timed(m, warps, 2, cfg=cfg)
    assert m.launches == [(0, 0, 0, 0), (0, 1, 1, 0), (1, 0, 1, 9), (1, 1, 1, 18)]
    assert m.exits == [(1, 9), (1, 18), (1, 27), (0, 46)]
    assert r.cycles == 47
    # slots freed only with their CTA: CTA 1 starts whole when CTA 0 ends, as the baseline
    m2 = warp_by_warp(cfg, cap=0, release=False)
    r2 = _timed(m2, warps, 2, cfg=cfg)
    base = simulate(cfg, INSTS, warps, wpc=2)
    assert r2.cycles == base.cycles > 47
    assert m2.launches[2:] == [(0, 0, 0, 46), (0, 1, 1, 46)]


@pytest.mark.parametrize("skip_idle", [True, False])
def test_a_barrier_of_a_partially_dispatched_cta_waits_for_its_unplaced_warps(skip_idle):
    # cap 2, a CTA of 3 warps: warps 0 (slot 0: bar, add, exit) and 1 (slot 1: add, exit) at
    # 0; cycle 1 fetches slot 1, cycle 2 slot 0. Warp 1: add at 2, exit at 3 (GTO), exits at
    # 9. Warp 0: bar at 4 and waits: 1 arrived of 3 live (warp 2 is not placed). Warp 1's exit
    # at 9 leaves 2 live: still waiting (counting only placed warps would release it here).
    # Warp 2 (bar, add, exit) takes slot 1 at 9, fetched at 10, bar at 11 releases both;
    # warp 2's add at 12 (GTO: last warp), its exit at 13, warp 0's add at 14 (exit 15):
    # writebacks at 19 and 21.
    cfg = small_config()
    m = warp_by_warp(cfg, cap=2)
    w0 = [rec(3), rec(0), rec(1)]
    r = _timed(m, [w0, SHORT, w0], 3, skip_idle=skip_idle, cfg=cfg)
    assert m.launches == [(0, 0, 0, 0), (0, 1, 1, 0), (0, 2, 1, 9)]
    assert m.exits == [(1, 9), (1, 19), (0, 21)]
    assert r.cycles == 22
    assert r.stats["sm_barrier_waits"] == 2


@pytest.mark.parametrize("skip_idle", [True, False])
def test_a_mechanism_that_never_places_the_barriers_other_warps_is_reported(skip_idle):
    # cap 1, a CTA of 2 warps that both wait at a barrier: warp 0 waits for warp 1, which the
    # cap never admits (warp 0 never exits): a clear error naming the mechanism, no hang
    cfg = small_config()
    w = [rec(3), rec(1)]
    with pytest.raises(LaunchError, match=r"warp_by_warp mechanism.*CTA 0 on SM 0 is "
                       r"partially dispatched \(1 of 2 warps placed, 1 of them waiting at a "
                       r"barrier"):
        _timed(warp_by_warp(cfg, cap=1), [w, w], 2, skip_idle=skip_idle, cfg=cfg)


@jit
def _place_one(hs, sm, cta, cta_slot, placed, n_warps, free_warps, n):  # pragma: no cover
    return np.int64(min(n, 1)) if n > 0 else np.int64(hs[0])


@jit
def _place_double(hs, sm, cta, cta_slot, placed, n_warps, free_warps, n):  # pragma: no cover
    return 2 * n


@jit
def _release_if(hs, sm, warp, cycle):  # pragma: no cover - jit
    hs[1] += 1
    return warp == hs[0]


def test_combined_dispatch_hooks_follow_the_documented_rules():
    a = noop_hooks()._replace(warps_to_place=_place_one, release_warp_slot=_release_if)
    b = noop_hooks()._replace(warps_to_place=_place_double, release_warp_slot=_release_if)
    h = combine_hooks([a, b])
    hs = (np.array([3, 0], np.int64), np.array([5, 0], np.int64))
    assert h.warps_to_place(hs, 0, 0, 0, 0, 4, 4, 4) == 2      # chain: min(4, 1) = 1, * 2
    assert h.warps_to_place(hs, 0, 0, 0, 0, 4, 2, 0) == 6      # chain: 3, * 2
    assert h.release_warp_slot(hs, 0, 3, 0)                      # or: a frees slot 3
    assert h.release_warp_slot(hs, 0, 5, 0)                      # or: b frees slot 5
    assert not h.release_warp_slot(hs, 0, 4, 0)
    assert hs[0][1] == hs[1][1] == 3                              # every mechanism is asked
    assert h.cta_fit is noop_hooks().cta_fit
