"""Register allocation: PTX virtual registers to numbered physical 32-bit registers per thread.

Follows: ARCHITECTURE.md §4; Chaitin, "Register allocation and spilling via graph coloring"
(1982) for the interference graph and copy coalescing rule; Hack, Grund and Goos, "Register
allocation for programs in SSA form" (2006) for colouring in dominance order (optimal on the
chordal graphs of SSA-like code, which is what nvcc's PTX mostly is); Briggs et al. biased
colouring (1994) for coalescing by preference. docs/regalloc.md has the details and the
comparison against ``ptxas -v``.

Assumptions (each measured against ptxas 13.5 for sm_80 with nvdisasm; docs/regalloc.md §5):
  [A] Registers of 8, 16 and 32 bits take one 32-bit register; 64-bit values take an aligned
      even/odd pair; ``.b128`` values four aligned registers. Predicates live in their own file.
  [A] There is no register limit and no spilling: the allocator minimises the count.
  [A] ptxas schedules before it allocates, so by default the allocation is computed for the
      order ``ptx/schedule.py`` gives (``Allocation.order``); it is valid for that order.
  [A] Rematerialisation (``remat=True``, the default), for values SASS does not keep in
      registers: a value defined once by ``ld.param`` of a kernel parameter, by ``mov`` of an
      immediate (32 or 64 bits), of a symbol's address or of ``%ntid``/``%nctaid``
      (constant bank 0), a 64-bit pointer parameter and its ``cvta.to.global`` copy, and a
      stack-frame address (``mov %SPL, __local_depot``, ``add %rd, %SPL, imm``; ``[R1+imm]``).
      Such a value takes no register where it is defined and takes one at each instruction
      that reads it, except where it is that instruction's one constant-bank operand
      (``Allocation.const_reads``: a 64-bit value read by an ALU instruction, as in
      ``IMAD.WIDE R2, R0, R3, c[0x0][0x160]`` or ``DFMA R4, R2, c[0x2][0x8], R6``).
  [A] SASS-only registers: a direct global-symbol access needs its address in a pair; an
      ``IMAD.WIDE`` by an immediate needs the immediate in a register, one per block.
  [A] A 32-bit value stored to global memory (data of ``st``/``atom``/``red.global``) sits in
      the odd register of an aligned pair whose even half stays unused, as ptxas places it
      (123 of 159 ``STG`` data registers in the corpus are odd).
  [A] The halves of a 64-bit value (``mov.b64 {lo, hi}, d`` and back) are its two registers;
      ``neg``/``abs`` of a float used only by float ALU instructions is an operand modifier
      on its source's register (``Allocation.folded``).
  [A] ``ptx/sass_operands.py`` finds all of these; this module colours.
  [A] R1 is never allocated (the SASS stack pointer, ``reserve_stack_pointer=True``), and
      ``Allocation.regs_per_thread`` adds ``PTXAS_EXTRA_REGS`` so it counts as ptxas does.
Deviations: ptxas also unrolls loops, vectorises adjacent loads (``LDS.128``), keeps calls to
``.func`` bodies that warpsim inlines and spreads values over more registers than it needs;
docs/regalloc.md §7 compares both counts kernel by kernel.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from warpsim.ptx.cfg import CFG, build_cfg, postorder
from warpsim.ptx.ir import Function, Instruction, Operand, OpKind
from warpsim.ptx.liveness import Liveness, bits_to_ids, liveness
from warpsim.ptx.sass_operands import (
    CONST_OPERAND_OPCODES,
    REMAT_SPECIALS,
    constant_operands,
    fold_operands,
    modifier_folds,
    pair_halves,
    remat_values,
    scratch_registers,
    store_data,
)
from warpsim.ptx.schedule import schedule as list_schedule
from warpsim.ptx.schedule import scheduled_function

__all__ = ["CONST_OPERAND_OPCODES", "PTXAS_EXTRA_REGS", "REMAT_SPECIALS", "STACK_POINTER",
           "Allocation", "allocate_registers"]

STACK_POINTER = 1
"""R1 holds the stack pointer in the SASS ABI of sm_50 and later; it is never allocated."""

PTXAS_EXTRA_REGS = 2
"""Registers ``ptxas -v`` counts beyond the highest register number used on sm_70+: an empty
kernel (whose SASS touches only R1) reports 4, a single store of a constant through a pointer
parameter 8 (measured with ptxas 13.0 for sm_80 and sm_90; docs/regalloc.md)."""


@dataclass(slots=True)
class Allocation:
    """Physical registers of one function's virtual registers."""

    phys: np.ndarray
    """``phys[vreg]`` (int32): first 32-bit physical register, -1 for predicates and unused."""
    width: np.ndarray
    """``width[vreg]`` (int8): 32-bit registers taken (1, 2 for 64-bit, 4 for 128-bit); 0 for
    predicates."""
    pred_phys: np.ndarray
    """``pred_phys[vreg]`` (int32): predicate register, -1 for non-predicates and unused."""
    remat: np.ndarray
    """``remat[vreg]`` (bool): value rematerialised next to each use (see module docstring)."""
    n_regs: int
    """32-bit registers numbered per thread: highest register used + 1 (R1 included when
    reserved as the stack pointer)."""
    n_preds: int
    n_coalesced: int = 0
    """Copies (``mov``) whose source and destination share a register."""
    order: np.ndarray | None = None
    """The instruction order the allocation is valid for: ``order[p]`` is the PTX index of
    the instruction at position ``p`` (int32; ``ptx/schedule.py``). None means PTX order."""
    const_reads: frozenset[tuple[int, int]] = frozenset()
    """``(instruction index, vreg)``: reads of a rematerialised value encoded as a
    constant-bank operand (``c[0x0][0x160]``), which take no register."""
    folded: np.ndarray | None = None
    """``folded[vreg]`` (int32): for ``neg``/``abs`` of a float register that SASS applies as
    an operand modifier (``-R4``, ``|R4|``), the register it modifies (and shares), else -1."""

    @property
    def regs_per_thread(self) -> int:
        """The count comparable with ``ptxas -v`` ("Used N registers"): ``n_regs`` plus
        ``PTXAS_EXTRA_REGS``."""
        return self.n_regs + PTXAS_EXTRA_REGS

    def registers(self, op: Operand) -> tuple[int, ...]:
        """Physical 32-bit registers an operand names (pairs expanded, predicates omitted)."""
        out: list[int] = []
        for v in op.registers():
            p = int(self.phys[v])
            if p >= 0:
                out.extend(range(p, p + int(self.width[v])))
        return tuple(out)

    def reads(self, inst: Instruction) -> tuple[int, ...]:
        """Physical 32-bit registers ``inst`` reads, in operand order (repeats kept), leaving
        out constant-bank operands; a folded ``neg``/``abs`` reads nothing."""
        if self.folded is not None and any(self.folded[w] >= 0 for w in inst.writes()):
            return ()
        out: list[int] = []
        for v in inst.reads():
            if self.const_reads and (inst.index, v) in self.const_reads:
                continue
            p = int(self.phys[v])
            if p >= 0:
                out.extend(range(p, p + int(self.width[v])))
        return tuple(out)

    def writes(self, inst: Instruction) -> tuple[int, ...]:
        """Physical 32-bit registers ``inst`` writes (none for a folded ``neg``/``abs``)."""
        out: list[int] = []
        for v in inst.writes():
            if self.folded is not None and self.folded[v] >= 0:
                continue
            p = int(self.phys[v])
            if p >= 0:
                out.extend(range(p, p + int(self.width[v])))
        return tuple(out)

    def pred_reads(self, inst: Instruction) -> tuple[int, ...]:
        """Predicate registers ``inst`` reads (guard included)."""
        return tuple(int(self.pred_phys[v]) for v in inst.reads() if self.pred_phys[v] >= 0)

    def pred_writes(self, inst: Instruction) -> tuple[int, ...]:
        return tuple(int(self.pred_phys[v]) for v in inst.writes() if self.pred_phys[v] >= 0)


def _widths(fn: Function) -> tuple[np.ndarray, np.ndarray]:
    n = len(fn.regs)
    width = np.zeros(n, dtype=np.int8)
    is_pred = np.zeros(n, dtype=np.bool_)
    for r in fn.regs:
        if r.type == "pred":
            is_pred[r.id] = True
        else:
            width[r.id] = max(1, r.bits // 32)
    return width, is_pred


def _copy_source(inst: Instruction) -> tuple[int, int]:
    """For a plain register copy ``mov d, s`` the pair ``(d, s)``, else ``(-1, -1)``."""
    if inst.opcode != "mov" or len(inst.dsts) != 1 or len(inst.srcs) != 1:
        return -1, -1
    d, s = inst.dsts[0], inst.srcs[0]
    if d.kind is OpKind.REG and s.kind is OpKind.REG and not s.neg:
        return d.reg, s.reg
    return -1, -1


def _interference(fn: Function, rw: list[tuple[tuple[int, ...], tuple[int, ...]]],
                  live: Liveness, remat: set[int], const_reads: set[tuple[int, int]],
                  exempt: dict[tuple[int, int], int]) -> list[int]:
    """Interference bitsets per virtual register, one direction only: ``adj[d]`` holds what
    ``d`` conflicts with where ``d`` is defined (or recomputed). ``u`` and ``v`` interfere
    when ``u`` is in ``adj[v]`` or ``v`` in ``adj[u]``. Bits of the other register file
    (predicates versus data) are harmless: the colouring only compares within a file.
    ``exempt[(index, d)]``: values the definition of ``d`` at ``index`` does not conflict with
    (the halves of a pair at their pack or unpack)."""
    n = len(fn.regs)
    remat_mask = 0
    for v in remat:
        remat_mask |= 1 << v
    adj = [0] * n
    insts = fn.instructions
    for i, inst in enumerate(insts):
        reads, ws = rw[i]
        # a rematerialised value takes its register only where it is read (not as a constant)
        here_remat = 0
        for r in reads:
            if r in remat and (inst.index, r) not in const_reads:
                here_remat |= 1 << r
        out = live.live_out_bits[i] & ~remat_mask
        if here_remat:
            # recomputed into a register just before this instruction: it conflicts with
            # everything live into the instruction and with its other operands
            inn = (live.live_in_bits[i] & ~remat_mask) | here_remat
            for r in bits_to_ids(here_remat):
                adj[r] |= inn & ~(1 << r)
        if not ws:
            continue
        d_copy, s_copy = _copy_source(inst)
        wmask = 0
        for d in ws:
            wmask |= 1 << d
        for d in ws:
            if d in remat:
                continue  # defined next to each use instead (see module docstring)
            conflict = (out | wmask) & ~(1 << d)
            if d == d_copy and inst.guard < 0:
                # Chaitin: a copy's destination may share its source's register. Not for a
                # guarded copy: lanes with a false guard must keep the old destination value.
                conflict &= ~(1 << s_copy)
            if exempt:
                conflict &= ~exempt.get((inst.index, d), 0)
            adj[d] |= conflict
    if insts:  # values live at entry (read before any write) all hold distinct garbage
        entry = live.live_in_bits[0] & ~remat_mask
        for r in bits_to_ids(entry):
            adj[r] |= entry & ~(1 << r)
    return adj


def _order(fn: Function, cfg: CFG, live: Liveness,
           rw: list[tuple[tuple[int, ...], tuple[int, ...]]]) -> list[int]:
    """Virtual registers in dominance order of their first definition (entry live-ins first)."""
    order: list[int] = []
    seen: set[int] = set()
    if fn.instructions:
        for r in bits_to_ids(live.live_in_bits[0]):
            seen.add(r)
            order.append(r)
    for b in postorder(cfg)[::-1]:
        blk = cfg.blocks[b]
        for reads, writes in rw[blk.start:blk.end]:
            for r in (*reads, *writes):
                if r not in seen:
                    seen.add(r)
                    order.append(r)
    return order


def _partners(fn: Function) -> dict[int, list[tuple[int, int]]]:
    """Coalescing preferences: ``v -> [(u, offset)]`` meaning "put v at slot(u) + offset"."""
    pref: dict[int, list[tuple[int, int]]] = {}
    for inst in fn.instructions:
        if inst.opcode != "mov" or len(inst.dsts) != 1 or len(inst.srcs) != 1:
            continue
        d, s = inst.dsts[0], inst.srcs[0]
        if d.kind is OpKind.REG and s.kind is OpKind.REG:
            pref.setdefault(d.reg, []).append((s.reg, 0))
            pref.setdefault(s.reg, []).append((d.reg, 0))
            continue
        # pack/unpack of a 64-bit value: {lo, hi} <-> pair
        vec, whole = (s, d) if s.kind is OpKind.VECTOR else (d, s)
        if vec.kind is OpKind.VECTOR and whole.kind is OpKind.REG and len(vec.elems) == 2:
            for k, e in enumerate(vec.elems):
                if e.kind is OpKind.REG:
                    pref.setdefault(e.reg, []).append((whole.reg, k))
                    pref.setdefault(whole.reg, []).append((e.reg, -k))
    return pref


def _colour(order: list[int], adj: list[int], width: np.ndarray, is_pred: np.ndarray,
            pref: dict[int, list[tuple[int, int]]], n: int, reserved: int,
            alias: dict[int, list[tuple[int, int]]], shift: np.ndarray) -> np.ndarray:
    """Greedy colouring with aligned multi-register values and biased (coalescing) choice.

    Per register file and slot, ``members`` is the bitset of values placed there and
    ``cover`` the union of their ``adj``: ``v`` fits slot ``s`` when ``adj[v] & members[s]``
    and bit ``v`` of ``cover[s]`` are both clear, which checks both directions of the
    one-sided ``adj`` in two big-integer operations. Data registers never get ``reserved``
    (its ``cover`` is all ones). ``alias[v]``: ``(u, d)`` with no interference edge, which may
    share registers only when ``slot[v] - slot[u] == d`` (a half inside its pair). The
    register used is ``slot + shift`` (store data colours a pair and uses its odd half), which
    copy preferences aim at."""
    slot = np.full(n, -1, dtype=np.int64)
    size = 2 * n + 8
    files = {False: ([0] * size, [0] * size), True: ([0] * size, [0] * size)}
    if reserved >= 0:
        files[False][1][reserved] = -1

    for v in order:
        pred = bool(is_pred[v])
        w = 1 if pred else int(width[v])
        members, cover = files[pred]
        a = adj[v]
        bit = 1 << v
        chosen = -1
        pairs = [(int(slot[y]), int(width[y]), d) for y, d in alias.get(v, ()) if slot[y] >= 0]

        def misplaced(c: int, w: int = w, pairs: list = pairs) -> bool:
            # an aliased half and its whole may overlap only in the right place
            return any(c < sy + wy and sy < c + w and c - sy != d for sy, wy, d in pairs)

        for u, off in pref.get(v, ()):
            cand = int(slot[u] + shift[u] - shift[v]) + off
            if slot[u] >= 0 and cand >= 0 and cand % w == 0 and not any(
                    a & members[k] or cover[k] & bit for k in range(cand, cand + w)) \
                    and not misplaced(cand):
                chosen = cand
                break
        if chosen < 0:
            cand = 0
            if w == 1:
                while a & members[cand] or cover[cand] & bit or (pairs and misplaced(cand)):
                    cand += 1
            else:
                while any(a & members[k] or cover[k] & bit for k in range(cand, cand + w)) \
                        or (pairs and misplaced(cand)):
                    cand += w
            chosen = cand
        for k in range(chosen, chosen + w):
            members[k] |= bit
            cover[k] |= a
        slot[v] = chosen
    return slot


def allocate_registers(fn: Function, *, remat: bool = True, reserve_stack_pointer: bool = True,
                       schedule: bool = True, cfg: CFG | None = None,
                       live: Liveness | None = None) -> Allocation:
    """Map ``fn``'s virtual registers to physical registers (see module docstring).

    ``remat``: rematerialise constants next to their uses (and model the SASS-only address
    registers); ``reserve_stack_pointer``: keep R1 out of the allocation, as the SASS ABI does;
    ``schedule``: allocate for the order of ``ptx/schedule.py`` (``Allocation.order``), as
    ptxas does; the result is then not valid in PTX order, so a consumer that replays PTX
    order with register dependences (a scoreboard) passes ``schedule=False``. ``cfg`` and
    ``live`` describe ``fn`` in PTX order."""
    cfg = cfg if cfg is not None else build_cfg(fn)
    n = len(fn.regs)
    width, is_pred = _widths(fn)
    rw = [(inst.reads(), inst.writes()) for inst in fn.instructions]
    counts = np.zeros(n, dtype=np.int64)
    used = np.zeros(n, dtype=np.bool_)
    for reads, writes in rw:
        for r in writes:
            counts[r] += 1
            used[r] = True
        for r in reads:
            used[r] = True
    rm = {v for v in remat_values(fn, counts) if not is_pred[v]} if remat else set()
    order_arr: np.ndarray | None = None
    if schedule:
        live = live if live is not None else liveness(fn, cfg)
        order_arr = list_schedule(fn, cfg, live, free=frozenset(rm), rw=rw)
        if bool((order_arr != np.arange(len(order_arr))).any()):
            fn = scheduled_function(fn, order_arr)
            rw = [rw[int(i)] for i in order_arr]
            live = None  # the CFG's blocks keep their ranges; liveness inside them changes
    folds = modifier_folds(fn, cfg, counts, rm)
    if folds:
        fn = fold_operands(fn, folds)
        rw = [(inst.reads(), inst.writes()) for inst in fn.instructions]
        live = None
    live = live if live is not None else liveness(fn, cfg)
    const_reads = constant_operands(fn, rm) if remat else set()
    halves = pair_halves(fn, counts, width, rm)
    exempt: dict[tuple[int, int], int] = {}
    for h, u, _, idx in halves:  # the pack/unpack itself does not separate them
        exempt[(idx, h)] = exempt.get((idx, h), 0) | 1 << u
        exempt[(idx, u)] = exempt.get((idx, u), 0) | 1 << h
    adj = _interference(fn, rw, live, rm, const_reads, exempt)
    alias: dict[int, list[tuple[int, int]]] = {}
    for h, u, k, _ in halves:  # nothing else separates them: the half is the pair's register
        if not (adj[h] >> u & 1 or adj[u] >> h & 1):
            alias.setdefault(h, []).append((u, k))
            alias.setdefault(u, []).append((h, -k))
    odd = store_data(fn, width) - {h for h, _, _, _ in halves}
    order = _order(fn, cfg, live, rw)
    extra = scratch_registers(fn, cfg, live, rm, const_reads, rw) if remat else []
    cwidth = width.copy()
    for v in odd:
        cwidth[v] = 2  # colour a pair, use its odd register
    for j, (_, mask) in enumerate(extra):
        adj.append(mask)
        order.append(n + j)
    cwidth = np.concatenate([cwidth, np.array([w for w, _ in extra], dtype=np.int8)])
    cpred = np.concatenate([is_pred, np.zeros(len(extra), dtype=np.bool_)])
    reserved = STACK_POINTER if reserve_stack_pointer else -1
    shift = np.zeros(n + len(extra), dtype=np.int64)
    for v in odd:
        shift[v] = 1
    slot = _colour(order, adj, cwidth, cpred, _partners(fn), n + len(extra), reserved, alias,
                   shift)
    slot[slot >= 0] += shift[slot >= 0]
    phys = np.full(n, -1, dtype=np.int32)
    pred_phys = np.full(n, -1, dtype=np.int32)
    for v in range(n):
        if not used[v] or slot[v] < 0:
            continue
        if is_pred[v]:
            pred_phys[v] = slot[v]
        else:
            phys[v] = slot[v]
    folded = np.full(n, -1, dtype=np.int32)
    for v, src in folds.items():
        folded[v] = src
        phys[v] = phys[src]
    n_regs = int(max((phys[v] + width[v] for v in range(n) if phys[v] >= 0), default=0))
    n_regs = max([n_regs] + [int(slot[n + j]) + w for j, (w, _) in enumerate(extra)])
    if reserve_stack_pointer:
        n_regs = max(n_regs, STACK_POINTER + 1)
    n_preds = int(pred_phys.max() + 1) if n and pred_phys.max() >= 0 else 0
    coalesced = 0
    for inst in fn.instructions:
        d, s = _copy_source(inst)
        if d >= 0 and phys[d] >= 0 and phys[d] == phys[s]:
            coalesced += 1
    remat_arr = np.zeros(n, dtype=np.bool_)
    for v in rm:
        remat_arr[v] = True
    return Allocation(phys=phys, width=width, pred_phys=pred_phys, remat=remat_arr,
                      n_regs=n_regs, n_preds=n_preds, n_coalesced=coalesced, order=order_arr,
                      const_reads=frozenset(const_reads), folded=folded)
