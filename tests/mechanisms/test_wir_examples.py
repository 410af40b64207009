"""WIR's structures driven through its hooks on the paper's worked examples (specs/wir.md §2.15:
Figs. 4, 10, 11), the divergence rules (§2.8), a forced VSB false positive (§7) and the
reference-count invariants (§2.14 item 3), with hand-derived outcomes."""

from __future__ import annotations

import numpy as np

from warpsim.arch.wir import WIRConfig
from warpsim.mechanisms.wir import hooks as wh
from warpsim.mechanisms.wir.counters import S
from warpsim.mechanisms.wir.layout import (
    C_FLAGS,
    C_SIG0,
    FL_CONV,
    FL_STGL,
    H_POOL,
    H_POOLP,
    H_PVAL,
    H_REF,
    H_RT,
    H_STATS,
    H_VSB,
    N_COLS,
)
from warpsim.mechanisms.wir.mechanism import check_invariants
from warpsim.mechanisms.wir.state import new_arrays
from warpsim.mechanisms.wir.static_info import (
    K_ARITH,
    K_LD_GLOBAL,
    K_LD_RO,
    K_LD_SHARED,
    K_NONE,
    MAX_DST,
    N_PCX,
    PX_CLASS,
    PX_DIDX,
    PX_NDST,
    PX_OPID,
)
from warpsim.mechanisms.wir.structures import h3, vsb_insert
from warpsim.timing.consts import ISSUE_COMPLETE, ISSUE_EXECUTE, ISSUE_PARK

NP = 64
NREGS = 20


class Rig:
    """One SM, hand-written static tables and records, hooks called in a chosen order."""

    def __init__(self, insts, *, n_warps=8, n_phys=NP, **over):
        """``insts``: (class, opid, dst or -1, [srcs]) per pc."""
        w = WIRConfig(enabled=True, **over)
        n = len(insts) + 1
        pcx = np.zeros((n, N_PCX), np.int64)
        pcx[:, PX_DIDX:PX_DIDX + MAX_DST] = -1
        src = np.full((n, 3), -1, np.int64)
        dst = np.full((n, 2), -1, np.int64)
        for pc, (cls, opid, d, srcs) in enumerate(insts):
            pcx[pc, PX_CLASS], pcx[pc, PX_OPID] = cls, opid
            ds = d if isinstance(d, tuple) else (d,) if d >= 0 else ()
            pcx[pc, PX_NDST] = len(ds)
            for k, r in enumerate(ds):     # a pair: the two halves of a 64-bit register
                pcx[pc, PX_DIDX + k], dst[pc, k] = k, r
            src[pc, :len(srcs)] = srcs
        self.arrays = new_arrays(w, 1, n_warps, NREGS, n_phys, NREGS, 8, pcx, src, dst)
        self.cols = np.zeros((64, N_COLS), np.int64)
        self.hs = (self.cols, np.array([0], np.int64), *self.arrays)
        self.n = 0
        for warp in range(n_warps):
            wh.wir_on_warp_launch(self.hs, 0, warp, warp // 2, warp % 2, 0)

    def preset(self, warp, reg, p, sig, *, vsb=False):
        """Map ``reg`` of ``warp`` to ``p`` holding ``sig`` (as an earlier convergent write
        would), taking ``p`` out of the free pool."""
        hs = self.hs
        if hs[H_REF][0, p] == 0:
            pool = [int(x) for x in hs[H_POOL][0, :hs[H_POOLP][0, 1]] if x != p]
            hs[H_POOL][0, :len(pool)] = pool
            hs[H_POOLP][0, :] = (0, len(pool))
        hs[H_RT][0, warp, reg] = p
        hs[H_REF][0, p] += 1
        hs[H_PVAL][0, p] = sig
        if vsb:
            h = h3(hs[-1], np.int64(sig), np.int64(0xFFFFFFFF))
            vsb_insert(hs, 0, h % len(hs[H_VSB][0]), h, p, 0)

    def pool_order(self, first):
        """Allocate ``first`` (in order) before the rest of the pool."""
        hs = self.hs
        rest = [int(x) for x in hs[H_POOL][0, :hs[H_POOLP][0, 1]] if x not in first]
        pool = list(first) + rest
        hs[H_POOL][0, :len(pool)] = pool

    def issue(self, warp, pc, sig, cycle, *, conv=True, flags=0, sig_hi=0):
        rec = self.n
        self.n += 1
        self.cols[rec, C_FLAGS] = (FL_CONV if conv else 0) | flags
        self.cols[rec, C_SIG0] = sig
        self.cols[rec, C_SIG0 + 1] = sig_hi
        out, t = wh.wir_on_issue(self.hs, 0, warp, pc, rec, cycle)
        return rec, int(out), int(t)

    def finish(self, warp, pc, rec, cycle):
        """Writeback (register allocation) and retire of an executed record."""
        assert wh.wir_can_writeback(self.hs, 0, warp, pc, rec, cycle)
        wh.wir_on_retire(self.hs, 0, warp, pc, rec, cycle)

    def run(self, warp, pc, sig, cycle=0, **kw):
        rec, out, t = self.issue(warp, pc, sig, cycle, **kw)
        if out == ISSUE_COMPLETE:
            wh.wir_on_retire(self.hs, 0, warp, pc, rec, t)
        else:
            assert out == ISSUE_EXECUTE
            self.finish(warp, pc, rec, cycle + 1)
        return out

    def rt(self, warp, reg):
        return int(self.hs[H_RT][0, warp, reg])

    def stat(self, name):
        return int(self.hs[H_STATS][S[name]])


def test_fig4_register_and_instruction_reuse():
    # i1 mul $r2,$r0,$r1 (W0); i2 mul $r5,$r3,$r4 (W1); i3 add $r7,$r2,$r6; i4 add $r9,$r5,$r8
    rig = Rig([(K_ARITH, 1, 2, [0, 1]), (K_ARITH, 1, 5, [3, 4]),
               (K_ARITH, 2, 7, [2, 6]), (K_ARITH, 2, 9, [5, 8])])
    rig.preset(0, 0, 1, 100)   # $r0 -> P1 [0,2,4,6]
    rig.preset(0, 1, 2, 101)   # $r1 -> P2 [2,2,2,2]
    rig.preset(1, 3, 3, 102)   # $r3 -> P3 [0,1,2,3]
    rig.preset(1, 4, 4, 103)   # $r4 -> P4 [4,4,4,4]
    rig.preset(0, 6, 5, 104)   # $r6 -> P5 [1,2,3,4], shared by both warps
    rig.preset(1, 8, 5, 104)
    rig.pool_order([6, 7])
    prod, total = 200, 201     # [0,4,8,12] and [1,6,11,16]
    assert rig.run(0, 0, prod) == ISSUE_EXECUTE
    assert rig.rt(0, 2) == 6                       # i1: new register P6
    assert rig.run(1, 1, prod) == ISSUE_EXECUTE    # different tag (P3, P4)
    assert rig.rt(1, 5) == 6                       # i2: VSB hit, verified: shares P6
    assert rig.run(0, 2, total) == ISSUE_EXECUTE
    assert rig.rt(0, 7) == 7                       # i3: P7, RB entry [add, P6, P5] -> P7
    assert rig.run(1, 3, total) == ISSUE_COMPLETE  # i4: same tag: reused
    assert rig.rt(1, 9) == 7
    assert rig.stat("wir_executed_insts") == 3
    assert rig.stat("wir_rb_hits") == 1
    assert rig.stat("wir_vsb_verified") == 1
    assert rig.stat("wir_allocations") == 2
    assert rig.stat("wir_reg_writes") == 2
    assert rig.stat("wir_arith_mismatches") == 0
    assert check_invariants(rig.hs) == []


def test_fig10_load_reuse_rules():
    # pcs: ld.const, ld.shared, ld.global, st.global (no destination), each reading $r0
    rig = Rig([(K_LD_RO, 1, 1, [0]), (K_LD_SHARED, 2, 1, [0]), (K_LD_GLOBAL, 3, 1, [0]),
               (K_NONE, 0, -1, [0, 2])], n_warps=6)
    # TB slots: W0, W1 in TB 0; W2, W3 in TB 1; W4, W5 in TB 2 (Rig: warp // 2)
    addr = 300
    for warp in range(6):
        rig.preset(warp, 0, 6, addr)                  # every address register is P6
    rig.preset(0, 2, 10, 400, vsb=True)               # W0's store data [-1,-2,-3,-4] in P10
    assert rig.run(0, 0, 1) == ISSUE_EXECUTE          # i1 ld.const TB0
    assert rig.run(2, 0, 1) == ISSUE_COMPLETE         # i2 ld.const TB1: reuses i1
    assert rig.run(0, 1, 2) == ISSUE_EXECUTE          # i3 ld.shared TB0
    assert rig.run(2, 1, 3) == ISSUE_EXECUTE          # i4 ld.shared TB1: other TB, no reuse
    assert rig.run(1, 1, 2) == ISSUE_COMPLETE         # i5 ld.shared TB0 W1: reuses i3
    assert rig.rt(1, 1) == rig.rt(0, 1)
    assert rig.run(0, 2, 5) == ISSUE_EXECUTE          # i6 ld.global TB0
    assert rig.run(2, 2, 5) == ISSUE_COMPLETE         # i7 ld.global TB1: reuses i6
    i6_reg = rig.rt(2, 1)
    assert rig.run(0, 3, 0) == ISSUE_EXECUTE          # i8 st.global: no destination
    lookups = rig.stat("wir_rb_lookups")
    assert rig.run(0, 2, 400, flags=FL_STGL) == ISSUE_EXECUTE   # i9: store flag set
    assert rig.stat("wir_rb_lookups") == lookups      # no RB access
    assert rig.stat("wir_bypass_store_flag") == 1
    assert rig.rt(0, 1) == 10                         # VSB hit + verify: the store's P10
    assert rig.run(4, 2, 5) == ISSUE_COMPLETE         # i10 W4 (TB2): reuses i6 still
    assert rig.rt(4, 1) == i6_reg
    assert rig.stat("wir_rb_hits") == 4
    assert rig.stat("wir_load_mismatches") == 0
    assert check_invariants(rig.hs) == []


def _fig11(pending):
    rig = Rig([(K_ARITH, 1, 3, [1, 2])], pending_retry=pending)
    for warp in range(6):
        rig.preset(warp, 1, 1, 10)
        rig.preset(warp, 2, 2, 11)
    recs = []
    for warp in range(6):                 # one issue per cycle from X = 0
        cycle = warp
        if cycle == 3:                    # W0's result is ready 3 cycles after its lookup
            rig.finish(0, 0, recs[0][0], cycle)
            for w2, (rec, out) in enumerate(recs[1:3], start=1):
                if out == ISSUE_PARK:
                    o, t = wh.wir_poll_parked(rig.hs, 0, w2, rec, cycle)
                    assert o == ISSUE_COMPLETE
                    wh.wir_on_retire(rig.hs, 0, w2, 0, rec, t)
                else:
                    rig.finish(w2, 0, rec, cycle)
        rec, out, _ = rig.issue(warp, 0, 12, cycle)
        recs.append((rec, out))
        if out == ISSUE_COMPLETE:
            wh.wir_on_retire(rig.hs, 0, warp, 0, rec, cycle + 3)
    return rig, [o for _, o in recs]


def test_fig11_without_pending_retry_three_execute():
    rig, outs = _fig11(False)
    assert outs == [ISSUE_EXECUTE] * 3 + [ISSUE_COMPLETE] * 3
    assert rig.stat("wir_rb_hits") == 3
    assert rig.stat("wir_executed_insts") == 3
    assert len({rig.rt(w, 3) for w in range(6)}) == 1   # all share W0's result (VSB)
    assert check_invariants(rig.hs) == []


def test_fig11_with_pending_retry_only_w0_executes():
    rig, outs = _fig11(True)
    assert outs == [ISSUE_EXECUTE, ISSUE_PARK, ISSUE_PARK] + [ISSUE_COMPLETE] * 3
    assert rig.stat("wir_rb_hits") == 5
    assert rig.stat("wir_rb_pending_hits") == 2
    assert rig.stat("wir_executed_insts") == 1
    assert {rig.rt(w, 3) for w in range(6)} == {rig.rt(0, 3)}
    assert check_invariants(rig.hs) == []


def test_divergent_writes_pin_a_dedicated_register_with_one_dummy_mov():
    rig = Rig([(K_ARITH, 1, 3, [1]), (K_ARITH, 2, 3, [1])])
    rig.preset(0, 1, 1, 10)
    rig.pool_order([20, 21, 22])
    assert rig.run(0, 0, 50) == ISSUE_EXECUTE                  # convergent: P20
    assert rig.rt(0, 3) == 20
    lookups = rig.stat("wir_rb_lookups")
    assert rig.run(0, 1, 51, conv=False) == ISSUE_EXECUTE      # divergent: dedicated P21
    assert rig.rt(0, 3) == 21
    assert rig.stat("wir_rb_lookups") == lookups               # no RB access
    assert rig.stat("wir_dummy_movs") == 1
    assert rig.run(0, 1, 52, conv=False) == ISSUE_EXECUTE      # pinned: in place, no MOV
    assert rig.rt(0, 3) == 21
    assert rig.stat("wir_dummy_movs") == 1
    assert rig.stat("wir_inplace_writes") == 1
    assert rig.run(0, 0, 50) == ISSUE_COMPLETE                 # convergent again: reuse P20
    assert rig.rt(0, 3) == 20
    assert check_invariants(rig.hs) == []                      # P21 released: unpinned


def test_hash_collision_is_caught_by_the_verify_read():
    rig = Rig([(K_ARITH, 1, 3, [1]), (K_ARITH, 2, 4, [1])], hash_bits=1, vsb_entries=1)
    rig.preset(0, 1, 1, 10)
    q = rig.hs[-1]
    a, b = 1, 2
    while h3(q, np.int64(a), 1) != h3(q, np.int64(b), 1):   # two values, one 1-bit hash
        b += 1
    rig.run(0, 0, a)
    rig.run(0, 1, b)
    assert rig.stat("wir_vsb_false_positives") == 1
    assert rig.rt(0, 3) != rig.rt(0, 4)
    assert rig.stat("wir_allocations") == 2
    assert check_invariants(rig.hs) == []


def test_warp_exit_returns_every_register_after_the_release_delay():
    rig = Rig([(K_ARITH, 1, 3, [1])], vsb_entries=0, rb_entries=0)
    rig.preset(0, 1, 1, 10)
    rig.run(0, 0, 50)
    wh.wir_on_warp_exit(rig.hs, 0, 0, 100)
    assert rig.hs[H_REF][0].sum() == 0
    assert check_invariants(rig.hs) == []
    assert rig.hs[H_POOLP][0, 1] == NP - 2      # two registers still in the 2-cycle delay


def test_low_register_mode_stalls_evicts_and_inserts_nothing():
    # 4 physical registers: P0 holds $r1; three writes of $r3 take P1, P2, P3 (each VSB
    # miss inserts), leaving P1 and P2 held by the VSB alone and the pool empty
    rig = Rig([(K_ARITH, 1, 3, [1])], n_phys=4, rb_entries=0, vsb_entries=4)
    rig.preset(0, 1, 0, 10)
    rig.pool_order([1, 2, 3])
    for cycle, value in enumerate((50, 51, 52)):
        rig.run(0, 0, value, cycle * 10)
    assert rig.rt(0, 3) == 3 and rig.hs[H_POOLP][0, 1] == 0
    assert rig.stat("wir_vsb_inserts") == 3
    rec, out, _ = rig.issue(0, 0, 53, 100)
    assert out == ISSUE_EXECUTE
    cycle = 100
    while not wh.wir_can_writeback(rig.hs, 0, 0, 0, rec, cycle):
        cycle += 1
        assert cycle < 110
    # at least one stalled attempt, an eviction, and the 2-cycle release delay
    assert rig.stat("wir_alloc_stalls") >= 1 and rig.stat("wir_low_reg_evictions") >= 1
    assert cycle >= 102
    wh.wir_on_retire(rig.hs, 0, 0, 0, rec, cycle)
    assert rig.rt(0, 3) in (1, 2)                  # a register the VSB alone held
    assert rig.stat("wir_vsb_inserts") == 3        # low register mode: the miss inserts nothing
    assert check_invariants(rig.hs) == []


def test_a_64_bit_result_is_reused_as_a_register_pair():
    # mul.wide $rd2 <- $r0, $r1 by W0, then the same operation on the same registers by W1
    rig = Rig([(K_ARITH, 1, (2, 3), [0, 1])])
    for warp in (0, 1):
        rig.preset(warp, 0, 1, 10)
        rig.preset(warp, 1, 2, 11)
    assert rig.run(0, 0, 40, sig_hi=41) == ISSUE_EXECUTE
    lo, hi = rig.rt(0, 2), rig.rt(0, 3)
    assert lo != hi and lo >= 0 and hi >= 0
    assert rig.run(1, 0, 40, sig_hi=41) == ISSUE_COMPLETE
    assert (rig.rt(1, 2), rig.rt(1, 3)) == (lo, hi)
    assert rig.stat("wir_arith_mismatches") == 0
    assert check_invariants(rig.hs) == []


def test_verify_read_names_the_matched_registers_bank():
    # warp 0 computes value 77 into a new register P (inserted into the VSB); warps 1 and 2
    # compute 77 again with other sources (no instruction reuse): warp 1's VSB hit must read
    # P (a bank read of P % 8 banks, announced before the allocation stage for the engine's
    # port check and after it for the port), which fills the verify cache, so warp 2's read
    # of P is served by the cache: no bank
    from warpsim.mechanisms.wir.layout import C_PC

    rig = Rig([(K_ARITH, 1, 3, [1]), (K_ARITH, 2, 4, [1])])
    for w in range(3):
        rig.preset(w, 1, 10 + w, 1000 + w)
    rig.pool_order([21])
    rig.run(0, 0, 77)
    assert rig.rt(0, 3) == 21
    banks = []
    for w in (1, 2):
        rec, out, _ = rig.issue(w, 1, 77, 5)
        assert out == ISSUE_EXECUTE
        rig.cols[rec, C_PC] = 1
        before = int(wh.wir_writeback_read_bank(rig.hs, 0, w, rec, 4))
        rig.finish(w, 1, rec, 6)
        after = int(wh.wir_writeback_read_bank(rig.hs, 0, w, rec, 4))
        banks.append((before, after, rig.rt(w, 4)))
    assert banks == [(21 % 8, 21 % 8, 21), (-1, -1, 21)]
    assert rig.stat("wir_verify_cache_misses") == 1 and rig.stat("wir_verify_cache_hits") == 1
    assert int(wh.wir_writeback_read_bank(rig.hs, 0, 0, 0, 99)) == -1   # not a destination
