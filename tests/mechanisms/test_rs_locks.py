"""Register Sharing's locks on hand-made micro-kernels in the timing engine: acquisition at the
first shared-register access and release at warp completion (hand-computed cycles), the
deadlock-avoidance rule on the paper's Fig. 5 scenario, ownership hand-over when the owner
block completes, OWF's class order, and identical statistics with idle skipping on and off.

Timing facts used (docs/timing-model.md): a CTA dispatched in cycle d issues from d + 2; one
CTA per SM per cycle; a dependent 1-source integer add chain takes 7 cycles per add, i.e. an
add issued in t writes back (and its warp, with nothing else left, exits) in t + 7, and the
issue stage of that cycle already sees the exit.
"""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "timing"))

from timing_helpers import (
    BARRIER,
    EXIT,
    FakeAlloc,
    FakeProgram,
    Inst,
    make_chunk,
    rec,
    small_config,
)

from warpsim.mechanisms.register_sharing import RegisterSharing
from warpsim.mechanisms.register_sharing import state as rst
from warpsim.mechanisms.register_sharing.owf import rs_issue_priority
from warpsim.timing import fields as fl
from warpsim.timing.driver import TimingSimulator

# 1 SM, 1 scheduler, t = 0.25, r = 12 registers (u = 3 private): a CTA of ``wpc`` warps needs
# R_tb = 384·wpc registers; 512·wpc registers give g = 1 and 128·wpc >= t·R_tb left, so one
# extra block: M = 2, S = 1, U = 0.
T_QUARTER = ("register_sharing.threshold_frac", 0.25)
ADD = Inst("add", reads=(0,), writes=(1,))
ADD_SHARED = Inst("add", reads=(2,), writes=(3,))
PROG = [ADD, ADD_SHARED, Inst("bar", kind=BARRIER), Inst("exit", kind=EXIT)]
SEQ = [1, 5, 0, 0, 0]  # sequence numbers: pc 0 only private registers, pc 1 a shared one
P_ADD, P_SHARED, P_BAR, P_EXIT = 0, 1, 2, 3


def _cfg(wpc, *, rs=True, **over):
    o = {"sm.n_registers": 512 * wpc, "register_sharing.enabled": rs,
         T_QUARTER[0]: T_QUARTER[1]}
    o.update(over)
    return small_config(**o)


def _run(cfg, warps, wpc, *, skip_idle=True, seq=SEQ):
    mech = RegisterSharing(cfg) if cfg.register_sharing.enabled else None
    if mech is not None:
        mech.sequence = lambda program, alloc, unroll: SimpleNamespace(
            pc_max_seq=np.asarray(seq, np.int32))
        sim = TimingSimulator(cfg, mechanism=mech, skip_idle_cycles=skip_idle)
    else:
        from warpsim.mechanisms.hooks import noop_hooks
        sim = TimingSimulator(cfg, hooks=noop_hooks(), skip_idle_cycles=skip_idle)
    n_ctas = len(warps) // wpc
    sim.start(FakeProgram(PROG), FakeAlloc(PROG), n_ctas=n_ctas, cta_threads=32 * wpc,
              regs_per_thread=12, shmem_bytes=0)
    sim.consume(make_chunk(warps, wpc))
    return sim.finish(), mech


def _same(a, b):
    """Statistics dicts equal, NaN (a ratio of zero events) equal to NaN."""
    return a.keys() == b.keys() and all(
        a[k] == b[k] or (isinstance(a[k], float) and a[k] != a[k] and b[k] != b[k]) for k in a)


def _two(first, second=None):
    second = first if second is None else second
    return [[rec(p) for p in first], [rec(p) for p in second]]


def test_sharing_launches_one_extra_block_per_sm():
    r, mech = _run(_cfg(1), _two([P_ADD, P_EXIT]), 1)
    assert r.stats["rs_blocks_per_sm"] == 2 and r.stats["rs_baseline_blocks_per_sm"] == 1
    assert (r.stats["rs_shared_pairs"], r.stats["rs_unshared_blocks"]) == (1, 0)
    assert r.stats["rs_sharing_mode"] == 1 and r.stats["rs_unshared_regs_per_thread"] == 3
    assert r.occupancy["ctas_per_sm"] == 2 and mech.layout.partner == (1, 0)


def test_lock_taken_at_first_shared_access_and_held_until_the_warp_finishes():
    # CTA0 (slot 0, warp A) dispatched in d, CTA1 (slot 1, warp B) in d + 1; one scheduler.
    # Private registers only: A's add issues in t0 = d + 2, A's exit record in t0 + 1 (LRR,
    # ahead of B), B's add in t0 + 2, written back in t0 + 9.
    free, _ = _run(_cfg(1), _two([P_ADD, P_EXIT]), 1)
    assert free.stats["rs_lock_acquisitions"] == 0 and free.stats["rs_lock_denials"] == 0
    # A shared register: A's add takes the lock in t0; B is denied from t0 + 1 until A exits
    # in t0 + 7 (its add's writeback), so B's add issues in t0 + 7 and writes back in t0 + 14:
    # 5 cycles later than without the lock.
    lock, _ = _run(_cfg(1), _two([P_SHARED, P_EXIT]), 1)
    assert lock.cycles - free.cycles == 5
    assert lock.stats["rs_lock_acquisitions"] == 2
    assert lock.stats["rs_lock_denials"] == 6  # t0 + 1 .. t0 + 6
    assert lock.stats["rs_lock_stall_cycles"] == 5  # t0 + 2 .. t0 + 6 (A issued in t0 + 1)
    assert lock.stats["rs_locks_held_at_end"] == 0
    # A's block completes in t0 + 7 and hands ownership to B's before B acquires
    assert lock.stats["rs_ownership_transfers"] == 1
    assert lock.stats["rs_ownership_changes"] == 1
    # without sharing only one block fits: CTA1 is dispatched in t0 + 7, issues in t0 + 9
    base, _ = _run(_cfg(1, rs=False), _two([P_SHARED, P_EXIT]), 1)
    assert base.cycles - lock.cycles == 2
    assert base.stats["gpgpu_n_tot_w_icount"] == lock.stats["gpgpu_n_tot_w_icount"] == 4


def test_lock_denial_counts_as_not_ready_not_as_a_pipeline_stall():
    lock, _ = _run(_cfg(1), _two([P_SHARED, P_EXIT]), 1)
    free, _ = _run(_cfg(1), _two([P_ADD, P_EXIT]), 1)
    assert lock.stats["sched_pipe_stall_cycles"] == free.stats["sched_pipe_stall_cycles"]
    assert lock.stats["sched_scoreboard_stall_cycles"] >= 5


def test_ownership_is_handed_over_and_a_new_block_in_the_old_slot_is_non_owner():
    # three one-warp CTAs on one pair: CTA2 goes into slot 0 when CTA0 completes and must wait
    # for CTA1 (now the owner) to finish: 7 more cycles than two CTAs
    two, _ = _run(_cfg(1), _two([P_SHARED, P_EXIT]), 1)
    three, _ = _run(_cfg(1), [*_two([P_SHARED, P_EXIT]), [rec(P_SHARED), rec(P_EXIT)]], 1)
    assert three.cycles - two.cycles == 7
    assert three.stats["rs_lock_acquisitions"] == 3
    assert three.stats["rs_ownership_transfers"] == 2
    assert three.stats["rs_ownership_changes"] == 2


def test_fig5_deadlock_rule_lets_the_pair_finish():
    # TB1 = {W1, W2} in slot 0, TB2 = {W3, W4} in slot 1; Wk pairs with Wk+2 (Fig. 5). W1 takes
    # lock(W1, W3) at once; W2 runs three private adds before its shared access. Without the
    # rule W4 would take lock(W2, W4) meanwhile, and W1 (barrier, waits for W2), W2 (waits for
    # W4's lock), W4 (barrier, waits for W3), W3 (waits for W1's lock) would deadlock.
    w1 = [P_SHARED, P_BAR, P_SHARED, P_EXIT]
    w2 = [P_ADD, P_ADD, P_ADD, P_SHARED, P_BAR, P_SHARED, P_EXIT]
    warps = [[rec(p) for p in w] for w in (w1, w2, w1, w1)]
    r, _ = _run(_cfg(2), warps, 2)
    assert r.stats["gpgpu_n_tot_w_icount"] == 4 + 7 + 4 + 4
    assert r.stats["rs_lock_acquisitions"] == 4
    assert r.stats["rs_lock_denials_deadlock_rule"] > 0  # W4: its lock free, TB1 holds one
    assert r.stats["rs_locks_held_at_end"] == 0


def test_idle_skipping_changes_no_statistic():
    w1 = [P_SHARED, P_BAR, P_SHARED, P_EXIT]
    w2 = [P_ADD, P_ADD, P_ADD, P_SHARED, P_BAR, P_SHARED, P_EXIT]
    warps = [[rec(p) for p in w] for w in (w1, w2, w1, w1, w2, w1)]
    a, _ = _run(_cfg(2, **{"register_sharing.owf": True}), warps, 2)
    b, _ = _run(_cfg(2, **{"register_sharing.owf": True}), warps, 2, skip_idle=False)
    assert _same(a.stats, b.stats)
    assert a.stats["rs_lock_stall_cycles"] > 0


def _owf_state(owner_slot):
    cfg = _cfg(1, **{"register_sharing.owf": True})
    lay = SimpleNamespace(sharing_mode=True, partner=(-1, 2, 1), pair=(-1, 0, 0),
                          shared_pairs=1, unshared_regs_per_thread=3)
    tables = SimpleNamespace(pc_info=np.zeros((2, fl.N_PC_INFO_FIELDS), np.int64))
    hs = rst.make_state(cfg, lay, tables, np.zeros(2, np.int32), 1)
    for w, (slot, dyn) in enumerate(((2, 0), (0, 1), (1, 2), (0, 3))):
        hs.warp[0, w, rst.W_SLOT] = slot
        hs.warp[0, w, rst.W_DYN] = dyn
    hs.lock[0, 0, 0] = owner_slot
    return hs


def test_owf_orders_owner_then_unshared_then_non_owner_then_age():
    # warps 0..3: w0 in slot 2 (shared, oldest), w1 slot 0 (unshared), w2 slot 1 (shared),
    # w3 slot 0 (unshared, youngest)
    hs = _owf_state(owner_slot=1)
    keys = [rs_issue_priority(hs, 0, w, 0) for w in range(4)]
    assert sorted(range(4), key=lambda w: keys[w]) == [2, 1, 3, 0]
    hs = _owf_state(owner_slot=2)
    keys = [rs_issue_priority(hs, 0, w, 0) for w in range(4)]
    assert sorted(range(4), key=lambda w: keys[w]) == [0, 1, 3, 2]


def test_non_owner_grant_takes_ownership_when_the_owner_holds_no_lock():
    # slot 0 (the initial owner, warp A) touches only private registers, so slot 1's warp B
    # finds the partner block without holders: B is granted at once and its block becomes the
    # owner (one change, no hand-over: A's block completes while it is not the owner). No warp
    # waits, so the run takes exactly the cycles of the all-private run.
    flip, _ = _run(_cfg(1), _two([P_ADD, P_EXIT], [P_SHARED, P_EXIT]), 1)
    free, _ = _run(_cfg(1), _two([P_ADD, P_EXIT]), 1)
    assert flip.stats["rs_lock_acquisitions"] == 1
    assert flip.stats["rs_lock_denials"] == 0
    assert flip.stats["rs_ownership_changes"] == 1
    assert flip.stats["rs_ownership_transfers"] == 0
    assert flip.stats["rs_locks_held_at_end"] == 0
    assert flip.cycles == free.cycles


def test_warp_lock_rule_waits_only_for_the_corresponding_warp():
    # TB1 = {W1, W2}, TB2 = {W3, W4}; W1 holds lock(W1, W3) for a while, W2 never needs one.
    # Block rule: W4 is refused lock(W2, W4) while W1 holds a lock; warp rule: W4 takes it.
    w1 = [P_SHARED, P_ADD, P_ADD, P_ADD, P_EXIT]
    warps = [[rec(p) for p in w] for w in (w1, [P_ADD, P_EXIT], [P_SHARED, P_EXIT],
                                           [P_SHARED, P_EXIT])]
    block, _ = _run(_cfg(2), warps, 2)
    warp, _ = _run(_cfg(2, **{"register_sharing.lock_rule": "warp"}), warps, 2)
    assert block.stats["rs_lock_denials_deadlock_rule"] > 0
    assert warp.stats["rs_lock_denials_deadlock_rule"] == 0
    assert block.stats["rs_lock_acquisitions"] == warp.stats["rs_lock_acquisitions"] == 3
    assert warp.stats["rs_lock_denials"] < block.stats["rs_lock_denials"]
    assert warp.cycles <= block.cycles
    assert warp.stats["rs_locks_held_at_end"] == 0

