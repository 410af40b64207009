"""The Rodinia input generators and checks of validation/rodinia (run by run_rodinia.sh, which
needs the suite's sources): their formats and the numpy 5/3 wavelet, against hand-computed
values and the formats' specifications."""

from __future__ import annotations

import importlib.util
import struct
import sys

import numpy as np
import pytest
from cudart_programs import ROOT


def _module(name: str):
    path = ROOT / "validation" / "rodinia" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"rodinia_{name}", path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def inputs():
    return _module("make_inputs")


@pytest.fixture(scope="module")
def checks():
    return _module("check_outputs")


def test_lift53_on_a_hand_computed_row(checks):
    """x = 1 2 3 4: predict d0 = 2 - (1+3)/2 = 0, d1 = 4 - (3+3)/2 = 1 (mirror x4 = x2);
    update s0 = 1 + (0+0+2)/4 = 1, s1 = 3 + (0+1+2)/4 = 3; negative sums truncate toward 0
    as C's division does: x = 0 -3 0 0 gives d0 = -3, s0 = 0 + (-3-3+2)/4 = -1."""
    assert checks._lift53(np.array([1, 2, 3, 4])).tolist() == [1, 3, 0, 1]
    assert checks._lift53(np.array([0, -3, 0, 0])).tolist() == [-1, 0, -3, 0]


def test_dwt53_linear_layout_of_a_constant_image(checks):
    """A constant image has only an LL band: after 2 levels of 4x4, the value sits in the
    first coefficient of each level's LL (here the 1x1 LL2), every detail band is 0."""
    out = checks.dwt53_linear(np.full((4, 4), 7, np.int64), 2)
    assert out.tolist() == [7, 0, 0, 0] + [0] * 12


def test_avi_has_the_riff_layout_heartwall_reads(inputs):
    frames = [np.full((6, 10), k, np.uint8) for k in (5, 9, 200)]
    raw = inputs.avi_gray8(frames)
    assert raw[:4] == b"RIFF" and raw[8:12] == b"AVI "
    assert struct.unpack_from("<I", raw, 4)[0] == len(raw) - 8
    avih = raw.index(b"avih") + 8
    total, _, streams, _, width, height = struct.unpack_from("<6I", raw, avih + 16)
    assert (total, streams, width, height) == (3, 1, 10, 6)
    movi = raw.index(b"movi")
    idx = raw.index(b"idx1") + 8
    for k in range(3):
        tag, flags, off, size = struct.unpack_from("<4sIII", raw, idx + 16 * k)
        assert (tag, flags, size) == (b"00db", 0x10, 60)
        assert raw[movi + off:movi + off + 4] == b"00db"  # offsets from the 'movi' tag
        assert raw[movi + off + 8:movi + off + 68] == bytes([(5, 9, 200)[k]]) * 60


def test_bmp_header_and_row_padding(inputs):
    raw = inputs.bmp24(5, 3)
    magic, size, _, _, offset = struct.unpack_from("<2sIHHI", raw, 0)
    width, height, _, bits = struct.unpack_from("<iiHH", raw, 18)
    assert (magic, offset, width, height, bits) == (b"BM", 54, 5, 3, 24)
    assert size == len(raw) == 54 + 3 * 16  # 15 bytes a row padded to 16


def test_cfd_mesh_faces_agree_with_their_neighbours(inputs):
    """Each interior face names a neighbour that names it back with the opposite normal;
    1-based indices, 0 a wall, -1 the far field, as the program reads them."""
    lines = inputs.cfd_mesh(6, 4).split("\n")
    n = int(lines[0])
    cells = [lines[1 + i].split() for i in range(n)]
    faces, walls = {}, 0
    for i, c in enumerate(cells):
        for j in range(4):
            nb = int(c[1 + 4 * j])
            walls += nb == 0
            faces[(i + 1, nb)] = np.array(c[2 + 4 * j:5 + 4 * j], float)
    assert n == 24 and walls == 6 + 2 * 2  # bottom edge and both sides of the 2-cell fence
    for (a, b), normal in faces.items():
        if b > 0:
            assert np.array_equal(faces[(b, a)], -normal)


def test_backprop_check_against_hand_computed_partial_sums(checks, tmp_path):
    """16 inputs (one block), 16 hidden units, 1 output. Inputs x_k = k/16, weights w[k][j] = 1/8
    for k >= 1: each hidden unit's partial sum is (1+...+16)/16/8 = 136/128 = 1.0625. A GPU
    dump whose sums are off by 1e-3 (far above 16 float32 epsilons) or whose weights differ by
    1e-5 from the CPU's is a mismatch."""
    n, hid, out = 16, 16, 1
    w = np.full((n + 1, hid + 1), 0.125, np.float32)
    x = np.arange(n + 1, dtype=np.float32) / 16
    rest = np.linspace(0, 1, (hid + 1) * (out + 2)).astype(np.float32)
    final = np.concatenate([w.ravel(), rest])
    np.concatenate([w.ravel(), x]).tofile(tmp_path / "w0.bin")
    final.tofile(tmp_path / "cpu.bin")
    paths = [str(tmp_path / f) for f in ("gpu.bin", "cpu.bin", "w0.bin")]

    def verdict(sums: float, shift: float) -> bool:
        moved = final.copy()
        moved[3] += shift
        np.concatenate([moved, np.full(hid, sums, np.float32)]).tofile(tmp_path / "gpu.bin")
        return checks.backprop(*paths, str(n))

    assert verdict(1.0625, 0.0)
    assert not verdict(1.0625 + 1e-3, 0.0)
    assert not verdict(1.0625, 1e-5)


def test_particles_and_lavamd_checks_use_the_printed_precision(checks, tmp_path):
    """particlefilter: the last N frames' XE, YE, distance within 1e-5 (float32 resolves 7.6e-6
    at 64); lavaMD: the 6 printed decimals, so 1e-6 passes and 1e-5 does not."""
    cpu = "".join(f"XE: {60 + f}.000000\nYE: 64.500000\n{f}.250000\n" for f in range(3))
    (tmp_path / "cpu").write_text(cpu)
    (tmp_path / "near").write_text("XE: 62.000008\nYE: 64.500000\n2.250000\n")
    (tmp_path / "far").write_text("XE: 62.000020\nYE: 64.500000\n2.250000\n")
    near, far, ref = (str(tmp_path / f) for f in ("near", "far", "cpu"))
    assert checks.particles(near, ref, "1")
    assert not checks.particles(far, ref, "1")
    assert not checks.particles(near, ref, "2")  # the GPU printed fewer frames than asked
    (tmp_path / "a.txt").write_text("1.000000, -2.000000, 3.000000, 4.000000\n")
    (tmp_path / "b.txt").write_text("1.000001, -2.000000, 3.000000, 4.000000\n")
    (tmp_path / "c.txt").write_text("1.000010, -2.000000, 3.000000, 4.000000\n")
    a, b, c = (str(tmp_path / f) for f in ("a.txt", "b.txt", "c.txt"))
    assert checks.lavamd(a, b)
    assert not checks.lavamd(a, c)
