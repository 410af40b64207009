"""Argument packing and launch-configuration normalisation, checked byte by byte by hand."""

from __future__ import annotations

import struct

import numpy as np
import pytest

from warpsim.errors import LaunchError
from warpsim.ptx.ir import Function, Param
from warpsim.runtime.kernel import normalize_dims, pack_arguments


def _fn(name: str, *params: tuple[str, int, int, int]) -> Function:
    """A kernel with params (type, size_bytes, align, count) laid out as nvcc does."""
    out, offset = [], 0
    for i, (ty, size, align, count) in enumerate(params):
        offset = (offset + align - 1) // align * align
        out.append(Param(f"{name}_param_{i}", ty, size, align, offset, count))
        offset += size
    return Function(name, True, params=out)


SAXPY = _fn("saxpy", ("u32", 4, 4, 1), ("f32", 4, 4, 1), ("u64", 8, 8, 1), ("u64", 8, 8, 1))
"""saxpy(int n, float a, const float* x, float* y): offsets 0, 4, 8, 16."""

MIXED = _fn("_Z2st1PPfcsyd", ("b8", 24, 8, 24), ("u64", 8, 8, 1), ("u8", 1, 1, 1),
            ("u16", 2, 2, 1), ("u64", 8, 8, 1), ("f64", 8, 8, 1))
"""st(P p /*{float a; double b; int c;}*/, float*, char, short, unsigned long long, double):
offsets 0, 24, 32, 34, 40, 48 (the layout nvcc emits for this signature)."""


def test_saxpy_layout_byte_by_byte():
    buf = pack_arguments(SAXPY, (np.int32(7), np.float32(2.5), 0x1000, 0x2000))
    assert len(buf) == 24
    assert buf[0:4] == struct.pack("<i", 7)
    assert buf[4:8] == struct.pack("<f", 2.5)
    assert buf[8:16] == struct.pack("<Q", 0x1000)
    assert buf[16:24] == struct.pack("<Q", 0x2000)


def test_python_scalars_are_accepted_when_unambiguous():
    buf = pack_arguments(SAXPY, (7, 2.5, 0x1000, 0x2000))
    assert buf == pack_arguments(SAXPY, (np.uint32(7), np.float32(2.5), np.uint64(0x1000),
                                         np.int64(0x2000)))
    neg = pack_arguments(SAXPY, (-1, 3, 0, 0))
    assert neg[0:4] == b"\xff\xff\xff\xff"
    assert neg[4:8] == struct.pack("<f", 3.0)


def test_mixed_layout_with_by_value_struct():
    dt = np.dtype([("a", np.float32), ("b", np.float64), ("c", np.int32)], align=True)
    assert dt.itemsize == 24
    p = np.zeros((), dt)
    p["a"], p["b"], p["c"] = 1.5, -2.25, 9
    buf = pack_arguments(MIXED, (p[()], 0xABC0, np.int8(-3), np.int16(300),
                                 np.uint64(2**64 - 1), np.float64(0.125)))
    want = bytearray(56)
    want[0:4] = struct.pack("<f", 1.5)
    want[8:16] = struct.pack("<d", -2.25)
    want[16:20] = struct.pack("<i", 9)
    want[24:32] = struct.pack("<Q", 0xABC0)
    want[32:33] = struct.pack("<b", -3)
    want[34:36] = struct.pack("<h", 300)
    want[40:48] = b"\xff" * 8
    want[48:56] = struct.pack("<d", 0.125)
    assert buf == bytes(want)
    # the same struct as raw bytes, or as a 0-d structured array
    assert pack_arguments(MIXED, (p.tobytes(), 0xABC0, -3, 300, 2**64 - 1, 0.125)) == bytes(want)
    assert pack_arguments(MIXED, (p, 0xABC0, -3, 300, 2**64 - 1, 0.125)) == bytes(want)


def test_wrong_argument_count_lists_the_parameters():
    with pytest.raises(LaunchError) as err:
        pack_arguments(SAXPY, (np.int32(1), np.float32(2.0)))
    msg = str(err.value)
    assert "takes 4 argument(s), 2 given" in msg
    assert "param_0: u32 (32-bit int)" in msg and "param_1: f32 (float)" in msg
    assert "param_2: u64 (pointer or 64-bit int)" in msg
    assert "hint:" in msg and err.value.kernel == "saxpy"


@pytest.mark.parametrize(("args", "fragment", "hint"), [
    ((np.int64(7), 2.0, 0, 0), "the value is int64, the parameter 32-bit", "np.uint32(x)"),
    ((7, np.float64(2.0), 0, 0), "the value is float64, the parameter 32-bit",
     "np.float32(x)"),
    ((7, np.int32(2), 0, 0), "an integer (int32) for a floating-point parameter",
     "np.float32(x)"),
    ((7.0, 2.0, 0, 0), "a floating-point value (7.0) for an integer parameter", "np.uint32"),
    ((2**32, 2.0, 0, 0), "does not fit in 32 bits", "[-2147483648, 4294967295]"),
    ((7, 1e39, 0, 0), "overflows f32", "in range"),
    ((7, 2.0, np.zeros(4, np.float32), 0), "a host numpy array cannot be passed",
     "gpu.to_device(a)"),
    ((7, 2.0, "x", 0), "cannot pass a str", "DeviceArray"),
    ((7, 2.0, None, 0), "cannot pass a NoneType", "DeviceArray"),
])
def test_wrong_argument_types_explain_the_fix(args, fragment, hint):
    with pytest.raises(LaunchError) as err:
        pack_arguments(SAXPY, args)
    msg = str(err.value)
    assert fragment in msg
    assert "hint:" in msg and hint in msg.split("hint:")[1]


def test_struct_of_wrong_size_is_rejected_with_align_hint():
    small = np.zeros((), np.dtype([("a", np.float32), ("b", np.float64), ("c", np.int32)]))
    with pytest.raises(LaunchError) as err:
        pack_arguments(MIXED, (small[()], 0, 0, 0, 0, 0.0))
    assert "the value has 16 bytes, the parameter 24" in str(err.value)
    assert "align=True" in str(err.value)
    with pytest.raises(LaunchError, match="as a by-value struct"):
        pack_arguments(MIXED, (1.0, 0, 0, 0, 0, 0.0))


def test_numpy_0d_array_counts_as_scalar():
    buf = pack_arguments(SAXPY, (np.array(5, np.int32), np.array(1.0, np.float32), 0, 0))
    assert buf[:8] == struct.pack("<if", 5, 1.0)


@pytest.mark.parametrize(("value", "want"), [
    (256, (256, 1, 1)), ((16, 8), (16, 8, 1)), ([4, 4, 4], (4, 4, 4)),
    (np.int64(3), (3, 1, 1)), ((np.int32(2), 3), (2, 3, 1)),
])
def test_dims_normalise_to_three(value, want):
    assert normalize_dims(value, "block", "k") == want


@pytest.mark.parametrize(("value", "fragment", "hint"), [
    (0, "block dimension 0 must be at least 1", "empty input"),
    ((1, 2, 3, 4), "must have 1 to 3 entries", "(x, y, z)"),
    (12.5, "is not an integer", "integer division (//)"),
    ((2, "a"), "is not an integer", "use integers"),
    (True, "is not an integer", "use integers"),
])
def test_bad_dims_are_launch_errors(value, fragment, hint):
    with pytest.raises(LaunchError) as err:
        normalize_dims(value, "block", "k")
    assert fragment in str(err.value) and hint in str(err.value)
