"""Functional semantics of every non-memory, non-control PTX instruction, compiled per static
instruction into a vectorised `Op`.

Follows: docs/dev-contracts.md "Functional model"; PTX ISA 9.x §9.7.1-§9.7.9; ARCHITECTURE.md
§3 (vectorised over all threads of a CTA batch, one Python dispatch per instruction).
``build_op(inst, fn)`` is called once per static instruction at kernel load time: it checks the
opcode/type/modifier combination (``UnsupportedPTXError`` for anything not implemented
exactly), selects a family kernel (``int_ops``, ``dot_ops``, ``bit_ops``, ``float_ops``,
``half_ops``, ``transcendental``, ``compare``, ``convert``) and pre-binds the register-width
adaptation:
* a source register wider than the instruction type is truncated to the type's width (PTX
  "operand size exceeding instruction-type size"); a narrower one is zero- or sign-extended by
  the type;
* a destination register wider than the result type is sign-extended for signed types and
  zero-extended otherwise; a narrower one is an error;
* a negated predicate source (``!%p``, ``Operand.neg``) is negated here, not by the executor.
Assumptions: [A] values travel as raw bits (``np.uint16/32/64``, ``np.bool_``); immediates are
pre-converted by the executor with ``immediate_bits``; the carry flag is an extra trailing
np.uint32 (0/1) source / destination.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from warpsim.errors import UnsupportedPTXError
from warpsim.functional.bit_ops import BIT_OPCODES, build_bit
from warpsim.functional.compare import COMPARE_OPCODES, build_compare
from warpsim.functional.convert import build_cvt, build_mov
from warpsim.functional.dot_ops import DOT_OPCODES, build_dot
from warpsim.functional.float_ops import FLOAT_OPCODES, build_float
from warpsim.functional.half_ops import HALF_OPCODES, HALF_TYPES, build_half
from warpsim.functional.int_ops import INT_OPCODES, build_int
from warpsim.functional.opdef import CC, I_OF, U_OF, Core, Op, dtype_of, unsupported
from warpsim.functional.transcendental import TRANSCENDENTAL_OPCODES, build_transcendental
from warpsim.functional.video_ops import VIDEO_OPCODES, build_video
from warpsim.ptx.ir import FLOAT_TYPES, TYPE_BITS, Function, Instruction, Operand, OpKind

__all__ = ["SUPPORTED_OPCODES", "Op", "build_op", "immediate_bits"]

SUPPORTED_OPCODES = frozenset(INT_OPCODES | BIT_OPCODES | FLOAT_OPCODES | COMPARE_OPCODES
                              | TRANSCENDENTAL_OPCODES | DOT_OPCODES | VIDEO_OPCODES
                              | {"mov", "cvt"})
"""Base opcodes ``build_op`` accepts (each still checks its types and modifiers)."""

_WIDE_SPECIALS = frozenset({"%clock64", "%globaltimer", "%gridid"})


def _core(inst: Instruction) -> Core:
    op = inst.opcode
    t0 = inst.types[0] if inst.types else ""
    if op == "mov":
        return build_mov(inst)
    if op == "cvt":
        return build_cvt(inst)
    if op in COMPARE_OPCODES:
        return build_compare(inst)
    if op in TRANSCENDENTAL_OPCODES:
        return build_transcendental(inst)
    if op in BIT_OPCODES:
        return build_bit(inst)
    if op in DOT_OPCODES:
        return build_dot(inst)
    if op in VIDEO_OPCODES:
        return build_video(inst)
    if op in HALF_OPCODES and t0 in HALF_TYPES:
        return build_half(inst)
    if op in FLOAT_OPCODES and (t0 in FLOAT_TYPES or op not in INT_OPCODES):
        return build_float(inst)
    if op in INT_OPCODES:
        return build_int(inst)
    raise unsupported(inst, f"opcode {op!r} has no functional model here",
                      "memory, control, warp-level and address instructions belong to the "
                      "executor; other opcodes are not implemented")


def _values(ops: Sequence[Operand]) -> list[Operand]:
    out: list[Operand] = []
    for o in ops:
        out.extend(o.elems if o.kind is OpKind.VECTOR else (o,))
    return out


def _src_adapter(inst: Instruction, fn: Function, o: Operand, t: str
                 ) -> tuple[type[np.generic], Callable[[Any], Any] | None]:
    """(dtype the executor passes, conversion to the core's type or None) for one source."""
    if o.kind is OpKind.IMM or (o.kind is OpKind.SYMBOL and inst.opcode == "mov"):
        return dtype_of(t), None
    if o.kind is OpKind.REG:
        rt = fn.regs[o.reg].type
    elif o.kind is OpKind.SPECIAL:
        rt = "u64" if o.name in _WIDE_SPECIALS else "u32"
    else:
        raise unsupported(inst, f"source operand kind {o.kind.name} is not valid here")
    if (rt == "pred") != (t == "pred"):
        raise unsupported(inst, f"source register of type .{rt} where .{t} is expected")
    if t == "pred":
        return np.bool_, (np.logical_not if o.neg else None)
    if o.neg:
        raise unsupported(inst, "'!' applies only to predicate operands")
    rb, tb = TYPE_BITS[rt], TYPE_BITS[t]
    if rb == tb:
        return U_OF[rb], None
    if rb > tb:
        nt = U_OF[tb]
        return U_OF[rb], lambda x: x.astype(nt)
    if t[0] == "s":
        ri, ti, tu = I_OF[rb], I_OF[tb], U_OF[tb]
        return U_OF[rb], lambda x: x.view(ri).astype(ti).view(tu)
    nt = U_OF[tb]
    return U_OF[rb], lambda x: x.astype(nt)


def _dst_adapter(inst: Instruction, fn: Function, o: Operand, t: str
                 ) -> tuple[type[np.generic], Callable[[Any], Any] | None]:
    if o.kind is OpKind.SINK:
        return dtype_of(t), None
    if o.kind is not OpKind.REG:
        raise unsupported(inst, f"destination operand kind {o.kind.name} is not valid here")
    rt = fn.regs[o.reg].type
    if (rt == "pred") != (t == "pred"):
        raise unsupported(inst, f"destination register of type .{rt} where .{t} is expected")
    if t == "pred":
        return np.bool_, None
    rb, tb = TYPE_BITS[rt], TYPE_BITS[t]
    if rb == tb:
        return U_OF[rb], None
    if rb < tb:
        raise unsupported(inst, f"destination register .{rt} is narrower than .{t}")
    if t[0] == "s":
        ti, ri, ru = I_OF[tb], I_OF[rb], U_OF[rb]
        return ru, lambda x: x.view(ti).astype(ri).view(ru)
    ru = U_OF[rb]
    return ru, lambda x: x.astype(ru)


def build_op(inst: Instruction, fn: Function) -> Op:
    """Compile one static ALU / conversion / compare instruction into an `Op`.

    Raises `UnsupportedPTXError` (with the instruction's line and spelling) for any opcode,
    type or modifier combination that is not implemented exactly."""
    core = _core(inst)
    srcs, dsts = _values(inst.srcs), _values(inst.dsts)
    s_types = [t for t in core.src_types if t != CC]
    d_types = [t for t in core.dst_types if t != CC]
    if len(srcs) != len(s_types) or len(dsts) != len(d_types):
        raise unsupported(inst, f"expected {len(d_types)} destination and {len(s_types)} "
                          f"source values, got {len(dsts)} and {len(srcs)}")
    src_dtypes: list[type[np.generic]] = []
    src_fix: list[tuple[int, Callable[[Any], Any]]] = []
    for i, (o, t) in enumerate(zip(srcs, s_types, strict=True)):
        dt, f = _src_adapter(inst, fn, o, t)
        src_dtypes.append(dt)
        if f is not None:
            src_fix.append((i, f))
    dst_dtypes: list[type[np.generic]] = []
    dst_fix: list[tuple[int, Callable[[Any], Any]]] = []
    for i, (o, t) in enumerate(zip(dsts, d_types, strict=True)):
        dt, f = _dst_adapter(inst, fn, o, t)
        dst_dtypes.append(dt)
        if f is not None:
            dst_fix.append((i, f))
    if core.reads_cc:
        src_dtypes.append(np.uint32)
    if core.writes_cc:
        dst_dtypes.append(np.uint32)
    return Op(inst.full_opcode, _evaluator(core.fn, tuple(src_fix), tuple(dst_fix)),
              tuple(src_dtypes), tuple(dst_dtypes), core.reads_cc, core.writes_cc,
              tuple(core.src_types), tuple(core.dst_types))


def _evaluator(core: Callable[[Sequence[Any]], tuple[Any, ...]],
               src_fix: tuple[tuple[int, Callable[[Any], Any]], ...],
               dst_fix: tuple[tuple[int, Callable[[Any], Any]], ...]
               ) -> Callable[[Sequence[Any]], tuple[Any, ...]]:
    """``core`` with the source and destination adapters, under ``np.errstate(all="ignore")``;
    its ``raw`` attribute is the same without the errstate, for callers that already ignore
    floating-point errors (the executor's dispatch loop: entering an errstate costs about as
    much as a 32-lane ALU operation)."""
    ign = np.errstate
    if not src_fix and not dst_fix:
        def evaluate(srcs: Sequence[Any]) -> tuple[Any, ...]:
            with ign(all="ignore"):
                return core(srcs)
        evaluate.raw = core  # type: ignore[attr-defined]
        return evaluate

    def raw(srcs: Sequence[Any]) -> tuple[Any, ...]:
        v = list(srcs)
        for i, f in src_fix:
            v[i] = f(v[i])
        out = core(v)
        if dst_fix:
            lst = list(out)
            for i, f in dst_fix:
                lst[i] = f(lst[i])
            out = tuple(lst)
        return out

    def evaluate_fix(srcs: Sequence[Any]) -> tuple[Any, ...]:
        with ign(all="ignore"):
            return raw(srcs)
    evaluate_fix.raw = raw  # type: ignore[attr-defined]
    return evaluate_fix


def immediate_bits(operand: Operand, ptx_type: str) -> np.generic:
    """Raw bits of an IR immediate as the numpy scalar an `Op` expects for ``ptx_type``.

    Integer literals are taken modulo 2^width for integer/bit types and converted by value
    for f32/f64; ``0f``/``0d`` literals keep their bits for a bit/int type of the same width
    and are converted by value between f32 and f64 (f64 -> f32 rounds to nearest even; a
    decimal float literal is an f64 literal)."""
    if operand.kind is not OpKind.IMM:
        raise _unsupported_operand(operand, ptx_type)
    if ptx_type == "pred":
        return np.bool_(operand.value != 0)
    bits = TYPE_BITS[ptx_type]
    ut = U_OF[bits]
    fmt = operand.fmt
    if fmt == "i":
        if ptx_type in ("f32", "f64"):
            return ut(_float_bits(float(operand.value), bits))
        return ut(operand.value & ((1 << bits) - 1))
    src_bits = 32 if fmt == "f32" else 64
    if ptx_type in ("f32", "f64") and bits != src_bits:
        value = _bits_float(operand.value, src_bits)
        return ut(_float_bits(value, bits))
    if bits != src_bits:
        raise _unsupported_operand(operand, ptx_type)
    return ut(operand.value & ((1 << bits) - 1))


def _bits_float(b: int, bits: int) -> float:
    if bits == 32:
        return float(np.uint32(b).view(np.float32))
    return float(np.uint64(b).view(np.float64))


def _float_bits(x: float, bits: int) -> int:
    if bits == 32:
        return int(np.float32(x).view(np.uint32))  # round to nearest even (NaN/inf kept)
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def _unsupported_operand(operand: Operand, ptx_type: str) -> UnsupportedPTXError:
    """Error for an immediate that cannot be used as a value of ``ptx_type``."""
    return UnsupportedPTXError(
        f"immediate {operand.value:#x} ({operand.fmt}) cannot be used as .{ptx_type}",
        hint="use an immediate whose width matches the instruction type")
