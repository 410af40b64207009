"""Integer arithmetic against plain Python integer oracles (two's complement by hand)."""

from __future__ import annotations

import numpy as np
import pytest

try:
    from tests.functional.sem_builder import op_for, run
except ImportError:
    from sem_builder import op_for, run

from warpsim.errors import UnsupportedPTXError

UT = {16: np.uint16, 32: np.uint32, 64: np.uint64}


def sv(x: int, w: int) -> int:
    """Signed value of w-bit raw x."""
    return x - (1 << w) if x >> (w - 1) else x


def raw(x: int, w: int) -> int:
    return x & ((1 << w) - 1)


def samples(w: int, n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    m = (1 << w) - 1
    edges = [0, 1, 2, 3, m, m - 1, 1 << (w - 1), (1 << (w - 1)) - 1, (1 << (w - 1)) + 1,
             7, 1 << (w // 2), m >> 1, 0xFF & m, 31, 32, 33]
    small = rng.integers(0, 64, n // 4, dtype=np.uint64)
    rnd = rng.integers(0, 1 << 62, n, dtype=np.uint64) * np.uint64(4) + rng.integers(
        0, 4, n, dtype=np.uint64)
    allv = np.concatenate([np.array(edges, dtype=np.uint64), small, rnd]) & np.uint64(m)
    return rng.permutation(allv)[:n].astype(UT[w])


def _pairs(w: int, n: int = 300, seed: int = 1) -> tuple[np.ndarray, np.ndarray]:
    return samples(w, n, seed), samples(w, n, seed + 100)


def _trunc_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def ref(op: str, t: str, a: int, b: int, c: int = 0) -> int:
    w = int(t[1:])
    s = t[0] == "s"
    x, y, z = (sv(a, w), sv(b, w), sv(c, w)) if s else (a, b, c)
    if op == "add":
        return raw(x + y, w)
    if op == "sub":
        return raw(x - y, w)
    if op == "mul.lo":
        return raw(x * y, w)
    if op == "mul.hi":
        return raw((x * y) >> w, w)
    if op == "mul.wide":
        return raw(x * y, 2 * w)
    if op == "mad.lo":
        return raw(x * y + z, w)
    if op == "mad.hi":
        return raw(((x * y) >> w) + z, w)
    if op == "div":
        if y == 0:
            return (1 << w) - 1
        return raw(_trunc_div(x, y), w)
    if op == "rem":
        if y == 0:
            return (1 << w) - 1
        return raw(x - _trunc_div(x, y) * y, w)
    if op == "min":
        return raw(min(x, y), w)
    if op == "max":
        return raw(max(x, y), w)
    if op == "abs":
        return raw(abs(x), w)
    if op == "neg":
        return raw(-x, w)
    if op == "sad":
        return raw(z + abs(x - y), w)
    raise KeyError(op)


TYPES = ["u16", "s16", "u32", "s32", "u64", "s64"]


@pytest.mark.parametrize("t", TYPES)
@pytest.mark.parametrize("op", ["add", "sub", "mul.lo", "mul.hi", "div", "rem", "min", "max",
                                "mad.lo", "mad.hi", "sad"])
def test_binary_integer_ops_match_python_ints(op: str, t: str) -> None:
    w = int(t[1:])
    a, b = _pairs(w)
    c = samples(w, len(a), 77)
    reg = f"b{w}"
    n = 3 if op.startswith("mad") or op == "sad" else 2
    got = run(f"{op}.{t}", [reg], [reg] * n, a, b, c)[0] if n == 3 else run(
        f"{op}.{t}", [reg], [reg, reg], a, b)[0]
    exp = [ref(op, t, int(x), int(y), int(z)) for x, y, z in zip(a, b, c, strict=True)]
    assert [int(v) for v in got] == exp


@pytest.mark.parametrize("t", ["u16", "s16", "u32", "s32"])
def test_mul_and_mad_wide(t: str) -> None:
    w = int(t[1:])
    a, b = _pairs(w, seed=5)
    c = samples(2 * w, len(a), 9)
    r1, r2 = f"b{w}", f"b{2 * w}"
    got = run(f"mul.wide.{t}", [r2], [r1, r1], a, b)[0]
    exp = [ref("mul.wide", t, int(x), int(y)) for x, y in zip(a, b, strict=True)]
    assert [int(v) for v in got] == exp
    got = run(f"mad.wide.{t}", [r2], [r1, r1, r2], a, b, c)[0]
    exp = [raw(e + int(z), 2 * w) for e, z in zip(exp, c, strict=True)]
    assert [int(v) for v in got] == exp


@pytest.mark.parametrize("t", ["s16", "s32", "s64"])
def test_abs_neg(t: str) -> None:
    w = int(t[1:])
    a = samples(w, 200, 3)
    for op in ("abs", "neg"):
        got = run(f"{op}.{t}", [f"b{w}"], [f"b{w}"], a)[0]
        assert [int(v) for v in got] == [ref(op, t, int(x), 0) for x in a]


def test_add_sub_sat_s32() -> None:
    a, b = _pairs(32, seed=11)
    for op, f in (("add", lambda x, y: x + y), ("sub", lambda x, y: x - y)):
        got = run(f"{op}.sat.s32", ["b32"], ["b32", "b32"], a, b)[0]
        exp = [raw(max(-(2**31), min(2**31 - 1, f(sv(int(x), 32), sv(int(y), 32)))), 32)
               for x, y in zip(a, b, strict=True)]
        assert [int(v) for v in got] == exp


def test_mad_hi_sat_s32() -> None:
    a, b = _pairs(32, seed=12)
    c = samples(32, len(a), 13)
    got = run("mad.hi.sat.s32", ["b32"], ["b32"] * 3, a, b, c)[0]
    exp = [raw(max(-(2**31), min(2**31 - 1, ((sv(int(x), 32) * sv(int(y), 32)) >> 32)
                                 + sv(int(z), 32))), 32) for x, y, z in zip(a, b, c, strict=True)]
    assert [int(v) for v in got] == exp


@pytest.mark.parametrize("t", ["u32", "s32"])
def test_mul24_mad24(t: str) -> None:
    a, b = _pairs(32, seed=21)
    c = samples(32, len(a), 22)

    def v24(x: int) -> int:
        x &= 0xFFFFFF
        return x - (1 << 24) if t == "s32" and x >> 23 else x
    for part in ("lo", "hi"):
        got = run(f"mul24.{part}.{t}", ["b32"], ["b32", "b32"], a, b)[0]
        p = [v24(int(x)) * v24(int(y)) for x, y in zip(a, b, strict=True)]
        exp = [raw(q if part == "lo" else q >> 16, 32) for q in p]
        assert [int(v) for v in got] == exp
        got = run(f"mad24.{part}.{t}", ["b32"], ["b32"] * 3, a, b, c)[0]
        assert [int(v) for v in got] == [raw(e + int(z), 32) for e, z in zip(exp, c, strict=True)]


def test_division_edge_cases() -> None:
    a = np.array([0x80000000, 7, 0xFFFFFFF9, 5, 0], dtype=np.uint32)
    b = np.array([0xFFFFFFFF, 0, 2, 0xFFFFFFFE, 0], dtype=np.uint32)
    q = run("div.s32", ["b32"], ["b32", "b32"], a, b)[0]
    r = run("rem.s32", ["b32"], ["b32", "b32"], a, b)[0]
    assert [sv(int(x), 32) for x in q] == [-(2**31), -1, -3, -2, -1]
    assert [sv(int(x), 32) for x in r] == [0, -1, -1, 1, -1]
    qu = run("div.u64", ["b64"], ["b64", "b64"], np.array([9], np.uint64), np.array([0], np.uint64))
    assert int(qu[0][0]) == 2**64 - 1


@pytest.mark.parametrize("t", TYPES)
def test_rem_by_zero_is_all_ones(t: str) -> None:
    # the H200 (validation/results/h200/int{32,64}_ops.json) gives all ones for rem.{s,u}{32,64}
    # by zero whatever the dividend (0, positive, negative, INT_MIN)
    w = int(t[1:])
    a = np.array([0, 1, 7, (1 << (w - 1)) - 1, 1 << (w - 1), (1 << w) - 1], dtype=f"u{w // 8}")
    r = run(f"rem.{t}", [f"b{w}"], [f"b{w}", f"b{w}"], a, np.zeros_like(a))[0]
    assert [int(x) for x in r] == [(1 << w) - 1] * 6


def test_carry_chain_128bit_add_and_sub() -> None:
    rng = np.random.default_rng(4)
    x = [int(v) for v in rng.integers(0, 2**63, 50, dtype=np.uint64)] + [2**64 - 1, 0]
    y = [int(v) for v in rng.integers(0, 2**63, 50, dtype=np.uint64)] + [1, 1]
    x = [v * 3 % 2**64 | (v << 64) for v in x]
    y = [v * 5 % 2**64 | (v << 64) for v in y]
    limbs = [[np.array([(v >> (32 * k)) & 0xFFFFFFFF for v in vals], np.uint32)
              for k in range(4)] for vals in (x, y)]
    for op, first, mid, last, f in (("add", "add.cc.u32", "addc.cc.u32", "addc.u32",
                                     lambda p, q: p + q),
                                    ("sub", "sub.cc.u32", "subc.cc.u32", "subc.u32",
                                     lambda p, q: p - q)):
        o0 = op_for(first, ["b32"], ["b32", "b32"])
        assert o0.writes_cc and not o0.reads_cc and o0.n_dsts == 2
        d0, cf = o0.evaluate([limbs[0][0], limbs[1][0]])
        outs = [d0]
        o1 = op_for(mid, ["b32"], ["b32", "b32"])
        assert o1.reads_cc and o1.writes_cc and o1.n_srcs == 3
        for k in (1, 2):
            dk, cf = o1.evaluate([limbs[0][k], limbs[1][k], cf])
            outs.append(dk)
        o3 = op_for(last, ["b32"], ["b32", "b32"])
        assert o3.reads_cc and not o3.writes_cc
        outs.append(o3.evaluate([limbs[0][3], limbs[1][3], cf])[0])
        got = [sum(int(outs[k][i]) << (32 * k) for k in range(4)) for i in range(len(x))]
        assert got == [f(p, q) % 2**128 for p, q in zip(x, y, strict=True)], op


def test_madc_chain_wide_multiply() -> None:
    """64x64 -> 128-bit product from 32-bit limbs with mad.lo.cc / madc.hi (particlefilter)."""
    a, b = _pairs(32, seed=31)
    c = samples(32, len(a), 32)
    lo, cf = op_for("mad.lo.cc.u32", ["b32"], ["b32"] * 3).evaluate([a, b, c])
    hi = op_for("madc.hi.u32", ["b32"], ["b32"] * 3).evaluate([a, b, c, cf])[0]
    for i in range(len(a)):
        full = int(a[i]) * int(b[i])
        s = (full & 0xFFFFFFFF) + int(c[i])
        assert int(lo[i]) == s & 0xFFFFFFFF
        assert int(hi[i]) == ((full >> 32) + int(c[i]) + (s >> 32)) & 0xFFFFFFFF
    d, cf2 = op_for("madc.lo.cc.u32", ["b32"], ["b32"] * 3).evaluate([a, b, c, cf])
    for i in range(len(a)):
        s = (int(a[i]) * int(b[i]) & 0xFFFFFFFF) + int(c[i]) + int(cf[i])
        assert (int(d[i]), int(cf2[i])) == (s & 0xFFFFFFFF, s >> 32)


def test_immediate_scalar_operand_broadcasts() -> None:
    a = np.array([1, 2, 0xFFFFFFFF], dtype=np.uint32)
    out = op_for("add.u32", ["b32"], ["b32", ("imm", 5, "i")]).evaluate([a, np.uint32(5)])
    assert list(out[0]) == [6, 7, 4]


@pytest.mark.parametrize("spelling,n", [("add.sat.u32", 2), ("mul.s32", 2), ("mul.wide.s64", 2),
                                        ("add.b32", 2), ("abs.u32", 1), ("add.cc.u16", 2),
                                        ("mad24.wide.u32", 3)])
def test_invalid_integer_forms_raise(spelling: str, n: int) -> None:
    w = 16 if "16" in spelling else (64 if "64" in spelling else 32)
    with pytest.raises(UnsupportedPTXError) as ei:
        op_for(spelling, [f"b{w}"], [f"b{w}"] * n)
    assert ei.value.line == 7 and spelling in str(ei.value)


@pytest.mark.parametrize("ta", ["u32", "s32"])
@pytest.mark.parametrize("tb", ["u32", "s32"])
def test_dp4a_dp2a(ta: str, tb: str) -> None:
    a, b = _pairs(32, seed=41)
    c = samples(32, len(a), 42)

    def f(x: int, k: int, bits: int, signed: bool) -> int:
        v = (x >> k) & ((1 << bits) - 1)
        return v - (1 << bits) if signed and v >> (bits - 1) else v
    sa, sb = ta == "s32", tb == "s32"
    got = run(f"dp4a.{ta}.{tb}", ["b32"], ["b32"] * 3, a, b, c)[0]
    for x, y, z, g in zip(a, b, c, got, strict=True):
        e = int(z) + sum(f(int(x), 8 * i, 8, sa) * f(int(y), 8 * i, 8, sb) for i in range(4))
        assert int(g) == e % 2**32
    for part, k in (("lo", 0), ("hi", 2)):
        got = run(f"dp2a.{part}.{ta}.{tb}", ["b32"], ["b32"] * 3, a, b, c)[0]
        for x, y, z, g in zip(a, b, c, got, strict=True):
            e = int(z) + sum(f(int(x), 16 * i, 16, sa) * f(int(y), 8 * (k + i), 8, sb)
                             for i in range(2))
            assert int(g) == e % 2**32


def test_carry_chain_64bit_limbs() -> None:
    rng = np.random.default_rng(51)
    x = [int(v) for v in rng.integers(0, 2**64, 40, dtype=np.uint64)] + [2**64 - 1, 0, 5]
    y = [int(v) for v in rng.integers(0, 2**64, 40, dtype=np.uint64)] + [1, 1, 5]
    xh = [int(v) for v in rng.integers(0, 2**64, 43, dtype=np.uint64)]
    yh = [int(v) for v in rng.integers(0, 2**64, 43, dtype=np.uint64)]
    a0, b0 = np.array(x, np.uint64), np.array(y, np.uint64)
    a1, b1 = np.array(xh, np.uint64), np.array(yh, np.uint64)
    for first, second, f in (("add.cc.u64", "addc.u64", lambda p, q: p + q),
                             ("sub.cc.s64", "subc.s64", lambda p, q: p - q)):
        lo, cf = op_for(first, ["b64"], ["b64", "b64"]).evaluate([a0, b0])
        hi = op_for(second, ["b64"], ["b64", "b64"]).evaluate([a1, b1, cf])[0]
        for i in range(len(x)):
            exp = f(x[i] | xh[i] << 64, y[i] | yh[i] << 64) % 2**128
            assert int(lo[i]) | int(hi[i]) << 64 == exp, first


def _lanes(x: int, bits: int, signed: bool) -> list[int]:
    m = (1 << bits) - 1
    v = [(x >> (i * bits)) & m for i in range(32 // bits)]
    return [e - (1 << bits) if signed and e >> (bits - 1) else e for e in v]


@pytest.mark.parametrize("t", ["u16x2", "s16x2"])
@pytest.mark.parametrize("op", ["add", "sub", "min", "max", "min.relu", "max.relu"])
def test_packed_16x2_ops(op: str, t: str) -> None:
    if op.endswith("relu") and t == "u16x2":
        with pytest.raises(UnsupportedPTXError):
            run(f"{op}.{t}", ["b32"], ["b32", "b32"], [0], [0])
        return
    a, b = _pairs(32, seed=31)
    got = run(f"{op}.{t}", ["b32"], ["b32", "b32"], a, b)[0]
    f = {"add": lambda x, y: x + y, "sub": lambda x, y: x - y, "min": min, "max": max}[op[:3]]
    for x, y, g in zip(a, b, got, strict=True):
        r = [f(p, q) for p, q in zip(_lanes(int(x), 16, t[0] == "s"),
                                     _lanes(int(y), 16, t[0] == "s"), strict=True)]
        if op.endswith("relu"):
            r = [max(v, 0) for v in r]
        assert int(g) == (r[0] & 0xFFFF) | (r[1] & 0xFFFF) << 16, (op, t, hex(x), hex(y))


def test_packed_16x2_hand_values() -> None:
    # halves: a = (0x7F01, 0x80FF), b = (0x80FF, 0x01FF)
    a, b = np.array([0x80FF7F01], np.uint32), np.array([0x01FF80FF], np.uint32)
    two = ["b32", "b32"]
    assert int(run("add.s16x2", ["b32"], two, a, b)[0][0]) == 0x82FE0000
    assert int(run("sub.u16x2", ["b32"], two, a, b)[0][0]) == 0x7F00FE02
    assert int(run("min.u16x2", ["b32"], two, a, b)[0][0]) == 0x01FF7F01
    assert int(run("min.s16x2", ["b32"], two, a, b)[0][0]) == 0x80FF80FF
    assert int(run("min.relu.s16x2", ["b32"], two, a, b)[0][0]) == 0
    assert int(run("max.relu.s32", ["b32"], two, a, b)[0][0]) == 0x01FF80FF
    assert int(run("min.relu.s32", ["b32"], two, a, b)[0][0]) == 0


def _video_ref(op: str, n: int, ts: tuple[str, str, str], sat: bool, acc: bool,
               a: int, b: int, c: int) -> int:
    bits = 32 // n
    sd, sa, sb = (t == "s32" for t in ts)
    out = c if acc else 0
    for i, (x, y) in enumerate(zip(_lanes(a, bits, sa), _lanes(b, bits, sb), strict=True)):
        t = {"vadd": x + y, "vsub": x - y, "vabsdiff": abs(x - y), "vmin": min(x, y),
             "vmax": max(x, y), "vavrg": (x + y + 1) >> 1 if x + y >= 0 else (x + y) >> 1}[op]
        if sat:
            lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if sd else (0, (1 << bits) - 1)
            t = min(max(t, lo), hi)
        out = out + t if acc else out | (t & ((1 << bits) - 1)) << (i * bits)
    return out & 0xFFFFFFFF


@pytest.mark.parametrize("n", [4, 2])
@pytest.mark.parametrize("op", ["vadd", "vsub", "vavrg", "vabsdiff", "vmin", "vmax"])
def test_simd_video_ops_match_reference(op: str, n: int) -> None:
    a, b = _pairs(32, n=120, seed=41)
    c = samples(32, len(a), 42)
    for ts in (("u32", "u32", "u32"), ("s32", "s32", "s32"), ("u32", "s32", "u32"),
               ("s32", "u32", "s32")):
        for mod, sat, acc in (("", False, False), (".sat", True, False), (".add", False, True)):
            spelling = f"{op}{n}.{'.'.join(ts)}{mod}"
            got = run(spelling, ["b32"], ["b32"] * 3, a, b, c)[0]
            exp = [_video_ref(op, n, ts, sat, acc, int(x), int(y), int(z))
                   for x, y, z in zip(a, b, c, strict=True)]
            assert [int(v) for v in got] == exp, spelling


def test_simd_video_hand_values() -> None:
    # bytes of a = (01, 7F, FF, 80), b = (FF, 80, FF, 01), c = 0x10203040
    a, b = np.array([0x80FF7F01], np.uint32), np.array([0x01FF80FF], np.uint32)
    c = np.array([0x10203040], np.uint32)
    three = ["b32"] * 3
    # |1-255| = 0xFE, |127-128| = 1, 0, |128-1| = 0x7F
    assert int(run("vabsdiff4.u32.u32.u32", ["b32"], three, a, b, c)[0][0]) == 0x7F0001FE
    assert int(run("vabsdiff4.u32.u32.u32.add", ["b32"], three, a, b, c)[0][0]) == 0x102031BE
    # signed bytes (1, 127, -1, -128) + (-1, -128, -1, 1) = (0, -1, -2, -127)
    assert int(run("vadd4.s32.s32.s32.sat", ["b32"], three, a, b, c)[0][0]) == 0x81FEFF00
    # unsigned halves: (0x7F01 + 0x80FF + 1) >> 1 = 0x8000, (0x80FF + 0x01FF + 1) >> 1 = 0x417F
    assert int(run("vavrg2.u32.u32.u32", ["b32"], three, a, b, c)[0][0]) == 0x417F8000
    with pytest.raises(UnsupportedPTXError):
        run("vadd4.u32.u32.u32.sat.add", ["b32"], three, a, b, c)
