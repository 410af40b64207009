"""RFH, RegLess's second comparison baseline (Gebhart et al., MICRO'11, "A compile-time managed
multi-level register file hierarchy"): the compiler places values in a last result file (LRF)
or an operand register file (ORF) in front of the main register file (MRF).

Follows: Kloosterman et al., RegLess (MICRO-50 2017) §6 ("uses a compiler technique to place
registers in one of two smaller structures instead of the main register file when possible";
a two-level scheduler "is integral" to it; the 8-entry scratchpad of Fig. 3) and
specs/regless.md §5.3 item 3 (the model: LRF 1 entry and ORF 8 entries per active warp, the
full MRF; strands end at the first use of a long-latency load's result and at backward
branches; LRF/ORF contents do not survive a strand; greedy allocation by reads saved under the
ORF's capacity; a value live past its strand is also written to the MRF) and §6.1 (an ORF
access costs 0.1 of an MRF read, an LRF access 0.03).
Assumptions:
  [A] Strands are cut at every basic-block boundary too (warpsim's compiler allocates within
      straight-line code; Gebhart's strands may span forward branches), and before the first
      read of a long-latency result (a global, local or generic load, a texture or surface
      read, a global atomic) defined earlier in the strand.
  [A] The LRF takes an ALU result read only by the next instruction; the ORF takes the values
      read most often first, while fewer than ``ORF_ENTRIES`` ORF values are live at every
      point of their lifetime; a value live after its strand is written to the MRF as well.
  [A] Counted per warp register operand (a 64-bit register is one operand); predicates live
      outside the register file.
The timing side is the baseline engine with the two-level scheduler (``experiments/regless``:
a warp leaves the active set when it waits on a long-latency result, the strand end).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from warpsim.ptx.cfg import build_cfg
from warpsim.ptx.ir import Function, Instruction
from warpsim.ptx.liveness import liveness

__all__ = ["KINDS", "LRF_PJ_RATIO", "ORF_ENTRIES", "ORF_PJ_RATIO", "RFHPlan", "plan_rfh"]

ORF_ENTRIES = 8
"""ORF entries per warp (Fig. 3's "8-entry scratchpad")."""
ORF_PJ_RATIO = 0.1
LRF_PJ_RATIO = 0.03
"""Energy of an ORF / LRF access relative to an MRF read (spec §6.1 placeholders)."""
KINDS = ("mrf_reads", "orf_reads", "lrf_reads", "mrf_writes", "orf_writes", "lrf_writes",
         "values")
"""Columns of ``RFHPlan.per_pc``; ``values``: register values written (the baseline's register
file writes, each once)."""

_LONG_SPACES = frozenset({"global", "local", "generic", ""})


def _long_latency(inst: Instruction) -> bool:
    op = inst.opcode
    if op in ("tex", "tld4", "suld"):
        return True
    if op in ("ld", "ldu"):
        return inst.space in _LONG_SPACES
    return op == "atom" and inst.space in ("global", "generic", "")


def _alu(inst: Instruction) -> bool:
    return inst.opcode not in ("ld", "ldu", "atom", "tex", "tld4", "suld", "shfl", "call")


@dataclass(frozen=True, slots=True)
class RFHPlan:
    """The compiler's placement: accesses of each kind per static instruction."""

    per_pc: np.ndarray
    """[n_instructions, 7] int64: ``KINDS`` per execution of the instruction."""
    n_strands: int

    def accesses(self, pc_warp_counts: np.ndarray) -> np.ndarray:
        """Dynamic accesses of each kind, given warp-instruction counts per pc."""
        n = min(len(pc_warp_counts), self.per_pc.shape[0])
        return (np.asarray(pc_warp_counts[:n], np.int64)[:, None] * self.per_pc[:n]).sum(0)


def _strands(fn: Function) -> list[tuple[int, int]]:
    """[start, end) instruction ranges: basic blocks cut before a long-latency result's first
    read."""
    cfg = build_cfg(fn)
    insts = fn.instructions
    out = []
    for b in cfg.blocks:
        start = b.start
        pending: set[int] = set()
        for i in range(b.start, b.end):
            if pending & set(insts[i].reads()):
                out.append((start, i))
                start, pending = i, set()
            if _long_latency(insts[i]):
                pending.update(insts[i].writes())
        out.append((start, b.end))
    return [s for s in out if s[1] > s[0]]


def plan_rfh(fn: Function) -> RFHPlan:
    """Place every register value of ``fn`` (an inlined kernel) in the LRF, ORF or MRF."""
    insts = fn.instructions
    regs = fn.regs
    cfg = build_cfg(fn)
    live = liveness(fn, cfg)
    per_pc = np.zeros((len(insts), len(KINDS)), np.int64)

    def reg_ok(r: int) -> bool:
        return r < len(regs) and regs[r].type != "pred"

    strands = _strands(fn)
    for start, end in strands:
        # values defined in the strand: (def pc, reg, read pcs in the strand, live after)
        values = []
        last_def: dict[int, int] = {}
        reads_of: dict[tuple[int, int], list[int]] = {}
        for i in range(start, end):
            for r in {x for x in insts[i].reads() if reg_ok(x) and x != insts[i].guard}:
                d = last_def.get(r)
                if d is None:
                    per_pc[i, 0] += 1          # defined before the strand: from the MRF
                else:
                    reads_of[(d, r)].append(i)
            for r in {x for x in insts[i].writes() if reg_ok(x)}:
                last_def[r] = i
                reads_of[(i, r)] = []
        for (d, r), rd in reads_of.items():
            after = last_def.get(r) == d and live.is_live_out(end - 1, r)
            values.append((d, r, rd, after))
        occupancy = np.zeros(end - start + 1, np.int64)
        placed: dict[tuple[int, int], str] = {}
        for d, r, rd, _ in sorted(values, key=lambda v: (-len(v[2]), v[0], v[1])):
            if not rd:
                continue
            if rd == [d + 1] and _alu(insts[d]) and not _long_latency(insts[d]):
                placed[(d, r)] = "lrf"
                continue
            span = slice(d - start, rd[-1] - start + 1)
            if occupancy[span].max() < ORF_ENTRIES:
                occupancy[span] += 1
                placed[(d, r)] = "orf"
        for d, r, rd, after in values:
            per_pc[d, 6] += 1
            where = placed.get((d, r), "mrf")
            if where == "mrf" or after:
                per_pc[d, 3] += 1
            if where != "mrf":
                per_pc[d, 4 if where == "orf" else 5] += 1
            for i in rd:
                per_pc[i, {"mrf": 0, "orf": 1, "lrf": 2}[where]] += 1
    return RFHPlan(per_pc, len(strands))
