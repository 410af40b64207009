"""Device-side printf (``vprintf`` built-in): C formatting of hand-built argument buffers, and
kernels that print, checked against hand-written expected text."""

from __future__ import annotations

import struct

import numpy as np
import pytest

import warpsim
from warpsim.errors import CompileError, UnsupportedPTXError
from warpsim.functional.printf import format_printf, parse_format


def _fmt(fmt: str, *args: tuple[str, object]) -> str:
    """Format with arguments packed as nvcc packs them (each aligned to its size)."""
    buf = bytearray()
    for code, value in args:
        size = struct.calcsize("<" + code)
        buf += bytes(-len(buf) % size)
        buf += struct.pack("<" + code, value)
    strings = {0x1000: b"dev"}
    return format_printf(fmt.encode(), bytes(buf), strings=strings.__getitem__).decode()


def test_integer_conversions_follow_c() -> None:
    assert _fmt("%d|%i|%u|%x|%X|%o", ("i", -7), ("i", 42), ("i", -1), ("i", 255),
                ("i", 255), ("i", 8)) == "-7|42|4294967295|ff|FF|10"
    assert _fmt("[%5d][%-5d][%05d][%+d][% d]", ("i", 42), ("i", 42), ("i", -42), ("i", 3),
                ("i", 3)) == "[   42][42   ][-0042][+3][ 3]"
    assert _fmt("[%.3d][%05.3d][%.0d][%#x][%#o][%#x]", ("i", 5), ("i", 5), ("i", 0),
                ("i", 255), ("i", 8), ("i", 0)) == "[005][  005][][0xff][010][0]"
    assert _fmt("%hd %hhu", ("i", 70000), ("i", 257)) == "4464 1"


def test_64_bit_sizes_read_eight_aligned_bytes() -> None:
    assert _fmt("%d %lld %llu %ld %lx", ("i", 1), ("q", -5), ("Q", 2**64 - 1),
                ("q", 2**40), ("Q", 0xDEADBEEFCAFE)) == \
        f"1 -5 {2**64 - 1} {2**40} deadbeefcafe"


def test_float_conversions_take_doubles() -> None:
    assert _fmt("%f %e %g %.2f %10.3E %-8.1f|", ("d", 1.5), ("d", 12345.678), ("d", 0.0001),
                ("d", 3.14159), ("d", 0.5), ("d", -2.25)) == \
        "1.500000 1.234568e+04 0.0001 3.14  5.000E-01 -2.2    |"
    assert _fmt("%f %F %5.1f %e", ("d", float("inf")), ("d", float("nan")),
                ("d", float("-inf")), ("d", -float("nan"))) == "inf NAN  -inf -nan"
    assert _fmt("%a %a %.1a", ("d", 1.0), ("d", -0.75), ("d", 1.96875)) == \
        "0x1p+0 -0x1.8p-1 0x2.0p+0"


def test_chars_strings_pointers_and_percent() -> None:
    assert _fmt("%c%c %s|%5s|%-4s|%.2s %% %p %p", ("i", 72), ("i", 0x169), ("Q", 0x1000),
                ("Q", 0x1000), ("Q", 0x1000), ("Q", 0x1000), ("Q", 0x1000), ("Q", 0)) == \
        "Hi dev|  dev|dev |de % 0x1000 (nil)"
    assert _fmt("%s", ("Q", 0)) == "(null)"


def test_star_width_and_precision_consume_ints() -> None:
    assert _fmt("[%*d][%.*f][%-*d]", ("i", 4), ("i", 7), ("i", 2), ("d", 1.0),
                ("i", 3), ("i", 1)) == "[   7][1.00][1  ]"


def test_return_value_counts_arguments_up_to_32() -> None:
    assert parse_format(b"no arguments\n")[3] == 0
    assert parse_format(b"%d %f %s")[3] == 3
    assert parse_format(b"%d %f %s")[2] == 24  # int at 0, double at 8, pointer at 16
    many = b"%d" * 33
    _, args, _, n = parse_format(many)
    assert n == 32 and len(args) == 32
    buf = struct.pack("<32i", *range(32))  # the 33rd conversion is printed as written
    assert format_printf(many, buf) == "".join(map(str, range(32))).encode() + b"%d"


def test_unknown_conversion_is_rejected() -> None:
    with pytest.raises(ValueError, match="%y"):
        parse_format(b"value %y\n")


_SRC = r'''
extern "C" __global__ void show(int n, float f, const char* tag, long long big)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    if (i % 2 == 0) {
        printf("even %d: %5.2f %s %lld\n", i, f * i, tag ? "tag" : "none", big + i);
    } else {
        printf("odd %u %x %c|%-3d|\n", i, i * 255, 'a' + i, i);
    }
}

extern "C" __global__ void count(int* out)
{
    out[threadIdx.x] = printf("%d%s\n", threadIdx.x, "!");
    if (threadIdx.x == 0) out[4] = printf("plain\n");
}

extern "C" __global__ void bad()
{
    printf("value %y\n", 3);
}
'''


@pytest.fixture(scope="module")
def printf_module():
    gpu = warpsim.Device(printf_to_stdout=False)
    try:
        mod = gpu.compile(_SRC)
    except CompileError as exc:
        if "pip install" in exc.message:
            pytest.skip("CUDA toolchain missing")
        raise
    return gpu, mod


def test_kernel_printf_ints_floats_strings_and_divergence(printf_module) -> None:
    gpu, mod = printf_module
    mod.get_kernel("show")[2, 4](np.int32(6), np.float32(1.5), 1, np.int64(1 << 40))
    # lanes print in increasing thread id; the taken path of the divergent branch (odd:
    # the branch jumps over the even block) and the even path run as separate dispatches
    text = gpu.last_launch.printf_output
    lines = text.splitlines()
    evens = [ln for ln in lines if ln.startswith("even")]
    odds = [ln for ln in lines if ln.startswith("odd")]
    assert evens == ["even 0:  0.00 tag 1099511627776", "even 2:  3.00 tag 1099511627778",
                     "even 4:  6.00 tag 1099511627780"]
    assert odds == ["odd 1 ff b|1  |", "odd 3 2fd d|3  |", "odd 5 4fb f|5  |"]
    assert text.endswith("\n") and len(lines) == 6


def test_kernel_printf_returns_argument_count(printf_module) -> None:
    gpu, mod = printf_module
    out = gpu.device_array(5, np.int32)
    mod.get_kernel("count")[1, 4](out)
    assert out.copy_to_host().tolist() == [2, 2, 2, 2, 0]
    assert gpu.last_launch.printf_output == "0!\n1!\n2!\n3!\nplain\n"


def test_device_prints_to_stdout_at_launch_end(printf_module, capsys) -> None:
    _, mod = printf_module
    gpu = warpsim.Device()
    mod2 = gpu.load_ptx(mod.ptx)
    out = gpu.device_array(5, np.int32)
    mod2.get_kernel("count")[1, 2](out)
    assert capsys.readouterr().out == "0!\n1!\nplain\n"


def test_unsupported_conversion_names_format_kernel_and_line(printf_module) -> None:
    _, mod = printf_module
    with pytest.raises(UnsupportedPTXError) as info:
        mod.get_kernel("bad")[1, 1]()
    msg = info.value.message
    assert "'value %y\\n'" in msg and "kernel bad" in msg and "%y" in msg
    assert info.value.line is not None and "vprintf" in msg
