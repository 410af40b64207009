"""RegLess compiler: regions (Algorithm 1), register classes, capacity need, soft definitions
(Algorithm 2) and erase/evict/invalidation annotations on hand-worked kernels (spec §10)."""

from __future__ import annotations

import pytest
from rl_helpers import plan, spans

from warpsim.mechanisms.regless.annotate import check_staging
from warpsim.mechanisms.regless.lifetimes import ERASE, EVICT, meta_words

STRAIGHT = """
    mov.u32 %r1, 1               // 0
    add.u32 %r2, %r1, 2          // 1
    mul.lo.u32 %r3, %r2, %r1     // 2
    st.shared.u32 [%r4], %r3     // 3
    ret                          // 4
"""


def test_straight_line_block_is_one_region_with_hand_computed_need():
    p = plan(STRAIGHT)
    assert spans(p) == [(0, 4)]
    (r,) = p.regions
    assert r.inputs == (4,) and set(r.interior) == {1, 2, 3} and r.outputs == ()
    # pinned: R4 [0,3], R1 [0,2], R2 [1,2], R3 [2,3] -> peak 4 at pc 2, one per bank 1..4
    assert r.need_total == 4
    assert r.need_per_bank == (0, 1, 1, 1, 1, 0, 0, 0)
    assert p.ann.src[2] == {1: ERASE, 2: ERASE} and p.ann.src[3] == {4: ERASE, 3: ERASE}
    assert r.invalidating == (4,)  # the preload of R4 is its last use
    assert r.meta_words == 2  # 5 instructions: header + one flag word
    assert check_staging(p) == []


LOAD_USE = """
    ld.global.u32 %r5, [%r1]     // 0
    add.u32 %r2, %r1, 1          // 1
    add.u32 %r3, %r2, 1          // 2
    add.u32 %r4, %r3, 1          // 3
    add.u32 %r6, %r4, 1          // 4
    add.u32 %r7, %r6, 1          // 5
    add.u32 %r8, %r7, 1          // 6
    add.u32 %r9, %r5, %r8        // 7  first use of the load
    st.global.u32 [%r1], %r9     // 8
    ret                          // 9
"""


def test_global_load_and_first_use_are_split_after_six_instructions():
    p = plan(LOAD_USE)
    # upper = 7, lower = max(0 + 6, 1) = 6; cost(p=6) = (1+2)+(3+0) = cost(p=7) = (1+2)+(3+0):
    # the tie goes to the larger split point
    assert spans(p) == [(0, 6), (7, 9)]
    a, b = p.regions
    assert a.split_reason == "load-use"
    assert a.inputs == (1,) and set(a.outputs) == {5, 8}
    assert a.need_total == 3  # R5 pinned to the region end (pending load) + a chain of two
    assert b.inputs == (5, 8, 1) and b.invalidating == (5, 8, 1)
    assert p.ann.src[1] == {1: EVICT}  # R1 is read again at pc 8
    assert p.ann.src[8][1] == ERASE
    assert check_staging(p) == []


PRESSURE = """
    mov.u32 %r1, 1               // 0
    mov.u32 %r2, 2               // 1
    mov.u32 %r3, 3               // 2
    add.u32 %r4, %r1, %r2        // 3  four pinned here
    add.u32 %r5, %r4, %r3        // 4
    st.shared.u32 [%r5], %r5     // 5
    ret                          // 6
"""


def test_capacity_splits_and_single_instruction_raises_its_own_limit():
    p = plan(PRESSURE, max_regs=3)
    # prefix [0,3]: R1 [0,3], R2 [1,3], R3 [2,2] (its last access so far), R4 [3,3] -> peak 3;
    # [0,4] stretches R3 to 4 -> 4 pinned at pc 3: upper = 4, lower = min(max(6, 1), 4) = 4
    assert spans(p) == [(0, 3), (4, 6)]
    assert [r.need_total for r in p.regions] == [3, 3]  # [4,6]: R4, R3 inputs + R5
    assert [r.split_reason for r in p.regions] == ["capacity", ""]
    assert p.regions[0].outputs == (3, 4) and p.regions[1].inputs == (4, 3)
    assert spans(plan(PRESSURE, max_regs=4)) == [(0, 6)]
    # a bank of 1 entry: R1..R5 sit in different banks, so only the total limit matters
    assert spans(plan(PRESSURE, max_regs=32, bank=1)) == [(0, 6)]
    assert check_staging(p) == []


def test_bank_limit_splits_registers_that_share_a_bank():
    src = """
        mov.u32 %r1, 1               // 0
        mov.u32 %r9, 2               // 1
        mov.u32 %r17, 3              // 2  R1, R9, R17 all in bank 1
        add.u32 %r2, %r1, %r9        // 3
        add.u32 %r3, %r2, %r17       // 4
        st.shared.u32 [%r3], %r3     // 5
        ret                          // 6
    """
    # bank 1 holds 2: [0,3] pins R1, R9, R17 at pc 2 -> cut at 3; [3,4] pins R1, R9 and the
    # input R17 at pc 3 -> [3,3] alone; [4,6] holds R2, R17, R3 (banks 2, 1, 3)
    p = plan(src, bank=2)
    assert spans(p) == [(0, 2), (3, 3), (4, 6)]
    assert [r.split_reason for r in p.regions] == ["bank", "bank", ""]
    assert [r.need_per_bank[1] for r in p.regions] == [1, 2, 1]
    assert spans(plan(src, bank=3)) == [(0, 6)]


DIAMOND = """
    ld.shared.u32 %r1, [%r9]     // 0  B0
    setp.eq.u32 %p1, %r2, 0      // 1
    @%p1 bra ELSE                // 2
    add.u32 %r3, %r1, 1          // 3  B1: then, last use of r1
    bra JOIN                     // 4
ELSE: add.u32 %r3, %r1, 2        // 5  B2: else, last use of r1
JOIN: st.shared.u32 [%r9], %r3   // 6  B3
    ret                          // 7
"""


def test_diamond_last_uses_evict_and_the_join_invalidates():
    p = plan(DIAMOND)
    assert spans(p) == [(0, 2), (3, 4), (5, 5), (6, 7)]
    assert p.ann.src[3][1] == EVICT and p.ann.src[5][1] == EVICT  # not safe in either arm
    assert p.regions[3].header_invalidations == (1,)  # Fig. 6's r3: dead at the join
    assert p.ann.src[1][2] == ERASE and p.regions[0].invalidating == (2,)
    assert p.ann.src[0][9] == EVICT and p.ann.src[6][9] == ERASE
    assert p.live.n_soft_divergent == 0  # both arms write r3 fully for their lanes
    assert check_staging(p) == []


FIG7 = """
    mov.u32 %r1, 0               // 0  B0
    setp.eq.u32 %p1, %r2, 0      // 1
    @%p1 bra SKIP                // 2
    mov.u32 %r1, 5               // 3  B1: written by some lanes only
SKIP: st.shared.u32 [%r9], %r1   // 4  B2
    ret                          // 5
"""


def test_divergent_write_is_soft_and_preloaded():
    p = plan(FIG7)
    assert p.live.soft[3] == 1 << 1 and p.live.n_soft_divergent == 1
    b1 = p.regions[1]
    assert (b1.start, b1.end) == (3, 3)
    assert b1.inputs == (1,) and b1.outputs == (1,)
    assert p.live.is_live_out(0, 1)
    assert check_staging(p) == []


def test_predicated_write_is_soft_unless_configured_otherwise():
    src = """
        mov.u32 %r1, 0               // 0
        setp.eq.u32 %p1, %r2, 0      // 1
        @%p1 mov.u32 %r1, 7          // 2
        st.shared.u32 [%r9], %r1     // 3
        ret                          // 4
    """
    assert plan(src).live.soft[2] == 1 << 1 and plan(src).live.n_soft_guarded == 1
    assert plan(src, predicated_is_soft=False).live.soft[2] == 0
    # cut before the guarded write: it must preload r1 (other lanes keep the old value)
    p = plan(src, max_regs=1)
    writer = next(r for r in p.regions if r.start <= 2 <= r.end)
    assert 1 in writer.inputs


LOOP = """
    mov.u32 %r1, 0               // 0  B0
LOOP: add.u32 %r1, %r1, 1        // 1  B1: loop-carried r1
    setp.lt.u32 %p1, %r1, %r2    // 2
    @%p1 bra LOOP                // 3
    st.shared.u32 [%r9], %r2     // 4  B2: after the loop, r1 is dead
    ret                          // 5
"""


def test_loop_carried_register_is_evicted_and_invalidated_after_the_exit():
    p = plan(LOOP)
    assert spans(p) == [(0, 0), (1, 3), (4, 5)]
    assert p.ann.src[2][1] == EVICT and p.ann.src[2][2] == EVICT  # never erase in the body
    assert p.regions[2].header_invalidations == (1,)
    assert set(p.regions[2].inputs) == {2, 9} == set(p.regions[2].invalidating)
    assert p.ann.dst[0][1] == EVICT
    assert check_staging(p) == []


def test_barrier_ends_a_region():
    src = """
        mov.u32 %r1, 1               // 0
        st.shared.u32 [%r9], %r1     // 1
        bar.sync 0                   // 2
        ld.shared.u32 %r2, [%r9]     // 3
        st.global.u32 [%r8], %r2     // 4
        ret                          // 5
    """
    p = plan(src)
    assert spans(p) == [(0, 2), (3, 5)]
    assert p.regions[0].split_reason == "barrier"


@pytest.mark.parametrize(("n", "k", "want"), [(4, 2, 1), (5, 1, 2), (4, 3, 2), (9, 3, 2),
                                              (10, 3, 3), (10, 10, 5), (1, 0, 1)])
def test_metadata_words_follow_the_section_3_7_formula(n, k, want):
    # compact form for <= 4 instructions and <= 2 entries; else header (3 entries) +
    # ceil((k-3)/6) + ceil(n/9)
    assert meta_words(n, k) == want
