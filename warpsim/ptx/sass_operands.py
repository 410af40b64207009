"""How SASS holds PTX values: constant-bank operands, rematerialisation, operand modifiers,
pair halves, global store data, and registers that only SASS needs.

Follows: ARCHITECTURE.md §4 (register numbers shaped like SASS); ptxas 13.5's sm_80 SASS of the
corpus (``nvdisasm``), which every rule below was read from (docs/regalloc.md §5). The
functions return what ``ptx/regalloc.py`` needs: sets of values, ``(instruction index,
value)`` operands, alias relations and extra interference nodes; none allocates.

Assumptions:
  [A] A 64-bit value read by an ALU instruction (``CONST_OPERAND_OPCODES``) can be its one
      constant-bank operand; ``shfl`` takes immediates; other 32-bit constants take a
      register at each use.
  [A] ``neg``/``abs`` of a float whose every use is a float ALU source is an operand modifier.
  [A] 32-bit global store data sits in the odd register of an otherwise unused aligned pair.
Deviations: ptxas's uniform datapath (``S2UR``, ``ULDC``) is not modelled: a uniform value
either is a constant operand or takes a per-thread register.
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from dataclasses import replace

import numpy as np

from warpsim.ptx.cfg import CFG
from warpsim.ptx.ir import Function, Instruction, OpKind
from warpsim.ptx.liveness import Liveness

__all__ = ["CONST_OPERAND_OPCODES", "REMAT_SPECIALS", "constant_operands", "fold_operands",
           "is_kernel_param", "modifier_folds", "pair_halves", "remat_values",
           "scratch_registers", "store_data"]

_RW = list[tuple[tuple[int, ...], tuple[int, ...]]]

REMAT_SPECIALS = frozenset({
    "%ntid.x", "%ntid.y", "%ntid.z", "%nctaid.x", "%nctaid.y", "%nctaid.z",
})
"""Special registers SASS reads from constant bank 0 (``c[0x0][0x0]`` is ``%ntid.x``).
``%ctaid`` is not one: ptxas reads it with ``S2R`` into a per-thread register wherever it is
combined with per-thread values (``vec_add``, ``block_coords``); ``S2UR`` into a uniform
register appears only where its uses are uniform (``set_scale``, ``sgemm_4x4``)."""

CONST_OPERAND_OPCODES = frozenset({
    "add", "sub", "mul", "mad", "fma", "setp", "set", "and", "or", "xor", "min", "max",
    "selp", "shl", "shr", "mul24", "mad24", "sad", "slct", "prmt", "bfe", "bfi", "shf",
    "lop3", "dp4a", "dp2a"})
"""ALU opcodes whose SASS form takes one source from a constant bank."""


def remat_values(fn: Function, counts: np.ndarray) -> set[int]:
    """Values SASS does not keep in registers (module docstring): constants it takes as
    constant-bank or immediate operands, pointer parameters, and stack-frame addresses."""
    kernel_params = {p.name for p in fn.params} if fn.is_entry else set()
    frames = {v.name for v in fn.variables if v.space == "local"}
    out: set[int] = set()
    frame: set[int] = set()
    ptr: set[int] = set()
    for inst in fn.instructions:
        ws = inst.writes()
        if len(ws) != 1 or inst.guard >= 0 or counts[ws[0]] != 1:
            continue
        v = ws[0]
        if fn.regs[v].type == "pred":
            continue
        srcs = inst.srcs
        if inst.opcode == "mov" and len(srcs) == 1 and srcs[0].kind is OpKind.SYMBOL \
                and srcs[0].name in frames:
            frame.add(v)
        elif (inst.opcode == "add" and len(srcs) == 2 and srcs[0].kind is OpKind.REG
              and srcs[0].reg in frame and srcs[1].kind is OpKind.IMM):
            frame.add(v)
        elif fn.regs[v].bits > 32:
            if fn.regs[v].bits != 64 or len(srcs) != 1:
                continue
            s0 = srcs[0]
            if inst.opcode == "mov" and s0.kind is OpKind.IMM:
                out.add(v)  # a 64-bit constant: a c[0x2][...] operand in SASS
            elif is_kernel_param(inst, kernel_params):
                ptr.add(v)  # a pointer parameter: c[0x0][...] operands
            elif (inst.opcode in ("cvta", "mov") and s0.kind is OpKind.REG
                  and s0.reg in ptr and (inst.opcode == "mov" or inst.has("to"))):
                ptr.add(v)  # cvta.to.global of a parameter: the same address
        elif is_kernel_param(inst, kernel_params):
            out.add(v)
        elif inst.opcode == "mov" and all(
                s.kind is OpKind.IMM or s.kind is OpKind.SYMBOL
                or (s.kind is OpKind.SPECIAL and s.name in REMAT_SPECIALS)
                or (s.kind is OpKind.REG and s.reg in out) for s in srcs):
            out.add(v)
    return out | frame | ptr


def is_kernel_param(inst: Instruction, kernel_params: AbstractSet[str]) -> bool:
    """``ld.param`` of one of the kernel's own parameters (after inlining, ``ld.param``
    also reads the per-thread ``.param`` variables of call scopes, which are not constant)."""
    if inst.opcode != "ld" or inst.space != "param" or not inst.srcs:
        return False
    addr = inst.srcs[0]
    return (addr.kind is OpKind.ADDRESS and addr.base is not None
            and addr.base.kind is OpKind.SYMBOL and addr.base.name in kernel_params)


def store_data(fn: Function, width: np.ndarray) -> set[int]:
    """32-bit values stored to global memory: ptxas puts them in the odd register of a pair."""
    out: set[int] = set()
    for inst in fn.instructions:
        if inst.opcode in ("st", "atom", "red") and inst.space == "global":
            for op in inst.srcs[1:]:
                if op.kind is OpKind.REG and width[op.reg] == 1:
                    out.add(op.reg)
    return out


def scratch_registers(fn: Function, cfg: CFG, live: Liveness, remat: set[int],
                      const_reads: set[tuple[int, int]], rw: _RW) -> list[tuple[int, int]]:
    """Registers SASS needs that no PTX value names, as ``(width, interference bitset)``:

    * a direct global-symbol access (``st.global [g_scale]``) materialises the 64-bit address
      in a pair (``MOV R2, c[0x4][0x0]``, ``MOV R3, c[0x4][0x4]``) for that instruction;
    * ``mul.wide r, imm`` feeding an address ``add`` whose other operand is a pointer
      parameter becomes ``IMAD.WIDE R, r, Rk, c[0x0][...]``: the immediate needs a register
      (the constant-bank slot is taken), which ptxas loads once per block and keeps from the
      first such instruction to the last."""
    remat_mask = 0
    for v in remat:
        remat_mask |= 1 << v
    insts = fn.instructions

    def busy(pos: int) -> int:
        index = insts[pos].index
        here = 0
        for r in rw[pos][0]:
            if r in remat and (index, r) not in const_reads:
                here |= 1 << r
        return (live.live_in_bits[pos] & ~remat_mask) | here

    out: list[tuple[int, int]] = []
    scaled: dict[int, int] = {}  # mul.wide destination -> position
    for pos, inst in enumerate(insts):
        if inst.opcode in ("ld", "st", "atom", "red") and inst.space == "global" and inst.srcs:
            addr = inst.srcs[0]
            if (addr.kind is OpKind.ADDRESS and addr.base is not None
                    and addr.base.kind is OpKind.SYMBOL):
                out.append((2, busy(pos)))
        if (inst.opcode == "mul" and inst.has("wide") and len(inst.srcs) == 2
                and inst.srcs[1].kind is OpKind.IMM and inst.dsts):
            scaled[inst.dsts[0].reg] = pos
    for blk in cfg.blocks:
        spans: dict[int, list[int]] = {}
        for pos in range(blk.start, blk.end):
            inst = insts[pos]
            if inst.opcode != "add":
                continue
            regs = rw[pos][0]
            if not any((inst.index, r) in const_reads for r in regs):
                continue
            for r in regs:
                q = scaled.get(r, -1)
                if blk.start <= q < blk.end:
                    spans.setdefault(insts[q].srcs[1].value, []).append(q)
        for qs in spans.values():
            mask = 0
            for pos in range(min(qs), max(qs) + 1):
                mask |= busy(pos)
                for r in rw[pos][1]:
                    mask |= 1 << r
            out.append((1, mask))
    return out


def constant_operands(fn: Function, remat: set[int]) -> set[tuple[int, int]]:
    """``(PTX index, vreg)``: reads of a rematerialised value that take no register: a 64-bit
    value that SASS encodes as the instruction's one constant-bank operand, and immediates in
    the lane, clamp and mask operands of ``shfl``. Address bases, stored data, copies and
    conversions need the value in a register. Other 32-bit constants keep taking a register
    at each use: making them free as well lowers the corpus total to 0.88 of ptxas's."""
    out: set[tuple[int, int]] = set()
    immediates = {inst.dsts[0].reg for inst in fn.instructions
                  if inst.opcode == "mov" and len(inst.srcs) == 1 and len(inst.dsts) == 1
                  and inst.srcs[0].kind is OpKind.IMM and inst.dsts[0].kind is OpKind.REG}
    for inst in fn.instructions:
        if inst.opcode == "shfl":  # SHFL.DOWN R3, R2, 0x10, 0x1f: lane, clamp, mask immediate
            for op in inst.srcs[1:]:
                if op.kind is OpKind.REG and op.reg in remat and op.reg in immediates:
                    out.add((inst.index, op.reg))
            continue
        if inst.opcode not in CONST_OPERAND_OPCODES:
            continue
        for op in inst.srcs:
            if op.kind is OpKind.REG and op.reg in remat and fn.regs[op.reg].bits == 64:
                out.add((inst.index, op.reg))
                break
    return out


_MODIFIER_USES = frozenset({"add", "sub", "mul", "fma", "mad", "min", "max", "setp", "set",
                            "abs", "neg"})


def modifier_folds(fn: Function, cfg: CFG, counts: np.ndarray, remat: set[int]) -> dict[int, int]:
    """``neg``/``abs`` of a float value whose every use is a float ALU source: SASS applies
    it as an operand modifier (``DFMA R4, -R2, R6, R8``, ``DADD R4, -RZ, |R14|``), so the
    value is its source's register. Both are defined once, and the source cannot be
    redefined between the ``neg``/``abs`` and its uses (same block, or no path back)."""
    cand: dict[int, tuple[int, int]] = {}  # value -> (source, position)
    for pos, inst in enumerate(fn.instructions):
        if (inst.opcode in ("neg", "abs") and inst.guard < 0 and len(inst.dsts) == 1
                and len(inst.srcs) == 1 and inst.srcs[0].kind is OpKind.REG
                and inst.types and inst.types[0] in ("f32", "f64")):
            v, src = inst.dsts[0].reg, inst.srcs[0].reg
            if counts[v] == 1 and counts[src] == 1 and src not in remat and v not in remat:
                cand[v] = (src, pos)
    if not cand:
        return {}
    bad: set[int] = set()
    def_pos: dict[int, int] = {}
    for pos, inst in enumerate(fn.instructions):
        fp = inst.opcode in _MODIFIER_USES and any(t in ("f32", "f64") for t in inst.types)
        plain = {op.reg for op in inst.srcs if op.kind is OpKind.REG} if fp else set()
        for r in inst.reads():
            if r in cand and r not in plain:
                bad.add(r)
        for r in inst.writes():
            def_pos[r] = pos
    out: dict[int, int] = {}
    for v, (src, pos) in cand.items():
        if v in bad or src not in def_pos:
            continue
        a, b = int(cfg.block_of[def_pos[src]]), int(cfg.block_of[pos])
        if a != b and _reaches(cfg, b, a):
            continue
        out[v] = src
    roots: dict[int, int] = {}
    for v in out:  # |(-x)| and -(-x) fold down to x; a cycle (no real source) folds nothing
        seen = {v}
        root = out[v]
        while root in out and root not in seen:
            seen.add(root)
            root = out[root]
        if root not in seen:
            roots[v] = root
    return roots


def _reaches(cfg: CFG, start: int, goal: int) -> bool:
    seen = {start}
    stack = [start]
    while stack:
        for nxt in cfg.blocks[stack.pop()].succs:
            if nxt == goal:
                return True
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return False


def fold_operands(fn: Function, folds: dict[int, int]) -> Function:
    """A copy of ``fn`` in which the folded values read their source and their ``neg``/``abs``
    reads and writes nothing (it is no SASS instruction)."""
    insts: list[Instruction] = []
    for inst in fn.instructions:
        if inst.dsts and inst.dsts[0].kind is OpKind.REG and inst.dsts[0].reg in folds \
                and inst.opcode in ("neg", "abs"):
            insts.append(replace(inst, dsts=(), srcs=()))
        elif any(op.kind is OpKind.REG and op.reg in folds for op in inst.srcs):
            srcs = tuple(replace(op, reg=folds[op.reg])
                         if op.kind is OpKind.REG and op.reg in folds else op
                         for op in inst.srcs)
            insts.append(replace(inst, srcs=srcs))
        else:
            insts.append(inst)
    return replace(fn, instructions=insts)


def pair_halves(fn: Function, counts: np.ndarray, width: np.ndarray, remat: set[int]
            ) -> list[tuple[int, int, int, int]]:
    """``(half, whole, k, index of the mov)``: ``half`` is the ``k``-th 32-bit half of the
    64-bit ``whole``, through an unguarded ``mov.b64 {lo, hi}, whole`` or ``mov.b64 whole,
    {lo, hi}``, both defined once. SASS has no instruction for either: a 64-bit value is two
    registers, and its halves are those registers (``R13`` is the high half of ``R12.64``)."""
    out: list[tuple[int, int, int]] = []
    for inst in fn.instructions:
        if inst.opcode != "mov" or inst.guard >= 0 or len(inst.dsts) != 1 or len(inst.srcs) != 1:
            continue
        d, s = inst.dsts[0], inst.srcs[0]
        vec, whole = (s, d) if s.kind is OpKind.VECTOR else (d, s)
        if vec.kind is not OpKind.VECTOR or whole.kind is not OpKind.REG or len(vec.elems) != 2:
            continue
        u = whole.reg
        if width[u] != 2 or counts[u] != 1 or u in remat:
            continue
        for k, e in enumerate(vec.elems):
            if (e.kind is OpKind.REG and width[e.reg] == 1 and counts[e.reg] == 1
                    and e.reg not in remat):
                out.append((e.reg, u, k, inst.index))
    return out
