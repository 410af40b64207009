"""Vectorised semantics of the PTX data-movement and conversion instructions mov and cvt.

Follows: PTX ISA 9.x §9.7.9 (mov, including the vector pack/unpack forms) and §9.7.9.21 (cvt:
integer rounding .rni/.rzi/.rmi/.rpi, float rounding .rn/.rz/.rm/.rp, .ftz, .sat).
* int -> int: sign- or zero-extension by the source type, truncation when narrowing; ``.sat``
  clamps to the destination range.
* float -> int: rounded per the integer rounding modifier, saturated to the destination range
  (PTX: float-to-integer conversions always saturate). NaN gives 0x8000000000000000 into 64
  bits, 0x80000000 from f64 into 32 bits and 0 from f32 into 32 bits, as on an NVIDIA H200
  (validation/results/h200/conversions.json); [A] 0 into 8/16 bits.
* f16 takes part in conversions only (no f16 arithmetic): f16 <-> f32/f64/integers.
* int -> float and narrowing float -> float: correctly rounded in the requested mode (exact
  directed modes); ``.sat`` clamps to [0, 1]; ``.ftz`` flushes f32 subnormals.
* same-type float cvt with an integer rounding modifier rounds to an integral value.
* NaN results: a conversion from or to f64 keeps the sign and payload, quieted (as the H200
  does, ``_nan_payload``; [A] cvt.f64.f16 unmeasured); others give the canonical NaN.
Assumptions: [A] int->float without a rounding modifier rounds to nearest.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from warpsim.functional.fp_rounding import (
    canon16,
    canon32,
    canon64,
    directed_f64,
    flush32,
    round_f64_to,
    sat,
    to_odd,
    two_sum,
)
from warpsim.functional.opdef import I_OF, U_OF, Core, unsupported
from warpsim.functional.reduced_floats import REDUCED_TYPES, build_cvt_reduced
from warpsim.ptx.ir import TYPE_BITS, Instruction, OpKind

__all__ = ["CONVERT_OPCODES", "build_cvt", "build_mov"]

CONVERT_OPCODES = frozenset({"mov", "cvt"})
_IRND = {"rni": np.rint, "rzi": np.trunc, "rmi": np.floor, "rpi": np.ceil}
_FRND = frozenset({"rn", "rz", "rm", "rp"})
_INTS = frozenset({"u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64"})
_FT: dict[str, Any] = {"f16": np.float16, "f32": np.float32, "f64": np.float64}
_CANON: dict[str, Callable[[Any], Any]] = {"f16": canon16, "f32": canon32, "f64": canon64}
_MOV_T = frozenset({"pred", "b16", "b32", "b64", "u16", "u32", "u64", "s16", "s32", "s64",
                    "f32", "f64"})


def build_mov(inst: Instruction) -> Core:
    """Core for mov: register/immediate copy, or vector pack / unpack."""
    if inst.mods or len(inst.types) != 1 or inst.types[0] not in _MOV_T:
        raise unsupported(inst, "mov takes one of .pred/.b16/.b32/.b64/.u*/.s*/.f32/.f64")
    t = inst.types[0]
    bits = TYPE_BITS[t]
    ut = U_OF.get(bits)
    src = inst.srcs[0] if len(inst.srcs) == 1 else None
    dst = inst.dsts[0] if len(inst.dsts) == 1 else None
    if src is None or dst is None:
        raise unsupported(inst, "mov takes one destination and one source")
    if src.kind is OpKind.VECTOR:  # pack: mov.b64 %rd, {lo, hi}
        n = len(src.elems)
        if t[0] != "b" or n not in (2, 4) or bits % n:
            raise unsupported(inst, "vector mov packs 2 or 4 elements into a .b32/.b64")
        ew = bits // n
        et = f"b{ew}"

        def pack(s: Any) -> tuple[Any, ...]:
            out = s[0].astype(ut)
            for i in range(1, n):
                out = out | (s[i].astype(ut) << ut(ew * i))
            return (out,)
        return Core(pack, (et,) * n, (t,))
    if dst.kind is OpKind.VECTOR:  # unpack: mov.b64 {lo, hi}, %rd
        n = len(dst.elems)
        if t[0] != "b" or n not in (2, 4) or bits % n:
            raise unsupported(inst, "vector mov unpacks a .b32/.b64 into 2 or 4 elements")
        ew = bits // n
        et = f"b{ew}"
        eu = U_OF[ew]

        def unpack(s: Any) -> tuple[Any, ...]:
            a = s[0]
            return tuple((a >> ut(ew * i)).astype(eu) for i in range(n))
        return Core(unpack, (t,), (et,) * n)
    return Core(_identity, (t,), (t,))


def _identity(s: Any) -> tuple[Any, ...]:
    return (s[0],)


def _int_to_int(st: str, dt: str, satm: bool) -> Callable[[Any], tuple[Any, ...]]:
    sb, db = TYPE_BITS[st], TYPE_BITS[dt]
    su, du = U_OF[sb], U_OF[db]
    ssig, dsig = st[0] == "s", dt[0] == "s"
    if not satm:
        if ssig and db > sb:
            return lambda s: (s[0].view(I_OF[sb]).astype(I_OF[db]).view(du),)
        return lambda s: (s[0].astype(du),)
    # saturate: clamp the source value to the destination range, expressed in the source domain
    lo = -(1 << (db - 1)) if dsig else 0
    hi = (1 << (db - 1)) - 1 if dsig else (1 << db) - 1
    smin = -(1 << (sb - 1)) if ssig else 0
    smax = (1 << (sb - 1)) - 1 if ssig else (1 << sb) - 1
    lo_c, hi_c = max(lo, smin), min(hi, smax)
    view_t = I_OF[sb] if ssig else su

    def fn(s: Any) -> tuple[Any, ...]:
        v = np.clip(s[0].view(view_t), view_t(lo_c), view_t(hi_c))
        if ssig:
            return (v.astype(I_OF[max(sb, db)]).view(U_OF[max(sb, db)]).astype(du),)
        return (v.astype(du),)
    return fn


def _int_to_f64_parts(st: str) -> Callable[[Any], tuple[Any, Any]]:
    """Exact value of an integer as an unevaluated f64 sum (s = RN(x), e = x - s)."""
    sb = TYPE_BITS[st]
    if sb <= 32:
        it = I_OF[sb] if st[0] == "s" else U_OF[sb]
        return lambda a: (a.view(it).astype(np.float64), np.float64(0.0))

    def parts(a: Any) -> tuple[Any, Any]:
        hi = (a.view(np.int64) >> 32) if st[0] == "s" else (a >> np.uint64(32))
        hi_f = hi.astype(np.float64) * 4294967296.0
        lo_f = (a & np.uint64(0xFFFFFFFF)).astype(np.float64)
        return two_sum(hi_f, lo_f)
    return parts


def _float_to_int(st: str, dt: str, irnd: str, ftz: bool) -> Callable[[Any], tuple[Any, ...]]:
    ft = _FT[st]
    db = TYPE_BITS[dt]
    du = U_OF[db]
    rnd = _IRND[irnd]
    if dt[0] == "s":
        lo, hi = -(2.0 ** (db - 1)), 2.0 ** (db - 1)
        it = I_OF[db]
        imin, imax = it(np.iinfo(it).min), it(np.iinfo(it).max)
    else:
        lo, hi = 0.0, 2.0 ** db
        it = du
        imin, imax = du(0), du(np.iinfo(du).max)

    # NaN -> integer on the H200: 0x8000000000000000 for a 64-bit destination, 0x80000000 for
    # a 32-bit one from f64, 0 from f32 (or f16) to 32 bits; signed or unsigned alike
    # (validation/results/h200/conversions.json). [A] 0 for 8/16-bit destinations (unmeasured).
    nan_int = du(1 << (db - 1)) if db == 64 or (db == 32 and st == "f64") else None

    if db <= 32:
        lo_c, hi_c = float(imin), float(imax)

        def fn_small(s: Any) -> tuple[Any, ...]:
            a = flush32(s[0]) if ftz else s[0]
            x = a.view(ft)
            y = np.clip(rnd(x.astype(np.float64)), lo_c, hi_c)
            # NaN converts to 0x8000000000000000 (x86) or 0 (ARM): low 32 bits are 0 either way
            v = y.astype(np.int64).astype(du)
            return (v if nan_int is None else np.where(x != x, nan_int, v),)
        return fn_small

    def fn(s: Any) -> tuple[Any, ...]:
        a = flush32(s[0]) if ftz else s[0]
        y = rnd(a.view(ft).astype(np.float64))
        ok = (y >= lo) & (y < hi)
        v = np.where(ok, y, 0.0).astype(it)
        v = np.where(y >= hi, imax, np.where(y < lo, imin, v))
        return (np.where(y != y, nan_int, v.astype(it).view(du)),)
    return fn


def build_cvt(inst: Instruction) -> Core:
    """Core for cvt (.bf16/.bf16x2/.tf32: ``reduced_floats.py``; raises
    UnsupportedPTXError for fp8 and packing forms)."""
    if len(inst.types) != 2:
        raise unsupported(inst, "cvt takes a destination and a source type")
    dt, st = inst.types
    if dt in REDUCED_TYPES or st in REDUCED_TYPES:
        return build_cvt_reduced(inst)
    mods = set(inst.mods)
    irnd, frnd = mods & set(_IRND), mods & _FRND
    ftz, satm = "ftz" in mods, "sat" in mods
    ok_t = _INTS | set(_FT)
    if dt not in ok_t or st not in ok_t:
        raise unsupported(inst, f"conversion .{dt}.{st} is not implemented",
                          "fp8 conversions and cvt.pack are not implemented")
    if mods - set(_IRND) - _FRND - {"ftz", "sat"} or len(irnd) + len(frnd) > 1:
        raise unsupported(inst, "bad rounding / modifier combination")
    if ftz and "f32" not in (dt, st):
        raise unsupported(inst, ".ftz needs an .f32 operand")
    if dt in _INTS and st in _INTS:
        if irnd or frnd or ftz:
            raise unsupported(inst, "integer-to-integer cvt takes only .sat")
        return Core(_int_to_int(st, dt, satm), (st,), (dt,))
    if dt in _INTS:  # float -> int
        if frnd or not irnd:  # .sat is allowed and redundant: the result always saturates
            raise unsupported(inst, "float-to-integer cvt needs .rni/.rzi/.rmi/.rpi")
        return Core(_float_to_int(st, dt, irnd.pop(), ftz), (st,), (dt,))
    if st in _INTS:  # int -> float
        if irnd:
            raise unsupported(inst, "int-to-float cvt takes .rn/.rz/.rm/.rp")
        mode = frnd.pop() if frnd else "rn"
        parts = _int_to_f64_parts(st)

        def i2f(s: Any) -> tuple[Any, ...]:
            hi, lo = parts(s[0])
            if dt == "f64":
                r = directed_f64(hi, lo, mode)
                if satm:
                    r = sat(r)
                return (r.view(np.uint64),)
            r = round_f64_to(to_odd(hi, lo) if TYPE_BITS[st] == 64 else hi, mode, _FT[dt])
            if satm:
                r = sat(r)
            bits = r.view(U_OF[TYPE_BITS[dt]])
            return (flush32(bits) if ftz else bits,)
        return Core(i2f, (st,), (dt,))
    return Core(_f2f(inst, dt, st, irnd, frnd, ftz, satm), (st,), (dt,))


_MANT = {"f16": 10, "f32": 23, "f64": 52}


def _nan_payload(st: str, dt: str) -> Callable[[Any, Any], Any]:
    """NaN results of a conversion that involves f64 (the double-precision unit), as the H200
    returns them: the source NaN's sign and payload, aligned at the top of the destination's
    mantissa (shifted left when widening, truncated when narrowing), quieted:
    cvt.f64.f32(0x7F800001) = 0x7FF8000020000000, cvt.rn.f32.f64(0xFFF8000000000001) =
    0xFFC00000, cvt.rn.f16.f64(0xFFF8000000000001) = 0xFE00, cvt.rni.f64.f64 quiets only
    (validation/results/h200/conversions.json). Other conversions give the canonical NaN."""
    if "f64" not in (st, dt):
        return lambda r, a: _CANON[dt](r)
    sb, db = TYPE_BITS[st], TYPE_BITS[dt]
    su, du = U_OF[sb], U_OF[db]
    ms, md = _MANT[st], _MANT[dt]
    exp_q = du(((1 << (db - md)) - 1) << (md - 1))  # exponent all ones and the quiet bit
    sh = abs(md - ms)

    def fn(r: Any, a: Any) -> Any:
        bits = r.view(du)
        nan = r != r
        if not nan.any():
            return bits
        sign = (a >> su(sb - 1)).astype(du) << du(db - 1)
        pay = a & su((1 << ms) - 1)
        pay = (pay.astype(du) << du(sh)) if md >= ms else (pay >> su(sh)).astype(du)
        return np.where(nan, sign | exp_q | pay, bits)
    return fn


def _f2f(inst: Instruction, dt: str, st: str, irnd: set[str], frnd: set[str], ftz: bool,
         satm: bool) -> Callable[[Any], tuple[Any, ...]]:
    canon = _nan_payload(st, dt)
    if TYPE_BITS[dt] < TYPE_BITS[st]:  # narrowing: correctly rounded in the requested mode
        if irnd:
            raise unsupported(inst, f"cvt.{dt}.{st} takes .rn/.rz/.rm/.rp")
        mode = frnd.pop() if frnd else "rn"
        sft, dft = _FT[st], _FT[dt]

        def narrow(s: Any) -> tuple[Any, ...]:
            a = flush32(s[0]) if ftz and st == "f32" else s[0]
            r = round_f64_to(a.view(sft).astype(np.float64), mode, dft)
            if satm:
                r = sat(r)
            b = canon(r, a)
            return (flush32(b) if ftz and dt == "f32" else b,)
        return narrow
    if frnd:
        raise unsupported(inst, f"cvt.{dt}.{st} takes no .rn/.rz/.rm/.rp (exact)")
    rnd = _IRND[irnd.pop()] if irnd else None
    sft, dft = _FT[st], _FT[dt]

    def widen(s: Any) -> tuple[Any, ...]:  # exact (same type: optional round to integral)
        a = flush32(s[0]) if ftz and st == "f32" else s[0]
        r = a.view(sft)
        if dft is not sft:
            r = r.astype(dft)
        if rnd is not None:
            r = rnd(r)
        if satm:
            r = sat(r)
        b = canon(r, a)
        return (flush32(b) if ftz and dt == "f32" else b,)
    return widen
