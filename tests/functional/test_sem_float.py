"""f32/f64 arithmetic: every rounding mode bit-exact against exact rational arithmetic."""

from __future__ import annotations

import math
import zlib
from fractions import Fraction

import numpy as np
import pytest

try:
    from tests.functional.fp_oracle import bits_of, ref_round, val
    from tests.functional.sem_builder import op_for, run
except ImportError:  # rootdir-less import mode
    from fp_oracle import bits_of, ref_round, val
    from sem_builder import op_for, run

from warpsim.errors import UnsupportedPTXError

CANON = {32: 0x7FFFFFFF, 64: 0x7FFFFFFFFFFFFFFF}
INVALID = {32: 0x7FFFFFFF, 64: 0xFFF8000000000000}  # NaN from an invalid operation (H200)
UT = {32: np.uint32, 64: np.uint64}
FT = {32: np.float32, 64: np.float64}
NARGS = {"add": 2, "sub": 2, "mul": 2, "fma": 3, "div": 2, "sqrt": 1, "rcp": 1}


def _edges(w: int) -> list[float]:
    f = np.finfo(FT[w])
    tiny, sub = float(f.tiny), float(f.smallest_subnormal)
    e = [0.0, -0.0, 1.0, -1.0, 2.0, 0.5, 3.0, 0.1, -0.1, tiny, -tiny, sub, -sub, tiny - sub,
         float(f.max), -float(f.max), math.inf, -math.inf, math.nan, 1.0 + float(f.eps),
         1.0 - float(f.eps) / 2, 7.0, 1e-3, 255.0]
    return [float(FT[w](x)) for x in e]


def _pool(w: int, n: int, rng: np.random.Generator, extreme: bool = True) -> np.ndarray:
    """Raw bits: edge values, random bit patterns and values of moderate exponent."""
    ut, ft = UT[w], FT[w]
    k = n // 4
    rand_bits = rng.integers(0, 2**w, size=k, dtype=np.uint64).astype(ut)
    span = 40 if w == 32 else 80
    mod = (rng.choice([-1.0, 1.0], n - 2 * k) * 2.0 ** rng.uniform(-span, span, n - 2 * k)
           * rng.uniform(1, 2, n - 2 * k)).astype(ft).view(ut)
    edges = np.array(_edges(w), dtype=ft).view(ut)
    parts = [rand_bits if extreme else mod[:k], mod, rng.choice(edges, k)]
    if w == 64 and extreme:
        ext = (rng.choice([-1.0, 1.0], k) * 2.0 ** rng.uniform(-1070, -900, k)).view(ut)
        big = (rng.choice([-1.0, 1.0], k) * 2.0 ** rng.uniform(990, 1023, k)).view(ut)
        parts += [ext, big]
    allb = np.concatenate(parts)
    return rng.permutation(allb)[:n]


def _flush(x: float, w: int) -> float:
    return math.copysign(0.0, x) if x != 0 and abs(x) < float(np.finfo(FT[w]).tiny) else x


def oracle(op: str, mode: str, w: int, args: list[int], ftz: bool = False,
           sat: bool = False) -> int:
    v = [val(b, w) for b in args]
    if ftz:
        v = [_flush(x, w) for x in v]
    if any(math.isnan(x) for x in v):
        return 0 if sat else _nan_result(op, w, args)  # PTX .sat: NaN results become +0.0
    r: float
    if op == "rcp":
        op, v = "div", [1.0, v[0]]
    if op == "sub":
        op, v = "add", [v[0], -v[1]]
    special = any(math.isinf(x) for x in v) or (op == "div" and v[1] == 0) or (
        op == "sqrt" and v[0] < 0)
    if special:
        with np.errstate(all="ignore"):
            a = [np.float64(x) for x in v]
            r = float({"add": lambda: a[0] + a[1], "mul": lambda: a[0] * a[1],
                       "fma": lambda: a[0] * a[1] + a[2], "div": lambda: a[0] / a[1],
                       "sqrt": lambda: np.sqrt(a[0])}[op]())
    else:
        fr = [Fraction(x) for x in v]
        if op == "sqrt":
            r = _sqrt_round(fr[0], mode, w) if v[0] != 0 else v[0]
        else:
            x = {"add": lambda: fr[0] + fr[1], "mul": lambda: fr[0] * fr[1],
                 "fma": lambda: fr[0] * fr[1] + fr[2], "div": lambda: fr[0] / fr[1]}[op]()
            if x != 0 and ftz and abs(x) < Fraction(float(np.finfo(FT[w]).tiny)):
                r = -0.0 if x < 0 else 0.0  # .ftz: tininess before rounding (as the H200)
            elif x != 0:
                r = ref_round(x, mode, w)
            elif op in ("mul", "div"):
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
        return 0 if sat else INVALID[w]
    if sat:
        r = 0.0 if not r > 0 else min(r, 1.0)
    if ftz:
        r = _flush(r, w)
    return bits_of(r, w)


def _nan_result(op: str, w: int, args: list[int]) -> int:
    """NaN operands (the H200): f32 gives the canonical NaN; f64 the first NaN operand
    quieted, for sub the subtrahend first."""
    if w == 32:
        return CANON[32]
    order = [1, 0] if op == "sub" else range(len(args))
    return next(args[k] | 1 << 51 for k in order if math.isnan(val(args[k], 64)))


def _sqrt_round(x: Fraction, mode: str, w: int) -> float:
    """Correctly rounded sqrt by bracketing: candidates around the f64 sqrt, checked by squaring."""
    y = math.sqrt(float(x)) if w == 32 else math.sqrt(x)
    ft = FT[w]
    c = ft(y)
    cands = [c]
    for _ in range(2):
        cands = [np.nextafter(cands[0], ft(-1)), *cands, np.nextafter(cands[-1], ft(np.inf))]
    cands = sorted({float(z) for z in cands if z >= 0})
    lo = max(z for z in cands if Fraction(z) ** 2 <= x)
    hi = min(z for z in cands if Fraction(z) ** 2 >= x)
    if lo == hi or mode in ("rz", "rm"):
        return lo
    if mode == "rp":
        return hi
    mid = (Fraction(lo) + Fraction(hi)) / 2
    return lo if mid * mid > x else hi  # sqrt is never exactly at a midpoint


def _check(op: str, mode: str, w: int, n: int, seed: int, extra_mods: str = "") -> None:
    rng = np.random.default_rng(seed)
    k = NARGS[op]
    cols = [_pool(w, n, rng) for _ in range(k)]
    with np.errstate(all="ignore"):
        if op in ("add", "sub"):  # many overlapping pairs: b close to a
            cols[1][: n // 3] = (cols[0][: n // 3].view(FT[w]) * FT[w](rng.uniform(-2, 2))
                                 ).view(UT[w])
        if op == "fma":  # cancellation: c close to -a*b
            p = cols[0][: n // 3].view(FT[w]) * cols[1][: n // 3].view(FT[w])
            cols[2][: n // 3] = (-p).view(UT[w])
    spell = f"{op}.{mode}{extra_mods}.f{w}"
    reg = f"f{w}"
    out = run(spell, [reg], [reg] * k, *cols)[0]
    ftz, sat = ".ftz" in extra_mods, ".sat" in extra_mods
    bad = []
    for i in range(n):
        exp = oracle(op, mode, w, [int(c[i]) for c in cols], ftz, sat)
        if int(out[i]) != exp:
            bad.append((i, [hex(int(c[i])) for c in cols], hex(int(out[i])), hex(exp)))
    assert not bad, f"{spell}: {len(bad)} mismatches, first {bad[:3]}"


@pytest.mark.parametrize("mode", ["rn", "rz", "rm", "rp"])
@pytest.mark.parametrize("op", ["add", "sub", "mul", "fma", "div", "sqrt", "rcp"])
def test_f32_arith_is_correctly_rounded(op: str, mode: str) -> None:
    _check(op, mode, 32, 1200, zlib.crc32(f"{op}{mode}".encode()) % 1000)


@pytest.mark.parametrize("mode", ["rn", "rz", "rm", "rp"])
@pytest.mark.parametrize("op", ["add", "sub", "mul", "fma", "div", "sqrt", "rcp"])
def test_f64_arith_is_correctly_rounded(op: str, mode: str) -> None:
    _check(op, mode, 64, 1000, 7 + zlib.crc32(f"{op}{mode}".encode()) % 1000)


@pytest.mark.parametrize("op", ["add", "mul", "fma"])
def test_f32_ftz_and_sat(op: str) -> None:
    _check(op, "rn", 32, 800, 3, ".ftz.sat")
    _check(op, "rz", 32, 400, 4, ".ftz")


def test_fma_f32_avoids_double_rounding() -> None:
    a = np.float32(1 + 2**-12).view(np.uint32)
    for c, exp in ((2.0**-80, 1 + 2**-11 + 2**-23), (-(2.0**-80), 1 + 2**-11)):
        cb = np.float32(c).view(np.uint32)
        got = run("fma.rn.f32", ["f32"], ["f32"] * 3, [a], [a], [cb])[0].view(np.float32)
        assert got[0] == np.float32(exp)


def test_fma_f64_single_rounding() -> None:
    a = np.array([0.1, 1 + 2**-30]).view(np.uint64)
    b = np.array([10.0, 1 - 2**-30]).view(np.uint64)
    c = np.array([-1.0, -1.0]).view(np.uint64)
    got = run("fma.rn.f64", ["f64"], ["f64"] * 3, a, b, c)[0].view(np.float64)
    assert got[0] == float(Fraction(0.1) * 10 - 1)
    assert got[1] == -(2.0**-60)


def test_nan_results_are_canonical() -> None:
    inf = np.array([np.inf], dtype=np.float32).view(np.uint32)
    ninf = np.array([-np.inf], dtype=np.float32).view(np.uint32)
    assert run("add.f32", ["f32"], ["f32", "f32"], inf, ninf)[0][0] == 0x7FFFFFFF
    payload = np.array([0xFFC01234], dtype=np.uint32)
    assert run("mul.f32", ["f32"], ["f32", "f32"], payload, inf)[0][0] == 0x7FFFFFFF
    d = np.array([np.inf]).view(np.uint64)
    assert run("sub.f64", ["f64"], ["f64", "f64"], d, d)[0][0] == 0xFFF8000000000000


def test_f64_nan_results_propagate_payload() -> None:
    # the H200 (validation/results/h200/float64_ops.json): the first NaN operand, quieted,
    # sign and payload kept (for sub the subtrahend first); invalid operations give
    # 0xFFF8000000000000
    q1, s2 = 0xFFF8000000012345, 0x7FF0000000000001  # a quiet and a signalling NaN
    one, inf, zero = 0x3FF0000000000000, 0x7FF0000000000000, 0
    a = np.array([q1, s2, one, s2, zero, inf], np.uint64)
    b = np.array([s2, q1, s2, one, inf, inf], np.uint64)
    c = np.array([one, one, q1, q1, one, one], np.uint64)
    s2q = 0x7FF8000000000001
    two = ["f64", "f64"]
    assert list(run("add.rn.f64", ["f64"], two, a, b)[0]) == [
        q1, s2q, s2q, s2q, inf, inf]
    assert list(run("sub.rn.f64", ["f64"], two, a, b)[0]) == [
        s2q, q1, s2q, s2q, 0xFFF0000000000000, 0xFFF8000000000000]
    assert list(run("mul.rz.f64", ["f64"], two, a, b)[0]) == [
        q1, s2q, s2q, s2q, 0xFFF8000000000000, inf]
    assert list(run("div.rn.f64", ["f64"], two, a, b)[0]) == [
        q1, s2q, s2q, s2q, zero, 0xFFF8000000000000]
    assert list(run("fma.rn.f64", ["f64"], ["f64"] * 3, a, b, c)[0]) == [
        q1, s2q, s2q, s2q, 0xFFF8000000000000, inf]
    assert list(run("sqrt.rn.f64", ["f64"], ["f64"], np.array(
        [s2, q1, 0xBFF0000000000000], np.uint64))[0]) == [s2q, q1, 0xFFF8000000000000]
    # min/max: one NaN gives the other operand, two NaNs the first quieted
    assert list(run("min.f64", ["f64"], two, a[:3], b[:3])[0]) == [q1, s2q, one]
    assert list(run("max.f64", ["f64"], two, a[:3], b[:3])[0]) == [q1, s2q, one]
    # one signalling NaN operand gives the other operand, single lanes included
    assert run("min.f32", ["f32"], ["f32", "f32"], np.array([0x3F800000], np.uint32),
               np.array([0x7F800001], np.uint32))[0][0] == 0x3F800000
    # f32 stays canonical
    assert run("add.f32", ["f32"], ["f32", "f32"], np.array([0xFFC01234], np.uint32),
               np.array([0x3F800000], np.uint32))[0][0] == 0x7FFFFFFF


def _f32(x: list[float]) -> np.ndarray:
    return np.array(x, dtype=np.float32).view(np.uint32)


def test_min_max_nan_and_signed_zero() -> None:
    nan = float("nan")
    a = _f32([nan, 1.0, 0.0, -0.0, nan, -3.0])
    b = _f32([2.0, nan, -0.0, 0.0, nan, 5.0])
    mn = run("min.f32", ["f32"], ["f32", "f32"], a, b)[0]
    mx = run("max.f32", ["f32"], ["f32", "f32"], a, b)[0]
    assert list(mn.view(np.float32)[:2]) == [2.0, 1.0]
    assert list(mn[2:4]) == [0x80000000, 0x80000000]
    assert list(mx[2:4]) == [0, 0]
    assert mn[4] == 0x7FFFFFFF and mx[4] == 0x7FFFFFFF
    assert mn.view(np.float32)[5] == -3.0 and mx.view(np.float32)[5] == 5.0
    mnn = run("min.NaN.f32", ["f32"], ["f32", "f32"], a, b)[0]
    assert list(mnn[:2]) == [0x7FFFFFFF, 0x7FFFFFFF]
    d = np.array([nan, -0.0, 1.0]).view(np.uint64)
    e = np.array([4.0, 0.0, 2.0]).view(np.uint64)
    r = run("max.f64", ["f64"], ["f64", "f64"], d, e)[0].view(np.float64)
    assert list(r) == [4.0, 0.0, 2.0] and not np.signbit(r[1])


def test_abs_neg_copysign_are_bit_ops() -> None:
    sub = np.float32(1e-40)
    a = _f32([-1.5, 0.0, float(sub), -float(sub)])
    assert list(run("abs.f32", ["f32"], ["f32"], a)[0].view(np.float32)) == [
        1.5, 0.0, sub, sub]
    assert list(run("abs.ftz.f32", ["f32"], ["f32"], a)[0]) == [0x3FC00000, 0, 0, 0]
    n = run("neg.f32", ["f32"], ["f32"], a)[0]
    assert list(n) == [0x3FC00000, 0x80000000, int(a[3]), int(a[2])]
    c = run("copysign.f32", ["f32"], ["f32", "f32"], _f32([-1.0, 1.0]), _f32([2.0, -3.0]))[0]
    assert list(c.view(np.float32)) == [-2.0, 3.0]


def test_abs_neg_f32_of_nan_is_canonical() -> None:
    # the H200 (validation/results/h200/float32_ops.json): fabsf(x) and -x of any NaN, quiet or
    # signalling, either sign, are 0x7FFFFFFF; copysign keeps the payload; f64 keeps it too
    a = np.array([0x7FC00000, 0x7F800001, 0xFFC12345, 0xFFA61AA9], np.uint32)
    for op in ("abs.f32", "neg.f32", "abs.ftz.f32", "neg.ftz.f32"):
        assert list(run(op, ["f32"], ["f32"], a)[0]) == [0x7FFFFFFF] * 4, op
    # PTX copysign d, a, b: b's magnitude with a's sign
    c = run("copysign.f32", ["f32"], ["f32", "f32"], _f32([-1.0, 1.0, 1.0, -1.0]), a)[0]
    assert list(c) == [0xFFC00000, 0x7F800001, 0x7FC12345, 0xFFA61AA9]
    d = np.array([0x7FF8000000000001, 0xFFF0000000000002], np.uint64)
    assert list(run("abs.f64", ["f64"], ["f64"], d)[0]) == [0x7FF8000000000001,
                                                           0x7FF0000000000002]
    assert list(run("neg.f64", ["f64"], ["f64"], d)[0]) == [0xFFF8000000000001,
                                                           0x7FF0000000000002]


def test_f32_ftz_flushes_tiny_exact_results_before_rounding() -> None:
    # 0.5 * 0x00FFFFFF = 2^-126 (1 - 2^-24): below FLT_MIN, though it rounds to FLT_MIN
    # (.rn/.rp); with .ftz the H200 returns +0 (validation/results/h200/float32_ops.json)
    h, m, flt_min = np.uint32(0x3F000000), np.uint32(0x00FFFFFF), 0x00800000
    a = np.array([h, h | 0x80000000, h, h], np.uint32)
    b = np.array([m, m, 0x01000000, 0x3F800000], np.uint32)
    for spelling in ("mul.rn.ftz.f32", "mul.rp.ftz.f32", "mul.rm.ftz.f32", "mul.rz.ftz.f32",
                     "mul.rn.ftz.sat.f32"):
        got = list(run(spelling, ["f32"], ["f32", "f32"], a, b)[0])
        # -0.5 * m is -0 (under .sat +0); 0.5 * 2^-125 = FLT_MIN exactly is kept
        neg = 0 if "sat" in spelling else 0x80000000
        assert got == [0, neg, flt_min, 0x3F000000], spelling
    c = np.zeros(4, np.uint32)
    assert list(run("fma.rn.ftz.f32", ["f32"], ["f32"] * 3, a, b, c)[0]) == [
        0, 0x80000000, flt_min, 0x3F000000]
    # fma: 0.5 * m + 2^-149 (a subnormal addend, flushed first): still tiny -> +0
    one_sub = np.full(4, 1, np.uint32)
    assert run("fma.rn.ftz.f32", ["f32"], ["f32"] * 3, a, b, one_sub)[0][0] == 0
    # div: m / 2 is the same tiny value
    q = run("div.rn.ftz.f32", ["f32"], ["f32", "f32"], np.array([m, m], np.uint32),
            np.array([0x40000000, 0xC0000000], np.uint32))[0]
    assert list(q) == [0, 0x80000000]
    # without .ftz the result is rounded normally (FLT_MIN)
    assert run("mul.rn.f32", ["f32"], ["f32", "f32"], a, b)[0][0] == flt_min


def test_testp_classes() -> None:
    x = _f32([1.0, 0.0, 1e-40, float("inf"), float("nan"), -2.0])
    exp = {"finite": [1, 1, 1, 0, 0, 1], "infinite": [0, 0, 0, 1, 0, 0],
           "number": [1, 1, 1, 1, 0, 1], "notanumber": [0, 0, 0, 0, 1, 0],
           "normal": [1, 0, 0, 0, 0, 1], "subnormal": [0, 0, 1, 0, 0, 0]}
    for k, e in exp.items():
        got = run(f"testp.{k}.f32", ["pred"], ["f32"], x)[0]
        assert list(got.astype(int)) == e, k


def test_div_approx_and_full() -> None:
    a = _f32([1.0, 3.0, float("inf"), 1.0])
    b = _f32([3.0, 7.0, 2.0**127, 2.0**127])
    r = run("div.approx.f32", ["f32"], ["f32", "f32"], a, b)[0].view(np.float32)
    ref = np.array([1 / 3, 3 / 7], dtype=np.float32)
    ulp = np.spacing(ref)
    assert np.all(np.abs(r[:2] - ref) <= 2 * ulp)
    assert np.isnan(r[2]) and r[3] == 0.0
    full = run("div.full.f32", ["f32"], ["f32", "f32"], a[:2], b[:2])[0].view(np.float32)
    assert np.all(np.abs(full - ref) <= 2 * ulp)


def test_div_approx_subnormal_divisor() -> None:
    # the H200 (validation/results/h200/float32_ops.json, __fdividef): with a divisor whose
    # reciprocal overflows (|b| < 2^-128) the result is the quotient, not a * inf
    a = np.array([0x00800000, 0x00000000, 0x807FFFFF, 0x00000001, 0x3F800000, 0x3F800000],
                 np.uint32)
    b = np.array([0x00000001, 0x00000001, 0x00000001, 0x00000001, 0x00000001, 0x00400000],
                 np.uint32)
    got = run("div.approx.f32", ["f32"], ["f32", "f32"], a, b)[0]
    # 2^23, +0, -(2^23 - 1), 1.0, 2^149 = inf, 2^127
    assert list(got) == [0x4B000000, 0, 0xCAFFFFFE, 0x3F800000, 0x7F800000, 0x7F000000]


@pytest.mark.parametrize("spelling", ["add.bf16", "div.rn.ftz.f64", "add.rn.rz.f32",
                                      "min.rn.f32", "div.approx.f64", "fma.sat.f64"])
def test_invalid_float_forms_raise(spelling: str) -> None:
    t = "b16" if "f16" in spelling else ("f64" if "f64" in spelling else "f32")
    n = 3 if spelling.startswith("fma") else 2
    with pytest.raises(UnsupportedPTXError) as ei:
        op_for(spelling, [t], [t] * n)
    assert ei.value.line == 7 and spelling in str(ei.value)


try:
    from hypothesis import given, settings
    from hypothesis import strategies as st
except ImportError:  # pragma: no cover
    given = None

if given is not None:
    _f32s = st.floats(width=32, allow_nan=True, allow_infinity=True, allow_subnormal=True)
    _modes = st.sampled_from(["rn", "rz", "rm", "rp"])

    @settings(max_examples=300, deadline=None)
    @given(_f32s, _f32s, _f32s, _modes)
    def test_fma_f32_property_any_inputs(a: float, b: float, c: float, mode: str) -> None:
        bits = [int(np.float32(x).view(np.uint32)) for x in (a, b, c)]
        got = run(f"fma.{mode}.f32", ["f32"], ["f32"] * 3, *[[x] for x in bits])[0]
        assert int(got[0]) == oracle("fma", mode, 32, bits)

    @settings(max_examples=300, deadline=None)
    @given(st.floats(allow_nan=False, allow_subnormal=True), st.floats(allow_subnormal=True),
           _modes, st.sampled_from(["add", "mul", "div"]))
    def test_f64_directed_property(a: float, b: float, mode: str, op: str) -> None:
        bits = [int(np.float64(x).view(np.uint64)) for x in (a, b)]
        got = run(f"{op}.{mode}.f64", ["f64"], ["f64"] * 2, *[[x] for x in bits])[0]
        assert int(got[0]) == oracle(op, mode, 64, bits)


def test_fma_f64_midpoint_tail_decides() -> None:
    a = np.array([1 + 2.0**-26] * 2).view(np.uint64)
    b = np.array([1 + 2.0**-27] * 2).view(np.uint64)
    c = np.array([2.0**-100, -(2.0**-100)]).view(np.uint64)
    got = run("fma.rn.f64", ["f64"], ["f64"] * 3, a, b, c)[0].view(np.float64)
    assert list(got) == [1 + 2.0**-26 + 2.0**-27 + 2.0**-52, 1 + 2.0**-26 + 2.0**-27]


@pytest.mark.parametrize("w", [32, 64])
def test_fma_rn_tie_prone_inputs(w: int) -> None:
    """Short-mantissa operands make exact midpoints common: compare with the rational oracle."""
    rng = np.random.default_rng(99 + w)
    n = 1500
    half = 12 if w == 32 else 27
    m = rng.integers(1, 2**half, (3, n)).astype(np.float64)
    e = rng.integers(-half - 4, 4, (3, n)).astype(np.float64)
    vals = m * 2.0**e * rng.choice([-1.0, 1.0], (3, n))
    vals[2] *= rng.choice([1.0, 2.0**-30, 2.0**-60, 2.0**-90], n)
    # exact midpoints: odd mantissas whose product has p+1 bits, plus a tiny +-c
    bits_ = 24 if w == 32 else 53
    ma = rng.integers(2 ** (half + 1), 2 ** (half + 2), n) | 1
    mb = rng.integers(2 ** (bits_ - half - 2), 2 ** (bits_ - half), n) | 1
    ok = (ma * mb >= 2**bits_) & (ma * mb < 2 ** (bits_ + 1))
    k = int(ok.sum())
    vals[0, :k] = ma[ok].astype(np.float64) * 2.0 ** -(half + 1)
    vals[1, :k] = mb[ok].astype(np.float64) * 2.0 ** -(bits_ - half - 2)
    vals[2, :k] = rng.choice([-1.0, 1.0], k) * 2.0 ** rng.integers(-120, -60, k)
    assert k > 100
    cols = [v.astype(FT[w]).view(UT[w]) for v in vals]
    got = run(f"fma.rn.f{w}", [f"f{w}"], [f"f{w}"] * 3, *cols)[0]
    for i in range(n):
        exp = oracle("fma", "rn", w, [int(c[i]) for c in cols])
        assert int(got[i]) == exp, [hex(int(c[i])) for c in cols]
