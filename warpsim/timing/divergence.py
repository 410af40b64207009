"""Branch divergence read from a trace: which branch records split their warp.

The functional pass runs the taken path of a divergent branch first (or the fall-through path
when the taken one starts at the reconvergence point), so a warp's record right after a branch
that split it covers a strict subset of the branch's active lanes; after a branch that did not
split, the next record has the same active mask (ARCHITECTURE.md §3, ``functional/executor.py``
``_branch``). The scheduler counts ``simt_divergent_branches`` from this column.
"""

from __future__ import annotations

import numpy as np

__all__ = ["split_records"]


def split_records(mask: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """int32 per record (records grouped per warp: warp ``w`` owns
    ``offsets[w]:offsets[w + 1]``): 1 when the warp's next record has active lanes that are a
    strict subset of this record's, else 0 (also for each warp's last record)."""
    n = mask.size
    out = np.zeros(n, np.int32)
    if n < 2:
        return out
    m = mask.astype(np.uint32, copy=False)
    nxt = m[1:]
    split = ((m[:-1] & nxt) == nxt) & (nxt != m[:-1])
    last = np.asarray(offsets, np.int64)[1:] - 1
    split[last[(last >= 0) & (last < n - 1)]] = False
    out[:-1] = split
    return out
