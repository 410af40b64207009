"""Register sequence numbers for Register Sharing (specs/register-sharing.md §3.5, §4.2, §9.1
item 6): the paper's Fig. 7 (sgemm ``mysgemmNT``) written in PTX, at the level of declared
registers and of the allocated registers the mechanism classifies."""

from __future__ import annotations

import numpy as np
import pytest

from warpsim.functional.loader import load_program
from warpsim.mechanisms.register_sharing.reorder import (
    declared_sequence,
    sharing_sequence,
    textual_registers,
)
from warpsim.ptx.parser import parse_ptx
from warpsim.ptx.regalloc import allocate_registers

# Fig. 7 (a)'s declarations and first instructions in PTX syntax. PTXPlus's
# ``set.le.s32.s32 $p0/$o127, s[0x003c], $r124`` writes p0 and the bit bucket o127 from a
# shared-memory operand and r124; PTX has no memory operands in setp, so the shared word
# becomes an immediate and o127 a second predicate destination (same operand order). The tail
# keeps the copies live and stores a result so that the allocator keeps them apart.
FIG7 = """
.version 7.0
.target sm_50
.address_size 64

.visible .entry mysgemmNT(.param .u64 out)
{
.reg .u32 %r<27>;
.reg .u32 %ofs<3>;
.reg .pred %p<4>;
.reg .u32 %r124;
.reg .pred %o127;
.reg .b64 %rd<2>;
setp.le.s32 %p0|%o127, 60, %r124;
mov.u32 %r16, %r124;
mov.u32 %r17, %r124;
mov.u32 %r9, %r124;
mov.u32 %r18, %r124;
mov.u32 %r10, %r124;
mov.u32 %r11, %r124;
@%p0 add.u32 %r20, %r16, %r17;
add.u32 %r21, %r9, %r18;
add.u32 %r22, %r10, %r11;
add.u32 %r23, %r20, %r21;
add.u32 %r23, %r23, %r22;
ld.param.u64 %rd0, [out];
cvta.to.global.u64 %rd1, %rd0;
st.global.u32 [%rd1], %r23;
ret;
}
"""

# Fig. 7 (b): first-use order (text: p0 = 1, r124 = 3), then the rest of our snippet's uses,
# then never-used registers in declaration order.
UNROLLED = ["%p0", "%o127", "%r124", "%r16", "%r17", "%r9", "%r18", "%r10", "%r11",
            "%r20", "%r21", "%r22", "%r23", "%rd0", "%rd1",
            *(f"%r{i}" for i in (*range(9), 12, 13, 14, 15, 19, 24, 25, 26)),
            "%ofs0", "%ofs1", "%ofs2", "%p1", "%p2", "%p3"]


@pytest.fixture(scope="module")
def fig7():
    program = load_program(parse_ptx(FIG7), "mysgemmNT")
    return program, allocate_registers(program.fn, schedule=False)


def test_fig7_declaration_order(fig7):
    program, _ = fig7
    seq = declared_sequence(program.fn, unroll=False)
    # Fig. 7 (a): r0..r26 = 1..27, ofs0..2 = 28..30, p0..p3 = 31..34, r124 = 35, o127 = 36
    assert seq["%r0"] == 1 and seq["%r26"] == 27 and seq["%ofs2"] == 30
    assert (seq["%p0"], seq["%p3"], seq["%r124"], seq["%o127"]) == (31, 34, 35, 36)


def test_fig7_unrolled_order(fig7):
    program, _ = fig7
    seq = declared_sequence(program.fn, unroll=True)
    assert [seq[n] for n in ("%p0", "%o127", "%r124", "%r16", "%r17", "%r9", "%r18",
                             "%r10", "%r11")] == list(range(1, 10))
    assert sorted(seq, key=seq.get) == UNROLLED


def test_textual_order_guard_destinations_sources_addresses():
    fn = parse_ptx("""
.version 7.0
.target sm_50
.address_size 64
.visible .entry k(.param .u64 a)
{
.reg .u32 %r<8>;
.reg .pred %p<3>;
.reg .b64 %rd<2>;
@%p1 add.u32 %r3, %r1, %r2;
st.global.u32 [%rd0+4], %r4;
ld.global.v2.u32 {%r5, %r6}, [%rd1];
ret;
}""").kernel("k")
    name = {r.id: r.name for r in fn.regs}
    got = [[name[v] for v in textual_registers(i)] for i in fn.instructions]
    assert got == [["%p1", "%r3", "%r1", "%r2"], ["%rd0", "%r4"], ["%r5", "%r6", "%rd1"], []]
    seq = declared_sequence(fn, unroll=True)
    assert sorted(seq, key=seq.get)[:9] == ["%p1", "%r3", "%r1", "%r2", "%rd0", "%r4", "%r5",
                                            "%r6", "%rd1"]


def _alloc_index(alloc, v):
    if alloc.pred_phys[v] >= 0:
        return [int(alloc.n_regs + alloc.pred_phys[v])]
    p = int(alloc.phys[v])
    return list(range(p, p + int(alloc.width[v]))) if p >= 0 else []


def test_fig7_allocated_registers(fig7):
    program, alloc = fig7
    n = alloc.n_regs + alloc.n_preds
    ids = {r.name: r.id for r in program.fn.regs}
    # oracle: Fig. 7 (b)'s order of declared registers mapped onto their allocated registers
    expect: list[int] = []
    for name in UNROLLED:
        for i in _alloc_index(alloc, ids[name]):
            if i not in expect:
                expect.append(i)
    expect += [i for i in range(n) if i not in expect]  # never allocated (R1, the SP)
    s = sharing_sequence(program, alloc, unroll=True)
    assert list(s.order) == expect
    assert sorted(s.seq.tolist()) == list(range(1, n + 1))
    assert s.pred_seq(int(alloc.pred_phys[ids["%p0"]])) == 1
    assert s.pred_seq(int(alloc.pred_phys[ids["%o127"]])) == 2
    assert s.reg_seq(int(alloc.phys[ids["%r124"]])) == 3
    assert s.pc_max_seq[0] == 3  # set p0/o127 from r124 touches sequence numbers 1..3
    assert s.pc_max_seq[-1] == 0 and s.pc_max_seq[len(program.insts) - 1] == 0  # ret, exit
    # without unroll: R0.. then P0..
    plain = sharing_sequence(program, alloc, unroll=False)
    assert plain.seq.tolist() == list(range(1, n + 1))
    assert plain.pc_max_seq[0] == n  # o127 is the last predicate: P1 = n_regs + 2 = n


def test_pc_max_seq_and_prefix_property(fig7):
    program, alloc = fig7
    for unroll in (False, True):
        s = sharing_sequence(program, alloc, unroll=unroll)
        seen: set[int] = set()
        for pc, inst in enumerate(program.insts):
            regs = {*alloc.reads(inst), *alloc.writes(inst),
                    *(alloc.n_regs + p for p in (*alloc.pred_reads(inst),
                                                  *alloc.pred_writes(inst)))}
            assert s.pc_max_seq[pc] == max((s.seq[i] for i in regs), default=0)
            seen |= regs
            if unroll:  # first-use order: everything touched so far is numbered 1..|seen|
                assert s.pc_max_seq[: pc + 1].max() == len(seen)
    s = sharing_sequence(program, alloc, unroll=True)
    # u = 2: the setp already needs r124 (3); u = 3: lock-free until the first new copy (pc 1,
    # or pc 2 when the allocator coalesces r16 with r124)
    assert s.first_shared_pc(2) == 0 and s.first_shared_pc(3) in (1, 2)
    assert s.first_shared_pc(10**6) == len(program.insts)
    assert np.array_equal(s.touches_shared(3), s.pc_max_seq > 3)


def test_warmup_launch_has_no_program():
    s = sharing_sequence(None, None, unroll=True)
    assert s.seq.size == 0 and s.pc_max_seq.tolist() == [0] and s.first_shared_pc(0) == 0
