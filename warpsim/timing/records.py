"""Trace records into the engine's packed rows: one pass over a ``TraceChunk`` that writes
``TraceWindow.rec`` rows (``F_REC_*``) in per-warp order.

Follows: docs/trace-format.md (the chunk's columns, ``order``/``offsets`` CSR per warp) and
``timing/divergence.py`` (the DIVERGED column: the warp's next record runs a strict subset of
this record's lanes). Models nothing: the same rows as gathering each column by ``order`` and
stacking them, written row by row (a column-wise fill of the row-major array took 10-15 % of
a large kernel's timing wall time).
"""

from __future__ import annotations

import numpy as np

from warpsim._jit import jit, jit_alloc
from warpsim.timing.fields import (
    F_REC_BANK,
    F_REC_DIVERGED,
    F_REC_LINE0,
    F_REC_NLINES,
    F_REC_NSEC,
    F_REC_NTHR,
    F_REC_PC,
    N_REC_FIELDS,
)

__all__ = ["pack_records"]


@jit
def _popcount32(x):  # pragma: no cover - jit
    v = np.int64(x) & 0xFFFFFFFF
    v = v - ((v >> 1) & 0x55555555)
    v = (v & 0x33333333) + ((v >> 2) & 0x33333333)
    v = (v + (v >> 4)) & 0x0F0F0F0F
    return ((v * 0x01010101) >> 24) & 0xFF


@jit_alloc
def pack_records(order, offsets, pc, mask, exec_mask, n_lines, n_sectors, bank,
                 line_start):  # pragma: no cover - jit
    """``rec[i, F_REC_*]`` int64 of record ``order[i]`` (LINE0 chunk-local); DIVERGED is 1
    when record ``order[i + 1]`` has a strict subset of the lanes of ``order[i]``'s mask,
    except for each warp's last record (``offsets``)."""
    n = order.size
    rec = np.empty((n, N_REC_FIELDS), np.int64)
    row = np.empty(n, np.int64)  # the row of each record: the columns are read in order
    for i in range(n):
        row[order[i]] = i
    for j in range(n):
        i = row[j]
        rec[i, F_REC_PC] = pc[j]
        rec[i, F_REC_NTHR] = _popcount32(exec_mask[j])
        rec[i, F_REC_NLINES] = n_lines[j]
        rec[i, F_REC_NSEC] = n_sectors[j]
        rec[i, F_REC_BANK] = bank[j]
        rec[i, F_REC_LINE0] = line_start[j]
        rec[i, F_REC_DIVERGED] = np.int64(mask[j]) & 0xFFFFFFFF  # the mask, for the pass below
    for i in range(n):
        m = rec[i, F_REC_DIVERGED]
        nx = rec[i + 1, F_REC_DIVERGED] if i + 1 < n else m
        rec[i, F_REC_DIVERGED] = 1 if (m & nx) == nx and nx != m else 0
    for w in range(offsets.size - 1):
        last = offsets[w + 1] - 1
        if 0 <= last < n - 1:
            rec[last, F_REC_DIVERGED] = 0
    return rec
