"""Per-SM bitsets of the warp slots' scheduling flags, kept next to the warp rows, so the issue
and decode stages visit only the warps that can act instead of scanning every warp row.

Follows: docs/timing-model.md "Speed" (models nothing: ``CoreState.warp_bits`` mirrors fields of
``CoreState.warp``; every write of those fields goes through the setters here). Bit ``w & 63``
of word ``w >> 6`` is warp slot ``w``.
"""

from __future__ import annotations

import numpy as np
from numba import config as numba_config
from numba.cpython.unsafe.numbers import trailing_zeros

from warpsim._jit import jit_inline
from warpsim.timing.fields import (
    F_WARP_AT_BAR,
    F_WARP_IBUF,
    F_WARP_SB_WAIT,
    F_WARP_VALID,
    N_WB_KINDS,
    WB_AT_BAR,
    WB_IBUF,
    WB_IBUF_FULL,
    WB_SB_WAIT,
    WB_VALID,
)

__all__ = ["lowest_bit", "sched_bits", "set_at_bar", "set_ibuf", "set_ibuf_empty", "set_sb_wait",
           "set_valid", "warp_bits_of"]


@jit_inline
def _put(bits, sm, k, w, on):  # pragma: no cover - jit
    b = np.uint64(1) << np.uint64(w & 63)
    if on:
        bits[sm, k, w >> 6] |= b
    else:
        bits[sm, k, w >> 6] &= ~b


@jit_inline
def set_valid(warp, bits, sm, w, v):  # pragma: no cover - jit
    """``warp[sm, w, F_WARP_VALID] = v`` and its bit."""
    warp[sm, w, F_WARP_VALID] = v
    _put(bits, sm, WB_VALID, w, v != 0)


@jit_inline
def set_at_bar(warp, bits, sm, w, v):  # pragma: no cover - jit
    """``warp[sm, w, F_WARP_AT_BAR] = v`` and its bit."""
    warp[sm, w, F_WARP_AT_BAR] = v
    _put(bits, sm, WB_AT_BAR, w, v != 0)


@jit_inline
def set_sb_wait(warp, bits, sm, w, v):  # pragma: no cover - jit
    """``warp[sm, w, F_WARP_SB_WAIT] = v`` and its bit."""
    warp[sm, w, F_WARP_SB_WAIT] = v
    _put(bits, sm, WB_SB_WAIT, w, v != 0)


@jit_inline
def set_ibuf(warp, bits, sm, w, v, cap):  # pragma: no cover - jit
    """``warp[sm, w, F_WARP_IBUF] = v`` and its bits (not empty; at the I-buffer size
    ``cap``)."""
    warp[sm, w, F_WARP_IBUF] = v
    _put(bits, sm, WB_IBUF, w, v > 0)
    _put(bits, sm, WB_IBUF_FULL, w, v >= cap)


@jit_inline
def set_ibuf_empty(warp, bits, sm, w):  # pragma: no cover - jit
    """``warp[sm, w, F_WARP_IBUF] = 0`` and its bits (an I-buffer size is at least 1)."""
    warp[sm, w, F_WARP_IBUF] = 0
    _put(bits, sm, WB_IBUF, w, False)
    _put(bits, sm, WB_IBUF_FULL, w, False)


if numba_config.DISABLE_JIT:  # plain Python (tests/test_without_jit.py): no intrinsics

    def lowest_bit(m):
        """Index of the lowest set bit of the non-zero uint64 ``m``."""
        m = int(m)
        return np.int64((m & -m).bit_length() - 1)

else:

    @jit_inline
    def lowest_bit(m):  # pragma: no cover - jit
        """Index of the lowest set bit of the non-zero uint64 ``m``."""
        return np.int64(trailing_zeros(m))


def sched_bits(n_sched: int, n_warps: int) -> np.ndarray:
    """``sched_bits[s, word]`` uint64: the warp slots of scheduler ``s`` (``w % n_sched``)."""
    out = np.zeros((n_sched, (n_warps + 63) // 64), np.uint64)
    for w in range(n_warps):
        out[w % n_sched, w >> 6] |= np.uint64(1) << np.uint64(w & 63)
    return out


def warp_bits_of(warp: np.ndarray, ibuf_cap: int) -> np.ndarray:
    """``warp_bits`` computed from the warp rows (for code that writes the rows directly)."""
    s, n, _ = warp.shape
    out = np.zeros((s, N_WB_KINDS, (n + 63) // 64), np.uint64)
    flags = ((WB_VALID, warp[:, :, F_WARP_VALID] != 0),
             (WB_AT_BAR, warp[:, :, F_WARP_AT_BAR] != 0),
             (WB_IBUF, warp[:, :, F_WARP_IBUF] > 0),
             (WB_IBUF_FULL, warp[:, :, F_WARP_IBUF] >= ibuf_cap),
             (WB_SB_WAIT, warp[:, :, F_WARP_SB_WAIT] != 0))
    for k, on in flags:
        for sm, w in zip(*np.nonzero(on), strict=True):
            out[sm, k, w >> 6] |= np.uint64(1) << np.uint64(w & 63)
    return out
