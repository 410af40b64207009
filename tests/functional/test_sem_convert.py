"""cvt and mov: conversions against exact rational / Python-int oracles; width rules."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

try:
    from tests.functional.fp_oracle import bits_of, ref_round, val
    from tests.functional.sem_builder import op_for, run
    from tests.functional.test_sem_int import samples, sv
except ImportError:
    from fp_oracle import bits_of, ref_round, val
    from sem_builder import op_for, run
    from test_sem_int import samples, sv

from warpsim.errors import UnsupportedPTXError
from warpsim.functional.semantics import immediate_bits
from warpsim.ptx.ir import Operand, OpKind

INTS = ["u8", "s8", "u16", "s16", "u32", "s32", "u64", "s64"]


def _reg(t: str) -> str:
    return "b16" if t[1:] == "8" else f"b{t[1:]}"


def _int_val(x: int, t: str) -> int:
    w = int(t[1:])
    x &= (1 << w) - 1
    return sv(x, w) if t[0] == "s" else x


@pytest.mark.parametrize("sat", [False, True])
@pytest.mark.parametrize("dt", INTS)
@pytest.mark.parametrize("st", INTS)
def test_cvt_int_to_int(st: str, dt: str, sat: bool) -> None:
    sw, dw = int(st[1:]), int(dt[1:])
    rw = max(16, sw)
    a = samples(rw, 120, sw + dw)
    spell = f"cvt.sat.{dt}.{st}" if sat else f"cvt.{dt}.{st}"
    got = run(spell, [_reg(dt)], [_reg(st)], a)[0]
    for x, g in zip(a, got, strict=True):
        v = _int_val(int(x), st)
        if sat:
            lo, hi = (-(1 << (dw - 1)), (1 << (dw - 1)) - 1) if dt[0] == "s" else (0, (1 << dw) - 1)
            v = min(max(v, lo), hi)
        r = v & ((1 << dw) - 1)  # result bits of the dest type
        rr = int(_reg(dt)[1:])
        if dw < rr:  # destination register wider than the type: sign/zero extend
            r = _int_val(r, dt) & ((1 << rr) - 1)
        assert int(g) == r, (spell, hex(int(x)))


@pytest.mark.parametrize("mode", ["rn", "rz", "rm", "rp"])
@pytest.mark.parametrize("dt", ["f32", "f64"])
@pytest.mark.parametrize("st", ["u16", "s16", "u32", "s32", "u64", "s64"])
def test_cvt_int_to_float_exact(st: str, dt: str, mode: str) -> None:
    sw = int(st[1:])
    a = samples(sw, 300, 3)
    dw = int(dt[1:])
    got = run(f"cvt.{mode}.{dt}.{st}", [f"b{dw}"], [f"b{sw}"], a)[0]
    for x, g in zip(a, got, strict=True):
        v = _int_val(int(x), st)
        exp = bits_of(ref_round(Fraction(v), mode, dw), dw) if v else 0
        assert int(g) == exp, (st, dt, mode, v)


def _fsamples(w: int, n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    ft = np.float32 if w == 32 else np.float64
    ut = np.uint32 if w == 32 else np.uint64
    edges = [0.0, -0.0, 0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 1e-40, -1e-40, math.inf, -math.inf,
             math.nan, 2.0**31, -(2.0**31), 2.0**31 - 1, 2.0**32, 2.0**63, -(2.0**63), 2.0**64,
             4294967295.5, 1e30, -1e30, 127.5, -128.5, 255.9, 65535.4, -32768.7]
    r = rng.choice([-1, 1], n) * 2.0 ** rng.uniform(-10, 70, n) * rng.uniform(1, 2, n)
    v = np.concatenate([np.array(edges), r]).astype(ft)
    return v.view(ut)


@pytest.mark.parametrize("irnd", ["rni", "rzi", "rmi", "rpi"])
@pytest.mark.parametrize("st", ["f32", "f64"])
@pytest.mark.parametrize("dt", INTS)
def test_cvt_float_to_int_saturates(dt: str, st: str, irnd: str) -> None:
    sw, dw = int(st[1:]), int(dt[1:])
    a = _fsamples(sw, 150, dw)
    got = run(f"cvt.{irnd}.{dt}.{st}", [_reg(dt)], [f"b{sw}"], a)[0]
    rnd = {"rni": round, "rzi": math.trunc, "rmi": math.floor, "rpi": math.ceil}[irnd]
    lo, hi = (-(1 << (dw - 1)), (1 << (dw - 1)) - 1) if dt[0] == "s" else (0, (1 << dw) - 1)
    rr = int(_reg(dt)[1:])
    for x, g in zip(a, got, strict=True):
        f = val(int(x), sw)
        if math.isnan(f):  # the H200's rule (test_cvt_nan_to_integer)
            v = 1 << (dw - 1) if dw == 64 or (dw == 32 and st == "f64") else 0
        elif math.isinf(f):
            v = hi if f > 0 else lo
        else:
            v = min(max(rnd(Fraction(f)), lo), hi)  # Python round(): half to even
        assert int(g) == v & ((1 << rr) - 1), (dt, st, irnd, f)


@pytest.mark.parametrize("mode", ["rn", "rz", "rm", "rp"])
def test_cvt_f64_to_f32_exact(mode: str) -> None:
    rng = np.random.default_rng(8)
    edge = np.array([0.0, -0.0, 1e-46, -1e-46, 1e-40, 3.4028235677973366e38, 3.5e38, -3.5e38,
                     1e300, np.inf, np.nan, 1 + 2.0**-24, 1 + 2.0**-24 + 2.0**-50,
                     -(1 + 3 * 2.0**-24), 2.0**-149 * 1.5, 2.0**-149 * 0.5])
    a = np.concatenate([edge, rng.standard_normal(400) * 2.0 ** rng.integers(-160, 140, 400),
                        rng.integers(0, 2**64, 300, dtype=np.uint64).view(np.float64)])
    got = run(f"cvt.{mode}.f32.f64", ["f32"], ["f64"], a.view(np.uint64))[0]
    for x, g in zip(a, got, strict=True):
        f = float(x)
        if math.isnan(f):  # sign and top of the payload kept, quieted (H200)
            u = int(np.float64(x).view(np.uint64))
            exp = (u >> 63 << 31) | 0x7FC00000 | ((u >> 29) & 0x7FFFFF)
        elif math.isinf(f) or f == 0:
            exp = bits_of(f, 32)
        else:
            exp = bits_of(ref_round(Fraction(f), mode, 32), 32)
        assert int(g) == exp, (mode, f)


def test_cvt_f32_f64_ftz_sat_and_rounding_to_integral() -> None:
    a = np.array([1e-40, -1e-40, 1.5, -2.5, 2.5, np.nan, 0.7, -3.0, 1e20],
                 dtype=np.float32).view(np.uint32)
    w = run("cvt.f64.f32", ["f64"], ["f32"], a)[0].view(np.float64)
    assert w[0] == float(np.float32(1e-40)) and w[2] == 1.5
    w = run("cvt.ftz.f64.f32", ["f64"], ["f32"], a)[0]
    assert int(w[0]) == 0 and int(w[1]) == 0x8000000000000000
    r = run("cvt.rni.f32.f32", ["f32"], ["f32"], a)[0].view(np.float32)
    assert list(r[2:5]) == [2.0, -2.0, 2.0]
    r = run("cvt.rmi.f32.f32", ["f32"], ["f32"], a)[0].view(np.float32)
    assert list(r[2:5]) == [1.0, -3.0, 2.0]
    r = run("cvt.rpi.f64.f64", ["f64"], ["f64"], a.view(np.float32).astype(np.float64).view(
        np.uint64))[0].view(np.float64)
    assert list(r[2:5]) == [2.0, -2.0, 3.0]
    s = run("cvt.sat.f32.f32", ["f32"], ["f32"], a)[0]
    assert list(s.view(np.float32)[2:]) == [1.0, 0.0, 1.0, 0.0, np.float32(0.7), 0.0, 1.0]
    big = np.array([3e9, -3e9, np.nan], dtype=np.float32).view(np.uint32)
    sat = run("cvt.rzi.sat.s32.f32", ["b32"], ["f32"], big)[0]
    assert [int(v) for v in sat] == [0x7FFFFFFF, 0x80000000, 0]
    z = run("cvt.rzi.ftz.s32.f32", ["b32"], ["f32"], a[:1])[0]
    p = run("cvt.rpi.ftz.s32.f32", ["b32"], ["f32"], a[:1])[0]
    p_noftz = run("cvt.rpi.s32.f32", ["b32"], ["f32"], a[:1])[0]
    assert int(z[0]) == 0 and int(p[0]) == 0 and int(p_noftz[0]) == 1


def test_cvt_nan_to_integer() -> None:
    # the H200 (validation/results/h200/conversions.json): NaN -> 64-bit integer is
    # 0x8000000000000000 from f32 or f64, NaN -> 32-bit integer 0x80000000 from f64 and 0
    # from f32; signed and unsigned alike, every rounding mode
    f32 = np.array([0x7FC00000, 0xFFFFFFFF, 0x7F800001, 0x3FC00000], np.uint32)
    f64 = np.array([0x7FF8000000000000, 0xFFF8000000000001, 0x7FF0000000000001,
                    0x3FF8000000000000], np.uint64)
    for irnd in ("rni", "rzi", "rmi", "rpi"):
        for dt in ("s64", "u64"):
            assert list(run(f"cvt.{irnd}.{dt}.f32", ["b64"], ["f32"], f32)[0])[:3] == [
                0x8000000000000000] * 3
            assert list(run(f"cvt.{irnd}.{dt}.f64", ["b64"], ["f64"], f64)[0])[:3] == [
                0x8000000000000000] * 3
        for dt in ("s32", "u32"):
            assert list(run(f"cvt.{irnd}.{dt}.f32", ["b32"], ["f32"], f32)[0])[:3] == [0] * 3
            assert list(run(f"cvt.{irnd}.{dt}.f64", ["b32"], ["f64"], f64)[0])[:3] == [
                0x80000000] * 3
    # ordinary values are unaffected: 1.5 -> 2 (rni)
    assert int(run("cvt.rni.s64.f64", ["b64"], ["f64"], f64)[0][3]) == 2
    assert int(run("cvt.rni.u32.f64", ["b32"], ["f64"], f64)[0][3]) == 2


def test_cvt_nan_payloads_through_f64() -> None:
    # the H200 (validation/results/h200/conversions.json): conversions from or to f64 keep the
    # NaN's sign and payload (aligned at the top of the mantissa), quieted
    f32 = np.array([0x7FC00000, 0xFFFFFFFF, 0x7F800001], np.uint32)
    assert list(run("cvt.f64.f32", ["f64"], ["f32"], f32)[0]) == [
        0x7FF8000000000000, 0xFFFFFFFFE0000000, 0x7FF8000020000000]
    f64 = np.array([0x7FF8000000000000, 0xFFF8000000000001, 0x7FF0000020000000,
                    0xFFF0000000000001], np.uint64)
    for mode in ("rn", "rz", "rm", "rp"):
        assert list(run(f"cvt.{mode}.f32.f64", ["f32"], ["f64"], f64)[0]) == [
            0x7FC00000, 0xFFC00000, 0x7FC00001, 0xFFC00000]
        assert list(run(f"cvt.{mode}.f16.f64", ["b16"], ["f64"], f64)[0]) == [
            0x7E00, 0xFE00, 0x7E00, 0xFE00]
    for irnd in ("rni", "rzi", "rmi", "rpi"):
        assert list(run(f"cvt.{irnd}.f64.f64", ["f64"], ["f64"], f64)[0]) == [
            0x7FF8000000000000, 0xFFF8000000000001, 0x7FF8000020000000, 0xFFF8000000000001]
    # without f64 the NaN is canonical: cvt.rni.f32.f32, cvt.rn.f16.f32 (H200 too)
    assert list(run("cvt.rni.f32.f32", ["f32"], ["f32"], f32)[0]) == [0x7FFFFFFF] * 3
    assert list(run("cvt.rn.f16.f32", ["b16"], ["f32"], f32)[0]) == [0x7FFF] * 3


def test_mov_pack_unpack() -> None:
    lo = np.array([0x55667788, 1], dtype=np.uint32)
    hi = np.array([0x11223344, 2], dtype=np.uint32)
    d = run("mov.b64", ["b64"], [["b32", "b32"]], lo, hi)[0]
    assert [int(x) for x in d] == [0x1122334455667788, (2 << 32) | 1]
    a, b = run("mov.b64", [["b32", "b32"]], ["b64"], d)
    assert list(a) == list(lo) and list(b) == list(hi)
    x, y = run("mov.b32", [["b16", "b16"]], ["b32"], [0xAAAABBBB])
    assert (int(x[0]), int(y[0])) == (0xBBBB, 0xAAAA)
    z = run("mov.b32", ["b32"], [["b16", "b16"]], [0x1234], [0xABCD])[0]
    assert int(z[0]) == 0xABCD1234
    q = run("mov.b64", ["b64"], [["b16"] * 4], [1], [2], [3], [4])[0]
    assert int(q[0]) == 0x0004000300020001
    f = run("mov.f32", ["f32"], ["f32"], [0x7FC01234])[0]
    assert int(f[0]) == 0x7FC01234  # a move keeps NaN payloads
    p = run("mov.pred", ["pred"], ["!pred"], [True, False])[0]
    assert list(p) == [False, True]


def test_register_width_rules() -> None:
    # destination wider than the type: sign-extend signed types, zero-extend the rest
    assert int(run("cvt.s8.s32", ["b32"], ["b32"], [0x1FF])[0][0]) == 0xFFFFFFFF
    assert int(run("cvt.u8.u32", ["b16"], ["b32"], [0x1FF])[0][0]) == 0xFF
    assert int(run("add.s16", ["b32"], ["b16", "b16"], [0x7FFF], [1])[0][0]) == 0xFFFF8000
    assert int(run("add.u16", ["b32"], ["b16", "b16"], [0x7FFF], [1])[0][0]) == 0x8000
    # source wider than the type: truncated
    assert int(run("cvt.s32.s8", ["b32"], ["b16"], [0x0180])[0][0]) == 0xFFFFFF80
    assert int(run("add.u32", ["b32"], ["b64", "b32"], [0x1_0000_0005], [1])[0][0]) == 6
    op = op_for("add.u32", ["b32"], ["b64", "b32"])
    assert op.src_dtypes == (np.uint64, np.uint32) and op.dst_dtypes == (np.uint32,)
    with pytest.raises(UnsupportedPTXError):
        op_for("mul.wide.u32", ["b32"], ["b32", "b32"])  # dst narrower than u64
    with pytest.raises(UnsupportedPTXError):
        op_for("add.u32", ["pred"], ["b32", "b32"])


def test_immediate_bits() -> None:
    def im(v: int, fmt: str = "i") -> Operand:
        return Operand(OpKind.IMM, value=v, fmt=fmt)
    assert immediate_bits(im(-1), "u32") == np.uint32(0xFFFFFFFF)
    assert immediate_bits(im(-1), "s64").dtype == np.uint64
    assert immediate_bits(im(3), "f32") == np.uint32(0x40400000)
    assert immediate_bits(im(0x3F800000, "f32"), "f32") == np.uint32(0x3F800000)
    assert immediate_bits(im(0x3F800000, "f32"), "b32") == np.uint32(0x3F800000)
    tenth = int(np.float64(0.1).view(np.uint64))
    assert immediate_bits(im(tenth, "f64"), "f32") == np.float32(0.1).view(np.uint32)
    assert immediate_bits(im(tenth, "f64"), "f64") == np.uint64(tenth)
    assert immediate_bits(im(0x3F800000, "f32"), "f64") == np.float64(1.0).view(np.uint64)
    assert immediate_bits(im(1), "pred") == np.bool_(True)
    with pytest.raises(UnsupportedPTXError):
        immediate_bits(im(tenth, "f64"), "u32")


@pytest.mark.parametrize("spell,d,s", [("cvt.rm.bf16.f32", "b16", "f32"),
                                       ("cvt.rna.bf16.f32", "b16", "f32"),
                                       ("cvt.rn.s32.f32", "b32", "f32"),
                                       ("cvt.s32.f32", "b32", "f32"),
                                       ("cvt.rzi.f32.f64", "f32", "f64"),
                                       ("cvt.rn.f64.f32", "f64", "f32"),
                                       ("cvt.ftz.s32.s64", "b32", "b64"),
                                       ("mov.b128", "b64", "b64")])
def test_invalid_conversions_raise(spell: str, d: str, s: str) -> None:
    with pytest.raises(UnsupportedPTXError) as ei:
        op_for(spell, [d], [s])
    assert "hint:" in str(ei.value)


@pytest.mark.parametrize("mode", ["rn", "rz", "rm", "rp"])
@pytest.mark.parametrize("st", ["f32", "f64", "s32", "u64"])
def test_cvt_to_f16_exact(st: str, mode: str) -> None:
    rng = np.random.default_rng(12)
    if st[0] == "f":
        w = int(st[1:])
        ft = np.float32 if w == 32 else np.float64
        v = np.concatenate([
            rng.standard_normal(300) * 2.0 ** rng.integers(-30, 20, 300),
            np.array([0.0, -0.0, 65504.0, 65519.9, 65520.0, -70000.0, 2.0**-25, 2.0**-24 * 1.5,
                      -(2.0**-26), 1 + 2.0**-11, np.inf, np.nan])]).astype(ft)
        bits = v.view(np.uint32 if w == 32 else np.uint64)
        vals = [float(x) for x in v]
    else:
        w = int(st[1:])
        bits = samples(w, 300, 13)
        vals = [float(_int_val(int(x), st)) if w <= 32 else _int_val(int(x), st) for x in bits]
    got = run(f"cvt.{mode}.f16.{st}", ["b16"], [f"b{w}"], bits)[0]
    for x, g in zip(vals, got, strict=True):
        if isinstance(x, float) and math.isnan(x):
            exp = 0x7E00 if st == "f64" else 0x7FFF  # f64: the payload of +NaN, quieted
        elif isinstance(x, float) and (math.isinf(x) or x == 0):
            exp = bits_of(x, 16)
        elif x == 0:
            exp = 0
        else:
            exp = bits_of(ref_round(Fraction(x), mode, 16), 16)
        assert int(g) == exp, (st, mode, x)


def test_cvt_from_f16() -> None:
    h = np.array([1.5, -2.5, 65504.0, 2.0**-24, np.inf, np.nan, -0.0], dtype=np.float16)
    hb = h.view(np.uint16)
    f = run("cvt.f32.f16", ["f32"], ["b16"], hb)[0].view(np.float32)
    assert list(f[:5]) == [1.5, -2.5, 65504.0, 2.0**-24, np.inf] and np.isnan(f[5])
    d = run("cvt.f64.f16", ["f64"], ["b16"], hb)[0].view(np.float64)
    assert d[3] == 2.0**-24 and np.signbit(d[6])
    i = run("cvt.rni.s32.f16", ["b32"], ["b16"], hb)[0]
    assert [sv(int(x), 32) for x in i] == [2, -2, 65504, 0, 2**31 - 1, 0, 0]
    r = run("cvt.rmi.f16.f16", ["b16"], ["b16"], hb)[0].view(np.float16)
    assert list(r[:3]) == [1.0, -3.0, 65504.0]
