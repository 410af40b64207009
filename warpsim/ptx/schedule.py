"""Pre-allocation instruction scheduling: the order ptxas allocates registers in.

Follows: ARCHITECTURE.md §4 (register numbers shaped like SASS); Gibbons and Muchnick,
"Efficient instruction scheduling for a pipelined architecture" (1986) for list scheduling over
a per-block dependency DAG with critical-path priority; Goodman and Hsu, "Code scheduling and
register allocation in large basic blocks" (1988) for switching from latency to register
pressure when the live registers reach a limit; docs/regalloc.md §4 for what was measured
against ptxas 13.5 on sm_80 (``nvdisasm`` of the corpus).

ptxas schedules each basic block before it allocates registers: long-latency loads are issued
as soon as their address is known and independent chains are interleaved, so more values are
live at once than in nvcc's PTX order (``bit_perms``: all six results are computed before the
first of the six stores). ``schedule`` models this and returns a permutation of the
instruction indices. The permutation is used *only* for register allocation: the functional
and timing models execute PTX order, and an ``Allocation`` computed on a scheduled order is
valid for that order (``Allocation.order``), which is what the allocator's tests check.

Dependencies inside a block (an edge ``a -> b`` keeps ``a`` before ``b``):
  * registers: read after write (with ``a``'s latency), write after read, write after write;
    a guard is a read;
  * the carry flag: every instruction that reads or writes it (``.cc``, ``addc``, ``subc``,
    ``madc``) stays in program order;
  * memory: a load follows every earlier store, atomic and warp collective; a store, atomic or
    collective (``shfl``, ``vote``, ``redux``, ...) follows every earlier load, store, atomic
    and collective. Loads of kernel parameters and of ``.const`` memory are read-only and
    free; after inlining ``ld.param`` also reads call-scope ``.param`` variables, which are
    ordered like any other memory;
  * fences: nothing moves across ``bar``, ``membar``, ``fence``, ``call`` or ``trap``;
  * a block's final ``bra``, ``ret`` or ``exit`` stays last.

Assumptions:
  [A] Latencies (``LATENCY_CYCLES``) have the sm_80 order of magnitude (Jia et al.,
      "Dissecting the NVIDIA Ampere GPU architecture via microbenchmarking", 2021); only their
      ranking matters. ``S2R`` (a ``mov`` from a special register) is variable-latency.
  [A] One instruction per cycle. While the live 32-bit registers stay within
      ``PRESSURE_LIMIT`` the ready instruction with the longest path to the end of the block
      goes first (latency); past it, an instruction that ends a live range, else the next one
      in PTX order (nvcc's order, which is what set the PTX's pressure).
Deviations: ptxas also unrolls loops, promotes local arrays to registers, if-converts short
branches and moves code across blocks; none of that is modelled (docs/regalloc.md §7).
"""

from __future__ import annotations

import heapq
from dataclasses import replace

import numpy as np

from warpsim.ptx.cfg import CFG, build_cfg
from warpsim.ptx.ir import Function, Instruction, OpKind
from warpsim.ptx.liveness import Liveness, liveness
from warpsim.ptx.sass_operands import is_kernel_param

__all__ = ["LATENCY_CYCLES", "PRESSURE_LIMIT", "schedule", "scheduled_function"]

LATENCY_CYCLES = {
    "alu": 4,
    "sfu": 16,
    "f64": 16,
    "shared": 24,
    "global": 200,
}
"""Result latency per instruction class: integer and fp32 ALU (and loads of parameters and
constants); multi-function unit (``rcp``, ``sqrt``, ``ex2``, ...) and ``S2R``; fp64 arithmetic;
shared-memory loads; global, local and texture loads (an L1 miss)."""

PRESSURE_LIMIT = 30
"""Live 32-bit registers up to which the scheduler hides latency. sm_80 runs 2048 threads on
65,536 registers: 32 per thread keep full occupancy, which ptxas reports as 30 numbered
registers plus its two (``regalloc.PTXAS_EXTRA_REGS``). Kernels within 25% of ptxas over the
corpus: 44 at 0 (PTX order in effect), 57 at 18, 58 at 24 and 30, 57 at 36, 55 with no limit
(docs/regalloc.md §7)."""

_SFU = frozenset({"rcp", "sqrt", "rsqrt", "ex2", "lg2", "sin", "cos", "tanh", "div", "rem"})
_TERMINATORS = frozenset({"bra", "ret", "exit", "brx"})
_FENCES = frozenset({"bar", "barrier", "membar", "fence", "call", "trap", "brkpt", "nanosleep",
                     "griddepcontrol", "setmaxnreg"})
_ORDERED = frozenset({"st", "atom", "red", "sust", "sured", "shfl", "vote", "redux", "match",
                      "activemask", "cp", "prefetch", "prefetchu", "stmatrix", "mma", "wmma"})
_LOADS = frozenset({"ld", "ldu", "tex", "tld4", "suld", "txq", "suq", "ldmatrix"})
_CARRY = frozenset({"addc", "subc", "madc"})

_RW = list[tuple[tuple[int, ...], tuple[int, ...]]]


def _read_only(inst: Instruction, kernel_params: frozenset[str]) -> bool:
    """A load of constant memory or of one of the kernel's parameters (after inlining,
    ``ld.param`` also reads call-scope ``.param`` variables, which ``st.param`` writes)."""
    return inst.space == "const" or is_kernel_param(inst, kernel_params)


def _latency(inst: Instruction) -> int:
    op = inst.opcode
    if op in _LOADS:
        if inst.space in ("param", "const"):
            return LATENCY_CYCLES["alu"]
        return LATENCY_CYCLES["shared" if inst.space == "shared" else "global"]
    if op in _SFU:
        return LATENCY_CYCLES["sfu"]
    if op == "mov" and inst.srcs and inst.srcs[0].kind is OpKind.SPECIAL:
        return LATENCY_CYCLES["sfu"]  # S2R: a variable-latency read of a special register
    if "f64" in inst.types:
        return LATENCY_CYCLES["f64"]
    return LATENCY_CYCLES["alu"]


def _memory_class(inst: Instruction, kernel_params: frozenset[str]) -> int:
    """0 free, 1 load (ordered after stores), 2 ordered (store, atomic, collective), 3 fence."""
    op = inst.opcode
    if op in _FENCES:
        return 3
    if op in _ORDERED:
        return 2
    if op in _LOADS:
        return 0 if _read_only(inst, kernel_params) else 1
    return 0


def _block_dag(insts: list[Instruction], rw: _RW, lat: list[int], kernel_params: frozenset[str]
               ) -> tuple[list[list[tuple[int, int]]], list[int]]:
    """Successor lists ``(node, latency)`` and predecessor counts of one block's DAG."""
    m = len(insts)
    succ: list[list[tuple[int, int]]] = [[] for _ in range(m)]
    npred = [0] * m

    def edge(a: int, b: int, lat: int) -> None:
        succ[a].append((b, lat))
        npred[b] += 1

    writer: dict[int, int] = {}
    readers: dict[int, list[int]] = {}
    last_carry = -1
    last_fence = -1
    loads: list[int] = []  # since the last ordered operation
    last_ordered = -1
    since_fence: list[int] = []
    for k, inst in enumerate(insts):
        reads, writes = rw[k]
        deps: dict[int, int] = {}
        for r in reads:
            w = writer.get(r, -1)
            if w >= 0:
                deps[w] = lat[w]
        for r in writes:
            w = writer.get(r, -1)
            if w >= 0:
                deps[w] = max(deps.get(w, 0), 1)
            for rd in readers.get(r, ()):
                if rd != k:
                    deps.setdefault(rd, 0)
        if inst.opcode in _CARRY or inst.has("cc"):
            if last_carry >= 0:
                deps.setdefault(last_carry, 1)
            last_carry = k
        cls = _memory_class(inst, kernel_params)
        if last_fence >= 0:
            deps.setdefault(last_fence, 0)
        if cls == 3 or (k == m - 1 and inst.opcode in _TERMINATORS):
            for j in since_fence:
                deps.setdefault(j, 0)
            last_fence = k
            since_fence = []
            loads = []
            last_ordered = -1
        else:
            since_fence.append(k)
            if cls == 1:
                if last_ordered >= 0:
                    deps.setdefault(last_ordered, 0)
                loads.append(k)
            elif cls == 2:
                if last_ordered >= 0:
                    deps.setdefault(last_ordered, 0)
                for j in loads:
                    deps.setdefault(j, 0)
                loads = []
                last_ordered = k
        deps.pop(k, None)
        for j, lj in deps.items():
            edge(j, k, lj)
        for r in reads:
            readers.setdefault(r, []).append(k)
        for r in writes:
            writer[r] = k
            readers[r] = []
    return succ, npred


def _schedule_block(insts: list[Instruction], rw: _RW, live_in: int, live_out: int,
                    widths: list[int], width_masks: list[tuple[int, int]], limit: int,
                    kernel_params: frozenset[str]) -> list[int]:
    """List scheduling of one block (positions relative to the block start): latency first
    (ready instructions by critical path) while the live registers stay within ``limit``,
    pressure first once they would not (module docstring)."""
    m = len(insts)
    if m <= 2:
        return list(range(m))
    lat = [_latency(i) for i in insts]
    succ, npred = _block_dag(insts, rw, lat, kernel_params)
    height = [0] * m
    for k in range(m - 1, -1, -1):
        h = lat[k]
        for s, ls in succ[k]:
            h = max(h, ls + height[s])
        height[k] = h
    remaining: dict[int, int] = {}
    reads = [set(r) for r, _ in rw]
    writes = [set(w) for _, w in rw]
    grow = [sum(widths[r] for r in w) for w in writes]  # most a node can add to the pressure
    for rs in reads:
        for r in rs:
            remaining[r] = remaining.get(r, 0) + 1
    live = {r for r in remaining if live_in >> r & 1}  # values passing through stay live
    pressure = sum(w * (live_in & mask).bit_count() for w, mask in width_masks)

    def delta(k: int) -> int:
        d = 0
        for r in writes[k]:
            if r not in live and (remaining.get(r, 0) or live_out >> r & 1):
                d += widths[r]
        for r in reads[k]:
            if r in live and remaining[r] == 1 and not live_out >> r & 1 and r not in writes[k]:
                d -= widths[r]
        return d

    readers: dict[int, list[int]] = {}
    for k, rs in enumerate(reads):
        for r in rs:
            readers.setdefault(r, []).append(k)
    done = [False] * m
    freers: set[int] = set()  # nodes that are the last reader of a value dying in the block

    def note_last_reader(r: int) -> None:
        if remaining[r] == 1 and not live_out >> r & 1:
            freers.update(k for k in readers[r] if not done[k])

    for r in remaining:
        note_last_reader(r)
    ready_at = [0] * m
    waiting: list[tuple[int, int]] = []  # (cycle its operands are ready, node)
    ready: list[tuple[int, int]] = []  # (-height, node): latency order
    by_index: list[int] = []  # every candidate: nvcc's order
    for k in range(m):
        if npred[k] == 0:
            heapq.heappush(waiting, (0, k))
            heapq.heappush(by_index, k)
    out: list[int] = []
    cycle = 0
    while len(out) < m:
        while waiting and waiting[0][0] <= cycle:
            k = heapq.heappop(waiting)[1]
            if not done[k]:
                heapq.heappush(ready, (-height[k], k))
        if not ready:
            cycle = waiting[0][0]
            continue
        best = ready[0][1]
        if pressure + grow[best] > limit and pressure + delta(best) > limit:
            # over the budget: what frees registers, else nvcc's order (the PTX's pressure)
            best = by_index[0]
            best_d = 0
            for k in freers:
                if npred[k] == 0 and not done[k]:
                    d = delta(k)
                    if d < best_d or (d == best_d and d < 0 and k < best):
                        best, best_d = k, d
        k = best
        done[k] = True
        freers.discard(k)
        out.append(k)
        while ready and done[ready[0][1]]:
            heapq.heappop(ready)
        while by_index and done[by_index[0]]:
            heapq.heappop(by_index)
        for r in reads[k]:
            remaining[r] -= 1
            if remaining[r] == 0 and r in live and not live_out >> r & 1:
                live.discard(r)
                pressure -= widths[r]
            elif remaining[r] == 1:
                note_last_reader(r)
        for r in writes[k]:
            if r not in live and (remaining.get(r, 0) or live_out >> r & 1):
                live.add(r)
                pressure += widths[r]
        for s, ls in succ[k]:
            ready_at[s] = max(ready_at[s], cycle + ls)
            npred[s] -= 1
            if npred[s] == 0:
                heapq.heappush(waiting, (ready_at[s], s))
                heapq.heappush(by_index, s)
        cycle += 1
    return out


def schedule(fn: Function, cfg: CFG | None = None, live: Liveness | None = None, *,
             limit: int = PRESSURE_LIMIT, free: frozenset[int] = frozenset(),
             rw: _RW | None = None) -> np.ndarray:
    """The order ptxas would allocate ``fn``'s registers in: ``order[p]`` is the index of the
    instruction at position ``p`` (int32). Every block keeps its range of positions, so labels
    and the CFG are unchanged; only the order inside a block differs from PTX order."""
    cfg = cfg if cfg is not None else build_cfg(fn)
    live = live if live is not None else liveness(fn, cfg)
    rw = rw if rw is not None else [(i.reads(), i.writes()) for i in fn.instructions]
    widths = [0 if r.type == "pred" or r.id in free else max(1, r.bits // 32)
              for r in fn.regs]
    masks: dict[int, int] = {}
    for r, w in enumerate(widths):
        if w:
            masks[w] = masks.get(w, 0) | 1 << r
    width_masks = sorted(masks.items())
    kernel_params = frozenset(p.name for p in fn.params) if fn.is_entry else frozenset()
    order = np.arange(len(fn.instructions), dtype=np.int32)
    for blk in cfg.blocks:
        perm = _schedule_block(fn.instructions[blk.start:blk.end], rw[blk.start:blk.end],
                               live.block_in_bits[blk.id], live.block_out_bits[blk.id],
                               widths, width_masks, limit, kernel_params)
        order[blk.start:blk.end] = np.asarray(perm, dtype=np.int32) + blk.start
    return order


def scheduled_function(fn: Function, order: np.ndarray) -> Function:
    """A shallow copy of ``fn`` whose instruction list is in ``order`` (the instructions are
    shared with ``fn`` and keep their PTX ``index``). Labels stay valid because ``schedule``
    permutes only inside blocks."""
    return replace(fn, instructions=[fn.instructions[int(i)] for i in order])
