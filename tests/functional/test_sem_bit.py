"""Logic and bit-manipulation instructions against bit-by-bit Python oracles (PTX pseudo-code)."""

from __future__ import annotations

import numpy as np
import pytest

try:
    from tests.functional.sem_builder import make, op_for, run
    from tests.functional.test_sem_int import samples
except ImportError:
    from sem_builder import make, op_for, run
    from test_sem_int import samples

from warpsim.errors import UnsupportedPTXError

SHIFTS = np.array([0, 1, 7, 15, 16, 17, 31, 32, 33, 63, 64, 65, 255, 256, 2**31, 2**32 - 1]
                  * 20, dtype=np.uint32)


def bit(x: int, i: int) -> int:
    return (x >> i) & 1


@pytest.mark.parametrize("w", [16, 32, 64])
def test_logic_ops(w: int) -> None:
    a, b = samples(w, 200, 1), samples(w, 200, 2)
    m = (1 << w) - 1
    r = f"b{w}"
    for op, f in (("and", lambda x, y: x & y), ("or", lambda x, y: x | y),
                  ("xor", lambda x, y: x ^ y)):
        got = run(f"{op}.b{w}", [r], [r, r], a, b)[0]
        assert [int(v) for v in got] == [f(int(x), int(y)) for x, y in zip(a, b, strict=True)]
    assert [int(v) for v in run(f"not.b{w}", [r], [r], a)[0]] == [m ^ int(x) for x in a]
    assert [int(v) for v in run(f"cnot.b{w}", [r], [r], a)[0]] == [int(int(x) == 0) for x in a]


def test_pred_logic_with_negated_source() -> None:
    p = np.array([True, True, False, False])
    q = np.array([True, False, True, False])
    assert list(run("and.pred", ["pred"], ["pred", "!pred"], p, q)[0]) == [False, True, False,
                                                                          False]
    assert list(run("or.pred", ["pred"], ["pred", "pred"], p, q)[0]) == [True, True, True, False]
    assert list(run("xor.pred", ["pred"], ["pred", "pred"], p, q)[0]) == [False, True, True, False]
    assert list(run("not.pred", ["pred"], ["pred"], p)[0]) == [False, False, True, True]


@pytest.mark.parametrize("t", ["b16", "b32", "b64", "u16", "u32", "u64", "s16", "s32", "s64"])
def test_shifts_clamp(t: str) -> None:
    w = int(t[1:])
    a = samples(w, len(SHIFTS), 3)
    r = f"b{w}"
    m = (1 << w) - 1
    if t[0] == "b":
        got = run(f"shl.{t}", [r], [r, "b32"], a, SHIFTS)[0]
        exp = [(int(x) << int(n)) & m if n < w else 0 for x, n in zip(a, SHIFTS, strict=True)]
        assert [int(v) for v in got] == exp
    got = run(f"shr.{t}", [r], [r, "b32"], a, SHIFTS)[0]
    if t[0] == "s":
        sv = [int(x) - (1 << w) if int(x) >> (w - 1) else int(x) for x in a]
        exp = [(x >> min(int(n), w)) & m for x, n in zip(sv, SHIFTS, strict=True)]
    else:
        exp = [int(x) >> int(n) if n < w else 0 for x, n in zip(a, SHIFTS, strict=True)]
    assert [int(v) for v in got] == exp


@pytest.mark.parametrize("t", ["b16", "b32", "b64", "u16", "u32", "u64", "s16", "s32", "s64"])
def test_shifts_by_immediate(t: str) -> None:
    """An immediate amount (a numpy scalar, as the loader passes it) takes the one-operation
    path below the width and the general one from the width up: same bits as the oracle."""
    w = int(t[1:])
    a = samples(w, 40, 5)
    r = f"b{w}"
    m = (1 << w) - 1
    for n in sorted({int(x) for x in SHIFTS[:16]}):
        amount = np.uint32(n)
        if t[0] == "b":
            got = run(f"shl.{t}", [r], [r, "b32"], a, amount)[0]
            assert got.dtype == np.dtype(f"uint{w}")
            assert [int(v) for v in got] == [(int(x) << n) & m if n < w else 0 for x in a]
        got = run(f"shr.{t}", [r], [r, "b32"], a, amount)[0]
        assert got.dtype == np.dtype(f"uint{w}")
        if t[0] == "s":
            sv = [int(x) - (1 << w) if int(x) >> (w - 1) else int(x) for x in a]
            exp = [(x >> min(n, w)) & m for x in sv]
        else:
            exp = [int(x) >> n if n < w else 0 for x in a]
        assert [int(v) for v in got] == exp, (t, n)


def _bfe_ref(a: int, pos: int, ln: int, w: int, signed: bool) -> int:
    pos, ln = pos & 0xFF, ln & 0xFF
    msb = w - 1
    if not signed or ln == 0:
        sbit = 0
    else:
        sbit = bit(a, min(pos + ln - 1, msb))
    d = 0
    for i in range(w):
        b = bit(a, pos + i) if (i < ln and pos + i <= msb) else sbit
        d |= b << i
    return d


@pytest.mark.parametrize("t", ["u32", "s32", "u64", "s64"])
def test_bfe(t: str) -> None:
    w = int(t[1:])
    rng = np.random.default_rng(5)
    a = samples(w, 300, 4)
    pos = rng.choice([0, 1, 5, 8, 16, 31, 32, 33, 60, 63, 64, 200, 255, 256 + 3], 300).astype(
        np.uint32)
    ln = rng.choice([0, 1, 4, 8, 16, 24, 31, 32, 33, 64, 65, 255, 256 + 2], 300).astype(np.uint32)
    got = run(f"bfe.{t}", [f"b{w}"], [f"b{w}", "b32", "b32"], a, pos, ln)[0]
    exp = [_bfe_ref(int(x), int(p), int(n), w, t[0] == "s") for x, p, n in
           zip(a, pos, ln, strict=True)]
    assert [int(v) for v in got] == exp


@pytest.mark.parametrize("w", [32, 64])
def test_bfi(w: int) -> None:
    rng = np.random.default_rng(6)
    a, b = samples(w, 300, 7), samples(w, 300, 8)
    pos = rng.choice([0, 1, 5, 16, 31, 32, 33, 63, 64, 255, 259], 300).astype(np.uint32)
    ln = rng.choice([0, 1, 4, 8, 16, 31, 32, 33, 64, 70, 255, 258], 300).astype(np.uint32)
    got = run(f"bfi.b{w}", [f"b{w}"], [f"b{w}", f"b{w}", "b32", "b32"], a, b, pos, ln)[0]
    for i in range(300):
        f = int(b[i])
        p, n = int(pos[i]) & 0xFF, int(ln[i]) & 0xFF
        for k in range(n):
            if p + k < w:
                f = (f & ~(1 << (p + k))) | (bit(int(a[i]), k) << (p + k))
        assert int(got[i]) == f, i


def _prmt_ref(a: int, b: int, c: int, mode: str) -> int:
    x = [((b << 32 | a) >> (8 * k)) & 0xFF for k in range(8)]
    out = 0
    if mode == "":
        for i in range(4):
            s = (c >> (4 * i)) & 0xF
            v = x[s & 7]
            if s & 8:
                v = 0xFF if v & 0x80 else 0
            out |= v << (8 * i)
        return out
    s = c & 3
    # PTX ISA prmt table: result bytes (b3 b2 b1 b0) per selector
    tbl = {"f4e": [(3, 2, 1, 0), (4, 3, 2, 1), (5, 4, 3, 2), (6, 5, 4, 3)],
           "b4e": [(5, 6, 7, 0), (6, 7, 0, 1), (7, 0, 1, 2), (0, 1, 2, 3)],
           "rc8": [(0, 0, 0, 0), (1, 1, 1, 1), (2, 2, 2, 2), (3, 3, 3, 3)],
           "ecl": [(3, 2, 1, 0), (3, 2, 1, 1), (3, 2, 2, 2), (3, 3, 3, 3)],
           "ecr": [(0, 0, 0, 0), (1, 1, 1, 0), (2, 2, 1, 0), (3, 2, 1, 0)],
           "rc16": [(1, 0, 1, 0), (3, 2, 3, 2), (1, 0, 1, 0), (3, 2, 3, 2)]}[mode][s]
    for i, k in enumerate(reversed(tbl)):
        out |= x[k] << (8 * i)
    return out


@pytest.mark.parametrize("mode", ["", "f4e", "b4e", "rc8", "ecl", "ecr", "rc16"])
def test_prmt(mode: str) -> None:
    a, b, c = samples(32, 200, 9), samples(32, 200, 10), samples(32, 200, 11)
    spell = f"prmt.b32.{mode}" if mode else "prmt.b32"
    got = run(spell, ["b32"], ["b32"] * 3, a, b, c)[0]
    exp = [_prmt_ref(int(x), int(y), int(z), mode) for x, y, z in zip(a, b, c, strict=True)]
    assert [int(v) for v in got] == exp


@pytest.mark.parametrize("mode", ["", "f4e", "b4e", "rc8", "ecl", "ecr", "rc16"])
def test_prmt_immediate_selector(mode: str) -> None:
    a, b = samples(32, 50, 19), samples(32, 50, 20)
    spell = f"prmt.b32.{mode}" if mode else "prmt.b32"
    op = op_for(spell, ["b32"], ["b32", "b32", ("imm", 0, "i")])
    for c in (0x3210, 0x5140, 0x8F9A, 0xBA98, 0x7654, 1, 2, 3, 0xCDEF):
        got = op.evaluate([a, b, np.uint32(c)])[0]
        exp = [_prmt_ref(int(x), int(y), c, mode) for x, y in zip(a, b, strict=True)]
        assert [int(v) for v in got] == exp, hex(c)


@pytest.mark.parametrize("w", [32, 64])
def test_clz_popc_brev(w: int) -> None:
    a = samples(w, 300, 12)
    r = f"b{w}"
    assert [int(v) for v in run(f"clz.b{w}", ["b32"], [r], a)[0]] == [
        w - int(x).bit_length() for x in a]
    assert [int(v) for v in run(f"popc.b{w}", ["b32"], [r], a)[0]] == [
        bin(int(x)).count("1") for x in a]
    assert [int(v) for v in run(f"brev.b{w}", [r], [r], a)[0]] == [
        int(format(int(x), f"0{w}b")[::-1], 2) for x in a]


@pytest.mark.parametrize("t", ["u32", "s32", "u64", "s64"])
def test_bfind(t: str) -> None:
    w = int(t[1:])
    a = samples(w, 300, 13)
    for shiftamt in (False, True):
        spell = f"bfind.shiftamt.{t}" if shiftamt else f"bfind.{t}"
        got = run(spell, ["b32"], [f"b{w}"], a)[0]
        for x, g in zip(a, got, strict=True):
            v = int(x)
            if t[0] == "s" and v >> (w - 1):
                v = ~v & ((1 << w) - 1)
            e = v.bit_length() - 1
            if e < 0:
                assert int(g) == 0xFFFFFFFF
            else:
                assert int(g) == ((w - 1 - e) if shiftamt else e)


@pytest.mark.parametrize("spell", ["shf.l.wrap.b32", "shf.r.wrap.b32", "shf.l.clamp.b32",
                                   "shf.r.clamp.b32"])
def test_shf(spell: str) -> None:
    a, b = samples(32, len(SHIFTS), 14), samples(32, len(SHIFTS), 15)
    got = run(spell, ["b32"], ["b32"] * 3, a, b, SHIFTS)[0]
    for x, y, c, g in zip(a, b, SHIFTS, got, strict=True):
        n = int(c) & 31 if "wrap" in spell else min(int(c), 32)
        full = int(y) << 32 | int(x)
        e = ((full << n) >> 32) & 0xFFFFFFFF if ".l." in spell else (full >> n) & 0xFFFFFFFF
        assert int(g) == e


@pytest.mark.parametrize("lut", [0x00, 0xFF, 0x80, 0x96, 0xE8, 0xF0, 0xCC, 0xAA, 0x1E, 0x6A])
def test_lop3(lut: int) -> None:
    a, b, c = samples(32, 100, 16), samples(32, 100, 17), samples(32, 100, 18)
    op = op_for("lop3.b32", ["b32"], ["b32"] * 3 + [("imm", lut, "i")])
    got = op.evaluate([a, b, c, np.uint32(lut)])[0]
    for x, y, z, g in zip(a, b, c, got, strict=True):
        e = 0
        for i in range(32):
            idx = bit(int(x), i) << 2 | bit(int(y), i) << 1 | bit(int(z), i)
            e |= bit(lut, idx) << i
        assert int(g) == e


@pytest.mark.parametrize("spell", ["shl.u32", "bfe.b32", "prmt.b64", "clz.u32", "shf.l.b32",
                                   "and.f32", "cnot.pred"])
def test_invalid_bit_forms_raise(spell: str) -> None:
    t = "pred" if "pred" in spell else ("b64" if "64" in spell else "b32")
    with pytest.raises(UnsupportedPTXError):
        op_for(spell, [t], [t, t])


BMSK_EDGES = [0, 1, 2, 5, 16, 30, 31, 32, 33, 63, 64, 255, 2**31, 2**32 - 1]


@pytest.mark.parametrize("mode", ["clamp", "wrap"])
def test_bmsk_against_the_bit_field_definition(mode: str) -> None:
    """d has bits pos .. pos+width-1 set, cut at bit 31 (PTX ISA bmsk): .wrap takes position
    and width modulo 32; .clamp gives no bits from a position >= 32 and takes a width >= 32
    as 32."""
    a = np.array([x for x in BMSK_EDGES for _ in BMSK_EDGES], dtype=np.uint32)
    b = np.array(BMSK_EDGES * len(BMSK_EDGES), dtype=np.uint32)
    got = run(f"bmsk.{mode}.b32", ["b32"], ["b32", "b32"], a, b)[0]
    for x, y, g in zip(a, b, got, strict=True):
        if mode == "wrap":
            pos, width = int(x) % 32, int(y) % 32
        else:
            pos, width = (int(x), min(int(y), 32)) if x < 32 else (32, 0)
        e = sum(1 << i for i in range(pos, min(pos + width, 32)))
        assert int(g) == e, (mode, int(x), int(y))


def test_bmsk_hand_values() -> None:
    cases = [  # (mode, a, b, d): worked by hand from the ISA text
        ("wrap", 1, 2, 0x00000006),  # the ISA's own example
        ("clamp", 0, 32, 0xFFFFFFFF), ("wrap", 0, 32, 0x00000000),  # width 32 vs width 0
        ("clamp", 4, 0, 0), ("wrap", 4, 0, 0),  # width 0
        ("clamp", 28, 8, 0xF0000000), ("wrap", 28, 8, 0xF0000000),  # cut at bit 31
        ("clamp", 32, 4, 0), ("wrap", 32, 4, 0x0000000F),  # position 32
        ("clamp", 35, 2, 0), ("wrap", 35, 2, 0x00000018),
        ("clamp", 8, 40, 0xFFFFFF00), ("wrap", 8, 40, 0x0000FF00),
    ]
    for mode, a, b, d in cases:
        got = run(f"bmsk.{mode}.b32", ["b32"], ["b32", "b32"], np.array([a], np.uint32),
                  np.array([b], np.uint32))[0]
        assert int(got[0]) == d, (mode, a, b)


@pytest.mark.parametrize("spell", ["bmsk.b32", "bmsk.clamp.b64", "bmsk.clamp.wrap.b32"])
def test_invalid_bmsk_forms_raise(spell: str) -> None:
    with pytest.raises(UnsupportedPTXError, match="bmsk"):
        op_for(spell, ["b32"], ["b32", "b32"])


def test_bmsk_times_as_an_integer_add_like_bfe() -> None:
    from warpsim.arch import LatencyOp
    from warpsim.timing import consts as tc
    from warpsim.timing.static import classify

    for spell in ("bmsk.clamp.b32", "bmsk.wrap.b32", "bfe.u32"):
        inst, _ = make(spell, ["b32"], ["b32", "b32"])
        assert classify(inst) == (tc.OPC_INT32, LatencyOp.ADD), spell
