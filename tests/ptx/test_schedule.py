"""Pre-allocation scheduling: a permutation inside blocks that keeps every dependency."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from warpsim.ptx.cfg import build_cfg
from warpsim.ptx.ir import Function, Instruction, Param
from warpsim.ptx.schedule import schedule, scheduled_function


def _load(name: str):
    spec = importlib.util.spec_from_file_location(f"_ptx_{name}", Path(__file__).with_name(name))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


asm = _load("test_cfg.py").asm
programs = _load("test_liveness.py").programs

_MEMORY = {"ld", "st", "atom", "red", "shfl", "vote", "bar", "membar", "call"}


def _must_stay_ordered(a: Instruction, b: Instruction, kernel_params: set[str]) -> bool:
    """Independent statement of the rules in the module docstring, pair by pair."""
    ra, wa, rb, wb = set(a.reads()), set(a.writes()), set(b.reads()), set(b.writes())
    if wa & rb or ra & wb or wa & wb:
        return True
    carry = {"addc", "subc", "madc"}
    if (a.has("cc") or a.opcode in carry) and (b.has("cc") or b.opcode in carry):
        return True
    if a.opcode in ("bar", "membar", "call") or b.opcode in ("bar", "membar", "call"):
        return True
    if b.opcode in ("bra", "ret", "exit"):
        return True

    def kind(i: Instruction) -> str:
        if i.opcode not in _MEMORY:
            return ""
        if i.opcode == "ld":
            addr = i.srcs[0]
            free = i.space == "const" or (i.space == "param" and addr.base is not None
                                          and addr.base.name in kernel_params)
            return "" if free else "load"
        return "ordered"

    ka, kb = kind(a), kind(b)
    return bool(ka and kb and "ordered" in (ka, kb))


def _check_order(fn: Function, order: np.ndarray) -> None:
    cfg = build_cfg(fn)
    assert sorted(order.tolist()) == list(range(len(fn.instructions)))
    pos = np.empty_like(order)
    pos[order] = np.arange(len(order))
    params = {p.name for p in fn.params} if fn.is_entry else set()
    for blk in cfg.blocks:
        assert sorted(order[blk.start:blk.end].tolist()) == list(range(blk.start, blk.end))
        insts = fn.instructions[blk.start:blk.end]
        for i, a in enumerate(insts):
            for j in range(i + 1, len(insts)):
                if _must_stay_ordered(a, insts[j], params):
                    assert pos[blk.start + i] < pos[blk.start + j], (a.text, insts[j].text)
    # the scheduled copy has the same blocks
    again = build_cfg(scheduled_function(fn, order))
    assert [(b.start, b.end, b.succs) for b in again.blocks] == \
        [(b.start, b.end, b.succs) for b in cfg.blocks]


def _positions(fn: Function, order: np.ndarray) -> list[str]:
    return [fn.instructions[int(i)].opcode for i in order]


def test_loads_are_hoisted_above_independent_arithmetic():
    fn = asm("""
        add.s32 %r1, %r0, 1
        add.s32 %r2, %r1, 1
        add.s32 %r3, %r2, 1
        ld.global.u32 %r4, [%rd0]
        add.s32 %r5, %r4, %r3
        st.global.u32 [%rd0], %r5
        ret
    """)
    order = schedule(fn)
    _check_order(fn, order)
    assert _positions(fn, order)[0] == "ld"
    assert _positions(fn, order)[-1] == "ret"


def test_results_are_computed_before_the_stores_like_ptxas():
    # bit_perms in the corpus: ptxas computes all results, then issues the stores
    fn = asm("""
        ld.global.u32 %r0, [%rd0]
        not.b32 %r1, %r0
        st.global.u32 [%rd1], %r1
        brev.b32 %r2, %r0
        st.global.u32 [%rd1+4], %r2
        popc.b32 %r3, %r0
        st.global.u32 [%rd1+8], %r3
    """)
    order = schedule(fn)
    _check_order(fn, order)
    assert _positions(fn, order) == ["ld", "not", "brev", "popc", "st", "st", "st"]


def test_stores_loads_and_atomics_keep_their_order():
    fn = asm("""
        st.global.u32 [%rd0], %r0
        ld.global.u32 %r1, [%rd1]
        atom.global.add.u32 %r2, [%rd2], %r1
        ld.global.u32 %r3, [%rd3]
        add.s32 %r4, %r3, %r2
        st.global.u32 [%rd4], %r4
    """)
    order = schedule(fn)
    _check_order(fn, order)
    assert order.tolist()[:4] == [0, 1, 2, 3]


def test_call_scope_params_stay_behind_their_stores():
    # after inlining, ld.param reads what st.param wrote (a regression: they were hoisted)
    fn = asm("""
        ld.param.u64 %rd0, [p0]
        ld.global.f64 %fd0, [%rd0]
        abs.f64 %fd1, %fd0
        st.param.f64 [param0], %fd1
        ld.param.f64 %fd2, [param0]
        add.f64 %fd3, %fd2, %fd0
        st.global.f64 [%rd0], %fd3
    """)
    fn.params = [Param("p0", "u64", 8, 8, 0)]
    order = schedule(fn)
    _check_order(fn, order)
    pos = {int(i): p for p, i in enumerate(order)}
    assert pos[3] < pos[4]


def test_nothing_moves_across_a_barrier():
    fn = asm("""
        add.s32 %r1, %r0, 1
        ld.shared.u32 %r2, [%r9]
        bar.sync 0
        ld.global.u32 %r3, [%rd0]
        add.s32 %r4, %r3, %r1
        st.global.u32 [%rd0], %r4
    """)
    order = schedule(fn)
    _check_order(fn, order)
    pos = {int(i): p for p, i in enumerate(order)}
    assert max(pos[0], pos[1]) < pos[2] < min(pos[3], pos[4], pos[5])


def test_carry_chains_keep_program_order():
    fn = asm("""
        add.cc.u32 %r2, %r0, %r1
        ld.global.u32 %r5, [%rd0]
        addc.cc.u32 %r3, %r0, %r1
        addc.u32 %r4, %r0, %r5
        st.global.u32 [%rd0], %r4
    """)
    order = schedule(fn)
    _check_order(fn, order)
    carry = [int(i) for i in order if int(i) in (0, 2, 3)]
    assert carry == [0, 2, 3]


def test_pressure_limit_stops_hoisting_loads():
    lines = ["mov.u32 %r9, 0"]
    for k in range(8):
        lines += [f"ld.global.u32 %r{10 + k}, [%rd0+{4 * k}]",
                  f"mul.lo.s32 %r{20 + k}, %r{10 + k}, 3", f"add.s32 %r9, %r9, %r{20 + k}"]
    fn = asm("\n".join([*lines, "st.global.u32 [%rd1], %r9"]))
    wide = schedule(fn, limit=1000)
    tight = schedule(fn, limit=0)
    _check_order(fn, wide)
    _check_order(fn, tight)
    ops = [fn.instructions[int(i)].opcode for i in tight]
    assert ops[:3] == ["mov", "ld", "mul"]  # over the limit: PTX order, one load at a time
    ops = [fn.instructions[int(i)].opcode for i in wide]
    assert ops[:8] == ["ld"] * 8  # under it: every load hoisted for latency


def test_labels_and_blocks_survive_scheduling():
    fn = asm("""
        ld.global.u32 %r1, [%rd0]
        setp.lt.s32 %p1, %r1, 0
        add.s32 %r2, %r0, 1
        @%p1 bra ELSE
        add.s32 %r3, %r2, %r1
        bra JOIN
    ELSE: add.s32 %r3, %r2, 2
    JOIN: st.global.u32 [%rd0], %r3
        ret
    """)
    order = schedule(fn)
    _check_order(fn, order)
    moved = scheduled_function(fn, order)
    assert moved.labels == fn.labels
    assert moved.instructions[3].opcode == "bra"


_OPS = [
    "add.s32 %r{a}, %r{b}, %r{c}",
    "ld.global.u32 %r{a}, [%rd{b}]",
    "ld.shared.u32 %r{a}, [%r{b}]",
    "ld.param.u32 %r{a}, [n]",
    "st.global.u32 [%rd{a}], %r{b}",
    "st.shared.u32 [%r{a}], %r{b}",
    "atom.global.add.u32 %r{a}, [%rd{b}], %r{c}",
    "add.cc.u32 %r{a}, %r{b}, %r{c}",
    "addc.u32 %r{a}, %r{b}, %r{c}",
    "mul.wide.s32 %rd{a}, %r{b}, 4",
    "bar.sync 0",
    "shfl.sync.down.b32 %r{a}, %r{b}, 1, 31, -1",
    "@%p0 add.s32 %r{a}, %r{b}, %r{c}",
    "setp.lt.s32 %p0, %r{a}, %r{b}",
]


@st.composite
def blocks(draw) -> str:
    n = draw(st.integers(2, 30))
    reg = st.integers(0, 5)
    lines = [draw(st.sampled_from(_OPS)).format(a=draw(reg), b=draw(reg), c=draw(reg))
             for _ in range(n)]
    return "\n".join(lines) + "\nret"


@settings(max_examples=300, deadline=None)
@given(src=blocks(), limit=st.sampled_from([0, 4, 30]))
def test_random_blocks_keep_every_dependency(src, limit):
    fn = asm(src)
    fn.params = [Param("n", "u32", 4, 4, 0)]
    _check_order(fn, schedule(fn, limit=limit))


@settings(max_examples=200, deadline=None)
@given(src=programs())
def test_random_branchy_programs_keep_every_dependency(src):
    fn = asm(src)
    fn.params = [Param("n", "u32", 4, 4, 0)]
    _check_order(fn, schedule(fn))


CORPUS = sorted(p.stem for p in (Path(__file__).parents[1] / "kernels").glob("*.cu"))


@pytest.mark.parametrize("stem", CORPUS)
def test_corpus_schedules_keep_every_dependency(corpus_ptx, stem):
    from warpsim.ptx.inline import inline_calls
    from warpsim.ptx.parser import parse_ptx

    module = parse_ptx(corpus_ptx(stem), f"{stem}.ptx")
    for fn in module.kernels.values():
        flat = inline_calls(module, fn)
        _check_order(flat, schedule(flat))
