"""Liveness: hand-worked examples plus a brute-force path oracle on random programs."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from warpsim.ptx.cfg import build_cfg
from warpsim.ptx.ir import Function
from warpsim.ptx.liveness import bits_to_ids, liveness

_spec = importlib.util.spec_from_file_location("_ptx_asm_cfg",
                                               Path(__file__).with_name("test_cfg.py"))
_mod = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_mod)
asm = _mod.asm


def _names(fn: Function, ids: list[int]) -> set[str]:
    return {fn.regs[r].name for r in ids}


def _live(src: str):
    fn = asm(src)
    return fn, liveness(fn, build_cfg(fn))


def test_straight_line_live_ranges():
    fn, lv = _live("""
        ld.param.u32 %r1, [n]        // 0
        add.s32 %r2, %r1, 1          // 1
        mul.lo.s32 %r3, %r2, %r1     // 2
        st.global.u32 [%rd1], %r3    // 3
        ret                          // 4
    """)
    assert _names(fn, lv.live_in(0)) == {"%rd1"}  # read before written: live from entry
    assert _names(fn, lv.live_out(0)) == {"%r1", "%rd1"}
    assert _names(fn, lv.live_out(1)) == {"%r1", "%r2", "%rd1"}
    assert _names(fn, lv.live_out(2)) == {"%r3", "%rd1"}
    assert lv.live_out(3) == [] and lv.live_in(4) == []


def test_dead_definition_is_not_live():
    fn, lv = _live("""
        mov.u32 %r1, 5
        mov.u32 %r1, 6
        st.global.u32 [%rd1], %r1
    """)
    assert "%r1" not in _names(fn, lv.live_out(0))
    assert "%r1" in _names(fn, lv.live_out(1))


def test_guarded_write_does_not_kill():
    fn, lv = _live("""
        mov.u32 %r1, 5               // 0
        setp.eq.s32 %p1, %r2, 0      // 1
        @%p1 mov.u32 %r1, 6          // 2
        st.global.u32 [%rd1], %r1    // 3
    """)
    # %r1 from instruction 0 must survive the guarded write
    assert "%r1" in _names(fn, lv.live_in(2))
    assert "%r1" in _names(fn, lv.live_out(1))
    assert "%r1" in _names(fn, lv.live_out(0))
    fn2, lv2 = _live("""
        mov.u32 %r1, 5
        mov.u32 %r1, 6
        st.global.u32 [%rd1], %r1
    """)
    assert "%r1" not in _names(fn2, lv2.live_in(1))


def test_guard_predicate_is_read():
    fn, lv = _live("""
        setp.eq.s32 %p1, %r2, 0
        @!%p1 st.global.u32 [%rd1], %r2
    """)
    assert _names(fn, lv.live_in(1)) == {"%p1", "%r2", "%rd1"}


def test_vector_destination_with_sink_writes_only_named_elements():
    fn, lv = _live("""
        mov.u32 %r2, 7                   // 0
        mov.b64 {%r1;_}, %rd1            // 1: writes %r1 only
        add.s32 %r3, %r1, %r2            // 2
        ld.global.v2.u32 {%r4;%r5}, [%rd2]   // 3
        add.s32 %r6, %r4, %r5            // 4
    """)
    assert _names(fn, lv.live_in(1)) == {"%r2", "%rd1", "%rd2"}
    assert _names(fn, lv.live_out(1)) == {"%r1", "%r2", "%rd2"}
    assert _names(fn, lv.live_out(3)) == {"%r4", "%r5"}
    assert _names(fn, lv.live_in(3)) == {"%rd2"}


def test_store_address_base_is_read():
    fn, lv = _live("""
        mov.u64 %rd1, 0
        st.global.u32 [%rd1+4], %r1
    """)
    assert _names(fn, lv.live_out(0)) == {"%rd1", "%r1"}


def test_loop_carried_value_is_live_around_the_back_edge():
    fn, lv = _live("""
        mov.u32 %r1, 0                 // 0
        mov.u32 %r9, 100               // 1
    HEAD: add.s32 %r1, %r1, 1          // 2
        setp.lt.s32 %p1, %r1, %r9      // 3
        @%p1 bra HEAD                  // 4
        st.global.u32 [%rd1], %r1      // 5
    """)
    for i in (2, 3, 4):
        assert {"%r1", "%r9", "%rd1"} <= _names(fn, lv.live_in(i))
    assert "%r9" not in _names(fn, lv.live_in(5))
    assert "%p1" in _names(fn, lv.live_out(3))


def test_value_used_on_one_branch_is_live_into_the_branch():
    fn, lv = _live("""
        mov.u32 %r1, 1             // 0
        mov.u32 %r2, 2             // 1
        @%p1 bra ELSE              // 2
        st.global.u32 [%rd1], %r1  // 3
        ret                        // 4
    ELSE: st.global.u32 [%rd1], %r2  // 5
        ret
    """)
    assert {"%r1", "%r2"} <= _names(fn, lv.live_out(2))
    assert "%r2" not in _names(fn, lv.live_in(3))
    assert "%r1" not in _names(fn, lv.live_in(5))


def test_matrix_and_pressure_agree_with_bitsets():
    fn, lv = _live("""
        mov.u32 %r1, 1
        mov.u32 %r2, 2
        add.s32 %r3, %r1, %r2
        st.global.u32 [%rd1], %r3
    """)
    m = lv.matrix("out")
    assert m.shape == (4, len(fn.regs)) and m.dtype == np.bool_
    for i in range(4):
        assert list(np.flatnonzero(m[i])) == lv.live_out(i)
    assert list(lv.pressure()) == [2, 3, 2, 0]
    assert bits_to_ids(0b1011) == [0, 1, 3]


# ---------------------------------------------------------------- random programs vs oracle

def random_program(draw, n_regs: int = 6, n_preds: int = 2, max_len: int = 24) -> str:
    """A random branchy program over ``%r0..``, ``%rd0..``, ``%p0..`` with labels L0..L3."""
    n = draw(st.integers(3, max_len))
    lines: list[str] = []
    labels = {draw(st.integers(0, n - 1)): f"L{k}" for k in range(4)}
    used_labels = sorted(set(labels.values()))
    r = st.integers(0, n_regs - 1)
    p = st.integers(0, n_preds - 1)
    for i in range(n):
        guard = ""
        if draw(st.integers(0, 4)) == 0:
            guard = f"@{'!' if draw(st.booleans()) else ''}%p{draw(p)} "
        kind = draw(st.integers(0, 10))
        if kind == 0:
            text = f"mov.u32 %r{draw(r)}, %r{draw(r)}"
        elif kind == 1:
            text = f"setp.lt.s32 %p{draw(p)}, %r{draw(r)}, %r{draw(r)}"
        elif kind == 2 and used_labels:
            text = f"bra {draw(st.sampled_from(used_labels))}"
        elif kind == 3:
            text = f"ld.param.u32 %r{draw(r)}, [n]"
        elif kind == 4:
            text = f"st.global.u32 [%rd{draw(r)}], %r{draw(r)}"
        elif kind == 5:
            text = f"add.s64 %rd{draw(r)}, %rd{draw(r)}, %rd{draw(r)}"
        elif kind == 6:
            text = f"mov.b64 %rd{draw(r)}, {{%r{draw(r)};%r{draw(r)}}}"
        elif kind == 7:
            text = f"mov.b64 {{%r{draw(r)};%r{draw(r)}}}, %rd{draw(r)}"
        elif kind == 8:
            text = "ret"
        elif kind == 9:
            text = f"mov.u32 %r{draw(r)}, 7"
        else:
            text = f"add.s32 %r{draw(r)}, %r{draw(r)}, %r{draw(r)}"
        lab = f"{labels[i]}: " if i in labels else ""
        lines.append(lab + guard + text)
    return "\n".join(lines)


programs = st.composite(lambda draw: random_program(draw))


def _oracle_live_in(fn: Function) -> list[set[int]]:
    """Brute force: r is live before i iff some path from i reads r before an unguarded write
    of r. Successors are derived from the instructions directly, not from the CFG."""
    insts = fn.instructions
    n = len(insts)

    def succ(i: int) -> list[int]:
        inst = insts[i]
        if inst.opcode == "bra":
            t = [fn.labels[inst.srcs[0].name]]
            return [*t, i + 1] if inst.guard >= 0 else t
        if inst.opcode in ("ret", "exit"):
            return [i + 1] if inst.guard >= 0 else []
        return [i + 1]

    out: list[set[int]] = []
    for i in range(n):
        live: set[int] = set()
        for r in range(len(fn.regs)):
            seen, stack = {i}, [i]
            while stack:
                j = stack.pop()
                if j >= n:
                    continue
                if r in insts[j].reads():
                    live.add(r)
                    break
                if r in insts[j].writes() and insts[j].guard < 0:
                    continue
                for s in succ(j):
                    if s not in seen:
                        seen.add(s)
                        stack.append(s)
        out.append(live)
    return out


@settings(max_examples=150, deadline=None)
@given(programs())
def test_liveness_matches_path_oracle(src):
    fn = asm(src)
    lv = liveness(fn, build_cfg(fn))
    oracle = _oracle_live_in(fn)
    for i in range(len(fn.instructions)):
        assert set(lv.live_in(i)) == oracle[i], (i, src)


# ---------------------------------------------------------------- the project's own kernels

CORPUS = sorted(p.stem for p in (Path(__file__).parents[1] / "kernels").glob("*.cu"))


def _oracle_by_register(fn: Function) -> list[int]:
    """Live-in bitsets by a backward search per register from its reads over instruction
    predecessors, stopping at unguarded writes (independent of the CFG module)."""
    insts = fn.instructions
    n = len(insts)
    preds: list[list[int]] = [[] for _ in range(n)]
    for i, inst in enumerate(insts):
        nxt = [i + 1]
        if inst.opcode == "bra":
            t = fn.labels[inst.srcs[0].name]
            nxt = [t, i + 1] if inst.guard >= 0 else [t]
        elif inst.opcode in ("ret", "exit", "trap"):
            nxt = [i + 1] if inst.guard >= 0 else []
        for s in nxt:
            if s < n:
                preds[s].append(i)
    readers: dict[int, list[int]] = {}
    killers: dict[int, set[int]] = {}
    for i, inst in enumerate(insts):
        for r in inst.reads():
            readers.setdefault(r, []).append(i)
        if inst.guard < 0:
            for r in inst.writes():
                killers.setdefault(r, set()).add(i)
    live = [0] * n
    for r, sites in readers.items():
        kill = killers.get(r, set())
        seen = set(sites)
        stack = list(sites)
        while stack:
            i = stack.pop()
            live[i] |= 1 << r
            for p in preds[i]:
                if p not in seen and p not in kill:
                    seen.add(p)
                    stack.append(p)
    return live


@pytest.mark.parametrize("stem", CORPUS)
def test_corpus_liveness_matches_oracle(corpus_ptx, stem):
    from warpsim.ptx.inline import inline_calls
    from warpsim.ptx.parser import parse_ptx

    module = parse_ptx(corpus_ptx(stem), f"{stem}.ptx")
    for fn in module.kernels.values():
        flat = inline_calls(module, fn)
        lv = liveness(flat, build_cfg(flat))
        assert lv.live_in_bits == _oracle_by_register(flat), fn.name
