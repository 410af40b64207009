"""Which of RegLess's 5 compressor patterns (§4.4; spec §4.4's table) a written value matches,
as the functional trace stores it (bits 2-4 of a value entry's ``uniform`` byte), against
hand-written lane vectors and a numpy oracle that applies the spec's definitions directly."""

from __future__ import annotations

import numpy as np
import pytest

from warpsim.functional.lane_patterns import (
    RL_CONSTANT,
    RL_HALF_STRIDE1,
    RL_HALF_STRIDE4,
    RL_PATTERN_BIT,
    RL_PATTERN_SHIFT,
    RL_STRIDE1,
    RL_STRIDE4,
)
from warpsim.functional.trace import SIG_KEYS, annotate_words, empty_values

LANE = np.arange(32, dtype=np.int64)
HALF = LANE % 16
FULL = 0xFFFFFFFF


def _oracle(v: np.ndarray) -> np.ndarray:
    """Spec §4.4, lanes as uint32 [n, 32]: 1 constant, 2 b + i, 3 b + 4i, 4/5 the half-warp
    versions b_h + s (i mod 16) when they are not a full-warp stride; 0 none."""
    v = v.astype(np.uint32)
    d = v - v[:, :1]                           # mod 2**32
    h = v - np.repeat(v[:, [0, 16]], 16, axis=1)
    lane = np.arange(32, dtype=np.uint32)
    out = np.zeros(len(v), np.int64)
    for code, ok in ((RL_HALF_STRIDE4, (h == 4 * (lane % 16)).all(1)),
                     (RL_HALF_STRIDE1, (h == lane % 16).all(1)),
                     (RL_STRIDE4, (d == 4 * lane).all(1)),
                     (RL_STRIDE1, (d == lane).all(1)),
                     (RL_CONSTANT, (d == 0).all(1))):
        out[ok] = code                         # later (more specific) codes win
    return out


def _trace(vals, exist=FULL, active=FULL):
    v = np.asarray(vals, dtype=np.int64).astype(np.uint64).astype(np.uint32).reshape(-1, 32)
    n = len(v)
    sig, bdi, uni = empty_values(n, 1)
    annotate_words(v, np.full(n, exist, np.uint32), np.full(n, active, np.uint32), SIG_KEYS,
                   sig, bdi, uni, 0)
    return v, (uni[:, 0].astype(np.int64) >> RL_PATTERN_SHIFT) & 7, bdi[:, 0], uni[:, 0]


HAND = [
    (np.full(32, 7), RL_CONSTANT),
    (np.zeros(32), RL_CONSTANT),
    (1000 + LANE, RL_STRIDE1),
    (2**32 - 3 + LANE, RL_STRIDE1),                  # wraps modulo 2**32
    (1000 + 4 * LANE, RL_STRIDE4),
    (np.where(LANE < 16, 5, 900) + HALF, RL_HALF_STRIDE1),
    (np.where(LANE < 16, 5, 900) + 4 * HALF, RL_HALF_STRIDE4),
    (HALF, RL_HALF_STRIDE1),                         # both halves 0..15 (threadIdx % 16)
    (2 * LANE, 0),                                   # stride two
    (np.where(LANE < 16, 1, 2), 0),                  # a constant per half: no pattern
    (np.r_[1000 + np.arange(31), 7], 0),             # one lane off
    (np.where(LANE < 16, 5, 900) + np.where(LANE < 16, HALF, 4 * HALF), 0),  # mixed strides
]


@pytest.mark.parametrize(("vals", "code"), HAND)
def test_hand_written_lanes_give_their_pattern(vals, code):
    v, got, bdi, _ = _trace(vals)
    assert _oracle(v)[0] == code                     # the oracle agrees with the hand label
    assert got[0] == code
    assert bool(bdi[0] & RL_PATTERN_BIT) is (code != 0)   # the BDI byte's bit is unchanged


def test_random_lanes_agree_with_the_numpy_oracle_and_keep_the_other_bits():
    rng = np.random.default_rng(22)
    n = 600
    base = rng.integers(0, 2**32, (n, 2), dtype=np.uint64)
    kind = rng.integers(0, 6, n)
    stride = np.where(rng.integers(0, 2, n) == 0, 1, 4)[:, None]
    halves = np.where(LANE < 16, base[:, :1], base[:, 1:]).astype(np.int64)
    vals = np.where(kind[:, None] == 0, base[:, :1].astype(np.int64),
                    np.where(kind[:, None] == 1, base[:, :1].astype(np.int64) + stride * LANE,
                             np.where(kind[:, None] == 2, halves + stride * HALF,
                                      rng.integers(0, 2**32, (n, 32)))))
    v, got, _, uni = _trace(vals)
    want = _oracle(v)
    assert np.array_equal(got, want)
    assert {int(c) for c in want} >= {0, 1, 2, 3, 4, 5}
    # the uniform and affine bits are those of the value alone
    assert np.array_equal(uni & 1, (v == v[:, :1]).all(1))
    d = v[:, 1:] - v[:, :-1]
    assert np.array_equal((uni >> 1) & 1, (d == d[:, :1]).all(1))


def test_partial_warps_see_every_stored_lane():
    # the pattern is of the 32 stored lanes, whatever exists or executes (spec §4.4)
    for exist, active in ((FULL, 0xFFFF), (0xFFFF, 0xFFFF)):
        _, got, _, uni = _trace(1000 + 4 * LANE, exist=exist, active=active)
        assert got[0] == RL_STRIDE4
        assert uni[0] & 1 == 0
