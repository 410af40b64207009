"""Vectorised semantics of the PTX logic and bit-manipulation instructions.

Follows: PTX ISA 9.x §9.7.8 (and, or, xor, not, cnot, lop3, shf, shl, shr) and §9.7.1 / §9.7.9
(bfe, bfi, bmsk, prmt, clz, popc, brev, bfind).
Shift amounts are u32 operands whatever the instruction type; amounts >= the width give 0
(shl, shr.u) or the sign fill (shr.s). bfe/bfi take position and length from bits 7..0 of
their u32 operands (0..255). ``bmsk.{clamp,wrap}.b32 d, a, b`` is the mask of ``b`` bits from
bit ``a`` (cut at bit 31); ``.wrap`` takes a and b modulo 32, ``.clamp`` gives 0 for a >= 32 and
takes b >= 32 as "every bit from a up" (the ISA's pseudo-code: mask0 & ~mask1).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from warpsim.functional.opdef import I_OF, U_OF, Core, unsupported
from warpsim.ptx.ir import TYPE_BITS, Instruction, OpKind

__all__ = ["BIT_OPCODES", "build_bit"]

BIT_OPCODES = frozenset({"and", "or", "xor", "not", "cnot", "shl", "shr", "bfe", "bfi",
                         "bmsk", "prmt", "clz", "popc", "brev", "bfind", "shf", "lop3"})
_B = frozenset({"b16", "b32", "b64"})
_FF = np.uint32(0xFF)
_REV8 = np.array([int(f"{i:08b}"[::-1], 2) for i in range(256)], dtype=np.uint8)
# prmt modes: selector c[1:0] -> source byte index for result bytes b0..b3
_PRMT = {
    "f4e": ((0, 1, 2, 3), (1, 2, 3, 4), (2, 3, 4, 5), (3, 4, 5, 6)),
    "b4e": ((0, 7, 6, 5), (1, 0, 7, 6), (2, 1, 0, 7), (3, 2, 1, 0)),
    "rc8": ((0, 0, 0, 0), (1, 1, 1, 1), (2, 2, 2, 2), (3, 3, 3, 3)),
    "ecl": ((0, 1, 2, 3), (1, 1, 2, 3), (2, 2, 2, 3), (3, 3, 3, 3)),
    "ecr": ((0, 0, 0, 0), (0, 1, 1, 1), (0, 1, 2, 2), (0, 1, 2, 3)),
    "rc16": ((0, 1, 0, 1), (2, 3, 2, 3), (0, 1, 0, 1), (2, 3, 2, 3)),
}


def _bitlen32(x: Any) -> Any:
    """Bit length (0..32) of uint32 values (exact: u32 is exact in f64)."""
    return np.frexp(x.astype(np.float64))[1].astype(np.uint32)


def _bitlen(x: Any, bits: int) -> Any:
    if bits == 32:
        return _bitlen32(x)
    hi = (x >> np.uint64(32)).astype(np.uint32)
    lo = (x & np.uint64(0xFFFFFFFF)).astype(np.uint32)
    return np.where(hi != 0, _bitlen32(hi) + np.uint32(32), _bitlen32(lo))


def _shift(op: str, t: str, bits: int) -> Callable[[Any], tuple[Any, ...]]:
    """Shift closures. An immediate amount (a numpy scalar, the common ``shl.b64 %rd, %rd, 2``)
    below the width shifts with one operation; the general path handles per-lane amounts and
    amounts >= the width (same bits either way)."""
    ut = U_OF[bits]
    w = np.uint32(bits)
    m = np.uint32(bits - 1)
    if op == "shl":
        def f_shl(s: Any) -> tuple[Any, ...]:
            a, n = s
            if type(n) is not np.ndarray and n < w and type(a) is np.ndarray:
                r = a << ut(n)
                return (r if r.dtype == ut else r.astype(ut),)
            r = (a << (n & m).astype(ut)).astype(ut)
            return (np.where(n < w, r, ut(0)),)
        return f_shl
    if t[0] == "s":
        it = I_OF[bits]

        def f_sar(s: Any) -> tuple[Any, ...]:
            a, n = s
            if type(n) is not np.ndarray and type(a) is np.ndarray and a.dtype == ut:
                return ((a.view(it) >> it(min(int(n), bits - 1))).view(ut),)
            return ((a.view(it) >> np.minimum(n, m).astype(it)).view(ut),)
        return f_sar

    def f_shr(s: Any) -> tuple[Any, ...]:
        a, n = s
        if type(n) is not np.ndarray and n < w and type(a) is np.ndarray:
            r = a >> ut(n)
            return (r if r.dtype == ut else r.astype(ut),)
        r = (a >> (n & m).astype(ut)).astype(ut)
        return (np.where(n < w, r, ut(0)),)
    return f_shr


def _bfe(bits: int, signed: bool) -> Callable[[Any], tuple[Any, ...]]:
    ut = U_OF[bits]
    u64 = np.uint64

    def fn(s: Any) -> tuple[Any, ...]:
        a, b, c = s
        pos = (b & _FF).astype(u64)
        ln = (c & _FF).astype(u64)
        x = a.astype(u64)
        w = u64(bits)
        avail = np.minimum(ln, np.where(pos < w, w - np.minimum(pos, w), u64(0)))  # bits taken
        sh = np.minimum(pos, u64(63))
        field = np.where(pos < w, x >> sh, u64(0))
        mask = np.where(avail >= u64(64), u64(~0 & 0xFFFFFFFFFFFFFFFF),
                        (u64(1) << np.minimum(avail, u64(63))) - u64(1))
        field = field & mask
        if signed:
            msb = np.minimum(pos + ln - u64(1), w - u64(1))
            sbit = ((x >> np.minimum(msb, u64(63))) & u64(1)).astype(bool) & (ln != 0)
            field = np.where(sbit, field | ~mask, field)
        return (field.astype(ut),)
    return fn


def _bfi(bits: int) -> Callable[[Any], tuple[Any, ...]]:
    ut = U_OF[bits]
    u64 = np.uint64

    def fn(s: Any) -> tuple[Any, ...]:
        a, b, c, d = s
        pos = (c & _FF).astype(u64)
        ln = (d & _FF).astype(u64)
        w = u64(bits)
        avail = np.minimum(ln, np.where(pos < w, w - np.minimum(pos, w), u64(0)))
        low = np.where(avail >= u64(64), u64(0xFFFFFFFFFFFFFFFF),
                       (u64(1) << np.minimum(avail, u64(63))) - u64(1))
        sh = np.minimum(pos, u64(63))
        mask = (low << sh).astype(ut)
        ins = (a.astype(u64) << sh).astype(ut)
        return ((b & ~mask) | (ins & mask),)
    return fn


def _prmt_plan(mode: str, c: int) -> tuple[tuple[int, int, int, bool], ...]:
    """Plan for a constant selector: (word 0=a/1=b, left shift, mask, sign-replicate) terms,
    bytes moved by the same shift from the same word merged into one masked term."""
    if mode == "":
        moves = [((c >> (4 * i)) & 7, i, bool((c >> (4 * i + 3)) & 1)) for i in range(4)]
    else:
        moves = [(src, i, False) for i, src in enumerate(_PRMT[mode][c & 3])]
    terms: dict[tuple[int, int, bool], int] = {}
    for src, dst, rep in moves:
        word, byte = divmod(src, 4)
        shift = 8 * (dst - byte) if not rep else 8 * byte + 7  # rep: which bit is the sign
        key = (word, shift, rep)
        terms[key] = terms.get(key, 0) | (0xFF << (8 * dst))
    return tuple((w, sh, m, rep) for (w, sh, rep), m in terms.items())


def _prmt(mode: str) -> Callable[[Any], tuple[Any, ...]]:
    u64, u32 = np.uint64, np.uint32
    plans: dict[int, tuple[tuple[int, int, int, bool], ...]] = {}

    def fn(s: Any) -> tuple[Any, ...]:
        a, b, c = s
        if np.ndim(c) == 0:  # the usual case: an immediate selector, planned once
            key = int(c)
            plan = plans.get(key)
            if plan is None:
                plan = plans.setdefault(key, _prmt_plan(mode, key))
            out = u32(0)
            for word, sh, m, rep in plan:
                x = b if word else a
                if rep:  # all ones where the selected byte's sign bit is set
                    v = ((x << u32(31 - sh)).view(np.int32) >> 31).view(u32)
                elif sh >= 0:
                    v = x << u32(sh)
                else:
                    v = x >> u32(-sh)
                out = out | (v & u32(m))
            return (out,)
        x = (b.astype(u64) << u64(32)) | a.astype(u64)
        if mode == "":
            sel = [(c >> u32(4 * i)) & u32(0xF) for i in range(4)]
            idx = [(q & u32(7)).astype(u64) for q in sel]
        else:
            table = np.array(_PRMT[mode], dtype=np.uint64)
            rows = table[(c & u32(3)).astype(np.intp)]
            sel = None
            idx = [rows[..., i] for i in range(4)]
        out = u32(0)
        for i in range(4):
            byte = ((x >> (idx[i] * u64(8))) & u64(0xFF)).astype(u32)
            if sel is not None:
                neg = ((sel[i] >> u32(3)) & (byte >> u32(7))).astype(u32)
                rep = (sel[i] >> u32(3)).astype(bool)
                byte = np.where(rep, neg * u32(0xFF), byte)
            out = out | (byte << u32(8 * i))
        return (out,)
    return fn


def _brev(bits: int) -> Callable[[Any], tuple[Any, ...]]:
    ut = U_OF[bits]

    def fn(s: Any) -> tuple[Any, ...]:
        a = np.ascontiguousarray(s[0], dtype=ut)
        return (_REV8[a.byteswap().view(np.uint8)].view(ut).reshape(a.shape),)
    return fn


def _lop3(lut: int) -> Callable[[Any], tuple[Any, ...]]:
    def fn(s: Any) -> tuple[Any, ...]:
        a, b, c = s[0], s[1], s[2]
        out = np.uint32(0) & a
        for k in range(8):  # minterm k = (a bit 2, b bit 1, c bit 0) per the 0xF0/0xCC/0xAA
            if lut >> k & 1:
                ta = a if k & 4 else ~a
                tb = b if k & 2 else ~b
                tc = c if k & 1 else ~c
                out = out | (ta & tb & tc)
        return (out,)
    return fn


def build_bit(inst: Instruction) -> Core:
    """Core for a logic / bit-manipulation instruction (raises UnsupportedPTXError otherwise)."""
    op = inst.opcode
    mods = set(inst.mods)
    t = inst.types[0] if len(inst.types) == 1 else ""

    def bad(why: str) -> None:
        raise unsupported(inst, why)

    if op in ("and", "or", "xor", "not", "cnot"):
        if mods or t not in _B | {"pred"} or (op == "cnot" and t == "pred"):
            bad(f"{op} takes .b16/.b32/.b64{'' if op == 'cnot' else '/.pred'}, no modifiers")
        if t == "pred":
            f2 = {"and": np.logical_and, "or": np.logical_or, "xor": np.logical_xor}
            if op == "not":
                return Core(lambda s: (np.logical_not(s[0]),), (t,), (t,))
            g = f2[op]
            return Core(lambda s: (g(s[0], s[1]),), (t, t), (t,))
        ut = U_OF[TYPE_BITS[t]]
        if op == "not":
            return Core(lambda s: (~s[0],), (t,), (t,))
        if op == "cnot":
            return Core(lambda s: ((s[0] == 0).astype(ut),), (t,), (t,))
        g = {"and": np.bitwise_and, "or": np.bitwise_or, "xor": np.bitwise_xor}[op]
        return Core(lambda s: (g(s[0], s[1]),), (t, t), (t,))
    if op in ("shl", "shr"):
        ok = _B | {"u16", "u32", "u64", "s16", "s32", "s64"} if op == "shr" else _B
        if mods or t not in ok:
            bad(f"{op} type .{t} not valid")
        return Core(_shift(op, t, TYPE_BITS[t]), (t, "u32"), (t,))
    if op == "bfe":
        if mods or t not in ("u32", "s32", "u64", "s64"):
            bad("bfe takes .u32/.s32/.u64/.s64")
        return Core(_bfe(TYPE_BITS[t], t[0] == "s"), (t, "u32", "u32"), (t,))
    if op == "bfi":
        if mods or t not in ("b32", "b64"):
            bad("bfi takes .b32/.b64")
        return Core(_bfi(TYPE_BITS[t]), (t, t, "u32", "u32"), (t,))
    if op == "bmsk":
        kinds = mods & {"wrap", "clamp"}
        if len(kinds) != 1 or mods - kinds or t != "b32":
            bad("bmsk needs .clamp or .wrap and .b32")
        return Core(_bmsk("clamp" in kinds), (t, t), (t,))
    if op == "prmt":
        modes = mods & set(_PRMT)
        if t != "b32" or mods - modes or len(modes) > 1:
            bad("prmt takes .b32 with at most one of .f4e/.b4e/.rc8/.ecl/.ecr/.rc16")
        return Core(_prmt(next(iter(modes)) if modes else ""), (t, t, t), (t,))
    if op in ("clz", "popc", "brev"):
        if mods or t not in ("b32", "b64"):
            bad(f"{op} takes .b32/.b64")
        bits = TYPE_BITS[t]
        if op == "clz":
            return Core(lambda s: (np.uint32(bits) - _bitlen(s[0], bits),), (t,), ("u32",))
        if op == "popc":
            return Core(lambda s: (np.bitwise_count(s[0]).astype(np.uint32),), (t,), ("u32",))
        return Core(_brev(bits), (t,), (t,))
    if op == "bfind":
        if mods - {"shiftamt"} or t not in ("u32", "s32", "u64", "s64"):
            bad("bfind takes .u32/.s32/.u64/.s64 and optional .shiftamt")
        return Core(_bfind(TYPE_BITS[t], t[0] == "s", "shiftamt" in mods), (t,), ("u32",))
    if op == "shf":
        dirs, kinds = mods & {"l", "r"}, mods & {"wrap", "clamp"}
        if len(dirs) != 1 or len(kinds) != 1 or mods - dirs - kinds or t != "b32":
            bad("shf needs .l/.r, .wrap/.clamp and .b32")
        return Core(_shf("l" in dirs, "wrap" in kinds), (t, t, "u32"), (t,))
    if op == "lop3":
        if mods or t != "b32" or len(inst.srcs) != 4 or inst.srcs[3].kind is not OpKind.IMM:
            bad("lop3 takes .b32 with an immediate LUT (the predicate form is not implemented)")
        return Core(_lop3(inst.srcs[3].value & 0xFF), (t, t, t, "b32"), (t,))
    raise unsupported(inst, f"opcode {op} is not a bit instruction")


def _bfind(bits: int, signed: bool, shiftamt: bool) -> Callable[[Any], tuple[Any, ...]]:
    ut, it = U_OF[bits], I_OF[bits]
    none = np.uint32(0xFFFFFFFF)

    def fn(s: Any) -> tuple[Any, ...]:
        a = s[0]
        if signed:
            a = np.where(a.view(it) < 0, ~a, a).astype(ut)
        n = _bitlen(a, bits)
        pos = n - np.uint32(1)
        if shiftamt:
            pos = np.uint32(bits - 1) - pos
        return (np.where(n == 0, none, pos),)
    return fn


def _shf(left: bool, wrap: bool) -> Callable[[Any], tuple[Any, ...]]:
    u64 = np.uint64

    def fn(s: Any) -> tuple[Any, ...]:
        a, b, c = s
        n = (c & np.uint32(31)) if wrap else np.minimum(c, np.uint32(32))
        x = (b.astype(u64) << u64(32)) | a.astype(u64)
        if left:
            return (((x << n.astype(u64)) >> u64(32)).astype(np.uint32),)
        return ((x >> n.astype(u64)).astype(np.uint32),)
    return fn


def _bmsk(clamp: bool) -> Callable[[Any], tuple[Any, ...]]:
    u64 = np.uint64
    ones = u64(0xFFFFFFFF)

    def fn(s: Any) -> tuple[Any, ...]:
        a, b = (np.asarray(x).astype(u64) for x in s)
        a1, b1 = a & u64(31), b & u64(31)
        mask0 = (ones << a1) & ones
        end = a1 + b1  # 0..62: a uint64 shift, no overflow
        over = end >= u64(32)
        if clamp:
            mask0 = np.where(a >= u64(32), u64(0), mask0)
            over = over | (a >= u64(32)) | (b >= u64(32))
        mask1 = np.where(over, u64(0), np.where(b1 == u64(0), ones, (ones << end) & ones))
        return ((mask0 & ~mask1 & ones).astype(np.uint32),)
    return fn
