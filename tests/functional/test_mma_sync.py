"""``mma.sync.aligned`` with the PTX ISA's fragment layouts, fed by ``ldmatrix`` or by each
lane's own registers.

Oracles: numpy float64 / int64 products of the same matrices; each lane's fragment registers
built in the test from the ISA's "Matrix Fragments for mma.mXnYkZ" formulas (groupID =
%laneid >> 2, threadID_in_group = %laneid % 4), transcribed here case by case, independently
of warpsim/functional/mma_sync.py; rounding and saturation cases worked by hand.
"""

from __future__ import annotations

import numpy as np
import pytest

import warpsim
from warpsim.errors import LaunchError, UnsupportedPTXError

HDR = ".version 8.0\n.target sm_80\n.address_size 64\n"


def _a_coord(shape: str, fam: str, lane: int, i: int) -> tuple[int, int]:
    """PTX ISA §9.7.14.5, multiplicand A: (row, col) of element a_i of ``lane``."""
    g, t = lane >> 2, lane % 4
    if shape == "m16n8k16" and fam == "f16":   # row g for 0<=i<2 || 4<=i<6, else g+8
        row = g if (i < 2 or 4 <= i < 6) else g + 8
        return row, t * 2 + (i & 1) + (8 if i >= 4 else 0)
    if shape == "m16n8k8" and fam == "f16":    # g for a0, a1; g+8 for a2, a3
        return (g if i < 2 else g + 8), t * 2 + (i & 1)
    if shape == "m16n8k8" and fam == "tf32":   # g for a0, a2; t for a0, a1
        return (g if i in (0, 2) else g + 8), (t if i < 2 else t + 4)
    if shape == "m16n8k4":                     # g for a0, g+8 for a1; col t
        return (g if i == 0 else g + 8), t
    if shape == "m16n8k16" and fam == "i8":    # g for a0..a3, g+8 for a4..a7
        return (g if i < 4 else g + 8), t * 4 + (i & 3)
    if shape == "m16n8k32":                    # g for 0<=i<4 || 8<=i<12
        row = g if (i < 4 or 8 <= i < 12) else g + 8
        return row, t * 4 + (i & 3) + (16 if i >= 8 else 0)
    if shape == "m8n8k16":
        return g, t * 4 + i
    assert shape == "m8n8k4"
    return g, t


def _b_coord(shape: str, fam: str, lane: int, i: int) -> tuple[int, int]:
    """PTX ISA §9.7.14.5, multiplicand B: (row, col) of element b_i; col is groupID."""
    g, t = lane >> 2, lane % 4
    if shape == "m16n8k16" and fam == "f16":   # t*2 + (i&1) for b0,b1; +8 for b2,b3
        return t * 2 + (i & 1) + (8 if i >= 2 else 0), g
    if shape == "m16n8k8" and fam == "f16":
        return t * 2 + (i & 1), g
    if shape == "m16n8k8" and fam == "tf32":   # t for b0, t+4 for b1
        return (t if i == 0 else t + 4), g
    if shape == "m16n8k4":
        return t, g
    if shape in ("m16n8k16", "m8n8k16"):       # i8: t*4 + i
        return t * 4 + i, g
    if shape == "m16n8k32":                    # t*4 + (i&3) for b0..b3; +16 for b4..b7
        return t * 4 + (i & 3) + (16 if i >= 4 else 0), g
    assert shape == "m8n8k4"
    return t, g


def _c_coord(m: int, lane: int, i: int) -> tuple[int, int]:
    """Accumulators: m = 16: g for c0, c1 and g+8 for c2, c3; m = 8: g; col t*2 + (i&1)."""
    g, t = lane >> 2, lane % 4
    return (g if i < 2 else g + 8), t * 2 + (i & 1)


_NP = {"f16": np.float16, "f32": np.float32, "f64": np.float64, "s8": np.int8,
       "u8": np.uint8, "s32": np.int32, "bf16": np.uint16, "tf32": np.float32}
_BITS = {"f16": 16, "bf16": 16, "tf32": 32, "f32": 32, "f64": 64, "s8": 8, "u8": 8, "s32": 32}


def _bits(x: np.ndarray, typ: str) -> np.ndarray:
    """Raw bits (uint64) of the matrix ``x`` stored as ``typ``."""
    if typ == "bf16":   # exact: the test's values have 8 significant bits
        return (x.astype(np.float32).view(np.uint32) >> 16).astype(np.uint64)
    u = {8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}[_BITS[typ]]
    return x.astype(_NP[typ]).view(u).astype(np.uint64)


def _pack(x: np.ndarray, typ: str, coord, reg_bits: int) -> np.ndarray:
    """Fragment registers [32 lanes, n_regs] (uint64) of matrix x: element i of a lane goes
    to register i // per_reg, bits (i % per_reg) * width upwards (low to high)."""
    width = _BITS[typ]
    per = reg_bits // width
    n = x.size // 32
    bits = _bits(x, typ)
    out = np.zeros((32, n // per), np.uint64)
    for lane in range(32):
        for i in range(n):
            r, c = coord(lane, i)
            out[lane, i // per] |= bits[r, c] << np.uint64((i % per) * width)
    return out


def _kernel(line: str, na: int, nb: int, nc: int, nd: int, wide: bool) -> str:
    """Each lane loads its A, B, C registers (na + nb + nc words) and stores D (nd words)."""
    t, w = ("b64", 8) if wide else ("b32", 4)
    nin = na + nb + nc
    loads = "\n".join(f"    ld.global.{t} %x{j}, [%rd4+{w * j}];" for j in range(nin))
    stores = "\n".join(f"    st.global.{t} [%rd6+{w * j}], %y{j};" for j in range(nd))
    a = ", ".join(f"%x{j}" for j in range(na))
    b = ", ".join(f"%x{j}" for j in range(na, na + nb))
    c = ", ".join(f"%x{j}" for j in range(na + nb, nin))
    d = ", ".join(f"%y{j}" for j in range(nd))
    return HDR + f"""
.visible .entry k(.param .u64 pin, .param .u64 pout)
{{
    .reg .{t} %x<{nin}>;
    .reg .{t} %y<{nd}>;
    .reg .b32 %r<2>;
    .reg .b64 %rd<8>;
    ld.param.u64 %rd1, [pin];
    ld.param.u64 %rd2, [pout];
    mov.u32 %r1, %tid.x;
    mul.wide.u32 %rd3, %r1, {w * nin};
    add.s64 %rd4, %rd1, %rd3;
{loads}
    {line} {{{d}}}, {{{a}}}, {{{b}}}, {{{c}}};
    mul.wide.u32 %rd5, %r1, {w * nd};
    add.s64 %rd6, %rd2, %rd5;
{stores}
    ret;
}}
"""


def _run_mma(dev, shape: str, dt: str, at: str, bt: str, ct: str, a, b, c,
             sat: bool = False) -> np.ndarray:
    """D of ``mma.sync.aligned.<shape>.row.col`` from registers packed by the test."""
    m, n = (16, 8) if shape.startswith("m16") else (8, 8)
    fam = {"bf16": "f16", "u8": "i8", "s8": "i8"}.get(at, at)
    wide = at == "f64"
    rb = 64 if wide else 32
    ra = _pack(a, at, lambda ln, i: _a_coord(shape, fam, ln, i), rb)
    rbb = _pack(b, bt, lambda ln, i: _b_coord(shape, fam, ln, i), rb)
    rc = _pack(c, ct, lambda ln, i: _c_coord(m, ln, i), rb)
    nd = (m * n // 32) * _BITS[dt] // rb
    line = f"mma.sync.aligned.{shape}.row.col{'.satfinite' if sat else ''}.{dt}.{at}.{bt}.{ct}"
    mod = dev.load_ptx(_kernel(line, ra.shape[1], rbb.shape[1], rc.shape[1], nd, wide),
                       name=f"{shape}.ptx")
    words = np.concatenate([ra, rbb, rc], axis=1).astype(np.uint64 if wide else np.uint32)
    out = dev.device_array(32 * nd, words.dtype)
    mod.get_kernel("k")[1, 32](dev.to_device(words), out)
    got = out.copy_to_host().reshape(32, nd).astype(np.uint64)
    width = _BITS[dt]
    per = rb // width
    d = np.zeros((m, n), np.uint64)
    for lane in range(32):
        for i in range(m * n // 32):
            r, col = _c_coord(m, lane, i)
            d[r, col] = (got[lane, i // per] >> np.uint64((i % per) * width)) & \
                np.uint64((1 << width) - 1)
    u = {16: np.uint16, 32: np.uint32, 64: np.uint64}[width]
    return d.astype(u).view(_NP[dt])


@pytest.fixture(scope="module")
def dev():
    return warpsim.Device()


_RNG = np.random.default_rng(18)


def _small(shape: tuple[int, int], typ: str) -> np.ndarray:
    """Values exact in ``typ`` (few significant bits), as float64 or int64."""
    if typ in ("s8",):
        return _RNG.integers(-128, 128, shape).astype(np.int64)
    if typ == "u8":
        return _RNG.integers(0, 256, shape).astype(np.int64)
    return _RNG.integers(-64, 64, shape) / 16.0


@pytest.mark.parametrize(("shape", "dt", "at", "ct"), [
    ("m16n8k16", "f32", "f16", "f32"), ("m16n8k16", "f16", "f16", "f16"),
    ("m16n8k16", "f32", "bf16", "f32"), ("m16n8k8", "f32", "f16", "f16"),
    ("m16n8k8", "f32", "bf16", "f32"), ("m16n8k8", "f32", "tf32", "f32"),
    ("m16n8k4", "f32", "tf32", "f32"), ("m16n8k16", "s32", "s8", "s32"),
    ("m16n8k32", "s32", "u8", "s32"), ("m8n8k16", "s32", "s8", "s32"),
    ("m8n8k4", "f64", "f64", "f64"),
])
def test_products_match_numpy_with_the_isa_fragment_layouts(dev, shape, dt, at, ct):
    m, n, k = {"m16n8k16": (16, 8, 16), "m16n8k8": (16, 8, 8), "m16n8k4": (16, 8, 4),
               "m16n8k32": (16, 8, 32), "m8n8k16": (8, 8, 16), "m8n8k4": (8, 8, 4)}[shape]
    a, b, c = _small((m, k), at), _small((k, n), at), _small((m, n), ct)
    if ct == "s32":
        c = _RNG.integers(-1000, 1000, (m, n)).astype(np.int64)
    d = _run_mma(dev, shape, dt, at, at, ct, a, b, c)
    want = a @ b + c       # exact in float64 / int64 for these values
    np.testing.assert_array_equal(d, want.astype(d.dtype))   # rounded once to the D type


def test_mixed_signedness_and_satfinite(dev):
    a = np.full((16, 32), 255, np.int64)              # .u8 255
    b = np.full((32, 8), 127, np.int64)               # .s8 127
    c = np.zeros((16, 8), np.int64)
    c[0, 0], c[1, 1], c[2, 2] = 2**31 - 1000, -(2**31), 5
    d = _run_mma(dev, "m16n8k32", "s32", "u8", "s8", "s32", a, b, c)
    # each dot product is 32 * 255 * 127 = 1036320: c[0,0] + 1036320 = 2**31 + 1035320 wraps
    assert int(d[0, 0]) == 2**31 + 1035320 - 2**32
    assert int(d[1, 1]) == -(2**31) + 1036320 and int(d[2, 2]) == 1036325
    s = _run_mma(dev, "m16n8k32", "s32", "u8", "s8", "s32", a, b, c, sat=True)
    assert int(s[0, 0]) == 2**31 - 1                   # clamped to the largest .s32
    assert int(s[2, 2]) == 1036325
    neg = _run_mma(dev, "m16n8k32", "s32", "u8", "s8", "s32", a, -b - 1, -c, sat=True)
    assert int(neg[0, 0]) == -(2**31)                  # -(2**31 - 1000) - 32 * 255 * 128


def test_f16_accumulator_rounds_to_nearest_even(dev):
    # row 0 of A times column 0 of B is 1 * 1 + 2**-11 * 1: halfway between 1 and the next
    # .f16 (1 + 2**-10) -> the even one, 1.0; row 1 gives 1 + 3 * 2**-11 (halfway between
    # 1 + 2**-10 and 1 + 2**-9) -> 1 + 2**-9; row 2 gives 1 + 2**-11 + 2**-13 -> 1 + 2**-10.
    a = np.zeros((16, 16))
    b = np.zeros((16, 8))
    b[0, 0] = b[1, 0] = b[2, 0] = 1.0
    a[0, :2] = [1.0, 2.0**-11]
    a[1, :2] = [1.0, 3 * 2.0**-11]
    a[2, :3] = [1.0, 2.0**-11, 2.0**-13]
    d = _run_mma(dev, "m16n8k16", "f16", "f16", "f16", "f16", a, b, np.zeros((16, 8)))
    assert d[0, 0] == 1.0 and d[1, 0] == 1 + 2.0**-9 and d[2, 0] == 1 + 2.0**-10
    # .tf32 inputs ignore the low 13 mantissa bits: 1 + 2**-20 is read as 1.0
    t = _run_mma(dev, "m16n8k4", "f32", "tf32", "tf32", "f32", np.full((16, 4), 1 + 2.0**-20),
                 np.full((4, 8), 1.0), np.zeros((16, 8)))
    assert (t == 4.0).all()


@pytest.mark.parametrize(("line", "what"), [
    ("mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32", "m8n8k4"),
    ("mma.sync.aligned.m16n8k16.row.col.f32.e4m3.e4m3.f32", "e4m3"),
    ("mma.sync.aligned.m16n8k16.col.row.f32.f16.f16.f32", "layouts"),
    ("mma.sync.aligned.m16n8k16.row.col.satfinite.f32.f16.f16.f32", "satfinite"),
])
def test_forms_not_done_are_refused_by_name(dev, line, what):
    mod = dev.load_ptx(_kernel(line, 4, 2, 4, 4, False), name="bad.ptx")
    with pytest.raises(UnsupportedPTXError, match=what):
        mod.get_kernel("k")[1, 32](dev.device_array(32 * 10, np.uint32),
                                   dev.device_array(32 * 4, np.uint32))


def test_mma_in_part_of_a_warp_is_a_launch_error(dev):
    src = _kernel("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32", 2, 1, 4, 4, False)
    src = src.replace("    mma.sync", "    setp.lt.u32 %p1, %r1, 16;\n    @%p1 mma.sync")
    src = src.replace(".reg .b32 %r<2>;", ".reg .b32 %r<2>;\n    .reg .pred %p<2>;")
    mod = dev.load_ptx(src, name="half.ptx")
    with pytest.raises(LaunchError, match="needs all 32 lanes"):
        mod.get_kernel("k")[1, 32](dev.device_array(32 * 7, np.uint32),
                                   dev.device_array(32 * 4, np.uint32))
