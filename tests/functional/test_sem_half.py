"""f16 / f16x2 arithmetic: bit-exact against exact rational arithmetic rounded to binary16."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

try:
    from tests.functional.fp_oracle import bits_of, ref_round, val
    from tests.functional.sem_builder import op_for, run
except ImportError:
    from fp_oracle import bits_of, ref_round, val
    from sem_builder import op_for, run

from warpsim.errors import UnsupportedPTXError

NARGS = {"add": 2, "sub": 2, "mul": 2, "fma": 3}


def _pool(n: int, rng: np.random.Generator) -> np.ndarray:
    edges = np.array([0.0, -0.0, 1.0, -1.0, 65504.0, -65504.0, 2.0**-24, 2.0**-14,
                      2.0**-14 - 2.0**-24, np.inf, -np.inf, np.nan, 0.1, 3.0, 1 + 2.0**-10],
                     dtype=np.float16).view(np.uint16)
    rand_bits = rng.integers(0, 2**16, n, dtype=np.uint64).astype(np.uint16)
    mod = (rng.choice([-1.0, 1.0], n) * 2.0 ** rng.uniform(-12, 8, n)).astype(np.float16)
    allb = np.concatenate([rand_bits[: n // 3], mod.view(np.uint16)[: n // 2],
                           rng.choice(edges, n)])
    return rng.permutation(allb)[:n]


def _flush(x: float) -> float:
    return math.copysign(0.0, x) if x != 0 and abs(x) < 2.0**-14 else x


def oracle(op: str, mode: str, args: list[int], ftz: bool, sat: bool) -> int:
    v = [val(b, 16) for b in args]
    if ftz:
        v = [_flush(x) for x in v]
    if op == "sub":
        op, v = "add", [v[0], -v[1]]
    if any(math.isnan(x) for x in v):
        return 0 if sat else 0x7FFF
    if any(math.isinf(x) for x in v):
        with np.errstate(all="ignore"):
            a = [np.float64(x) for x in v]
            r = float(a[0] + a[1] if op == "add" else a[0] * a[1] if op == "mul"
                      else a[0] * a[1] + a[2])
    else:
        fr = [Fraction(x) for x in v]
        x = fr[0] + fr[1] if op == "add" else fr[0] * fr[1] if op == "mul" else (
            fr[0] * fr[1] + fr[2])
        if x != 0:
            r = ref_round(x, mode, 16)
        elif op == "mul":
            r = math.copysign(0.0, v[0]) * math.copysign(1.0, v[1])
        else:
            y1 = v[0] if op == "add" else math.copysign(0.0, v[0]) * math.copysign(1.0, v[1])
            y2 = v[1] if op == "add" else v[2]
            s1, s2 = math.copysign(1, y1) < 0, math.copysign(1, y2) < 0
            if y1 == 0 and y2 == 0 and s1 == s2:
                r = -0.0 if s1 else 0.0
            else:
                r = -0.0 if mode == "rm" else 0.0
    if math.isnan(r):
        return 0 if sat else 0x7FFF
    if sat:
        r = 0.0 if not r > 0 else min(r, 1.0)
    if ftz:
        r = _flush(r)
    return bits_of(r, 16)


@pytest.mark.parametrize("mods", ["", ".ftz.sat"])
@pytest.mark.parametrize("mode", ["rn", "rz", "rm", "rp"])
@pytest.mark.parametrize("op", ["add", "sub", "mul", "fma"])
def test_f16_arith_is_correctly_rounded(op: str, mode: str, mods: str) -> None:
    rng = np.random.default_rng(len(op) * 7 + len(mode) + len(mods))
    n = 700
    cols = [_pool(n, rng) for _ in range(NARGS[op])]
    if op == "fma":  # cancellation
        with np.errstate(all="ignore"):
            p = cols[0][: n // 4].view(np.float16).astype(np.float32) * cols[1][: n // 4].view(
                np.float16)
            cols[2][: n // 4] = (-p).astype(np.float16).view(np.uint16)
    got = run(f"{op}.{mode}{mods}.f16", ["b16"], ["b16"] * NARGS[op], *cols)[0]
    ftz, sat = "ftz" in mods, "sat" in mods
    for i in range(n):
        exp = oracle(op, mode, [int(c[i]) for c in cols], ftz, sat)
        assert int(got[i]) == exp, (op, mode, [hex(int(c[i])) for c in cols])


def test_f16x2_applies_to_both_halves() -> None:
    rng = np.random.default_rng(3)
    lo = [_pool(200, rng) for _ in range(3)]
    hi = [_pool(200, rng) for _ in range(3)]
    packed = [(h.astype(np.uint32) << np.uint32(16)) | l_.astype(np.uint32)
              for l_, h in zip(lo, hi, strict=True)]
    got = run("fma.rn.f16x2", ["b32"], ["b32"] * 3, *packed)[0]
    for i in range(200):
        e_lo = oracle("fma", "rn", [int(c[i]) for c in lo], False, False)
        e_hi = oracle("fma", "rn", [int(c[i]) for c in hi], False, False)
        assert int(got[i]) == e_lo | (e_hi << 16)


def test_f16_min_max_neg_abs() -> None:
    a = np.array([1.0, np.nan, 0.0, -0.0, -2.0, 6e-8], dtype=np.float16).view(np.uint16)
    b = np.array([2.0, 3.0, -0.0, 0.0, np.nan, -1.0], dtype=np.float16).view(np.uint16)
    mn = run("min.f16", ["b16"], ["b16", "b16"], a, b)[0]
    mx = run("max.f16", ["b16"], ["b16", "b16"], a, b)[0]
    assert list(mn.view(np.float16)[[0, 1, 4, 5]]) == [1.0, 3.0, -2.0, -1.0]
    assert list(mn[2:4]) == [0x8000, 0x8000] and list(mx[2:4]) == [0, 0]
    assert list(mx.view(np.float16)[[0, 1, 4]]) == [2.0, 3.0, -2.0]
    assert int(run("max.NaN.f16", ["b16"], ["b16", "b16"], a, b)[0][1]) == 0x7FFF
    assert list(run("neg.f16", ["b16"], ["b16"], a)[0][:1]) == [0xBC00]
    assert list(run("abs.ftz.f16", ["b16"], ["b16"], a)[0][4:]) == [0x4000, 0]


@pytest.mark.parametrize("spell", ["setp.lt.f16x2", "ex2.approx.f16", "add.bf16", "div.rn.f16"])
def test_unimplemented_half_forms_raise(spell: str) -> None:
    dst = "pred" if spell.startswith("setp") else "b16"
    with pytest.raises(UnsupportedPTXError):
        op_for(spell, [dst], ["b16", "b16"])
