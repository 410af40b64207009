"""Sub-traces: the records of a CTA range of a ``TraceChunk``, and the work of each CTA.

Follows: docs/trace-format.md (a chunk is one CTA batch, warps CTA-major, records per warp in
CSR form through ``order``/``offsets``; value entries and line addresses owned per record). A
sub-trace is a valid ``TraceChunk`` of fewer CTAs, so the timing model replays it unchanged
(no engine change: the sampler decides which CTAs the engine sees).
"""

from __future__ import annotations

import numpy as np

from warpsim.functional.trace import TraceChunk

__all__ = ["cta_range", "cta_records", "slice_ctas"]


def cta_range(chunk: TraceChunk) -> tuple[int, int]:
    """``(first, end)``: the chunk holds CTAs ``first .. end - 1`` (end == first when empty)."""
    if chunk.n_warps == 0:
        return 0, 0
    return int(chunk.warp_cta[0]), int(chunk.warp_cta[-1]) + 1


def cta_records(chunk: TraceChunk) -> tuple[int, np.ndarray]:
    """``(first, recs)``: the dynamic warp instructions (records) of each CTA of the chunk,
    ``recs[i]`` for CTA ``first + i`` (int64) — the work measure the projection uses."""
    first, end = cta_range(chunk)
    per_warp = np.diff(chunk.offsets.astype(np.int64))
    recs = np.bincount(chunk.warp_cta.astype(np.int64) - first, weights=per_warp,
                       minlength=end - first)
    return first, recs.astype(np.int64)


def _segments(starts: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Concatenated ``arange(s, s + c)`` for each pair (int64)."""
    counts = counts.astype(np.int64)
    total = int(counts.sum())
    if total == 0:
        return np.zeros(0, np.int64)
    ends = np.cumsum(counts)
    shift = np.repeat(starts.astype(np.int64) - (ends - counts), counts)
    return np.arange(total, dtype=np.int64) + shift


def slice_ctas(chunk: TraceChunk, lo: int, hi: int) -> TraceChunk | None:
    """The sub-trace of CTAs ``lo .. hi - 1`` of ``chunk`` (None when it holds none of them).

    Records come out per warp contiguous (``order`` is the identity): only the per-warp order is
    meaningful to a timing model. Value entries and line addresses are carried with their
    records, so mechanisms see the same annotations as in the full trace.
    """
    first, end = cta_range(chunk)
    lo, hi = max(lo, first), min(hi, end)
    if lo >= hi:
        return None
    if lo == first and hi == end:
        return chunk
    cta = chunk.warp_cta
    w0 = int(np.searchsorted(cta, lo, side="left"))
    w1 = int(np.searchsorted(cta, hi, side="left"))
    off = chunk.offsets.astype(np.int64)
    rec = chunk.order[off[w0]:off[w1]].astype(np.int64)
    n_rec_vals = np.diff(np.append(chunk.val_start.astype(np.int64), chunk.sig.size))
    vals = _segments(chunk.val_start[rec], n_rec_vals[rec])
    lines = _segments(chunk.line_start[rec], chunk.n_lines[rec])
    n_vals = n_rec_vals[rec]
    n_lines = chunk.n_lines[rec].astype(np.int64)
    new_off = off[w0:w1 + 1] - off[w0]
    warp = np.repeat(np.arange(w1 - w0, dtype=np.int32), np.diff(new_off))
    return TraceChunk(
        batch=chunk.batch, warp_cta=cta[w0:w1], warp_in_cta=chunk.warp_in_cta[w0:w1],
        offsets=new_off, order=np.arange(rec.size, dtype=np.int32), warp=warp,
        pc=chunk.pc[rec], mask=chunk.mask[rec], exec_mask=chunk.exec_mask[rec],
        n_sectors=chunk.n_sectors[rec], n_lines=chunk.n_lines[rec],
        bank_conflict=chunk.bank_conflict[rec],
        val_start=np.concatenate([[0], np.cumsum(n_vals)[:-1]]).astype(np.int64)
        if rec.size else np.zeros(0, np.int64),
        sig=chunk.sig[vals], bdi=chunk.bdi[vals], uniform=chunk.uniform[vals],
        line_start=np.concatenate([[0], np.cumsum(n_lines)[:-1]]).astype(np.int64)
        if rec.size else np.zeros(0, np.int64),
        lines=chunk.lines[lines],
        line_sectors=None if chunk.line_sectors is None else chunk.line_sectors[lines])
