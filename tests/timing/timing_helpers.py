"""Micro-kernels for the timing tests: fake static instructions with explicit physical
registers, hand-built trace chunks, and a one-call simulation on a small configuration."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from timing_memstub import stub_memsys

from warpsim.arch import GTX480_3X, apply_overrides
from warpsim.functional.trace import TraceChunk
from warpsim.mechanisms.hooks import noop_hooks
from warpsim.ptx.ir import Operand, OpKind
from warpsim.timing.driver import TimingSimulator

STRAIGHT, BRANCH, EXIT, BARRIER = 0, 1, 2, 3


@dataclass
class Inst:
    """A static instruction: opcode/types/space as in the PTX IR, physical registers given."""

    opcode: str
    types: tuple = ("u32",)
    reads: tuple = ()
    writes: tuple = ()
    space: str = ""
    mods: tuple = ()
    n_imm: int = 0
    kind: int = STRAIGHT
    pred_reads_: tuple = ()
    pred_writes_: tuple = ()
    srcs: tuple = field(default=())

    def __post_init__(self):
        self.srcs = tuple(Operand(OpKind.IMM, value=1) for _ in range(self.n_imm))


class FakeProgram:
    def __init__(self, insts, name="micro"):
        self.insts = list(insts)
        self.name = name
        n = len(self.insts)
        self.kinds = np.zeros(n + 1, np.int8)
        self.kinds[n] = EXIT
        for i, inst in enumerate(self.insts):
            self.kinds[i] = inst.kind
        self.barrier_args = [((None, None, True) if i.kind == BARRIER else ())
                             for i in self.insts] + [()]


class FakeAlloc:
    def __init__(self, insts, n_regs=None):
        regs = [r for i in insts for r in (*i.reads, *i.writes)]
        self.n_regs = n_regs if n_regs is not None else max(regs, default=0) + 1
        preds = [p for i in insts for p in (*i.pred_reads_, *i.pred_writes_)]
        self.n_preds = max(preds, default=-1) + 1

    def reads(self, inst):
        return tuple(inst.reads)

    def writes(self, inst):
        return tuple(inst.writes)

    def pred_reads(self, inst):
        return tuple(inst.pred_reads_)

    def pred_writes(self, inst):
        return tuple(inst.pred_writes_)


def rec(pc, *, mask=0xFFFFFFFF, lines=(), nsec=None, bank=0):
    """One trace record: pc, executed mask, memory lines (byte addresses), bank degree."""
    return (pc, mask, tuple(lines), len(lines) if nsec is None else nsec, bank)


def make_chunk(warps, wpc, first_cta=0, batch=0):
    """A TraceChunk from per-warp record lists (warps CTA-major, ``wpc`` per CTA)."""
    n_w = len(warps)
    recs, wid = [], []
    # interleave warps round robin so the chunk's order permutation is exercised
    longest = max((len(w) for w in warps), default=0)
    for k in range(longest):
        for w, rs in enumerate(warps):
            if k < len(rs):
                recs.append(rs[k])
                wid.append(w)
    n = len(recs)
    warp = np.array(wid, np.int32)
    offsets = np.zeros(n_w + 1, np.int64)
    np.cumsum(np.bincount(warp, minlength=n_w), out=offsets[1:])
    order = np.argsort(warp, kind="stable").astype(np.int32)
    nl = np.array([len(r[2]) for r in recs], np.uint8)
    line_start = np.zeros(n, np.int64)
    if n > 1:
        line_start[1:] = np.cumsum(nl[:-1])
    lines = np.array([a for r in recs for a in r[2]], np.uint64)
    u32 = np.array([r[1] for r in recs], np.uint32)
    return TraceChunk(
        batch=batch, warp_cta=first_cta + np.arange(n_w, dtype=np.int64) // wpc,
        warp_in_cta=(np.arange(n_w) % wpc).astype(np.int32), offsets=offsets, order=order,
        warp=warp, pc=np.array([r[0] for r in recs], np.int32), mask=u32, exec_mask=u32,
        n_sectors=np.array([r[3] for r in recs], np.uint8), n_lines=nl,
        bank_conflict=np.array([r[4] for r in recs], np.uint8), val_start=np.zeros(n, np.int64),
        sig=np.zeros(0, np.uint64), bdi=np.zeros(0, np.uint8), uniform=np.zeros(0, np.bool_),
        line_start=line_start, lines=lines)


def small_config(**over):
    """GTX480_3X with 1 SM and 1 scheduler (plus ``over`` dotted overrides)."""
    base = {"sm.n_sms": 1, "sm.n_schedulers": 1}
    base.update(over)
    return apply_overrides(GTX480_3X, base)


def simulate(cfg, insts, warps, *, wpc=1, cta_threads=None, regs=8, shmem=0, chunks=1,
             hit=None, miss=200, skip_idle=True, n_regs=None, mechanism=None, memsys=None):
    """Time the micro-kernel: ``warps`` lists every warp's records (CTA-major, ``wpc`` per
    CTA), delivered in ``chunks`` batches, on the baseline engine or under ``mechanism``, with
    the fixed-latency memory stub (``hit``, ``miss``) or ``memsys``. Returns the TimingResult."""
    prog = FakeProgram(insts)
    alloc = FakeAlloc(insts, n_regs)
    engine = {"hooks": noop_hooks()} if mechanism is None else {"mechanism": mechanism}
    memsys = stub_memsys(hit, miss) if memsys is None else memsys
    sim = TimingSimulator(cfg, memsys=memsys, skip_idle_cycles=skip_idle,
                          **engine)
    n_ctas = len(warps) // wpc
    sim.start(prog, alloc, n_ctas=n_ctas, cta_threads=cta_threads or 32 * wpc,
              regs_per_thread=regs, shmem_bytes=shmem)
    per = -(-n_ctas // chunks)
    for b, c0 in enumerate(range(0, n_ctas, per)):
        c1 = min(n_ctas, c0 + per)
        sim.consume(make_chunk(warps[c0 * wpc:c1 * wpc], wpc, first_cta=c0, batch=b))
    return sim.finish()
