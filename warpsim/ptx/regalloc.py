"""Register allocation: PTX virtual registers to numbered physical 32-bit registers per thread.

Follows: ARCHITECTURE.md §4; Chaitin, "Register allocation and spilling via graph coloring"
(1982) for the interference graph and copy coalescing rule; Hack, Grund and Goos, "Register
allocation for programs in SSA form" (2006) for colouring in dominance order (optimal on the
chordal graphs of SSA-like code, which is what nvcc's PTX mostly is); Briggs et al. biased
colouring (1994) for coalescing by preference. docs/regalloc.md has the details and the
comparison against ``ptxas -v``.

Assumptions:
  [A] Registers of 8, 16 and 32 bits take one 32-bit register; 64-bit values take an aligned
      even/odd pair; ``.b128`` values four aligned registers. Predicates live in their own file.
  [A] There is no register limit and no spilling: the allocator minimises the count.
  [A] Rematerialisation (``remat=True``, the default), because SASS does not keep these in
      registers: a value of at most 32 bits defined once by ``ld.param`` of a kernel parameter,
      by ``mov`` of an immediate, of a symbol's address or of a CTA-wide special register
      (``REMAT_SPECIALS``) is an operand from constant bank 0 or an immediate in SASS; a stack
      frame address (``mov %SPL, __local_depot``, ``add %rd, %SPL, imm``) folds into
      ``[R1+imm]``. Such a value occupies its register only where it is defined and at the
      instructions that read it; ``Allocation.remat`` marks it. 64-bit kernel pointers are
      not rematerialised: SASS forms addresses in register pairs.
  [A] R1 is never allocated (the SASS stack pointer, ``reserve_stack_pointer=True``), and
      ``Allocation.regs_per_thread`` adds ``PTXAS_EXTRA_REGS`` so it counts as ptxas does.
Deviations: the allocator keeps nvcc's instruction order. ptxas schedules first (loads
hoisted, independent chains interleaved), which can raise or lower its count; docs/regalloc.md
compares both kernel by kernel.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from warpsim.ptx.cfg import CFG, build_cfg
from warpsim.ptx.ir import Function, Instruction, Operand, OpKind
from warpsim.ptx.liveness import Liveness, bits_to_ids, liveness

__all__ = ["PTXAS_EXTRA_REGS", "REMAT_SPECIALS", "STACK_POINTER", "Allocation",
           "allocate_registers"]

STACK_POINTER = 1
"""R1 holds the stack pointer in the SASS ABI of sm_50 and later; it is never allocated."""

PTXAS_EXTRA_REGS = 2
"""Registers ``ptxas -v`` counts beyond the highest register number used on sm_70+: an empty
kernel (whose SASS touches only R1) reports 4, a single store of a constant through a pointer
parameter 8 (measured with ptxas 13.0 for sm_80 and sm_90; docs/regalloc.md)."""

REMAT_SPECIALS = frozenset({
    "%ntid.x", "%ntid.y", "%ntid.z", "%nctaid.x", "%nctaid.y", "%nctaid.z",
    "%ctaid.x", "%ctaid.y", "%ctaid.z",
})
"""Special registers whose value is the same for a whole CTA: SASS reads ``%ntid``/``%nctaid``
from constant bank 0 and ``%ctaid`` with ``S2UR`` into a uniform register (sm_75+), neither of
which takes a per-thread register."""


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
        """Physical 32-bit registers ``inst`` reads, in operand order (repeats kept)."""
        out: list[int] = []
        for v in inst.reads():
            p = int(self.phys[v])
            if p >= 0:
                out.extend(range(p, p + int(self.width[v])))
        return tuple(out)

    def writes(self, inst: Instruction) -> tuple[int, ...]:
        """Physical 32-bit registers ``inst`` writes."""
        out: list[int] = []
        for v in inst.writes():
            p = int(self.phys[v])
            if p >= 0:
                out.extend(range(p, p + int(self.width[v])))
        return tuple(out)

    def pred_reads(self, inst: Instruction) -> tuple[int, ...]:
        """Predicate registers ``inst`` reads (guard included)."""
        return tuple(int(self.pred_phys[v]) for v in inst.reads() if self.pred_phys[v] >= 0)

    def pred_writes(self, inst: Instruction) -> tuple[int, ...]:
        return tuple(int(self.pred_phys[v]) for v in inst.writes() if self.pred_phys[v] >= 0)


def _remat_values(fn: Function, counts: np.ndarray) -> set[int]:
    """Values SASS does not keep in registers: 32-bit constants it takes as constant-bank or
    immediate operands, and stack-frame addresses it folds into ``[R1+imm]``."""
    kernel_params = {p.name for p in fn.params} if fn.is_entry else set()
    frames = {v.name for v in fn.variables if v.space == "local"}
    out: set[int] = set()
    frame: set[int] = set()
    for inst in fn.instructions:
        ws = inst.writes()
        if len(ws) != 1 or inst.guard >= 0 or counts[ws[0]] != 1:
            continue
        v = ws[0]
        if fn.regs[v].type == "pred":
            continue
        srcs = inst.srcs
        if inst.opcode == "mov" and len(srcs) == 1 and srcs[0].kind is OpKind.SYMBOL \
                and srcs[0].name in frames:
            frame.add(v)
        elif (inst.opcode == "add" and len(srcs) == 2 and srcs[0].kind is OpKind.REG
              and srcs[0].reg in frame and srcs[1].kind is OpKind.IMM):
            frame.add(v)
        elif fn.regs[v].bits > 32:
            continue
        elif inst.opcode == "ld" and inst.space == "param":
            # only the kernel's own parameters: after inlining, ld.param also reads the
            # per-thread .param variables of call scopes
            addr = srcs[0] if srcs else None
            if (addr is not None and addr.kind is OpKind.ADDRESS and addr.base is not None
                    and addr.base.kind is OpKind.SYMBOL and addr.base.name in kernel_params):
                out.add(v)
        elif inst.opcode == "mov" and all(
                s.kind is OpKind.IMM or s.kind is OpKind.SYMBOL
                or (s.kind is OpKind.SPECIAL and s.name in REMAT_SPECIALS)
                or (s.kind is OpKind.REG and s.reg in out) for s in srcs):
            out.add(v)
    return out | frame


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


def _interference(fn: Function, live: Liveness, remat: set[int]) -> list[int]:
    """Interference bitsets per virtual register, one direction only: ``adj[d]`` holds what
    ``d`` conflicts with where ``d`` is defined (or recomputed). ``u`` and ``v`` interfere
    when ``u`` is in ``adj[v]`` or ``v`` in ``adj[u]``. Bits of the other register file
    (predicates versus data) are harmless: the colouring only compares within a file."""
    n = len(fn.regs)
    remat_mask = 0
    for v in remat:
        remat_mask |= 1 << v
    adj = [0] * n
    insts = fn.instructions
    for i, inst in enumerate(insts):
        ws = inst.writes()
        reads = inst.reads()
        # a rematerialised value is live exactly where it is read (and where it is defined)
        here_remat = 0
        for r in reads:
            if r in remat:
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
            conflict = (out | wmask) & ~(1 << d)
            if d == d_copy and inst.guard < 0:
                # Chaitin: a copy's destination may share its source's register. Not for a
                # guarded copy: lanes with a false guard must keep the old destination value.
                conflict &= ~(1 << s_copy)
            adj[d] |= conflict
    if insts:  # values live at entry (read before any write) all hold distinct garbage
        entry = live.live_in_bits[0] & ~remat_mask
        for r in bits_to_ids(entry):
            adj[r] |= entry & ~(1 << r)
    return adj


def _order(fn: Function, cfg: CFG, live: Liveness) -> list[int]:
    """Virtual registers in dominance order of their first definition (entry live-ins first)."""
    order: list[int] = []
    seen: set[int] = set()
    if fn.instructions:
        for r in bits_to_ids(live.live_in_bits[0]):
            seen.add(r)
            order.append(r)
    for b in _rpo(cfg):
        blk = cfg.blocks[b]
        for inst in fn.instructions[blk.start:blk.end]:
            for r in (*inst.reads(), *inst.writes()):
                if r not in seen:
                    seen.add(r)
                    order.append(r)
    return order


def _rpo(cfg: CFG) -> list[int]:
    nb = len(cfg.blocks)
    seen = [False] * nb
    post: list[int] = []
    for root in range(nb):
        if seen[root]:
            continue
        seen[root] = True
        stack = [(root, iter(cfg.blocks[root].succs))]
        while stack:
            node, it = stack[-1]
            for s in it:
                if not seen[s]:
                    seen[s] = True
                    stack.append((s, iter(cfg.blocks[s].succs)))
                    break
            else:
                stack.pop()
                post.append(node)
    return post[::-1]


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
            pref: dict[int, list[tuple[int, int]]], n: int, reserved: int) -> np.ndarray:
    """Greedy colouring with aligned multi-register values and biased (coalescing) choice.

    Per register file and slot, ``members`` is the bitset of values placed there and
    ``cover`` the union of their ``adj``: ``v`` fits slot ``s`` when ``adj[v] & members[s]``
    and bit ``v`` of ``cover[s]`` are both clear, which checks both directions of the
    one-sided ``adj`` in two big-integer operations. Data registers never get ``reserved``
    (its ``cover`` is all ones)."""
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
        for u, off in pref.get(v, ()):
            cand = int(slot[u]) + off
            if slot[u] >= 0 and cand >= 0 and cand % w == 0 and not any(
                    a & members[k] or cover[k] & bit for k in range(cand, cand + w)):
                chosen = cand
                break
        if chosen < 0:
            cand = 0
            if w == 1:
                while a & members[cand] or cover[cand] & bit:
                    cand += 1
            else:
                while any(a & members[k] or cover[k] & bit for k in range(cand, cand + w)):
                    cand += w
            chosen = cand
        for k in range(chosen, chosen + w):
            members[k] |= bit
            cover[k] |= a
        slot[v] = chosen
    return slot


def allocate_registers(fn: Function, *, remat: bool = True, reserve_stack_pointer: bool = True,
                       cfg: CFG | None = None, live: Liveness | None = None) -> Allocation:
    """Map ``fn``'s virtual registers to physical registers (see module docstring).

    ``remat``: rematerialise 32-bit constants next to their uses; ``reserve_stack_pointer``:
    keep R1 out of the allocation, as the SASS ABI does (R1 is the stack pointer)."""
    cfg = cfg if cfg is not None else build_cfg(fn)
    live = live if live is not None else liveness(fn, cfg)
    n = len(fn.regs)
    width, is_pred = _widths(fn)
    counts = np.zeros(n, dtype=np.int64)
    used = np.zeros(n, dtype=np.bool_)
    for inst in fn.instructions:
        for r in inst.writes():
            counts[r] += 1
            used[r] = True
        for r in inst.reads():
            used[r] = True
    rm = _remat_values(fn, counts) if remat else set()
    rm = {v for v in rm if not is_pred[v]}
    adj = _interference(fn, live, rm)
    order = _order(fn, cfg, live)
    reserved = STACK_POINTER if reserve_stack_pointer else -1
    slot = _colour(order, adj, width, is_pred, _partners(fn), n, reserved)
    phys = np.full(n, -1, dtype=np.int32)
    pred_phys = np.full(n, -1, dtype=np.int32)
    for v in range(n):
        if not used[v] or slot[v] < 0:
            continue
        if is_pred[v]:
            pred_phys[v] = slot[v]
        else:
            phys[v] = slot[v]
    n_regs = int(max((phys[v] + width[v] for v in range(n) if phys[v] >= 0), default=0))
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
                      n_regs=n_regs, n_preds=n_preds, n_coalesced=coalesced)
