"""RegLess's compressor lane patterns of a 32-lane warp register, for the trace's value
annotations (``trace.annotate_words`` sets ``RL_PATTERN_BIT`` in the BDI byte).

Follows: Kloosterman et al., RegLess (MICRO-50 2017) §4.4 (constant, stride one, stride four,
half-warp stride one, half-warp stride four); specs/regless.md §4.4 (arithmetic modulo 2**32
on the raw bits of all 32 stored lanes).
"""

from __future__ import annotations

import numpy as np

from warpsim._jit import jit

__all__ = ["RL_PATTERN_BIT", "rl_pattern"]

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
