"""WIR's Affine comparison point (ISCA 2018 §VII, Fig. 16): an energy-optimised GPU that keeps
affine warp registers as (base, stride) tuples, measured on the functional trace.

Follows: specs/wir.md §3 ("Affine model"): a warp register value is affine "when all adjacent
thread register values have the same stride value" (checked on full-warp values at every
write, uniform included: ``functional/lane_patterns.AFFINE_BIT``); an affine value is stored in
one 128-bit bank instead of 8, so its reads and writes cost 1/8 of the bank access energy; an
operation from the affine set (mov, add, sub, mul, shl, mad) whose inputs and output are all
affine costs one FU lane instead of 32. Affine executes the same instructions as Base.
Assumptions:
  [A] Counted per warp register operand: a source read is affine when the register's last
      write in that warp was a full-warp affine value (a partial write ends affinity; an
      unwritten register is not affine); predicates are not in the register file.
  [A] The savings scale the register file's granule read/write energy and the integer and FP
      pipelines' access energy (``power``'s ``regfile_granule_reads/writes``,
      ``gpuwattch_sp_acc``, ``gpuwattch_fpu_acc``) by the affine shares of reads, writes and
      lane operations; a 64-bit register is affine when both 32-bit halves are.
  [A] Affine+RLPV applies the shares measured on the whole trace to RLPV's energy: reuse hits
      are taken to be as likely among affine as among other instructions.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from warpsim._jit import jit
from warpsim.runtime.observers import per_program

__all__ = ["AFFINE_OPS", "AffineCounter", "affine_saving_j", "affine_shares"]

AFFINE_OPS = frozenset({"mov", "add", "sub", "mul", "shl", "mad"})
"""Operations that map affine inputs to an affine output on one lane (spec §8 item 30)."""

_FLOAT = ("f16", "f32", "f64", "bf16", "f16x2", "bf16x2")
_NON_ALU = frozenset({"ld", "ldu", "st", "atom", "red", "bra", "brx", "call", "ret", "exit",
                      "bar", "barrier", "membar", "fence", "tex", "tld4", "suld", "sust",
                      "cp", "trap", "wmma", "mma", "nanosleep", "prefetch", "prefetchu",
                      "rcp", "sqrt", "rsqrt", "sin", "cos", "lg2", "ex2", "tanh"})
# counters: reads, affine reads, writes, affine writes, int lane ops, int saved, fp, fp saved
N_COUNTS = 8
_FULL = np.uint32(0xFFFFFFFF)


def _static(program: Any) -> tuple[np.ndarray, ...]:
    """Per pc: source registers, destination registers with their first value entry and
    entry count, and the op class (0 none, 1 int ALU, 2 FP ALU; +4 when in the affine set)."""
    insts = program.insts
    n = len(insts) + 1
    regs = program.fn.regs
    srcs = [sorted({r for r in i.reads() if r != i.guard and r < len(regs)
                    and regs[r].type != "pred"}) for i in insts]
    width = max([1, *(len(s) for s in srcs), *(len(v) for v in program.val_regs)])
    src = np.full((n, width), -1, np.int64)
    dst = np.full((n, width), -1, np.int64)
    ent = np.zeros((n, width), np.int64)
    cnt = np.zeros((n, width), np.int64)
    cls = np.zeros(n, np.int64)
    dtypes = program.reg_dtypes
    for p, inst in enumerate(insts):
        src[p, :len(srcs[p])] = srcs[p]
        off = 0
        for k, r in enumerate(program.val_regs[p]):
            c = 2 if np.dtype(dtypes[r]).itemsize == 8 else 1
            if r < len(regs) and regs[r].type != "pred":
                dst[p, k], ent[p, k], cnt[p, k] = r, off, c
            off += c
        if inst.opcode not in _NON_ALU and int(program.kinds[p]) == 0:
            c = 2 if any(t in _FLOAT for t in inst.types) else 1
            cls[p] = c + (4 if inst.opcode in AFFINE_OPS else 0)
    return src, dst, ent, cnt, cls


@jit
def _walk(order, offsets, pc, exec_mask, val_start, uniform, src, dst, ent, cnt, cls, n_regs,
          out):  # pragma: no cover - jit
    aff = np.zeros(n_regs, np.bool_)
    for w in range(offsets.shape[0] - 1):
        aff[:] = False
        for i in range(offsets[w], offsets[w + 1]):
            r = order[i]
            p = pc[r]
            full = exec_mask[r] == _FULL
            all_src = True
            for k in range(src.shape[1]):
                s = src[p, k]
                if s < 0:
                    break
                out[0] += 1
                if aff[s]:
                    out[1] += 1
                else:
                    all_src = False
            all_dst = True
            for k in range(dst.shape[1]):
                d = dst[p, k]
                if d < 0:
                    continue
                a = full
                for e in range(cnt[p, k]):
                    a = a and (uniform[val_start[r] + ent[p, k] + e] & 2) != 0
                aff[d] = a
                out[2] += 1
                if a:
                    out[3] += 1
                else:
                    all_dst = False
            c = cls[p] & 3
            if c != 0:
                lanes = 0
                m = exec_mask[r]
                while m:
                    m &= m - np.uint32(1)
                    lanes += 1
                base = 4 if c == 1 else 6
                out[base] += lanes
                if (cls[p] & 4) and full and all_src and all_dst:
                    out[base + 1] += 31


class AffineCounter:
    """Counts a device's affine register reads/writes and lane operations: set
    ``device.trace_sink = counter.consume`` and ``device.add_launch_observer(counter.done)``;
    a launch's chunks are walked when it completes (its program is known then)."""

    def __init__(self) -> None:
        self.counts = np.zeros(N_COUNTS, np.int64)
        self._chunks: list[Any] = []
        self._tables = per_program(lambda p: (_static(p), len(p.reg_dtypes)))

    def consume(self, chunk: Any) -> None:
        self._chunks.append(chunk)

    def done(self, kernel: Any, cfg: Any, result: Any) -> None:
        tables, n_regs = self._tables(kernel)
        for c in self._chunks:
            _walk(c.order, c.offsets, c.pc, c.exec_mask, c.val_start, c.uniform, *tables,
                  n_regs, self.counts)
        self._chunks.clear()


def affine_shares(counts: np.ndarray) -> dict[str, float]:
    """Affine share of register reads and writes and saved share of int/FP lane operations."""
    def frac(a: int, b: int) -> float:
        return float(a) / float(b) if b else 0.0

    c = [int(x) for x in counts]
    return {"read": frac(c[1], c[0]), "write": frac(c[3], c[2]),
            "int_lanes_saved": frac(c[5], c[4]), "fp_lanes_saved": frac(c[7], c[6])}


def affine_saving_j(by_counter_j: dict[str, float], shares: dict[str, float]) -> float:
    """Energy an Affine GPU saves on a run whose per-counter energy is ``by_counter_j``."""
    g = by_counter_j.get
    return (7.0 / 8.0 * (g("regfile_granule_reads", 0.0) * shares["read"]
                         + g("regfile_granule_writes", 0.0) * shares["write"])
            + g("gpuwattch_sp_acc", 0.0) * shares["int_lanes_saved"]
            + g("gpuwattch_fpu_acc", 0.0) * shares["fp_lanes_saved"])
