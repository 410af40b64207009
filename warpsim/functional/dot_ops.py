"""Vectorised semantics of the PTX integer dot-product instructions dp4a and dp2a.

Follows: PTX ISA 9.x §9.7.1.23-24: ``dp4a.atype.btype d, a, b, c`` adds to c the four products
of corresponding bytes of a and b; ``dp2a.{lo,hi}.atype.btype`` the two products of the 16-bit
halves of a with bytes 0,1 (``.lo``) or 2,3 (``.hi``) of b. Bytes and halves are sign- or
zero-extended per their type; c and d are .s32 when either type is signed, else .u32; the sum
wraps modulo 2^32.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from warpsim.functional.opdef import Core, unsupported
from warpsim.ptx.ir import Instruction

__all__ = ["DOT_OPCODES", "build_dot"]

DOT_OPCODES = frozenset({"dp4a", "dp2a"})


def _field(x: Any, shift: int, bits: int, signed: bool) -> Any:
    """Bits [shift, shift+bits) of uint32 x as int64, sign-extended when ``signed``."""
    v = ((x >> np.uint32(shift)) & np.uint32((1 << bits) - 1)).astype(np.int64)
    if signed:
        v = v - ((v >> (bits - 1)) << bits)
    return v


def _dot(four: bool, hi: bool, sa: bool, sb: bool) -> Callable[[Any], tuple[Any, ...]]:
    def fn(s: Any) -> tuple[Any, ...]:
        a, b, c = s
        acc = c.astype(np.int64)
        if four:
            for i in range(4):
                acc = acc + _field(a, 8 * i, 8, sa) * _field(b, 8 * i, 8, sb)
        else:
            k = 2 if hi else 0
            for i in range(2):
                acc = acc + _field(a, 16 * i, 16, sa) * _field(b, 8 * (k + i), 8, sb)
        return (acc.astype(np.uint64).astype(np.uint32),)
    return fn


def build_dot(inst: Instruction) -> Core:
    """Core for dp4a / dp2a (raises UnsupportedPTXError for other forms)."""
    op = inst.opcode
    mods = set(inst.mods)
    types = inst.types
    if len(types) != 2 or any(t not in ("u32", "s32") for t in types):
        raise unsupported(inst, f"{op} takes .atype.btype from .u32/.s32")
    bad_dp2a = op == "dp2a" and (len(mods) != 1 or bool(mods - {"lo", "hi"}))
    if (op == "dp4a" and mods) or bad_dp2a:
        raise unsupported(inst, "dp2a needs .lo or .hi; dp4a takes no modifier")
    sa, sb = types[0] == "s32", types[1] == "s32"
    ct = "s32" if sa or sb else "u32"
    return Core(_dot(op == "dp4a", "hi" in mods, sa, sb), (types[0], types[1], ct), (ct,))
