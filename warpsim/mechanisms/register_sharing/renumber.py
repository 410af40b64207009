"""An allocation whose 32-bit physical registers are renumbered in Register Sharing's reordered
sequence, so that the register-bank mapping follows the unrolled declaration order.

Follows: specs/register-sharing.md §4.2 ([G] GPGPU-Sim maps a register to bank ``regnum %
n_banks``, so renumbering declarations moves registers between banks) and §12
``unroll_affects_banks``.
Assumptions:
  [A] 32-bit registers are renumbered among themselves in sequence order (predicates are no
      bank reads and keep their numbers); a 64-bit value's two halves may land apart, which
      only the bank mapping and the scoreboard see (a permutation: nothing else changes).
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["RenumberedAllocation", "renumbered_allocation"]


class RenumberedAllocation:
    """``reads``/``writes`` of ``original`` through ``perm``; everything else unchanged."""

    def __init__(self, original: Any, perm: np.ndarray) -> None:
        self.original = original
        """The allocation before renumbering (what sequence numbers are computed on)."""
        self.perm = perm
        """``perm[old register]`` = new register number."""

    def reads(self, inst: Any) -> tuple[int, ...]:
        """Physical registers ``inst`` reads, renumbered."""
        return tuple(int(self.perm[r]) for r in self.original.reads(inst))

    def writes(self, inst: Any) -> tuple[int, ...]:
        """Physical registers ``inst`` writes, renumbered."""
        return tuple(int(self.perm[r]) for r in self.original.writes(inst))

    def __getattr__(self, name: str) -> Any:
        if name == "original":  # during unpickling, before __init__'s attributes exist
            raise AttributeError(name)
        return getattr(self.original, name)


def renumbered_allocation(alloc: Any, seq: Any) -> RenumberedAllocation:
    """``alloc`` with its 32-bit registers renumbered by ``seq`` (``reorder.SharingSeq``)."""
    n = int(alloc.n_regs)
    order = np.argsort(np.asarray(seq.seq[:n]), kind="stable")  # old registers by sequence
    perm = np.empty(n, np.int64)
    perm[order] = np.arange(n, dtype=np.int64)
    return RenumberedAllocation(alloc, perm)
