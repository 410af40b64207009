"""Register allocation: validity by an independent value-tracking checker, plus quality."""

from __future__ import annotations

import importlib.util
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from warpsim.ptx.cfg import build_cfg
from warpsim.ptx.ir import Function, Instruction, OpKind, Param, Variable
from warpsim.ptx.regalloc import (
    PTXAS_EXTRA_REGS,
    STACK_POINTER,
    Allocation,
    allocate_registers,
)


def _load(name: str):
    spec = importlib.util.spec_from_file_location(f"_ptx_{name}", Path(__file__).with_name(name))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


asm = _load("test_cfg.py").asm
programs = _load("test_liveness.py").programs


# ---------------------------------------------------------------- the checker

def _slots(alloc: Allocation, fn: Function, v: int) -> list[tuple[str, int]]:
    if fn.regs[v].type == "pred":
        return [("p", int(alloc.pred_phys[v]))]
    p = int(alloc.phys[v])
    return [("r", p + j) for j in range(int(alloc.width[v]))]


def _transfer(fn: Function, alloc: Allocation, inst: Instruction, state: dict,
              errors: list | None) -> None:
    """Abstract execution of one instruction on ``slot -> set of vregs whose value it holds``."""
    if alloc.folded is not None and any(alloc.folded[d] >= 0 for d in inst.writes()):
        return  # a neg/abs folded into its uses as an operand modifier: no instruction
    reads = inst.reads()
    for v in reads:  # a rematerialised value is recomputed into its register before the use
        if alloc.remat[v] and (inst.index, v) not in alloc.const_reads:
            for k in _slots(alloc, fn, v):
                state[k] = frozenset({v})
    if errors is not None:
        for v in reads:
            if (inst.index, v) in alloc.const_reads:
                continue  # a constant-bank operand: no register read
            held = v if alloc.folded is None or alloc.folded[v] < 0 else int(alloc.folded[v])
            for k in _slots(alloc, fn, v):  # a folded neg/abs reads its source's register
                if held not in state.get(k, frozenset()):
                    errors.append((inst.index, fn.regs[v].name, k))
    before = dict(state)
    same_bits = _same_bits(fn, alloc, inst)
    for d in inst.writes():
        if alloc.remat[d] or (alloc.folded is not None and alloc.folded[d] >= 0):
            continue  # rematerialised: written before each use; folded: an operand modifier
        for k in _slots(alloc, fn, d):
            old = before.get(k, frozenset())
            src = same_bits.get(k, -1)
            if src >= 0 and src in old:  # copying a register onto itself changes nothing
                state[k] = old | ({d} if inst.guard < 0 else frozenset())
            elif inst.guard >= 0:
                state[k] = frozenset({d}) if d in old else frozenset()
            else:
                state[k] = frozenset({d})


def _same_bits(fn: Function, alloc: Allocation, inst: Instruction) -> dict:
    """For copies, ``physical slot written -> vreg whose bits it receives``: a plain
    ``mov d, s``, an unpack ``mov.b64 {lo, hi}, s`` and a pack ``mov.b64 d, {lo, hi}``."""
    if inst.opcode != "mov" or len(inst.srcs) != 1 or len(inst.dsts) != 1:
        return {}
    d, s = inst.dsts[0], inst.srcs[0]
    if d.kind is OpKind.REG and s.kind is OpKind.REG and not s.neg:
        return dict(zip(_slots(alloc, fn, d.reg), [s.reg] * 4, strict=False)) if (
            _slots(alloc, fn, d.reg) == _slots(alloc, fn, s.reg)) else {}
    out = {}
    if d.kind is OpKind.VECTOR and s.kind is OpKind.REG and len(d.elems) == 2:
        whole = _slots(alloc, fn, s.reg)
        for j, e in enumerate(d.elems):
            if e.kind is OpKind.REG and len(whole) == 2 and _slots(alloc, fn, e.reg) == [whole[j]]:
                out[whole[j]] = s.reg
    if s.kind is OpKind.VECTOR and d.kind is OpKind.REG and len(s.elems) == 2:
        whole = _slots(alloc, fn, d.reg)
        for j, e in enumerate(s.elems):
            if e.kind is OpKind.REG and len(whole) == 2 and _slots(alloc, fn, e.reg) == [whole[j]]:
                out[whole[j]] = e.reg
    return out


def check_allocation(fn: Function, alloc: Allocation) -> list:
    """Every read of a virtual register finds that register's value in its physical
    register(s) on every path, executing the instructions in the order the allocation was
    computed for (``alloc.order``; PTX order when None). Uses only the IR, the CFG and the
    allocation (not liveness or the scheduler)."""
    if alloc.order is not None:
        order = [int(i) for i in alloc.order]
        assert sorted(order) == list(range(len(fn.instructions)))
        fn = replace(fn, instructions=[fn.instructions[i] for i in order])
    cfg = build_cfg(fn)
    if not cfg.blocks:
        return []
    entry: dict = {}
    for v in range(len(fn.regs)):  # at entry every register holds everyone's garbage
        if alloc.phys[v] >= 0 or alloc.pred_phys[v] >= 0:
            for k in _slots(alloc, fn, v):
                entry.setdefault(k, set()).add(v)
    entry = {k: frozenset(s) for k, s in entry.items()}
    state_in: list[dict | None] = [None] * len(cfg.blocks)
    state_in[0] = entry
    work = [0]
    while work:
        b = work.pop()
        state = dict(state_in[b])
        blk = cfg.blocks[b]
        for inst in fn.instructions[blk.start:blk.end]:
            _transfer(fn, alloc, inst, state, None)
        for s in blk.succs:
            old = state_in[s]
            if old is None:
                new = dict(state)
            else:
                new = {k: old[k] & state.get(k, frozenset()) for k in old}
            if new != old:
                state_in[s] = new
                work.append(s)
    errors: list = []
    for blk in cfg.blocks:
        if state_in[blk.id] is None:
            continue
        state = dict(state_in[blk.id])
        for inst in fn.instructions[blk.start:blk.end]:
            _transfer(fn, alloc, inst, state, errors)
    return errors


def _alloc(src: str, **kw) -> tuple[Function, Allocation]:
    """Allocate and check; counts in these tests leave R1 allocatable unless asked."""
    kw.setdefault("reserve_stack_pointer", False)
    kw.setdefault("schedule", False)
    fn = asm(src)
    a = allocate_registers(fn, **kw)
    assert check_allocation(fn, a) == []
    return fn, a


# ---------------------------------------------------------------- hand-made programs

def test_checker_catches_a_shared_register():
    fn = asm("""
        mov.u32 %r1, 1
        mov.u32 %r2, 2
        add.s32 %r3, %r1, %r2
    """)
    a = allocate_registers(fn)
    a.phys[fn.reg_ids["%r2"]] = a.phys[fn.reg_ids["%r1"]]
    assert check_allocation(fn, a) != []


def test_chain_reuses_registers():
    fn, a = _alloc("""
        mov.u32 %r1, 1
        add.s32 %r2, %r1, 1
        add.s32 %r3, %r2, 1
        add.s32 %r4, %r3, 1
        st.global.u32 [%rd1], %r4
    """, remat=False)
    # %rd1 (a pair, live throughout), one register for the chain, and the stored value in the
    # odd half of a pair (R2 unused, R3), as ptxas places global store data
    assert a.n_regs == 4
    assert a.phys[fn.reg_ids["%rd1"]] % 2 == 0
    assert len({int(a.phys[fn.reg_ids[f"%r{k}"]]) for k in (1, 2, 3)}) == 1
    assert a.phys[fn.reg_ids["%r4"]] == 3


def test_simultaneously_live_values_get_distinct_registers():
    fn, a = _alloc("""
        ld.global.u32 %r1, [%rd1]
        ld.global.u32 %r2, [%rd1+4]
        ld.global.u32 %r3, [%rd1+8]
        add.s32 %r4, %r1, %r2
        add.s32 %r5, %r4, %r3
        st.global.u32 [%rd1], %r5
    """)
    ids = [fn.reg_ids[f"%r{k}"] for k in (1, 2, 3)]
    assert len({int(a.phys[v]) for v in ids}) == 3
    assert a.n_regs == 5  # pair + three values


def test_64bit_values_take_aligned_pairs():
    fn, a = _alloc("""
        ld.global.u32 %r1, [%rd9]
        cvt.u64.u32 %rd1, %r1
        ld.global.u32 %r2, [%rd9+4]
        cvt.u64.u32 %rd2, %r2
        add.s64 %rd3, %rd1, %rd2
        add.s32 %r3, %r1, %r2
        st.global.u64 [%rd9], %rd3
        st.global.u32 [%rd9], %r3
    """)
    for name in ("%rd1", "%rd2", "%rd3", "%rd9"):
        v = fn.reg_ids[name]
        assert a.width[v] == 2 and a.phys[v] % 2 == 0
    assert a.n_regs <= 10


def test_predicates_use_their_own_file():
    fn, a = _alloc("""
        setp.lt.s32 %p1, %r1, 0
        setp.gt.s32 %p2, %r1, 9
        or.pred %p3, %p1, %p2
        @%p3 st.global.u32 [%rd1], %r1
    """)
    for name in ("%p1", "%p2", "%p3"):
        v = fn.reg_ids[name]
        assert a.phys[v] == -1 and a.pred_phys[v] >= 0 and a.width[v] == 0
    assert a.n_preds == 2
    assert a.pred_reads(fn.instructions[3]) == (int(a.pred_phys[fn.reg_ids["%p3"]]),)


def test_copy_is_coalesced():
    fn, a = _alloc("""
        ld.global.u32 %r1, [%rd1]
        mov.u32 %r2, %r1
        add.s32 %r3, %r2, 1
        st.global.u32 [%rd1], %r3
    """)
    assert a.phys[fn.reg_ids["%r1"]] == a.phys[fn.reg_ids["%r2"]]
    assert a.n_coalesced == 1


def test_loop_variable_copies_coalesce():
    fn, a = _alloc("""
        mov.u32 %r1, 0
    HEAD: add.s32 %r2, %r1, 1
        mov.u32 %r1, %r2
        setp.lt.s32 %p1, %r1, 10
        @%p1 bra HEAD
        st.global.u32 [%rd1], %r1
    """, remat=False)
    assert a.phys[fn.reg_ids["%r1"]] == a.phys[fn.reg_ids["%r2"]]
    assert a.n_regs == 4  # %rd1 in R0:R1, the stored loop variable in R3 (odd: store data)


def test_unpack_of_a_pair_lands_in_its_halves():
    fn, a = _alloc("""
        ld.global.f64 %fd1, [%rd1]
        mov.b64 {%r1;%r2}, %fd1
        add.s32 %r3, %r1, %r2
        st.global.u32 [%rd1], %r3
    """)
    fd1 = int(a.phys[fn.reg_ids["%fd1"]])
    assert a.phys[fn.reg_ids["%r1"]] == fd1 and a.phys[fn.reg_ids["%r2"]] == fd1 + 1


def test_guarded_redefinition_keeps_both_values_apart():
    fn, a = _alloc("""
        ld.global.u32 %r1, [%rd1]
        ld.global.u32 %r2, [%rd1+4]
        setp.eq.s32 %p1, %r2, 0
        @%p1 mov.u32 %r1, %r2
        st.global.u32 [%rd1], %r1
        st.global.u32 [%rd1+4], %r2
    """)
    assert a.phys[fn.reg_ids["%r1"]] != a.phys[fn.reg_ids["%r2"]]


def test_dead_definitions_get_a_free_register():
    fn, a = _alloc("""
        ld.global.u32 %r1, [%rd1]
        ld.global.u32 %r2, [%rd1+4]
        add.s32 %r3, %r1, %r1
        st.global.u32 [%rd1], %r1
    """)
    r3 = int(a.phys[fn.reg_ids["%r3"]])
    assert r3 != int(a.phys[fn.reg_ids["%r1"]])
    assert r3 not in range(int(a.phys[fn.reg_ids["%rd1"]]), int(a.phys[fn.reg_ids["%rd1"]]) + 2)


_REMAT_SRC = """
    ld.param.u64 %rd1, [p0]
    ld.param.u32 %r1, [p1]
    mov.u32 %r7, %ntid.x
    cvta.to.global.u64 %rd2, %rd1
    mov.u32 %r2, %tid.x
    mul.lo.s32 %r3, %r2, 4
    ld.global.u32 %r4, [%rd2]
    add.s32 %r5, %r4, %r3
    add.s32 %r8, %r5, %r7
    add.s32 %r6, %r8, %r1
    st.global.u32 [%rd2], %r6
"""


def _kernel_with_params(src: str) -> Function:
    fn = asm(src)
    fn.params = [Param("p0", "u64", 8, 8, 0), Param("p1", "u32", 4, 4, 8)]
    return fn


def test_32bit_params_and_launch_constants_are_rematerialised():
    fn = _kernel_with_params(_REMAT_SRC)
    with_remat = allocate_registers(fn, reserve_stack_pointer=False)
    without = allocate_registers(fn, remat=False, reserve_stack_pointer=False)
    assert check_allocation(fn, with_remat) == [] and check_allocation(fn, without) == []
    remat = {fn.regs[v].name for v in range(len(fn.regs)) if with_remat.remat[v]}
    # the pointer parameter and its cvta are constant-bank operands too; %tid.x differs per
    # thread and is kept
    assert remat == {"%r1", "%r7", "%rd1", "%rd2"}
    assert with_remat.n_regs < without.n_regs


def test_pointer_parameter_is_a_constant_operand_of_address_arithmetic():
    fn = _kernel_with_params("""
        ld.param.u64 %rd1, [p0]
        cvta.to.global.u64 %rd2, %rd1
        mov.u32 %r1, %tid.x
        mul.wide.s32 %rd3, %r1, 4
        add.s64 %rd4, %rd2, %rd3
        ld.global.u32 %r2, [%rd4]
        st.shared.u32 [%r1], %r2
        ld.global.u32 %r3, [%rd2]
        st.shared.u32 [%r1+4], %r3
    """)
    a = allocate_registers(fn, schedule=False)
    assert check_allocation(fn, a) == []
    rd2 = fn.reg_ids["%rd2"]
    # IMAD.WIDE R4, R0, R5, c[0x0][0x160]: no register for the pointer...
    assert (4, rd2) in a.const_reads
    assert a.reads(fn.instructions[4]) == a.registers(fn.instructions[4].srcs[1])
    # ...but LDG [R2.64] needs it in a pair, loaded next to the use
    assert (7, rd2) not in a.const_reads and len(a.reads(fn.instructions[7])) == 2


def test_shuffle_immediates_take_no_register():
    fn = asm("""
        ld.shared.u32 %r1, [%r0]
        mov.u32 %r2, 16
        mov.u32 %r3, 31
        shfl.sync.down.b32 %r4, %r1, %r2, %r3, -1
        st.shared.u32 [%r0], %r4
    """)
    a = allocate_registers(fn, schedule=False)
    assert check_allocation(fn, a) == []
    shfl = fn.instructions[3]
    assert {(shfl.index, fn.reg_ids[r]) for r in ("%r2", "%r3")} <= a.const_reads
    assert a.reads(shfl) == a.registers(shfl.srcs[0])


def test_global_store_data_takes_the_odd_half_of_a_pair():
    fn, a = _alloc("""
        ld.shared.u32 %r1, [%r0]
        add.s32 %r2, %r1, 1
        st.global.u32 [%rd0], %r2
        st.shared.u32 [%r0], %r2
    """)
    r2 = int(a.phys[fn.reg_ids["%r2"]])
    assert r2 % 2 == 1
    for v in range(len(fn.regs)):  # nothing else uses the even half while %r2 is live
        if a.phys[v] >= 0 and fn.regs[v].name in ("%r0", "%rd0"):
            assert r2 - 1 not in range(int(a.phys[v]), int(a.phys[v] + a.width[v]))


def test_halves_of_a_live_pair_are_its_registers():
    fn, a = _alloc("""
        ld.global.f64 %fd1, [%rd1]
        mov.b64 {%r1;%r2}, %fd1
        add.s32 %r3, %r2, 1
        mov.b64 %fd2, {%r1;%r3}
        add.f64 %fd3, %fd2, %fd1
        st.global.f64 [%rd1], %fd3
    """)
    fd1 = int(a.phys[fn.reg_ids["%fd1"]])
    # %fd1 stays live, yet its halves take no registers of their own (no SASS instruction);
    # %fd2 cannot start at %r1 (that is %fd1's low half), so its pack is a real copy
    assert a.phys[fn.reg_ids["%r1"]] == fd1 and a.phys[fn.reg_ids["%r2"]] == fd1 + 1
    assert a.phys[fn.reg_ids["%fd2"]] not in (fd1, a.phys[fn.reg_ids["%r3"]])


def test_float_neg_and_abs_are_operand_modifiers():
    fn, a = _alloc("""
        ld.global.f64 %fd1, [%rd1]
        neg.f64 %fd2, %fd1
        abs.f64 %fd3, %fd2
        fma.rn.f64 %fd4, %fd2, %fd1, %fd3
        neg.f64 %fd5, %fd4
        st.global.f64 [%rd1], %fd4
        st.global.f64 [%rd1+8], %fd5
    """)
    fd1, fd4 = fn.reg_ids["%fd1"], fn.reg_ids["%fd4"]
    # DFMA R4, -R2, R2, |R2|: -x and |-x| live in x's register; nothing writes them
    assert a.folded[fn.reg_ids["%fd2"]] == fd1 and a.folded[fn.reg_ids["%fd3"]] == fd1
    assert a.phys[fn.reg_ids["%fd3"]] == a.phys[fd1]
    assert a.writes(fn.instructions[1]) == () and a.writes(fn.instructions[2]) == ()
    # a stored negation is a real value (STG has no operand modifiers)
    assert a.folded[fn.reg_ids["%fd5"]] == -1 and a.phys[fn.reg_ids["%fd5"]] != a.phys[fd4]


def test_direct_global_symbol_access_needs_an_address_pair():
    src = """
        ld.param.u32 %r1, [p1]
        st.global.u32 [g_scale], %r1
    """
    fn = _kernel_with_params(src)
    a = allocate_registers(fn)
    assert check_allocation(fn, a) == []
    # R1 stack pointer, the stored parameter in R3 (odd half of R2:R3), the address of
    # g_scale in R4:R5: 6 numbered, 8 reported, as ptxas reports for set_scale (corpus)
    assert a.regs_per_thread == 8
    shared = allocate_registers(_kernel_with_params(src.replace("global", "shared")))
    assert shared.regs_per_thread == 4  # [g_scale] is an immediate address in shared memory


def test_checker_follows_the_allocation_order():
    fn = asm("""
        mov.u32 %r1, 1
        mov.u32 %r2, 2
        st.shared.u32 [%r0], %r1
        st.shared.u32 [%r0], %r2
    """)
    a = allocate_registers(fn, schedule=False, remat=False)
    a.phys[fn.reg_ids["%r2"]] = a.phys[fn.reg_ids["%r1"]]
    assert check_allocation(fn, a) != []
    a.order = np.array([0, 2, 1, 3], dtype=np.int32)  # each value dies before the next
    assert check_allocation(fn, a) == []


def test_scheduled_allocation_records_its_order():
    fn = asm("""
        add.s32 %r1, %r0, 1
        add.s32 %r2, %r1, 1
        ld.global.u32 %r3, [%rd0]
        add.s32 %r4, %r3, %r2
        st.global.u32 [%rd0], %r4
    """)
    a = allocate_registers(fn)
    assert a.order is not None and a.order.tolist()[0] == 2  # the load is hoisted
    assert check_allocation(fn, a) == []
    assert allocate_registers(fn, schedule=False).order is None


def test_call_scope_params_are_not_rematerialised():
    fn = asm("""
        ld.param.u32 %r1, [param0]
        ld.global.u32 %r2, [%rd1]
        add.s32 %r3, %r2, %r1
        st.global.u32 [%rd1], %r3
    """)
    a = allocate_registers(fn)
    assert not a.remat.any()
    assert check_allocation(fn, a) == []


def test_stack_frame_addresses_are_rematerialised():
    fn = asm("""
        mov.u64 %SPL, depot
        add.u64 %rd1, %SPL, 0
        add.u64 %rd2, %SPL, 4
        st.local.u32 [%rd1], %r1
        st.local.u32 [%rd2], %r1
        ld.local.u32 %r2, [%rd1]
        st.global.u32 [%rd9], %r2
    """)
    fn.variables = [Variable("depot", "local", "b8", 8, 4, count=8)]
    a = allocate_registers(fn)
    names = {fn.regs[v].name for v in range(len(fn.regs)) if a.remat[v]}
    assert names == {"%SPL", "%rd1", "%rd2"}
    assert check_allocation(fn, a) == []


def test_stack_pointer_register_is_never_allocated():
    fn = _kernel_with_params(_REMAT_SRC)
    a = allocate_registers(fn)
    assert check_allocation(fn, a) == []
    for v in range(len(fn.regs)):
        if a.phys[v] >= 0:
            assert not (a.phys[v] <= STACK_POINTER < a.phys[v] + a.width[v])
    assert a.regs_per_thread == a.n_regs + PTXAS_EXTRA_REGS
    empty = allocate_registers(Function(name="e", is_entry=True))
    assert empty.regs_per_thread == 4  # what ptxas -v reports for an empty sm_80 kernel


def test_operand_mapping_expands_pairs():
    fn, a = _alloc("""
        ld.global.u64 %rd2, [%rd1]
        add.s64 %rd3, %rd2, %rd1
        st.global.u64 [%rd1], %rd3
    """, remat=False)
    inst = fn.instructions[1]
    p2, p1 = int(a.phys[fn.reg_ids["%rd2"]]), int(a.phys[fn.reg_ids["%rd1"]])
    assert a.reads(inst) == (p2, p2 + 1, p1, p1 + 1)
    p3 = int(a.phys[fn.reg_ids["%rd3"]])
    assert a.writes(inst) == (p3, p3 + 1)
    assert a.registers(inst.dsts[0]) == (p3, p3 + 1)


def test_unused_registers_map_to_minus_one():
    fn = asm("mov.u32 %r1, 1")
    fn.regs.append(type(fn.regs[0])(len(fn.regs), "%r9", "b32"))
    a = allocate_registers(fn)
    assert a.phys[1] == -1


def test_empty_function_needs_no_registers():
    a = allocate_registers(Function(name="e", is_entry=True), reserve_stack_pointer=False)
    assert a.n_regs == 0 and a.n_preds == 0


@pytest.mark.parametrize("remat", [True, False])
@settings(max_examples=200, deadline=None)
@given(src=programs())
def test_random_programs_allocate_validly(src, remat):
    fn = asm(src)
    fn.params = [Param("n", "u32", 4, 4, 0)]
    a = allocate_registers(fn, remat=remat)
    assert check_allocation(fn, a) == [], src

    for v, _r in enumerate(fn.regs):
        if a.phys[v] >= 0:
            assert a.phys[v] % a.width[v] == 0


_FLOAT_OPS = [
    "ld.global.f64 %fd{a}, [%rd0+{k}]",
    "neg.f64 %fd{a}, %fd{b}",
    "abs.f64 %fd{a}, %fd{b}",
    "fma.rn.f64 %fd{a}, %fd{b}, %fd{c}, %fd{a}",
    "add.f64 %fd{a}, %fd{b}, %fd{c}",
    "st.global.f64 [%rd0+{k}], %fd{a}",
    "mov.b64 {{%r{a};%r{b}}}, %fd{c}",
    "mov.b64 %fd{a}, {{%r{b};%r{c}}}",
    "setp.lt.f64 %p0, %fd{a}, %fd{b}",
    "@%p0 bra L{k}",
]


@st.composite
def float_programs(draw) -> str:
    """Branchy fp64 programs over many registers (so that most are defined once): operand
    modifiers, pair halves and global store data together."""
    n = draw(st.integers(3, 30))
    lines = []
    for i in range(n):
        text = draw(st.sampled_from(_FLOAT_OPS)).format(
            a=draw(st.integers(0, 11)), b=draw(st.integers(0, 11)), c=draw(st.integers(0, 11)),
            k=draw(st.integers(0, 2)))
        label = f"L{i % 3}: " if draw(st.integers(0, 5)) == 0 and f"L{i % 3}:" not in \
            "".join(lines) else ""
        lines.append(label + text)
    text = "\n".join(lines)
    for k in range(3):  # every branch target exists
        if f"L{k}:" not in text:
            text += f"\nL{k}: ret"
    return text


@settings(max_examples=200, deadline=None)
@given(src=float_programs())
def test_random_float_programs_allocate_validly(src):
    fn = asm(src)
    for sched in (True, False):
        a = allocate_registers(fn, schedule=sched)
        assert check_allocation(fn, a) == [], (src, sched)


# ---------------------------------------------------------------- the project's own kernels

CORPUS = sorted(p.stem for p in (Path(__file__).parents[1] / "kernels").glob("*.cu"))


def _corpus_functions(corpus_ptx, stem: str):
    from warpsim.ptx.inline import inline_calls
    from warpsim.ptx.parser import parse_ptx

    module = parse_ptx(corpus_ptx(stem), f"{stem}.ptx")
    return [(name, inline_calls(module, fn)) for name, fn in sorted(module.kernels.items())]


@pytest.mark.parametrize("stem", CORPUS)
def test_corpus_allocations_are_valid(corpus_ptx, stem):
    for name, fn in _corpus_functions(corpus_ptx, stem):
        for remat, sched in ((True, True), (False, True), (True, False), (False, False)):
            a = allocate_registers(fn, remat=remat, schedule=sched)
            assert check_allocation(fn, a) == [], (name, remat, sched)
            used = [v for v in range(len(fn.regs)) if a.phys[v] >= 0]
            assert all(a.phys[v] % a.width[v] == 0 for v in used)
            assert all(a.phys[v] + a.width[v] <= a.n_regs for v in used)


def test_corpus_register_counts_track_ptxas(corpus_ptx, corpus_resources):
    """Issue acceptance: over the corpus, allocated registers per thread (in ptxas's
    counting, ``regs_per_thread``) track ``ptxas -v``: the total and the median kernel within
    10%, 58 of the 64 kernels within 25% and none off by half (measured: total 0.95, median
    0.94, 58 of 64, range 0.62 .. 1.38); docs/regalloc.md has the per-kernel table and the
    six kernels outside 25%."""
    ratios, ours, theirs = [], 0, 0
    for stem in CORPUS:
        res = corpus_resources(stem)
        for name, fn in _corpus_functions(corpus_ptx, stem):
            ref = res[name].registers
            got = allocate_registers(fn).regs_per_thread
            ratios.append(got / ref)
            ours += got
            theirs += ref
    ratios.sort()
    assert 0.9 <= ours / theirs <= 1.1
    assert 0.9 <= ratios[len(ratios) // 2] <= 1.1
    assert sum(0.75 <= r <= 1.25 for r in ratios) >= 58
    assert 0.6 <= ratios[0] and ratios[-1] <= 1.5


# ---------------------------------------------------------------- listing

def test_listing_shows_blocks_registers_and_reconvergence():
    from warpsim.ptx.ir import Module
    from warpsim.ptx.listing import format_listing, format_resources

    fn = asm("""
        ld.global.u64 %rd2, [%rd1]
        setp.lt.s32 %p1, %r1, 0
        @%p1 bra ELSE
        add.s64 %rd2, %rd2, 1
        bra JOIN
    ELSE: add.s32 %r1, %r1, 1
    JOIN: st.global.u64 [%rd1+8], %rd2
        ret
    """)
    cfg = build_cfg(fn)
    a = allocate_registers(fn, cfg=cfg)
    text = format_listing(Module(), fn, allocation=a, cfg=cfg)
    p = int(a.pred_phys[fn.reg_ids["%p1"]])
    rd2 = int(a.phys[fn.reg_ids["%rd2"]])
    rd1 = int(a.phys[fn.reg_ids["%rd1"]])
    assert f"@P{p} bra ELSE" in text
    assert "reconverge @ 6 (B3)" in text
    assert "B0  [0, 3)  preds -  succs B2 B1  ipdom B3" in text
    assert "B3  [6, 8)  preds B1 B2  succs EXIT  ipdom EXIT" in text
    assert f"st.global.u64 [R{rd1}.64+8], R{rd2}.64" in text
    assert "ELSE:" in text and "JOIN:" in text
    table = format_resources(a)
    rows = {line[:24].strip(): line[24:].split() for line in table.splitlines()}
    assert rows["registers/thread"] == [str(a.regs_per_thread), "-"]
    assert rows["registers numbered R0.."] == [str(a.n_regs), "-"]


def test_resource_table_compares_with_ptxas(corpus_ptx, corpus_resources):
    from warpsim.ptx.listing import format_listing, format_resources
    from warpsim.ptx.parser import parse_ptx

    module = parse_ptx(corpus_ptx("vector_add"), "vector_add.ptx")
    fn = module.kernel("vec_add")
    cfg = build_cfg(fn)
    a = allocate_registers(fn, cfg=cfg)
    res = corpus_resources("vector_add")["vec_add"]
    table = format_resources(a, res)
    assert f"{res.registers}" in table.splitlines()[1]
    assert "ratio warpsim/ptxas" in table
    listing = format_listing(module, fn, allocation=a, cfg=cfg, resources=res)
    assert listing.startswith("// kernel vec_add")
    assert listing.count("\n  ") >= len(fn.instructions)


# ---------------------------------------------------------------- scale

def _large_program(n: int = 10_000, seed: int = 7) -> Function:
    """A structured program of about ``n`` instructions, like an unrolled kernel: straight-line
    arithmetic over a sliding window of ~40 values, if-regions (values defined inside are not
    used after them) and do-while loops; every use is dominated by a definition."""
    import random

    rng = random.Random(seed)
    lines = [f"ld.global.u32 %r{k}, [%rd0+{4 * k}]" for k in range(40)]
    state = {"next": 40, "label": 0}

    def emit(defined: list[str], budget: int, depth: int) -> list[str]:
        defined = list(defined)
        while budget > 0:
            roll = rng.random()
            if roll < 0.03 and depth < 3 and budget > 20:
                lab = f"L{state['label']}"
                state["label"] += 1
                size = rng.randrange(5, min(60, budget))
                lines.append(f"setp.lt.s32 %p{depth}, {rng.choice(defined)}, 0")
                if rng.random() < 0.5:  # if-region
                    lines.append(f"@%p{depth} bra {lab}")
                    emit(defined, size, depth + 1)
                    lines.append(f"{lab}: add.s32 %r{state['next']}, {defined[-1]}, 1")
                else:  # do-while loop: body definitions dominate the exit
                    lines.append(f"{lab}: add.s32 %r{state['next']}, {defined[-1]}, 1")
                    inner = emit([*defined, f"%r{state['next']}"], size, depth + 1)
                    lines.append(f"setp.lt.s32 %p{depth}, {inner[-1]}, 0")
                    lines.append(f"@%p{depth} bra {lab}")
                defined.append(f"%r{state['next']}")
                state["next"] += 1
                budget -= size + 3
                continue
            dst = f"%r{state['next']}"
            state["next"] += 1
            lines.append(f"add.s32 {dst}, {rng.choice(defined)}, {rng.choice(defined)}")
            defined.append(dst)
            if len(defined) > 40:
                defined.pop(rng.randrange(len(defined) - 8))
            budget -= 1
        return defined

    last = emit([f"%r{k}" for k in range(40)], n - 41, 0)
    lines.append(f"st.global.u32 [%rd0], {last[-1]}")
    return asm("\n".join(lines))


def test_analyses_scale_to_ten_thousand_instructions():
    # No clock reading (issue 17: speed is `warpsim perf`'s job); the analyses must finish and
    # agree on a 10k-instruction kernel.
    from warpsim.ptx.liveness import liveness

    fn = _large_program()
    assert len(fn.instructions) >= 10_000
    cfg = build_cfg(fn)
    live = liveness(fn, cfg)
    a = allocate_registers(fn, cfg=cfg, live=live)
    assert int(live.pressure().max()) <= a.n_regs <= int(live.pressure().max()) + 8
    assert check_allocation(fn, a) == []


def test_resource_summary_has_one_line_per_kernel():
    from warpsim.ptx.listing import format_resources

    fns = [asm("mov.u32 %r1, 1\nst.global.u32 [%rd1], %r1", name=n) for n in ("alpha", "beta")]
    rows = [(fn, allocate_registers(fn), None) for fn in fns]
    lines = format_resources(rows).splitlines()
    assert lines[0].split()[:4] == ["kernel", "instrs", "ptxas", "regs"]
    assert lines[1].split()[:4] == ["alpha", "2", "-", str(rows[0][1].regs_per_thread)]
    assert lines[2].startswith("beta")
