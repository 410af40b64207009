"""Per-SM global-access address streams at the L1 level, taken from the functional trace.

Follows: Xiang's dissertation §5.3-§5.4 (the locality is collected "at the L1 level", per SM);
docs/trace-format.md (records, ``lines``).
Assumptions (docs/mechanisms/coarse-fetch.md):
  [A] The L1 sees one access per 128 B line a warp instruction touches (the trace's coalesced
      ``lines``), so addresses are line-aligned byte addresses: a neighbourhood below 128 B
      measures temporal locality only.
  [A] Global loads and stores, generic ones included (warpsim's generic space resolves to the
      heap), make the stream; atomics, local, constant and texture accesses do not.
  [A] CTA c runs on SM ``c % n_sms`` (the dispatcher's first round), and an SM's accesses are in
      the functional executor's dispatch order (the trace has no timing order).
"""

from __future__ import annotations

import numpy as np

__all__ = ["GlobalStreams", "is_global_access"]

_SPACES = ("global", "shared", "local", "const", "param", "tex")


def is_global_access(opcode: str) -> bool:
    """``ld``/``ldu``/``st`` of global or generic memory (by the PTX opcode's spelling)."""
    parts = opcode.split(".")
    if parts[0] not in ("ld", "ldu", "st"):
        return False
    space = next((p for p in parts[1:] if p in _SPACES), "generic")
    return space in ("global", "generic")


class GlobalStreams:
    """Collects the per-SM streams of one or more launches (``add`` each ``LaunchTrace``)."""

    def __init__(self, n_sms: int) -> None:
        self.n_sms = int(n_sms)
        self._parts: list[list[np.ndarray]] = [[] for _ in range(self.n_sms)]

    def add(self, trace) -> None:
        """Append the global accesses of a ``LaunchTrace`` (its retained chunks)."""
        glob = np.array([is_global_access(op) for op in trace.opcodes], dtype=bool)
        for ch in trace.chunks:
            self.add_chunk(ch, glob)

    def add_chunk(self, ch, glob: np.ndarray) -> None:
        """Append one ``TraceChunk``; ``glob[pc]`` marks the global-access instructions."""
        recs = np.flatnonzero(glob[ch.pc] & (ch.n_lines > 0))
        if recs.size == 0:
            return
        nl = ch.n_lines[recs].astype(np.int64)
        starts = ch.line_start[recs]
        # every line of every record, in record (dispatch) order
        idx = np.repeat(starts - np.cumsum(nl) + nl, nl) + np.arange(int(nl.sum()))
        lines = ch.lines[idx].astype(np.int64)
        sm = np.repeat(ch.warp_cta[ch.warp[recs]] % self.n_sms, nl)
        for s in np.unique(sm):
            self._parts[int(s)].append(lines[sm == s])

    def streams(self) -> list[np.ndarray]:
        """One int64 array of line byte addresses per SM."""
        return [np.concatenate(p) if p else np.zeros(0, np.int64) for p in self._parts]
