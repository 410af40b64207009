"""Lane patterns of a 32-lane warp register, for the trace's value annotations
(``trace.annotate_words``): RegLess's compressor patterns (``RL_PATTERN_BIT`` in the BDI
byte), the value-similarity bin, and WIR's affine values (``AFFINE_BIT`` in ``uniform``).

Follows: Kloosterman et al., RegLess (MICRO-50 2017) §4.4 (constant, stride one, stride four,
half-warp stride one, half-warp stride four); specs/regless.md §4.4 (arithmetic modulo 2**32
on the raw bits of all 32 stored lanes).
"""

from __future__ import annotations

import numpy as np

from warpsim._jit import jit

__all__ = ["AFFINE_BIT", "RL_PATTERN_BIT", "rl_pattern", "sim_bin"]

AFFINE_BIT = np.uint8(2)
"""Bit 1 of a value entry's ``uniform`` field: the full warp's 32 lanes are ``base + lane *
stride`` modulo 2**32 (WIR, ISCA 2018, the Affine model: "all adjacent thread register values
have the same stride value"; stride 0, a uniform value, included)."""

RL_PATTERN_BIT = 128
"""Bit 7 of a register value's BDI field: its 32 stored lanes match one of RegLess's 5
compressor patterns (bits 0-6, the BDI classes, are unaffected)."""


@jit
def rl_pattern(row):  # pragma: no cover - jit
    """``RL_PATTERN_BIT`` when the 32 stored lanes match one of RegLess's compressor patterns
    (Kloosterman et al., MICRO 2017, §4.4): constant, or per half-warp ``b_h + s (i mod 16)``
    with s = 1 or 4 (the full-warp strides are the case b_1 = b_0 + 16 s), modulo 2**32."""
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
    return RL_PATTERN_BIT if (c or s1 or s4) else 0


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
