"""Warped-Compression encodings (specs/warped-compression.md §3, §4.1, §10): the spec's
compressor vectors, single-choice variants, full BDI, similarity bins, the compress/decompress
round trip, and agreement of the functional trace's BDI code with these encoders."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from warpsim.functional.trace import (
    SIG_KEYS,
    annotate_words,
    bdi_class_4,
    bdi_class_8,
    bdi_similarity,
    empty_values,
)
from warpsim.mechanisms.warped_compression import bdi_banks, compress, cri, decompress
from warpsim.mechanisms.warped_compression.bdi import FULL_BDI_NAMES, full_bdi, similarity_bin
from warpsim.mechanisms.warped_compression.walk import banks_of_code, full_bdi_index

LANE = np.arange(32)


def _with(lane0, lane1, rest):
    return np.r_[lane0, lane1, np.full(30, rest)]


SPEC_VECTORS = [  # spec §10: (lanes, CRI, banks)
    (np.full(32, 5), 0, 1),
    (0x1000 + LANE, 1, 3),
    (0x20000000 + 4 * LANE, 1, 3),
    (0x20000000 + 8 * LANE, 2, 5),
    (1000 - LANE, 1, 3),
    (_with(0, 128, 0), 2, 5),
    (_with(0, 0xFFFFFF80, 0), 1, 3),
    (_with(0x7FFFFFFF, 0x80000000, 0x7FFFFFFF), 1, 3),
    (LANE.astype(np.float32), 3, 8),
    (0x10000 * LANE, 3, 8),
    (np.zeros(32, int), 0, 1),
    (_with(0, 32767, 0), 2, 5),
    (_with(0, 32768, 0), 3, 8),
    (_with(0, 0xFFFF8000, 0), 2, 5),  # -32768 fits two bytes
]


@pytest.mark.parametrize(("lanes", "want_cri", "want_banks"), SPEC_VECTORS)
def test_spec_compressor_vectors(lanes, want_cri, want_banks):
    assert cri(lanes) == want_cri
    assert bdi_banks(lanes) == want_banks


def test_single_choice_variants_use_one_fixed_encoding():
    const = np.full(32, 7)
    assert [bdi_banks(const, s) for s in ("4_0", "4_1", "4_2")] == [1, 3, 5]  # "an extra byte"
    small = 0x1000 + LANE
    assert [bdi_banks(small, s) for s in ("4_0", "4_1", "4_2")] == [8, 3, 5]
    wide = 0x20000000 + 8 * LANE
    assert [bdi_banks(wide, s) for s in ("4_0", "4_1", "4_2")] == [8, 8, 5]
    with pytest.raises(ValueError, match="scheme"):
        bdi_banks(const, "4_3")


def test_full_bdi_prefers_the_highest_byte_ratio():
    assert full_bdi(np.full(32, 3)) == "4_0"
    pairs = np.tile([1, 2], 16)  # every 8-byte chunk equal, 4-byte lanes alternate
    assert full_bdi(pairs) == "8_0" and bdi_banks(pairs, "full_bdi") == 1
    ramp64 = np.zeros(32, np.int64)
    ramp64[0::2] = 5 * np.arange(16)  # 64-bit chunks 0, 5, 10, ...: <8,1> (23 B) beats <4,1>
    assert full_bdi(ramp64) == "8_1" and bdi_banks(ramp64, "full_bdi") == 2
    assert full_bdi(0x1000 + LANE) == "4_1"
    assert full_bdi(LANE.astype(np.float32)) == "unc"


def test_similarity_bins_use_the_worst_successive_distance():
    assert similarity_bin(np.full(32, 9)) == 0
    assert similarity_bin(0x1000 + 128 * LANE) == 1
    assert similarity_bin(0x1000 + 129 * LANE) == 2
    assert similarity_bin(32768 * LANE) == 2
    assert similarity_bin(32769 * LANE) == 3
    # lane-0 deltas would be large, successive ones are small: still the 128 bin
    assert similarity_bin(100 * LANE) == 1 and cri(100 * LANE) == 2


def test_partial_warp_lanes_count_as_delta_zero():
    lanes = np.r_[np.full(8, 4), np.arange(24) * 0x10000]
    assert cri(lanes) == 3
    assert cri(lanes, exist=0xFF) == 0


@settings(max_examples=200, deadline=None)
@given(base=st.integers(0, 2**32 - 1), y=st.sampled_from([0, 1, 2]),
       seed=st.integers(0, 2**31 - 1))
def test_compress_decompress_round_trip(base, y, seed):
    rng = np.random.default_rng(seed)
    lim = 0 if y == 0 else 1 << (8 * y - 1)
    deltas = rng.integers(-lim, lim, size=31) if y else np.zeros(31, np.int64)
    lanes = ((base + np.r_[0, deltas]) % 2**32).astype(np.uint32)
    c, b, d = compress(lanes)
    assert c <= y
    assert np.array_equal(decompress(c, b, d), lanes)


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), spread=st.sampled_from([0, 1, 100, 200, 30000, 2**40]),
       exist=st.sampled_from([0xFFFFFFFF, 0xFFFF, 0x7]))
def test_trace_code_agrees_with_the_encoders(seed, spread, exist):
    rng = np.random.default_rng(seed)
    base = int(rng.integers(0, 2**32))
    lanes = ((base + rng.integers(-spread // 2 - 1, spread // 2 + 1, size=32)) % 2**32)
    lanes = lanes.astype(np.uint32)
    sig, code, uni = empty_values(1, 1)
    annotate_words(lanes[None], np.array([exist], np.uint32), np.array([exist], np.uint32),
                   SIG_KEYS, sig, code, uni, 0)
    c = int(code[0, 0])
    assert bdi_class_4(c) == cri(lanes, exist=exist)
    assert FULL_BDI_NAMES[full_bdi_index(c)] == full_bdi(lanes, exist=exist)
    assert bdi_class_8(c) <= 4
    if exist == 0xFFFFFFFF:
        assert bdi_similarity(c) == similarity_bin(lanes)
    for scheme, code_s in (("wc", 0), ("4_0", 1), ("4_1", 2), ("4_2", 3), ("full_bdi", 4)):
        if exist == 0xFFFFFFFF:
            assert banks_of_code(c, code_s) == bdi_banks(lanes, scheme)
