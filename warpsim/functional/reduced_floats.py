"""``cvt`` to and from the tensor cores' reduced formats: .bf16 (and the .bf16x2 pack) and
.tf32.

Follows: PTX ISA 9.x §9.7.9.21 (``cvt``: ``cvt.frnd.bf16.f32``, ``cvt.f32.bf16``,
``cvt.frnd.bf16x2.f32 d, a, b`` packing a into the upper and b into the lower half,
``cvt.rna{.satfinite}.tf32.f32``, ``cvt.{rn,rz}{.satfinite}{.relu}.tf32.f32``), §5.2.5
(.bf16: the upper 16 bits of an .f32; .tf32: an .f32 whose low 13 mantissa bits are zero).
Assumptions:
  [A] A NaN source gives the canonical NaN of the destination (0x7FFF for .bf16,
      0x7FFFFFFF for .tf32), as the hardware's other narrowing conversions do.
  [A] ``.satfinite`` turns an infinite result into the largest finite value of its sign
      (and NaN into NaN); ``.relu`` clamps negative results (not NaN) to +0.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from warpsim.functional.opdef import Core, unsupported
from warpsim.ptx.ir import Instruction

__all__ = ["REDUCED_TYPES", "build_cvt_reduced"]

REDUCED_TYPES = frozenset({"bf16", "bf16x2", "tf32"})
_SIGN = np.uint32(0x80000000)
_ABS = np.uint32(0x7FFFFFFF)
_INF = np.uint32(0x7F800000)


def _round_low(bits: np.ndarray, drop: int, mode: str) -> np.ndarray:
    """``bits`` (.f32, as uint32) rounded to keep all but the low ``drop`` bits (which come
    back zero) in ``mode``: rn (ties to even), rna (ties away), rz (toward zero)."""
    b = bits.astype(np.uint64)
    low = np.uint64((1 << drop) - 1)
    if mode == "rn":
        b = b + (low >> np.uint64(1)) + ((b >> np.uint64(drop)) & np.uint64(1))
    elif mode == "rna":
        b = b + (np.uint64(1) << np.uint64(drop - 1))
    elif mode != "rz":
        raise ValueError(mode)
    return (b & ~low & np.uint64(0xFFFFFFFF)).astype(np.uint32)


def _narrow(drop: int, mode: str, nan: int, satf: bool, relu: bool
            ) -> Callable[[np.ndarray], np.ndarray]:
    """.f32 bits -> the rounded .f32 bits (low ``drop`` bits zero), NaN -> ``nan``."""
    def fn(a: np.ndarray) -> np.ndarray:
        a = a.astype(np.uint32)
        is_nan = (a & _ABS) > _INF
        r = _round_low(a, drop, mode)
        if satf:
            top = np.uint32(0x7F800000 - (1 << drop))           # largest finite, low bits 0
            r = np.where((r & _ABS) == _INF, (r & _SIGN) | top, r)
        if relu:
            r = np.where((r & _SIGN) != 0, np.uint32(0), r)
        return np.where(is_nan, np.uint32(nan), r).astype(np.uint32)
    return fn


def build_cvt_reduced(inst: Instruction) -> Core:
    """Core of a ``cvt`` whose destination or source is .bf16, .bf16x2 or .tf32."""
    dt, st = inst.types
    mods = set(inst.mods)
    rounding = mods & {"rn", "rna", "rz", "rm", "rp"}
    satf, relu = "satfinite" in mods, "relu" in mods
    if mods - {"rn", "rna", "rz", "rm", "rp", "satfinite", "relu"} or len(rounding) > 1:
        raise unsupported(inst, "bad rounding / modifier combination",
                          ".rn/.rz (.rna for .tf32), .satfinite, .relu")
    mode = rounding.pop() if rounding else ""
    if st == "bf16" and dt == "f32" and not mode:
        return Core(lambda s: ((s[0].astype(np.uint32) << np.uint32(16)),), (st,), (dt,))
    if st != "f32":
        raise unsupported(inst, f"conversion .{dt}.{st} is not implemented",
                          "from .f32: .bf16, .bf16x2, .tf32; to .f32: .bf16")
    if mode not in ("rn", "rz", "rna"):
        raise unsupported(inst, f"cvt.{mode or '(no rounding)'}.{dt}.f32",
                          f"cvt.{dt}.f32 takes .rn or .rz" + (" or .rna" if dt == "tf32" else ""))
    if dt == "tf32":
        f = _narrow(13, mode, 0x7FFFFFFF, satf, relu)
        return Core(lambda s: (f(s[0]),), (st,), (dt,))
    if mode == "rna":
        raise unsupported(inst, f"cvt.rna.{dt}.f32", "only .tf32 takes .rna")
    g = _narrow(16, mode, 0x7FFF0000, satf, relu)

    def half(a: Any) -> np.ndarray:
        return (g(a) >> np.uint32(16)).astype(np.uint16)
    if dt == "bf16":
        return Core(lambda s: (half(s[0]),), (st,), (dt,))
    if dt == "bf16x2":
        return Core(lambda s: ((half(s[0]).astype(np.uint32) << np.uint32(16))
                               | half(s[1]).astype(np.uint32),), (st, st), (dt,))
    raise unsupported(inst, f"conversion .{dt}.{st} is not implemented",
                      "from .f32: .bf16, .bf16x2, .tf32; to .f32: .bf16")
