"""Vectorised semantics of the PTX approximate math instructions (MUFU-class).

Follows: PTX ISA 9.x §9.7.3 (rsqrt.approx, ex2.approx, lg2.approx, sin.approx, cos.approx,
tanh.approx) and the maximum errors it documents: ex2.approx.f32 2 ulp; lg2.approx.f32
2^-22.6 absolute (|x| in 0.5..2) / relative otherwise; sin/cos.approx.f32 2^-20.9 absolute in
-pi..pi; rsqrt.approx.f32 2 ulp; tanh.approx.f32 2^-11 relative.
Every function is evaluated in float64 and rounded once to the result type, which is well
inside those bounds (the result is the correctly rounded value in almost every case).
Special values follow PTX: ex2(-inf) = +0, ex2(+inf) = +inf; lg2(+-0) = -inf, lg2(x<0) = NaN,
lg2(+inf) = +inf; sin/cos(+-inf) = NaN; rsqrt(+-0) = +-inf, rsqrt(x<0) = NaN, rsqrt(+inf) = +0;
NaN in gives the canonical NaN out (f32; rsqrt.approx.f64 propagates a NaN operand, quieted,
and gives 0xFFF8000000000000 for x < 0, as the H200 does). ``.ftz`` flushes subnormal inputs
and results to signed zero; without it subnormals are honoured.
Deviations: the result is more accurate than the hardware's (so bit patterns differ from a GPU
in the last place or two); sin/cos(x) use the exact argument, no range-reduction error.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from warpsim.functional.float_ops import flush64
from warpsim.functional.fp_rounding import canon32, canon64, flush32, nan64
from warpsim.functional.opdef import Core, unsupported
from warpsim.ptx.ir import Instruction

__all__ = ["TRANSCENDENTAL_OPCODES", "build_transcendental"]

_F64_FN: dict[str, Callable[[Any], Any]] = {
    "ex2": np.exp2, "lg2": np.log2, "sin": np.sin, "cos": np.cos, "tanh": np.tanh,
    "rsqrt": lambda x: 1.0 / np.sqrt(x),
}
TRANSCENDENTAL_OPCODES = frozenset(_F64_FN)


def build_transcendental(inst: Instruction) -> Core:
    """Core for an approximate math instruction (raises UnsupportedPTXError otherwise)."""
    op = inst.opcode
    mods = set(inst.mods)
    t = inst.types[0] if len(inst.types) == 1 else ""
    ok_t = ("f32", "f64") if op == "rsqrt" else ("f32",)
    if "approx" not in mods or mods - {"approx", "ftz"} or t not in ok_t:
        raise unsupported(inst, f"only {op}.approx[.ftz].{'/'.join(ok_t)} is implemented",
                          "f16/bf16 forms are not implemented")
    f = _F64_FN[op]
    ftz = "ftz" in mods
    if t == "f64":
        if ftz:
            return Core(lambda s: (flush64(canon64(f(flush64(s[0]).view(np.float64)))),),
                        (t,), (t,))
        # a NaN operand propagates, quieted; rsqrt(x < 0) = 0xFFF8000000000000 (H200)
        return Core(lambda s: (nan64(f(s[0].view(np.float64)), s, (0,)),), (t,), (t,))

    if ftz:
        def fn_ftz(s: Any) -> tuple[Any, ...]:
            x = flush32(s[0]).view(np.float32).astype(np.float64)
            return (flush32(canon32(f(x).astype(np.float32))),)
        return Core(fn_ftz, (t,), (t,))

    def fn(s: Any) -> tuple[Any, ...]:
        x = s[0].view(np.float32).astype(np.float64)
        return (canon32(f(x).astype(np.float32)),)
    return Core(fn, (t,), (t,))
