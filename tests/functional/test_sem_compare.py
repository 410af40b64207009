"""setp / set / selp / slct against Python comparison oracles (IEEE unordered rules by hand)."""

from __future__ import annotations

import math

import numpy as np
import pytest

try:
    from tests.functional.sem_builder import op_for, run
    from tests.functional.test_sem_int import samples, sv
except ImportError:
    from sem_builder import op_for, run
    from test_sem_int import samples, sv

from warpsim.errors import UnsupportedPTXError

ICMP = {"eq": lambda x, y: x == y, "ne": lambda x, y: x != y, "lt": lambda x, y: x < y,
        "le": lambda x, y: x <= y, "gt": lambda x, y: x > y, "ge": lambda x, y: x >= y}
UCMP = {"lo": ICMP["lt"], "ls": ICMP["le"], "hi": ICMP["gt"], "hs": ICMP["ge"]}


@pytest.mark.parametrize("t", ["u16", "s16", "u32", "s32", "u64", "s64", "b16", "b32", "b64"])
def test_setp_integer(t: str) -> None:
    w = int(t[1:])
    a = samples(w, 200, 1)
    b = np.concatenate([a[:50], samples(w, 150, 2)])
    cmps = dict(ICMP) if t[0] != "b" else {k: ICMP[k] for k in ("eq", "ne")}
    if t[0] == "u":
        cmps.update(UCMP)
    for name, f in cmps.items():
        got = run(f"setp.{name}.{t}", ["pred"], [f"b{w}", f"b{w}"], a, b)[0]
        conv = (lambda v: sv(int(v), w)) if t[0] == "s" else int
        assert list(got) == [f(conv(x), conv(y)) for x, y in zip(a, b, strict=True)], name


def _fref(cmp: str, x: float, y: float) -> bool:
    unordered = math.isnan(x) or math.isnan(y)
    if cmp == "num":
        return not unordered
    if cmp == "nan":
        return unordered
    if cmp.endswith("u"):
        return unordered or ICMP[cmp[:-1]](x, y)
    return (not unordered) and ICMP[cmp](x, y)


@pytest.mark.parametrize("t", ["f16", "f32", "f64"])
@pytest.mark.parametrize("ftz", [False, True])
def test_setp_float(t: str, ftz: bool) -> None:
    if ftz and t == "f64":
        pytest.skip("ftz is f32/f16-only")
    ft = {"f16": np.float16, "f32": np.float32, "f64": np.float64}[t]
    tiny = float(np.finfo(ft).tiny)
    vals = [0.0, -0.0, 1.0, -1.0, math.inf, -math.inf, math.nan, 1e-40, -1e-40, 2.5, 1e-310,
            1e-6, -1e-6, 3e-5]
    xs = np.array([x for x in vals for _ in vals], dtype=ft)
    ys = np.array([y for _ in vals for y in vals], dtype=ft)
    ut = {"f16": np.uint16, "f32": np.uint32, "f64": np.uint64}[t]
    reg = {"f16": "b16", "f32": "f32", "f64": "f64"}[t]
    for cmp in ["eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu", "gtu", "geu",
                "num", "nan"]:
        spell = f"setp.{cmp}.ftz.{t}" if ftz else f"setp.{cmp}.{t}"
        got = run(spell, ["pred"], [reg, reg], xs.view(ut), ys.view(ut))[0]

        def fl(v: float) -> float:
            return 0.0 if ftz and abs(v) < tiny else v
        exp = [_fref(cmp, fl(float(x)), fl(float(y))) for x, y in zip(xs, ys, strict=True)]
        assert list(got) == exp, spell


def test_setp_bool_combine_two_destinations() -> None:
    a = np.array([1, 5, 1, 5], dtype=np.uint32)
    b = np.array([2, 3, 2, 3], dtype=np.uint32)
    c = np.array([True, True, False, False])
    for bop, f in (("and", lambda r, q: r and q), ("or", lambda r, q: r or q),
                   ("xor", lambda r, q: r != q)):
        for neg in (False, True):
            p, q = run(f"setp.lt.{bop}.s32", ["pred", "pred"],
                       ["b32", "b32", "!pred" if neg else "pred"], a, b, c)
            cc = [not v if neg else bool(v) for v in c]
            r = [int(x) < int(y) for x, y in zip(a, b, strict=True)]
            assert list(p) == [f(x, y) for x, y in zip(r, cc, strict=True)]
            assert list(q) == [f(not x, y) for x, y in zip(r, cc, strict=True)]


def test_setp_p_q_without_combine() -> None:
    p, q = run("setp.eq.u32", ["pred", "pred"], ["b32", "b32"], [1, 2], [1, 3])
    assert list(p) == [True, False] and list(q) == [False, True]


def test_set_results() -> None:
    a = np.array([1, 2, 3], dtype=np.uint32)
    b = np.array([2, 2, 2], dtype=np.uint32)
    assert list(run("set.lt.u32.s32", ["b32"], ["b32", "b32"], a, b)[0]) == [
        0xFFFFFFFF, 0, 0]
    assert list(run("set.ge.f32.u32", ["f32"], ["b32", "b32"], a, b)[0]) == [
        0, 0x3F800000, 0x3F800000]
    got = run("set.ne.and.u32.u32", ["b32"], ["b32", "b32", "pred"], a, b,
              [True, True, False])[0]
    assert list(got) == [0xFFFFFFFF, 0, 0]


@pytest.mark.parametrize("t", ["b16", "u32", "s64", "f32", "f64", "b64"])
def test_selp(t: str) -> None:
    w = int(t[1:])
    a, b = samples(w, 50, 3), samples(w, 50, 4)
    c = np.arange(50) % 3 == 0
    got = run(f"selp.{t}", [f"b{w}"], [f"b{w}", f"b{w}", "pred"], a, b, c)[0]
    assert [int(v) for v in got] == [int(x) if k else int(y) for x, y, k in
                                     zip(a, b, c, strict=True)]


def test_slct() -> None:
    a, b = samples(32, 6, 5), samples(32, 6, 6)
    c = np.array([0, 1, 0x80000000, 0xFFFFFFFF, 5, 0x7FFFFFFF], dtype=np.uint32)
    got = run("slct.u32.s32", ["b32"], ["b32", "b32", "b32"], a, b, c)[0]
    assert [int(v) for v in got] == [int(x) if sv(int(k), 32) >= 0 else int(y)
                                     for x, y, k in zip(a, b, c, strict=True)]
    cf = np.array([0.0, -0.0, -1.0, np.nan, 1e-40, -1e-40], dtype=np.float32).view(np.uint32)
    got = run("slct.ftz.b32.f32", ["b32"], ["b32", "b32", "f32"], a, b, cf)[0]
    take = [True, True, False, False, True, True]
    assert [int(v) for v in got] == [int(x) if k else int(y) for x, y, k in
                                     zip(a, b, take, strict=True)]


@pytest.mark.parametrize("spell", ["setp.lo.s32", "setp.lt.b32", "setp.equ.u32",
                                   "setp.lt.ftz.f64", "setp.f32"])
def test_invalid_compare_forms_raise(spell: str) -> None:
    t = "f64" if "f64" in spell else ("f32" if "f32" in spell else "b32")
    with pytest.raises(UnsupportedPTXError):
        op_for(spell, ["pred"], [t, t])
