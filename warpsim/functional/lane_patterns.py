"""Lane patterns of a 32-lane warp register, for the trace's value annotations
(``trace.annotate_words``): RegLess's compressor patterns (``RL_PATTERN_BIT`` in the BDI
byte, which one in bits 2-4 of ``uniform``), the value-similarity bin, and WIR's affine values
(``AFFINE_BIT`` in ``uniform``).

Follows: Kloosterman et al., RegLess (MICRO-50 2017) §4.4 (constant, stride one, stride four,
half-warp stride one, half-warp stride four); specs/regless.md §4.4 (arithmetic modulo 2**32
on the raw bits of all 32 stored lanes).
"""

from __future__ import annotations

import numpy as np

from warpsim._jit import jit

__all__ = ["AFFINE_BIT", "RL_CONSTANT", "RL_HALF_STRIDE1", "RL_HALF_STRIDE4", "RL_PATTERN_BIT",
           "RL_PATTERN_NAMES", "RL_PATTERN_SHIFT", "RL_STRIDE1", "RL_STRIDE4", "rl_mark",
           "rl_pattern", "rl_pattern_id", "sim_bin"]

AFFINE_BIT = np.uint8(2)
"""Bit 1 of a value entry's ``uniform`` field: the full warp's 32 lanes are ``base + lane *
stride`` modulo 2**32 (WIR, ISCA 2018, the Affine model: "all adjacent thread register values
have the same stride value"; stride 0, a uniform value, included)."""

RL_PATTERN_BIT = 128
"""Bit 7 of a register value's BDI field: its 32 stored lanes match one of RegLess's 5
compressor patterns (bits 0-6, the BDI classes, are unaffected)."""


RL_CONSTANT, RL_STRIDE1, RL_STRIDE4, RL_HALF_STRIDE1, RL_HALF_STRIDE4 = 1, 2, 3, 4, 5
"""RegLess's 5 compressor patterns (§4.4), as stored in bits 2-4 of a value entry's
``uniform`` field (``RL_PATTERN_SHIFT``); 0: none."""
RL_PATTERN_NAMES = ("constant", "stride1", "stride4", "half_stride1", "half_stride4")
"""Pattern ``i + 1``'s name (statistics)."""
RL_PATTERN_SHIFT = 2
"""Bits 2-4 of a value entry's ``uniform`` field hold its RegLess pattern (``rl_pattern_id``);
bits 0-1 are the uniform and affine bits."""


@jit
def rl_pattern_id(row):  # pragma: no cover - jit
    """Which of RegLess's compressor patterns (Kloosterman et al., MICRO 2017, §4.4) the 32
    stored lanes match, modulo 2**32: ``RL_CONSTANT`` (every lane equal), ``RL_STRIDE1`` /
    ``RL_STRIDE4`` (lane i = b + s i, s = 1 or 4), ``RL_HALF_STRIDE1`` / ``RL_HALF_STRIDE4``
    (per half-warp h, lane 16 h + k = b_h + s k, with b_1 != b_0 + 16 s); 0 for none. The
    full-warp strides are the half-warp ones with b_1 = b_0 + 16 s (4 bytes stored instead of
    8), so a value matches one pattern at most."""
    one = np.uint32(1)
    four = np.uint32(4)
    c = True
    s1 = True
    s4 = True
    for h in range(2):
        b = row[16 * h]
        for k in range(16):
            v = row[16 * h + k]
            d = np.uint32(v - b)
            if v != row[0]:
                c = False
            if d != np.uint32(k) * one:
                s1 = False
            if d != np.uint32(k) * four:
                s4 = False
    if c:
        return RL_CONSTANT
    step = np.uint32(row[16] - row[0])
    if s1:
        return RL_STRIDE1 if step == np.uint32(16) else RL_HALF_STRIDE1
    if s4:
        return RL_STRIDE4 if step == np.uint32(64) else RL_HALF_STRIDE4
    return 0


@jit
def rl_mark(row, bdi, uni, w, col):  # pragma: no cover - jit
    """Add the pattern of the 32 stored lanes ``row`` to value entry ``[w, col]``:
    ``RL_PATTERN_BIT`` of its BDI byte and ``rl_pattern_id`` in bits 2-4 of its uniform byte."""
    pid = rl_pattern_id(row)
    if pid != 0:
        bdi[w, col] |= np.uint8(RL_PATTERN_BIT)
        uni[w, col] |= np.uint8(pid << RL_PATTERN_SHIFT)


@jit
def rl_pattern(row):  # pragma: no cover - jit
    """``RL_PATTERN_BIT`` when the 32 stored lanes match one of RegLess's compressor patterns
    (``rl_pattern_id``), else 0."""
    return RL_PATTERN_BIT if rl_pattern_id(row) != 0 else 0


@jit
def sim_bin(mx):  # pragma: no cover - jit
    """Value-similarity bin (Warped-Compression spec §4.1, Fig. 2) of the worst successive-lane
    distance, in bits 5-6 of the BDI byte: 0 = zero, 1 = at most 128, 2 = at most 2**15,
    3 = random."""
    if mx == 0:
        return 0
    if mx <= 128:
        return 1 << 5
    if mx <= 32768:
        return 2 << 5
    return 3 << 5
