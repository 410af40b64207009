"""The facts the RegLess compiler needs about one register-allocated kernel: per instruction the
physical 32-bit registers read and written, whether the write is guarded, whether the
instruction is a long-latency load or a barrier, and the CFG.

Follows: specs/regless.md §3.1 (physical-register code; 64-bit operands are two registers;
predicates, special registers, immediates and parameters are not OSU registers) and §2
(long-latency loads, A7).

Assumptions:
  [A] Long-latency producers (A7): ``ld``/``ldu`` from the global, local or generic space
      (a generic pointer may name global memory), ``tex``/``tld4``/``suld`` and ``atom``
      with a destination. Shared, constant and parameter loads are short.
  [A] ``bar``/``barrier`` with ``sync`` semantics (not ``bar.arrive``) are barriers (A6).
"""

from __future__ import annotations

from dataclasses import dataclass

from warpsim.ptx.cfg import CFG, build_cfg
from warpsim.ptx.ir import Function
from warpsim.ptx.regalloc import Allocation

__all__ = ["KernelView", "kernel_view", "is_barrier", "is_long_latency"]

_LONG_SPACES = frozenset({"global", "local", "generic", ""})


def is_long_latency(inst) -> bool:
    """Whether ``inst`` is a long-latency producer (spec §2, A7)."""
    op = inst.opcode
    if op in ("ld", "ldu"):
        return inst.space in _LONG_SPACES
    if op in ("tex", "tld4", "suld"):
        return True
    return op == "atom" and bool(inst.dsts)


def is_barrier(inst) -> bool:
    """Whether ``inst`` waits at a CTA barrier (``bar.sync``, ``barrier``, ``bar.red``)."""
    return inst.opcode in ("bar", "barrier") and not inst.has("arrive")


@dataclass(slots=True)
class KernelView:
    """Physical-register facts of one kernel, indexed by instruction (= timing pc)."""

    reads: list[tuple[int, ...]]
    """Distinct physical registers each instruction reads (operand order)."""
    writes: list[tuple[int, ...]]
    """Distinct physical registers each instruction writes."""
    premat: list[tuple[int, ...]]
    """Registers a rematerialised value takes right before the instruction reads it
    (``Allocation.remat``): written, then read, by the same instruction; no preload."""
    guarded: list[bool]
    longlat: list[bool]
    barrier: list[bool]
    exits: list[bool]
    """``ret``/``exit``: like a barrier, issued without the engine's ``on_issue``."""
    cfg: CFG
    n_regs: int
    text: list[str]
    """The instruction text (for listings)."""

    @property
    def n(self) -> int:
        return len(self.reads)


def _distinct(regs: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(dict.fromkeys(regs))


def _split_remat(alloc: Allocation, inst) -> tuple[tuple[int, ...], ...]:
    """``(reads, writes, premat)`` physical registers of ``inst`` (spec §3.1)."""
    if alloc.folded is not None and any(alloc.folded[w] >= 0 for w in inst.writes()):
        return (), (), ()  # neg/abs folded into its users' operand modifiers
    rd: list[int] = []
    pm: list[int] = []
    for v in inst.reads():
        if alloc.const_reads and (inst.index, v) in alloc.const_reads:
            continue
        p = int(alloc.phys[v])
        if p < 0:
            continue
        (pm if alloc.remat[v] else rd).extend(range(p, p + int(alloc.width[v])))
    wr: list[int] = []
    for v in inst.writes():
        p = int(alloc.phys[v])
        if p < 0 or alloc.remat[v] or (alloc.folded is not None and alloc.folded[v] >= 0):
            continue
        wr.extend(range(p, p + int(alloc.width[v])))
    pm_d = _distinct(tuple(pm))
    return tuple(r for r in _distinct(tuple(rd)) if r not in pm_d), _distinct(tuple(wr)), pm_d


def kernel_view(fn: Function, alloc: Allocation, cfg: CFG | None = None) -> KernelView:
    """Build the view of ``fn`` (PTX order) under ``alloc`` (``schedule=False``)."""
    cfg = cfg if cfg is not None else build_cfg(fn)
    insts = fn.instructions
    reads, writes, premat = [], [], []
    for inst in insts:
        rd, wr, pm = _split_remat(alloc, inst)
        reads.append(rd)
        writes.append(wr)
        premat.append(pm)
    top = max([max(r + w + m, default=-1) for r, w, m in zip(reads, writes, premat, strict=True)],
              default=-1)
    return KernelView(reads=reads, writes=writes, premat=premat,
                      guarded=[i.guard >= 0 for i in insts],
                      longlat=[is_long_latency(i) for i in insts],
                      barrier=[is_barrier(i) for i in insts],
                      exits=[i.opcode in ("ret", "exit") for i in insts], cfg=cfg,
                      n_regs=max(top + 1, alloc.n_regs),
                      text=[(i.text or i.full_opcode).strip() for i in insts])
