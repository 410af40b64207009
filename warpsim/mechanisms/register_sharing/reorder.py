"""Register sequence numbers for Register Sharing: declaration order, or "Unrolling and
Reordering of Register Declarations" (Jatala et al., Sec. 5.2, Fig. 7).

A shared warp may touch its first u = floor(t·r) registers without the pair's lock (Fig. 4
step (c): ``RegNo <= R_w·t``), where ``RegNo`` is the register's 1-based sequence number in
declaration order. The paper's compile-time pass unrolls vector declarations (``$r<27>``) and
re-declares the registers in the order of their first use in static textual order, so that a
non-owner warp runs as many instructions as possible before it needs the lock.

warpsim replays allocated registers (``ptx.regalloc.Allocation``), not PTX declarations, so the
numbering is applied to the allocated-register index space the timing engine uses (32-bit
register ``R``, then predicate ``P`` at ``n_regs + P``; spec §4.2 last bullets):

* without unroll, the allocated order: R0, R1, ..., then P0, P1, ... (the declaration analog);
* with unroll, first use in static textual order (guard predicate, then the operands left to
  right, so destinations before sources; address registers included); registers never
  accessed go last in their original order.

``declared_sequence`` does the same on a PTX function's declared (virtual) registers, which is
the paper's Fig. 7 view. Follows specs/register-sharing.md §3.5 and §4.2.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from warpsim.ptx.ir import Function, Instruction

__all__ = ["SharingSeq", "declared_sequence", "sharing_sequence", "textual_registers"]


@dataclass(frozen=True, slots=True)
class SharingSeq:
    """Sequence numbers of a kernel's allocated registers and the largest one each pc touches."""

    seq: np.ndarray
    """``seq[i]`` (int32, 1-based) of allocated register ``i``: 32-bit register ``R`` at
    ``i = R``, predicate ``P`` at ``i = n_regs + P`` (the engine's scoreboard numbering)."""
    pc_max_seq: np.ndarray
    """``pc_max_seq[pc]`` (int32): the largest sequence number instruction ``pc`` reads or
    writes (guard predicate and address registers included), 0 when it names no register;
    one extra 0 entry for the exit pc ``len(program.insts)``."""
    order: tuple[int, ...]
    """Allocated register indices in sequence order (``seq[order[k]] == k + 1``)."""
    n_regs: int
    n_preds: int
    unroll: bool

    def reg_seq(self, reg: int) -> int:
        """Sequence number of 32-bit register ``reg``."""
        return int(self.seq[reg])

    def pred_seq(self, pred: int) -> int:
        """Sequence number of predicate register ``pred``."""
        return int(self.seq[self.n_regs + pred])

    def touches_shared(self, u: int) -> np.ndarray:
        """Per pc: True when the instruction accesses a register with sequence number > u (a
        shared register of a shared warp)."""
        return self.pc_max_seq > u

    def first_shared_pc(self, u: int) -> int:
        """Lowest pc (static textual order) that touches a shared register; the exit pc when
        none does. Instructions before it run without the lock."""
        hits = np.flatnonzero(self.touches_shared(u))
        return int(hits[0]) if hits.size else len(self.pc_max_seq) - 1


def textual_registers(inst: Instruction) -> Iterator[int]:
    """Virtual register ids ``inst`` names, in textual order: the guard (``@%p``), then the
    destinations, then the sources, each left to right (vector elements and address bases
    included); repeats kept."""
    if inst.guard >= 0:
        yield inst.guard
    for op in (*inst.dsts, *inst.srcs):
        yield from op.registers()


def _first_use_order(n: int, uses: Iterable[int]) -> tuple[int, ...]:
    """Indices 0..n-1 ordered by first appearance in ``uses``; the rest in index order."""
    seen = dict.fromkeys(u for u in uses if 0 <= u < n)
    return (*seen, *(i for i in range(n) if i not in seen))


def declared_sequence(fn: Function, *, unroll: bool) -> dict[str, int]:
    """1-based sequence number of each declared register of ``fn`` by name: declaration order
    (vector declarations expanded in index order), or with ``unroll`` first use in static
    textual order, never-used registers last in declaration order (Fig. 7 (a) and (b))."""
    n = len(fn.regs)
    if unroll:
        order = _first_use_order(n, (v for inst in fn.instructions
                                     for v in textual_registers(inst)))
    else:
        order = tuple(range(n))
    return {fn.regs[v].name: k + 1 for k, v in enumerate(order)}


def _allocated(alloc: Any, inst: Instruction) -> list[int]:
    """Allocated indices ``inst`` accesses, in textual order, restricted to what the
    allocation says it reads and writes (no constant-bank or folded operands)."""
    n_regs = int(alloc.n_regs)
    accessed = {*alloc.reads(inst), *alloc.writes(inst),
                *(n_regs + p for p in alloc.pred_reads(inst)),
                *(n_regs + p for p in alloc.pred_writes(inst))}
    out: list[int] = []
    for v in textual_registers(inst):
        p = int(alloc.pred_phys[v])
        if p >= 0:
            idx: Iterable[int] = (n_regs + p,)
        else:
            base = int(alloc.phys[v])
            idx = range(base, base + int(alloc.width[v])) if base >= 0 else ()
        out.extend(i for i in idx if i in accessed)
    return out


def sharing_sequence(program: Any, alloc: Any, *, unroll: bool) -> SharingSeq:
    """Sequence numbers of the allocated registers of ``program`` (a functional ``Program``, or
    anything with ``insts``; None for the engine's warm-up launch) under allocation ``alloc``
    (``ptx.regalloc.Allocation``), with or without the unroll-and-reorder pass."""
    if program is None or alloc is None:
        return SharingSeq(np.zeros(0, np.int32), np.zeros(1, np.int32), (), 0, 0, unroll)
    n_regs, n_preds = int(alloc.n_regs), int(alloc.n_preds)
    n = n_regs + n_preds
    per_pc = [_allocated(alloc, inst) for inst in program.insts]
    order = (_first_use_order(n, (i for regs in per_pc for i in regs)) if unroll
             else tuple(range(n)))
    seq = np.zeros(n, np.int32)
    seq[list(order)] = np.arange(1, n + 1, dtype=np.int32)
    pc_max = np.zeros(len(per_pc) + 1, np.int32)
    for pc, regs in enumerate(per_pc):
        if regs:
            pc_max[pc] = seq[regs].max()
    return SharingSeq(seq, pc_max, order, n_regs, n_preds, unroll)
