"""Vectorised memory-access kernels: address to element index with bounds and alignment checks,
and atomic read-modify-write in a defined order.

Follows: ARCHITECTURE.md §3 (bounds-checked accesses; atomics take their functional order) and
§9 (one pass per access over the active threads).
Assumptions:
  [A] Atomics of one instruction execute one thread after another in increasing thread index
      (batch order: CTA, then thread), which is a legal hardware order.
  [A] An access of ``size`` bytes must be ``size``-aligned (vector accesses: the whole vector).
"""

from __future__ import annotations

import numpy as np

from warpsim._jit import jit

__all__ = [
    "ATOM_OPS",
    "BAD_ALIGN",
    "BAD_RANGE",
    "atomic_apply",
    "global_index",
    "window_index",
]

BAD_RANGE = 1
BAD_ALIGN = 2

ATOM_OPS = {"add": 0, "min": 1, "max": 2, "inc": 3, "dec": 4, "and": 5, "or": 6, "xor": 7,
            "exch": 8, "cas": 9}
"""Operation codes of ``atomic_apply``."""


@jit
def global_index(addr, offset, heap_base, heap_bytes, size, shift, idx):  # pragma: no cover
    """Element indices ``(addr + offset - heap_base) >> shift`` of heap accesses of ``size``
    bytes, into ``idx`` (int64, as long as ``addr``: returning an array costs numba a
    per-call unpickle). Returns (lowest address, highest address, first bad position, bad
    kind); the first bad lane's index is 0. One branch-free pass computes the indices and the
    address range (and an OR of the addresses for alignment); only a batch with a bad lane
    takes a second pass to find the first one."""
    n = addr.shape[0]
    lo = np.uint64(0xFFFFFFFFFFFFFFFF)
    hi = np.uint64(0)
    orr = np.uint64(0)
    mask = np.uint64(size - 1)
    base = np.uint64(heap_base)
    limit = np.uint64(heap_bytes - size)
    off = np.uint64(offset)
    sh = np.uint64(shift)
    for i in range(n):
        a = np.uint64(addr[i]) + off
        lo = min(lo, a)
        hi = max(hi, a)
        orr |= a
        idx[i] = np.int64((a - base) >> sh)
    bad = -1
    kind = 0
    if (orr & mask) != 0 or lo < base or hi - base > limit:
        for i in range(n):
            a = np.uint64(addr[i]) + off
            if a & mask:
                bad = i
                kind = 2
                break
            if a < base or a - base > limit:
                bad = i
                kind = 1
                break
        if bad >= 0:
            idx[bad] = 0
    return lo, hi, bad, kind


@jit
def window_index(addr, offset, tidx, div, stride, limit, size, shift, wrap32,
                 idx):  # pragma: no cover - jit
    """Element indices of per-CTA (shared) or per-thread (local) accesses, into ``idx``: the
    byte position is ``(tidx // div) * stride + a`` with ``a = addr + offset`` (modulo 2**32
    when ``wrap32``: 32-bit addresses), valid when ``0 <= a`` and ``a + size <= limit``.
    Returns (first bad position, bad kind)."""
    n = addr.shape[0]
    bad = -1
    kind = 0
    mask = size - 1
    for i in range(n):
        a = np.int64(addr[i]) + offset
        if wrap32:
            a &= 0xFFFFFFFF
        if a & mask:
            if bad < 0:
                bad = i
                kind = 2
            idx[i] = 0
            continue
        if a < 0 or a + size > limit:
            if bad < 0:
                bad = i
                kind = 1
            idx[i] = 0
            continue
        idx[i] = ((tidx[i] // div) * stride + a) >> shift
    return bad, kind


@jit
def atomic_apply(view, idx, b, c, op):  # pragma: no cover - jit
    """Apply atomic ``op`` at ``view[idx[i]]`` for i = 0, 1, ... in order; return old values."""
    n = idx.shape[0]
    old = np.empty(n, dtype=view.dtype)
    for i in range(n):
        j = idx[i]
        o = view[j]
        old[i] = o
        v = b[i]
        if op == 0:
            view[j] = o + v
        elif op == 1:
            view[j] = v if v < o else o
        elif op == 2:
            view[j] = v if v > o else o
        elif op == 3:
            view[j] = 0 if o >= v else o + 1
        elif op == 4:
            view[j] = v if (o == 0 or o > v) else o - 1
        elif op == 5:
            view[j] = o & v
        elif op == 6:
            view[j] = o | v
        elif op == 7:
            view[j] = o ^ v
        elif op == 8:
            view[j] = v
        else:
            if o == v:
                view[j] = c[i]
    return old


@jit
def atomic_apply_float(view, idx, b, op):  # pragma: no cover - jit
    """Float atomics (add, min, max, exch) in order; returns old values."""
    n = idx.shape[0]
    old = np.empty(n, dtype=view.dtype)
    for i in range(n):
        j = idx[i]
        o = view[j]
        old[i] = o
        v = b[i]
        if op == 0:
            view[j] = o + v
        elif op == 1:
            if v < o or o != o:
                view[j] = v
        elif op == 2:
            if v > o or o != o:
                view[j] = v
        else:
            view[j] = v
    return old
