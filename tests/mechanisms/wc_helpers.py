"""Hand-made trace chunks with register values for the Warped-Compression tests: each record
gives its pc, active and exec masks and the 32-lane contents of every destination after the
write; the BDI codes come from the functional trace's own annotator."""

from __future__ import annotations

import numpy as np

from warpsim.functional.trace import SIG_KEYS, TraceChunk, annotate_words, empty_values


def vrec(pc, values=(), *, mask=0xFFFFFFFF, exec_mask=None):
    """A record: ``values`` = one 32-lane vector per destination register (after the write)."""
    return (pc, mask, mask if exec_mask is None else exec_mask,
            [np.asarray(v).astype(np.int64).astype(np.uint32) for v in values])


def value_chunk(warps, wpc=1, first_cta=0, cta_threads=None):
    """A ``TraceChunk`` of per-warp ``vrec`` lists (warp-contiguous records)."""
    recs, wid = [], []
    for w, rs in enumerate(warps):
        for r in rs:
            recs.append(r)
            wid.append(w)
    n_w, n = len(warps), len(recs)
    threads = cta_threads or 32 * wpc
    codes, vstart = [], []
    for (_, _, ex, vals), w in zip(recs, wid, strict=True):
        vstart.append(len(codes))
        nthr = min(32, threads - 32 * (w % wpc))
        exist = 0xFFFFFFFF if nthr >= 32 else (1 << nthr) - 1
        for v in vals:
            sig, code, uni = empty_values(1, 1)
            annotate_words(v[None], np.array([exist], np.uint32), np.array([ex], np.uint32),
                           SIG_KEYS, sig, code, uni, 0)
            codes.append(int(code[0, 0]))
    warp = np.array(wid, np.int32)
    offsets = np.zeros(n_w + 1, np.int64)
    np.cumsum(np.bincount(warp, minlength=n_w), out=offsets[1:])
    z8 = np.zeros(n, np.uint8)
    return TraceChunk(
        batch=0, warp_cta=first_cta + np.arange(n_w, dtype=np.int64) // wpc,
        warp_in_cta=(np.arange(n_w) % wpc).astype(np.int32), offsets=offsets,
        order=np.arange(n, dtype=np.int32), warp=warp,
        pc=np.array([r[0] for r in recs], np.int32),
        mask=np.array([r[1] for r in recs], np.uint32),
        exec_mask=np.array([r[2] for r in recs], np.uint32), n_sectors=z8, n_lines=z8.copy(),
        bank_conflict=z8.copy(), val_start=np.array(vstart, np.int64),
        sig=np.zeros(len(codes), np.uint64), bdi=np.array(codes, np.uint8),
        uniform=np.zeros(len(codes), np.bool_), line_start=np.zeros(n, np.int64),
        lines=np.zeros(0, np.uint64))
