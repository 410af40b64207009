"""Basic blocks, immediate post-dominators and reconvergence PCs on hand-made CFGs.

Every expected IPDOM below was worked out by hand from the drawn CFG."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from warpsim.errors import UnsupportedPTXError
from warpsim.ptx.cfg import EXIT, build_cfg
from warpsim.ptx.ir import TYPE_BITS, Function, Instruction, Operand, OpKind, RegDecl

# ---------------------------------------------------------------- tiny test-only PTX builder

_PREFIX_TYPES = (("%rd", "b64"), ("%S", "b64"), ("%fd", "f64"), ("%rs", "b16"), ("%p", "pred"),
                 ("%f", "f32"), ("%r", "b32"), ("%h", "b16"))
_SPACES = {"global", "shared", "local", "const", "param", "generic"}
_NO_DST = {"st", "bra", "ret", "exit", "bar", "red", "trap"}


def _operand(text: str, fn: Function) -> Operand:
    text = text.strip().strip("()")
    if text.startswith("{"):
        return Operand(OpKind.VECTOR, elems=tuple(_operand(t, fn)
                                                   for t in text[1:-1].split(";")))
    if text.startswith("["):
        m = re.fullmatch(r"\[([^+\]]*)(?:\+(-?\d+))?\]", text)
        base = _operand(m.group(1), fn) if m.group(1) else None
        return Operand(OpKind.ADDRESS, base=base, value=int(m.group(2) or 0))
    if text == "_":
        return Operand(OpKind.SINK)
    if re.fullmatch(r"-?\d+", text):
        return Operand(OpKind.IMM, value=int(text))
    if text.startswith("%") and "." in text:
        return Operand(OpKind.SPECIAL, name=text)
    neg = text.startswith("!")
    name = text.lstrip("!")
    if name.startswith("%"):
        if name not in fn.reg_ids:
            typ = next(t for p, t in _PREFIX_TYPES if name.startswith(p))
            fn.reg_ids[name] = len(fn.regs)
            fn.regs.append(RegDecl(len(fn.regs), name, typ))
        return Operand(OpKind.REG, reg=fn.reg_ids[name], neg=neg)
    return Operand(OpKind.SYMBOL, name=name)


def asm(src: str, name: str = "k") -> Function:
    """Build a Function from a PTX-like listing: ``LABEL:``, ``@%p``/``@!%p`` guards,
    vectors written ``{%r1;%r2}``; the first operand is the destination except for stores,
    branches, ``ret``, ``exit``, ``bar`` and ``red``; ``setp`` may have ``%p|%q``."""
    fn = Function(name=name, is_entry=True)
    for raw in src.strip().splitlines():
        line = raw.split("//")[0].strip()
        if not line:
            continue
        m = re.match(r"(\w+):\s*(.*)$", line)
        if m:
            fn.labels[m.group(1)] = len(fn.instructions)
            line = m.group(2)
            if not line:
                continue
        guard, guard_neg = -1, False
        if line.startswith("@"):
            g, line = line.split(None, 1)
            guard_neg = g.startswith("@!")
            guard = _operand(g.lstrip("@!"), fn).reg
        parts = line.split(None, 1)
        dotted = parts[0].split(".")
        ops = [o for o in (parts[1].rstrip(";").split(",") if len(parts) > 1 else []) if o]
        opcode = dotted[0]
        space = next((d for d in dotted[1:] if d in _SPACES), "")
        types = tuple(d for d in dotted[1:] if d in TYPE_BITS)
        vec = next((int(d[1:]) for d in dotted[1:] if d in ("v2", "v4")), 1)
        mods = tuple(d for d in dotted[1:]
                     if d not in TYPE_BITS and d not in _SPACES and d not in ("v2", "v4"))
        dsts: list[Operand] = []
        if opcode not in _NO_DST and ops:
            first = ops.pop(0)
            dsts = [_operand(t, fn) for t in first.split("|")]
        fn.instructions.append(Instruction(
            index=len(fn.instructions), opcode=opcode, types=types, space=space, vec=vec, mods=mods,
            dsts=tuple(dsts), srcs=tuple(_operand(o, fn) for o in ops), guard=guard,
            guard_neg=guard_neg, line=len(fn.instructions) + 1, text=raw.strip()))
    return fn


# ---------------------------------------------------------------- tests

def _starts(cfg):
    return [b.start for b in cfg.blocks]


def test_straight_line_is_one_block_ending_at_exit():
    cfg = build_cfg(asm("""
        mov.u32 %r1, 1
        add.u32 %r2, %r1, 2
        ret
    """))
    assert len(cfg.blocks) == 1
    assert cfg.blocks[0].exits and cfg.blocks[0].succs == []
    assert cfg.ipdom == [EXIT]
    assert (cfg.reconvergence_pc == -1).all()


def test_if_else_diamond_reconverges_at_join():
    fn = asm("""
        setp.lt.s32 %p1, %r1, 0
        @%p1 bra ELSE              // 1: B0 ends
        add.s32 %r2, %r1, 1        // 2: B1 (then)
        bra JOIN                   // 3
    ELSE: sub.s32 %r2, %r1, 1      // 4: B2
    JOIN: st.global.u32 [%rd1], %r2  // 5: B3
        ret
    """)
    cfg = build_cfg(fn)
    assert _starts(cfg) == [0, 2, 4, 5]
    assert cfg.blocks[0].succs == [2, 1]  # target first, then fall-through
    assert cfg.blocks[1].succs == [3] and cfg.blocks[2].succs == [3]
    assert sorted(cfg.blocks[3].preds) == [1, 2]
    assert cfg.ipdom == [3, 3, 3, EXIT]
    assert cfg.reconvergence_pc[1] == 5
    assert cfg.reconvergence_pc[3] == -1  # unconditional bra
    assert list(cfg.block_of) == [0, 0, 1, 1, 2, 3, 3]


def test_if_without_else_reconverges_at_target():
    cfg = build_cfg(asm("""
        @%p1 bra SKIP
        add.s32 %r2, %r1, 1
    SKIP: ret
    """))
    assert _starts(cfg) == [0, 1, 2]
    assert cfg.ipdom == [2, 2, EXIT]
    assert cfg.reconvergence_pc[0] == 2


def test_nested_diamonds():
    # B0 -> B1 (outer then), B4 (outer else); B1 -> B2 / B3 inner; join inner at B3?
    cfg = build_cfg(asm("""
        @%p1 bra OELSE          // 0 B0
        @%p2 bra ITHEN          // 1 B1
        add.s32 %r1, %r1, 1     // 2 B2
        bra IJOIN               // 3
    ITHEN: add.s32 %r1, %r1, 2  // 4 B3
    IJOIN: add.s32 %r1, %r1, 3  // 5 B4
        bra OJOIN               // 6
    OELSE: add.s32 %r1, %r1, 4  // 7 B5
    OJOIN: ret                  // 8 B6
    """))
    assert _starts(cfg) == [0, 1, 2, 4, 5, 7, 8]
    assert cfg.ipdom == [6, 4, 4, 4, 6, 6, EXIT]
    assert cfg.reconvergence_pc[0] == 8
    assert cfg.reconvergence_pc[1] == 5


def test_loop_with_break_reconverges_after_loop():
    cfg = build_cfg(asm("""
        mov.u32 %r1, 0               // 0 B0
    HEAD: @%p1 bra DONE              // 1 B1: break
        add.s32 %r1, %r1, 1          // 2 B2
        setp.lt.s32 %p2, %r1, 10     // 3
        @%p2 bra HEAD                // 4: back edge
    DONE: ret                        // 5 B3
    """))
    assert _starts(cfg) == [0, 1, 2, 5]
    assert cfg.blocks[2].succs == [1, 3]
    assert cfg.ipdom == [1, 3, 3, EXIT]
    assert cfg.reconvergence_pc[1] == 5
    assert cfg.reconvergence_pc[4] == 5
    assert cfg.back_edges == [(2, 1)]
    assert list(cfg.loop_depth) == [0, 1, 1, 0]
    assert cfg.idom == [-1, 0, 1, 1]


def test_ret_in_the_middle_reconverges_at_exit():
    cfg = build_cfg(asm("""
        @%p1 bra OUT        // 0 B0
        add.s32 %r1, %r1, 1 // 1 B1
        ret                 // 2
    OUT: add.s32 %r1, %r1, 2 // 3 B2
        ret                 // 4
    """))
    assert _starts(cfg) == [0, 1, 3]
    assert cfg.ipdom == [EXIT, EXIT, EXIT]
    assert cfg.reconvergence_pc[0] == 5  # len(instructions): only at exit


def test_guarded_ret_falls_through_and_exits():
    cfg = build_cfg(asm("""
        @%p1 ret            // 0 B0
        add.s32 %r1, %r1, 1 // 1 B1
        ret
    """))
    assert _starts(cfg) == [0, 1]
    assert cfg.blocks[0].exits and cfg.blocks[0].succs == [1]
    assert cfg.ipdom == [EXIT, EXIT]
    assert cfg.reconvergence_pc[0] == -1  # not a branch


def test_switch_like_fan_out_reconverges_at_common_join():
    cfg = build_cfg(asm("""
        @%p1 bra C1        // 0 B0
        @%p2 bra C2        // 1 B1
        @%p3 bra C3        // 2 B2
        mov.u32 %r1, 0     // 3 B3 default
        bra END            // 4
    C1: mov.u32 %r1, 1     // 5 B4
        bra END            // 6
    C2: mov.u32 %r1, 2     // 7 B5
        bra END            // 8
    C3: mov.u32 %r1, 3     // 9 B6
    END: ret               // 10 B7
    """))
    assert _starts(cfg) == [0, 1, 2, 3, 5, 7, 9, 10]
    assert cfg.ipdom == [7, 7, 7, 7, 7, 7, 7, EXIT]
    assert [cfg.reconvergence_pc[i] for i in (0, 1, 2)] == [10, 10, 10]


def test_infinite_loop_gets_virtual_exit_edge_at_latch():
    cfg = build_cfg(asm("""
        mov.u32 %r1, 0        // 0 B0
    TOP: @%p1 bra SKIP        // 1 B1
        add.s32 %r1, %r1, 1   // 2 B2
    SKIP: add.s32 %r1, %r1, 2 // 3 B3
        bra TOP               // 4
    """))
    assert _starts(cfg) == [0, 1, 2, 3]
    assert cfg.blocks[3].virtual_exit and cfg.blocks[3].exits
    assert not cfg.blocks[1].exits
    # the diamond inside the infinite loop still reconverges at SKIP
    assert cfg.ipdom == [1, 3, 3, EXIT]
    assert cfg.reconvergence_pc[1] == 3


def test_infinite_loop_after_branch_out():
    # B0 branches to an exit path or into a spin loop that never leaves
    cfg = build_cfg(asm("""
        @%p1 bra SPIN     // 0 B0
        ret               // 1 B1
    SPIN: add.s32 %r1, %r1, 1  // 2 B2
        bra SPIN          // 3
    """))
    assert cfg.blocks[2].virtual_exit
    assert cfg.ipdom == [EXIT, EXIT, EXIT]
    assert cfg.reconvergence_pc[0] == 4


def test_while_loop_with_continue_and_nested_if():
    cfg = build_cfg(asm("""
    HEAD: setp.ge.s32 %p1, %r1, 10   // 0 B0
        @%p1 bra DONE                // 1
        @%p2 bra CONT                // 2 B1: continue
        add.s32 %r2, %r2, 1          // 3 B2
    CONT: add.s32 %r1, %r1, 1        // 4 B3
        bra HEAD                     // 5
    DONE: ret                        // 6 B4
    """))
    assert _starts(cfg) == [0, 2, 3, 4, 6]
    assert cfg.ipdom == [4, 3, 3, 0, EXIT]
    assert cfg.reconvergence_pc[1] == 6
    assert cfg.reconvergence_pc[2] == 4
    assert cfg.back_edges == [(3, 0)]


def test_branch_to_label_at_end_goes_to_exit():
    cfg = build_cfg(asm("""
        @%p1 bra END
        add.s32 %r1, %r1, 1
    END:
    """))
    assert cfg.blocks[0].exits and cfg.blocks[0].succs == [1]
    assert cfg.ipdom == [EXIT, EXIT]
    assert cfg.reconvergence_pc[0] == 2


def test_unused_labels_do_not_split_blocks():
    cfg = build_cfg(asm("""
        mov.u32 %r1, 1
    NOTUSED: add.u32 %r1, %r1, 1
        ret
    """))
    assert len(cfg.blocks) == 1


def test_empty_function_has_no_blocks():
    cfg = build_cfg(Function(name="e", is_entry=True))
    assert cfg.blocks == [] and cfg.block_of.shape == (0,)


def test_unknown_label_is_unsupported_ptx():
    with pytest.raises(UnsupportedPTXError, match="unknown label NOPE"):
        build_cfg(asm("bra NOPE"))


def test_ipdom_post_dominates_every_path():
    """Brute-force oracle on a random-ish CFG: IPDOM(b) lies on every path from b to exit."""
    fn = asm("""
        @%p1 bra A        // 0
        @%p2 bra B        // 1
        add.s32 %r1, %r1, 1
    A: @%p3 bra C
        add.s32 %r1, %r1, 2
    B: @%p4 bra A
    C: @%p5 bra END
        add.s32 %r1, %r1, 3
    END: ret
    """)
    cfg = build_cfg(fn)

    def reaches_exit_avoiding(b: int, avoid: int) -> bool:
        seen, stack = {b}, [b]
        while stack:
            x = stack.pop()
            if cfg.blocks[x].exits:
                return True
            for s in cfg.blocks[x].succs:
                if s != avoid and s not in seen:
                    seen.add(s)
                    stack.append(s)
        return False

    for b in cfg.blocks:
        p = cfg.ipdom[b.id]
        if p != EXIT:
            assert not reaches_exit_avoiding(b.id, p)
    assert np.all(cfg.reconvergence_pc[[i for i, x in enumerate(fn.instructions)
                                        if x.opcode != "bra"]] == -1)


# ---------------------------------------------------------------- the project's own kernels

CORPUS = sorted(p.stem for p in (Path(__file__).parents[1] / "kernels").glob("*.cu"))


@pytest.mark.parametrize("stem", CORPUS)
def test_corpus_ipdoms_post_dominate_and_are_immediate(corpus_ptx, stem):
    """Brute force on real kernels: IPDOM(b) is on every path from b to exit, and every other
    strict post-dominator of b post-dominates IPDOM(b)."""
    from warpsim.ptx.inline import inline_calls
    from warpsim.ptx.parser import parse_ptx

    module = parse_ptx(corpus_ptx(stem), f"{stem}.ptx")
    for fn in module.kernels.values():
        flat = inline_calls(module, fn)
        cfg = build_cfg(flat)
        nb = len(cfg.blocks)

        def reaches_exit_avoiding(b: int, avoid: int, cfg=cfg) -> bool:
            if b == avoid:
                return False
            seen, stack = {b}, [b]
            while stack:
                x = stack.pop()
                if cfg.blocks[x].exits:
                    return True
                for s in cfg.blocks[x].succs:
                    if s != avoid and s not in seen:
                        seen.add(s)
                        stack.append(s)
            return False

        for b in range(nb):
            pdoms = {d for d in range(nb) if d != b and not reaches_exit_avoiding(b, d)}
            p = cfg.ipdom[b]
            if p == EXIT:
                assert not pdoms, (fn.name, b)
                continue
            assert p in pdoms
            for d in pdoms - {p}:
                assert not reaches_exit_avoiding(p, d), (fn.name, b, p, d)
        for i, inst in enumerate(flat.instructions):
            rpc = int(cfg.reconvergence_pc[i])
            if inst.opcode == "bra" and inst.guard >= 0:
                assert rpc == len(flat.instructions) or cfg.blocks[cfg.block_of[rpc]].start == rpc
            else:
                assert rpc == -1


def test_self_loop_without_exit_gets_a_virtual_exit():
    cfg = build_cfg(asm("L: bra L"))
    assert cfg.blocks[0].succs == [0] and cfg.blocks[0].virtual_exit
    assert cfg.ipdom == [EXIT] and cfg.back_edges == [(0, 0)]
