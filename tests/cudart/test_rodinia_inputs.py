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
