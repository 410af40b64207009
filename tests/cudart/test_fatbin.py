"""Fat binary parsing: PTX found, decompressed (LZ4 block, zstd) and chosen by target."""

from __future__ import annotations

import pytest
from cudart_programs import fatbin

from warpsim.cudart.fatbin import extract_ptx, fatbin_size, parse_fatbin
from warpsim.errors import WarpsimError


def test_plain_ptx_entry_is_returned_as_text():
    data = fatbin([(1, 80, 0x11, b".version 8.0\n.target sm_80\n\0\0", 30)])
    assert fatbin_size(data[:16]) == len(data)
    assert extract_ptx(data) == ".version 8.0\n.target sm_80\n"


def test_highest_ptx_target_wins_and_sass_is_ignored():
    data = fatbin([(2, 80, 0x11, b"\x7fELF....", 8), (1, 75, 0x11, b"old", 3),
                   (1, 86, 0x11, b"new", 3)])
    assert [e.kind for e in parse_fatbin(data)] == [2, 1, 1]
    assert extract_ptx(data) == "new"
    assert extract_ptx(data, max_sm=80) == "old"


def test_lz4_block_is_decompressed():
    # "abc" + back-reference (offset 3, length 9) + final literal "!" (LZ4 block format)
    block = bytes([0x35]) + b"abc" + bytes([3, 0]) + bytes([0x10]) + b"!"
    data = fatbin([(1, 80, 0x2011, block, 13)])
    assert extract_ptx(data) == "abcabcabcabc!"


def test_zstd_payload_is_decompressed():
    zstandard = pytest.importorskip("zstandard")
    text = b".version 9.0\n.target sm_80\n" * 20
    data = fatbin([(1, 80, 0x8011, zstandard.ZstdCompressor().compress(text), len(text))])
    assert extract_ptx(data) == text.decode()


def test_sass_only_fatbin_names_the_fix():
    with pytest.raises(WarpsimError) as info:
        extract_ptx(fatbin([(2, 80, 0x11, b"\x7fELF", 4)]))
    assert "only SASS for sm_80" in info.value.message
    assert "-arch=sm_80" in info.value.message


def test_not_a_fatbin_is_an_error():
    with pytest.raises(WarpsimError, match="not an NVIDIA fat binary"):
        fatbin_size(b"\0" * 16)
