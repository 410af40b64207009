"""Value entries of the trace (signature, BDI code, uniformity of each written warp register),
computed for narrow dispatches in bulk.

Follows: ARCHITECTURE.md §9 (the per-dispatch Python overhead dominates narrow launches: a
one-warp dispatch must not pay a compiled call and three allocations per written register) and
docs/trace-format.md (value entries, record-major). The entries are those of
``trace.annotate_words`` / ``trace.annotate_predicates``, bit for bit: the same kernels run on
copies of the lanes taken when the instruction executed.
Assumptions:
  [A] A dispatch of fewer than ``BUFFER_WARPS`` warps copies its written registers' lanes into
      a pending buffer (row = value entry, in entry order); the buffer is annotated in one
      compiled call when it fills, before a wide dispatch annotates directly, and before the
      batch's trace is finished, so the entries keep their order.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from warpsim._jit import jit
from warpsim.functional.trace import (
    SIG_KEYS,
    TraceBuilder,
    annotate_predicates,
    annotate_words,
    empty_values,
    gather_rows,
)

__all__ = ["BUFFER_WARPS", "ValueRecorder"]

BUFFER_WARPS = 64
"""Dispatches of fewer warps than this are buffered; wider ones are annotated at once."""
_ROWS = 1 << 14
"""Pending rows (value entries) before a flush: 2 MiB of lanes."""
_WORD = 0
_PRED = 1
_U32 = np.dtype(np.uint32)


@jit
def _annotate_rows(rows, kinds, exist, active, keys, sig, bdi, uni):  # pragma: no cover - jit
    """Entry ``i`` of ``sig``/``bdi``/``uni`` from row ``i``: ``annotate_words`` of the 32
    lanes ``rows[i]`` (kind 0) or ``annotate_predicates`` of the lane bits ``rows[i, 0]``
    (kind 1). ``sig``/``bdi``/``uni`` are [n, 1]."""
    for i in range(sig.shape[0]):
        if kinds[i] == 0:
            annotate_words(rows[i:i + 1], exist[i:i + 1], active[i:i + 1], keys, sig[i:i + 1],
                           bdi[i:i + 1], uni[i:i + 1], 0)
        else:
            annotate_predicates(rows[i:i + 1, 0], active[i:i + 1], keys, sig[i:i + 1],
                                bdi[i:i + 1], uni[i:i + 1], 0)


class ValueRecorder:
    """The value entries of one batch's trace, handed to a ``TraceBuilder`` in order."""

    def __init__(self, tracer: TraceBuilder) -> None:
        self.tracer = tracer
        self._alloc(256)  # grown on demand: a tiny launch must not pay for 2 MiB
        self.n = 0

    def _alloc(self, cap: int) -> None:
        self.rows = np.empty((cap, 32), np.uint32)
        self.flat = self.rows.reshape(-1)
        self.kinds = np.empty(cap, np.uint8)
        self.exist = np.empty(cap, np.uint32)
        self.active = np.empty(cap, np.uint32)

    def flush(self) -> None:
        """Annotate the pending rows and hand their entries to the builder."""
        n = self.n
        if n == 0:
            return
        sig, bdi, uni = empty_values(n, 1)
        _annotate_rows(self.rows[:n], self.kinds[:n], self.exist[:n], self.active[:n],
                       SIG_KEYS, sig, bdi, uni)
        self.tracer.values(sig, bdi, uni)
        self.n = 0

    def record(self, regs: list[np.ndarray], val_regs: tuple[int, ...], k: int, g: Any,
               exist: np.ndarray, ex: np.ndarray) -> None:
        """The ``k`` value entries per warp of group ``g`` after it wrote registers
        ``val_regs`` (``exist``/``ex``: per warp, existing and executing lanes)."""
        nw = g.nw
        if nw >= BUFFER_WARPS:
            self.flush()
            self._annotate_now(regs, val_regs, k, g, exist, ex)
            return
        need = nw * k
        if self.n + need > self.kinds.size:
            self.flush()
            if need > self.kinds.size or self.kinds.size < _ROWS:
                self._alloc(max(need, min(2 * self.kinds.size, _ROWS)))
        base = self.n
        end = base + need
        rows, kinds = self.rows, self.kinds
        if nw == 1 and g.contig:
            self._record_one_warp(regs, val_regs, g.wsl, base, end, exist, ex)
            return
        if k == 1 and g.contig:
            arr = regs[val_regs[0]]
            if arr.dtype is _U32:  # the common case: one 32-bit register of adjacent warps
                self.exist[base:end] = exist
                self.active[base:end] = ex
                self.flat[base * 32:end * 32] = arr[g.wsl]
                kinds[base:end] = _WORD
                self.n = end
                return
        self.exist[base:end] = np.repeat(exist, k) if k > 1 else exist
        self.active[base:end] = np.repeat(ex, k) if k > 1 else ex
        col = base
        for r in val_regs:
            arr = regs[r]
            dt = arr.dtype
            if dt == np.bool_:
                bits = np.packbits(g.warp_view(arr), axis=1, bitorder="little").view("<u4")
                rows[col:end:k, 0] = bits.reshape(nw)
                kinds[col:end:k] = _PRED
                col += 1
            elif dt == np.uint64:
                v = g.warp_view(arr).view(np.uint32)
                rows[col:end:k] = v[:, 0::2]
                rows[col + 1:end:k] = v[:, 1::2]
                kinds[col:end:k] = _WORD
                kinds[col + 1:end:k] = _WORD
                col += 2
            else:
                rows[col:end:k] = g.warp_view(arr)  # uint32 as is, narrower zero-extended
                kinds[col:end:k] = _WORD
                col += 1
        self.n = end

    def _record_one_warp(self, regs: list[np.ndarray], val_regs: tuple[int, ...], wsl: slice,
                         base: int, end: int, exist: np.ndarray, ex: np.ndarray) -> None:
        """``record`` for one warp (lanes ``wsl``): the same rows, one register at a time, with
        no per-warp index arrays (a lone warp's dispatch pays this per written register)."""
        if end == base + 1:  # item assignments: a third of a one-element slice's cost
            self.exist[base] = exist[0]
            self.active[base] = ex[0]
        else:
            self.exist[base:end] = exist[0]
            self.active[base:end] = ex[0]
        rows, kinds = self.rows, self.kinds
        col = base
        for r in val_regs:
            arr = regs[r]
            dt = arr.dtype
            if dt == np.bool_:
                rows[col, 0] = np.packbits(arr[wsl], bitorder="little").view("<u4")[0]
                kinds[col] = _PRED
                col += 1
            elif dt == np.uint64:
                v = arr[wsl].view(np.uint32)
                rows[col] = v[0::2]
                rows[col + 1] = v[1::2]
                kinds[col] = _WORD
                kinds[col + 1] = _WORD
                col += 2
            else:
                rows[col] = arr[wsl]  # uint32 as is, narrower zero-extended
                kinds[col] = _WORD
                col += 1
        self.n = end

    def _annotate_now(self, regs: list[np.ndarray], val_regs: tuple[int, ...], k: int, g: Any,
                      exist: np.ndarray, ex: np.ndarray) -> None:
        sig, bdi, uni = empty_values(g.nw, k)
        ws = g.ws
        col = 0
        for r in val_regs:
            arr = regs[r]
            dt = arr.dtype
            if dt == np.uint32 and g.contig:
                annotate_words(arr[g.wsl].reshape(g.nw, 32), exist, ex, SIG_KEYS, sig, bdi,
                               uni, col)
                col += 1
            elif dt == np.uint32 or dt == np.uint64:
                rows = np.empty((g.nw, 32), np.uint32)
                flat = arr.view(np.uint32)
                step = 1 if dt == np.uint32 else 2
                for half in range(step):
                    gather_rows(flat, step, half, ws, rows)
                    annotate_words(rows, exist, ex, SIG_KEYS, sig, bdi, uni, col)
                    col += 1
            elif dt == np.bool_:
                bits = np.packbits(g.warp_view(arr), axis=1, bitorder="little").view("<u4")
                annotate_predicates(bits.reshape(g.nw), ex, SIG_KEYS, sig, bdi, uni, col)
                col += 1
            else:
                v = g.warp_view(arr).astype(np.uint32)
                annotate_words(v, exist, ex, SIG_KEYS, sig, bdi, uni, col)
                col += 1
        self.tracer.values(sig, bdi, uni)
