"""Per-pc facts WIR needs about a kernel: the reuse class of each instruction, its full operation
identity (the reuse buffer's "opcode" field), and which value entry of a trace record holds each
register destination.

Follows: specs/wir.md §2.4 (tag = full operation identity + source physical IDs; immediates in
the tag), §2.12-§2.13 (eligibility by class, store flags), §8 items 2, 13-15, 19.
Assumptions:
  [A2] The operation identity is the exact opcode, types, space, vector width, modifiers and
       the operand pattern (immediates by value, symbols and address offsets by name/value,
       register operands by their position among the distinct source registers); equal ids
       mean the same function of the same source registers.
  [A13] A guarded instruction (``@p``) is never RB-eligible; nor is one that reads a predicate,
       the carry flag or a special register (``%tid``...), or has more than 3 distinct source
       registers or other than one 32-bit register destination [A14].
  [A19] Local, generic and volatile loads, atomics and texture loads with several destinations
       are not reused; ``ld.const``/``ld.param``/single-destination ``tex`` reuse like
       arithmetic; atomics and ``membar``/``fence`` set the store flags of their spaces.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from warpsim.mechanisms.wir.layout import N_SRC
from warpsim.ptx.ir import OpKind
from warpsim.timing import consts as tc

__all__ = ["K_ARITH", "K_LD_GLOBAL", "K_LD_RO", "K_LD_SHARED", "K_NONE", "K_OTHER", "MAX_DST",
           "N_PCX", "PX_CLASS", "PX_DIDX", "PX_NDST", "PX_NVAL", "PX_OPID", "PX_PROF",
           "PX_DSTSKIP", "PX_MISMATCH", "PX_SRCCONST", "PX_STORE", "build_pcx"]

K_NONE = 0
"""No register destination: nothing to rename or reuse (stores, branches, barriers)."""
K_ARITH = 1
"""Reuse-eligible arithmetic (SP/INT/FP64/SFU) with one 32- or 64-bit destination."""
K_LD_RO = 2
"""Read-only load (const, param, texture): reused like arithmetic (§2.12 rule 4)."""
K_LD_SHARED = 3
"""Scratchpad load: store flag (shared), same TB, same barrier count."""
K_LD_GLOBAL = 4
"""Global load: store flag (global), same barrier count, any TB."""
K_OTHER = 5
"""Writes registers but is never reused (register allocation only)."""

ST_SHARED = 1
ST_GLOBAL = 2
"""Store-flag bits an instruction sets when renamed."""

MAX_DST = 4
"""Register destinations tracked per record (more: the rest get unique values)."""

PX_CLASS = 0
PX_OPID = 1
PX_STORE = 2
PX_NDST = 3
PX_DIDX = 4
"""``pcx[pc, PX_DIDX + k]``: value entry of destination ``k`` in the record (-1: none)."""
PX_PROF = PX_DIDX + MAX_DST
"""Operation identity for the repeated-computation profiler (every computation with a value
entry, eligible or not; 0: never counted as repeated: control flow, stores, atomics)."""
PX_NVAL = PX_PROF + 1
"""Value entries of the record (destinations, predicates included)."""
PX_SRCCONST = PX_NVAL + 1
"""Bit ``k``: source ``pc_src[pc, k]`` holds a rematerialised launch constant (a parameter,
an immediate in a register): not renamed, identified by the operation identity instead."""
PX_DSTSKIP = PX_SRCCONST + 1
"""Bit ``k``: destination ``pc_dst[pc, k]`` is a rematerialised constant's register: not
renamed."""
PX_MISMATCH = PX_DSTSKIP + 1
"""Reuse hits of the pc whose reused value differed from the functional one (checking)."""
N_PCX = PX_MISMATCH + 1

_LOAD_CLASS = {"const": K_LD_RO, "param": K_LD_RO, "shared": K_LD_SHARED,
               "global": K_LD_GLOBAL}


def _is_const(alloc: Any, pc: int, v: int) -> bool:
    """Virtual register ``v`` read at ``pc`` is a rematerialised launch constant."""
    return bool(alloc.remat[v]) or (pc, v) in alloc.const_reads


def _operand_key(op: Any, srcs: list[int], alloc: Any, pc: int = -1) -> Any:
    """The operand's part of the operation identity, or None when it makes the instruction
    ineligible (special registers, vectors). A rematerialised constant is identified by its
    virtual register (one value per launch); a folded ``neg``/``abs`` operand by its own
    virtual register (it shares its source's physical register)."""
    if op.kind is OpKind.REG:
        if _is_const(alloc, pc, op.reg):
            return ("c", op.reg)
        regs = [int(alloc.phys[op.reg]) + j for j in range(int(alloc.width[op.reg]))]
        fold = (-1 if alloc.folded is None or alloc.folded[op.reg] < 0 else op.reg)
        return ("r", tuple(srcs.index(r) if r in srcs else -1 for r in regs), op.neg, fold)
    if op.kind is OpKind.IMM:
        return ("i", op.value, op.fmt)
    if op.kind is OpKind.SYMBOL:
        return ("s", op.name)
    if op.kind is OpKind.ADDRESS:
        base = None if op.base is None else _operand_key(op.base, srcs, alloc, pc)
        if op.base is not None and base is None:
            return None
        return ("a", base, op.value)
    return None


def _one_value(inst: Any, alloc: Any, dsts: list[int]) -> bool:
    """One destination value: a 32-bit register, or both halves of one 64-bit register (the
    RB's Result Register then holds the pair) [A14]."""
    if len(dsts) == 1:
        return True
    regs = [v for v in inst.writes() if alloc.phys[v] >= 0]
    return (len(dsts) == 2 and len(regs) == 1 and int(alloc.width[regs[0]]) == 2
            and dsts == [int(alloc.phys[regs[0]]), int(alloc.phys[regs[0]]) + 1])


def _load_class(inst: Any, one: bool) -> int:
    if inst.opcode in ("tex", "tld4"):
        return K_LD_RO if one else K_OTHER
    if inst.opcode not in ("ld", "ldu") or "volatile" in inst.mods or not one:
        return K_OTHER
    return _LOAD_CLASS.get(inst.space, K_OTHER)


def _store_bits(inst: Any) -> int:
    op = inst.opcode
    if op in ("membar", "fence"):
        return ST_SHARED | ST_GLOBAL
    if op in ("st", "atom", "red", "sust"):
        return {"shared": ST_SHARED, "global": ST_GLOBAL}.get(inst.space,
                                                             ST_SHARED | ST_GLOBAL)
    return 0


def _dst_value_index(program: Any, alloc: Any, pc: int, dsts: list[int]) -> list[int]:
    """Value entry (in the record's destination order) of each physical destination."""
    where: dict[int, int] = {}
    k = 0
    for v in program.val_regs[pc]:
        if v < len(alloc.pred_phys) and alloc.pred_phys[v] >= 0:
            k += 1
            continue
        if v >= len(alloc.phys) or alloc.phys[v] < 0:
            k += 1
            continue
        for j in range(int(alloc.width[v])):
            where[int(alloc.phys[v]) + j] = k
            k += 1
    return [where.get(r, -1) for r in dsts]


def _const_sources(alloc: Any, pc: int, inst: Any, srcs: list[int]) -> int:
    bits = 0
    for v in inst.reads():
        # a constant-bank operand reads no register (its number may be another operand's)
        if alloc.remat[v] and (pc, v) not in alloc.const_reads and alloc.phys[v] >= 0:
            for j in range(int(alloc.width[v])):
                r = int(alloc.phys[v]) + j
                if r in srcs:
                    bits |= 1 << srcs.index(r)
    return bits


def _remat_dests(alloc: Any, inst: Any, dsts: list[int]) -> int:
    bits = 0
    for v in inst.writes():
        if alloc.remat[v] and alloc.phys[v] >= 0:
            for j in range(int(alloc.width[v])):
                r = int(alloc.phys[v]) + j
                if r in dsts:
                    bits |= 1 << dsts.index(r)
    return bits


def build_pcx(program: Any, alloc: Any, tables: Any,
              opids: dict[Any, int]) -> np.ndarray:
    """``pcx[pc, PX_*]`` for every pc of ``program`` (plus the exit pc). ``opids`` interns the
    operation identities (shared by the launches of a run, so ids stay distinct)."""
    n = tables.pc_info.shape[0]
    pcx = np.zeros((n, N_PCX), np.int64)
    pcx[:, PX_DIDX:PX_DIDX + MAX_DST] = -1
    if program is None:
        return pcx
    kinds = np.asarray(program.kinds)
    for pc, inst in enumerate(program.insts):
        dsts = [int(r) for r in tables.pc_dst[pc] if r >= 0]
        srcs = [int(r) for r in tables.pc_src[pc] if r >= 0]
        pcx[pc, PX_STORE] = _store_bits(inst)
        pcx[pc, PX_NVAL] = int(program.n_values[pc])
        if (int(kinds[pc]) == 0 and program.n_values[pc] > 0
                and inst.opcode not in ("atom", "red", "st")):
            prof = (inst.opcode, inst.types, inst.space, inst.vec, inst.mods,
                    tuple(_operand_key(s, srcs, alloc, pc) if s.kind is not OpKind.SPECIAL
                          else ("sp", s.name) for s in inst.srcs))
            pcx[pc, PX_PROF] = opids.setdefault(("prof", prof), len(opids) + 1)
        pcx[pc, PX_NDST] = len(dsts)
        for k, e in enumerate(_dst_value_index(program, alloc, pc, dsts)[:MAX_DST]):
            pcx[pc, PX_DIDX + k] = e
        if not dsts or int(kinds[pc]) != 0:
            pcx[pc, PX_CLASS] = K_NONE if not dsts else K_OTHER
            continue
        opc = int(tables.pc_info[pc, 0])
        one = _one_value(inst, alloc, dsts)
        if opc == tc.OPC_LDST:
            cls = _load_class(inst, one)
        elif opc == tc.OPC_TENSOR or not one:
            cls = K_OTHER
        else:
            cls = K_ARITH
        const_bits = _const_sources(alloc, pc, inst, srcs)
        pcx[pc, PX_SRCCONST] = const_bits
        pcx[pc, PX_DSTSKIP] = _remat_dests(alloc, inst, dsts)
        keys = [_operand_key(s, srcs, alloc, pc) for s in inst.srcs]
        renamed = [k for k in range(len(srcs)) if not (const_bits >> k) & 1]
        if (cls != K_OTHER and (None in keys or (renamed and max(renamed) >= N_SRC)
                                or pcx[pc, PX_DSTSKIP] or inst.guard >= 0
                                or alloc.pred_reads(inst) or alloc.pred_writes(inst)
                                or pc in program.dynamic_pcs
                                or inst.opcode in ("addc", "subc", "madc")
                                or "cc" in inst.mods)):
            cls = K_OTHER
        pcx[pc, PX_CLASS] = cls
        if cls != K_OTHER:
            ident = (inst.opcode, inst.types, inst.space, inst.vec, inst.mods, tuple(keys),
                     len(srcs))
            pcx[pc, PX_OPID] = opids.setdefault(ident, len(opids) + 1)
    return pcx
