"""Test-only builder of IR `Instruction`s for the semantics tests (no parser needed)."""

from __future__ import annotations

from typing import Any

import numpy as np

from warpsim.functional.semantics import Op, build_op
from warpsim.ptx.ir import TYPE_BITS, Function, Instruction, Operand, OpKind, RegDecl
from warpsim.ptx.opcodes import EXTRA_TYPES

__all__ = ["imm", "make", "op_for", "run"]


def imm(value: int, fmt: str = "i") -> tuple[str, int, str]:
    """An immediate operand spec."""
    return ("imm", value, fmt)


def _operand(fn: Function, spec: Any) -> Operand:
    if isinstance(spec, list):
        return Operand(OpKind.VECTOR, elems=tuple(_operand(fn, s) for s in spec))
    if isinstance(spec, tuple):
        return Operand(OpKind.IMM, value=spec[1], fmt=spec[2])
    if spec == "_":
        return Operand(OpKind.SINK)
    neg = spec.startswith("!")
    rtype = spec.lstrip("!")
    rid = len(fn.regs)
    fn.regs.append(RegDecl(rid, f"%v{rid}", rtype))
    fn.reg_ids[f"%v{rid}"] = rid
    return Operand(OpKind.REG, reg=rid, neg=neg)


def make(spelling: str, dsts: list[Any], srcs: list[Any]) -> tuple[Instruction, Function]:
    """Instruction for ``spelling`` (e.g. ``"add.rz.f32"``) with register operand types."""
    parts = spelling.split(".")
    types = tuple(p for p in parts[1:] if p in TYPE_BITS or p in EXTRA_TYPES)
    mods = tuple(p for p in parts[1:] if p not in TYPE_BITS and p not in EXTRA_TYPES)
    fn = Function("k", True)
    d = tuple(_operand(fn, s) for s in dsts)
    s = tuple(_operand(fn, x) for x in srcs)
    inst = Instruction(0, parts[0], types=types, mods=mods, dsts=d, srcs=s, line=7,
                       text=f"{spelling} ...;", spelling=spelling)
    return inst, fn


def op_for(spelling: str, dsts: list[Any], srcs: list[Any]) -> Op:
    inst, fn = make(spelling, dsts, srcs)
    return build_op(inst, fn)


def run(spelling: str, dsts: list[Any], srcs: list[Any], *values: Any) -> tuple[Any, ...]:
    """Build the op and evaluate it on ``values`` (cast to the op's source dtypes)."""
    op = op_for(spelling, dsts, srcs)
    args = [np.asarray(v).astype(dt) if not isinstance(v, np.generic) else v
            for v, dt in zip(values, op.src_dtypes, strict=True)]
    out = op.evaluate(args)
    assert len(out) == op.n_dsts
    return tuple(np.asarray(o) for o in out)
