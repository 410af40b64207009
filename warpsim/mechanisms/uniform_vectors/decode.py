"""Per-pc decode tables of the uniform-vector mechanism: which static instructions may be
converted to scalar operations (ALU/SFU with a register result), which propagate uniformity
without being converted (loads), and which can never be uniform (thread-dependent special
registers, warp-level operations).

Follows: specs/xiang-simt-efficiency.md §1.4 (is_uniform_operand, the excluded classes) and
§1.15 items 2-3. Assumptions:
  [A] Thread-independent special registers: %ntid, %nctaid, %ctaid, %gridid, %warpid, %nwarpid,
      %smid, %nsmid (uniform across the warp); every other one (%tid, %laneid, %clock, ...) is
      thread dependent.
  [A] Warp-level operations (shfl, vote, match, redux, activemask) and atomics never produce a
      tracked uniform result; stores, branches, barriers and exits are excluded (no result).
  [A] Immediates, symbols (addresses of variables and parameters) are uniform sources.
  [A] A local-memory load is never uniform (one address names each thread's own word).
  [A] An instruction whose register sources the scoreboard tables do not list (the timing
      model drops a dead result's operands) is never uniform: decode cannot see its sources.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from warpsim.ptx.ir import OpKind
from warpsim.timing import consts as tc

__all__ = ["PF_BRANCH", "PF_ELIG", "PF_LOAD", "PF_TIDDEP", "UNIFORM_SPECIALS", "decode_flags"]

PF_ELIG = 1
"""ALU/SFU instruction with a result: may be converted to a scalar op and probe the IRB."""
PF_LOAD = 2
"""Load: a uniform address gives a uniform (tracked) result, executed as usual."""
PF_TIDDEP = 4
"""Never uniform: reads a thread-dependent special register or is a warp-level op."""
PF_BRANCH = 8
"""A branch: the warp's front end refills after it (the SRF design's rename stage)."""

UNIFORM_SPECIALS = ("%ntid", "%nctaid", "%ctaid", "%gridid", "%warpid", "%nwarpid", "%smid",
                    "%nsmid")
"""Prefixes of the thread-independent special registers (spec §1.4 [A])."""

_WARP_OPS = frozenset({"shfl", "vote", "match", "redux", "activemask", "atom", "red"})
_LOADS = frozenset({"ld", "ldu"})


def _special_uniform(name: str) -> bool:
    return any(name == p or name.startswith(p + ".") for p in UNIFORM_SPECIALS)


def _operands(inst: Any) -> list[Any]:
    out = []
    for op in inst.srcs:
        out.extend(op.elems if op.kind is OpKind.VECTOR else (op,))
        if op.kind is OpKind.ADDRESS and op.base is not None:
            out.append(op.base)
    return out


def decode_flags(program: Any, pc_info: np.ndarray, pc_sbsrc: np.ndarray | None = None
                 ) -> np.ndarray:
    """``flags[pc]`` (int64, ``PF_*`` bits) for every instruction of ``program`` (and the exit
    pc one past the end: 0); ``pc_info`` and ``pc_sbsrc`` are the static tables
    (``timing.static``): an instruction with register sources of which the scoreboard lists
    none (a dead result's instruction) cannot be checked by the token logic, so it is never
    uniform [A]."""
    from warpsim.timing.fields import F_PC_FLAGS, F_PC_NDST, F_PC_OPCLASS

    n = len(program.insts)
    out = np.zeros(n + 1, np.int64)
    ctrl = tc.F_BRANCH | tc.F_BARRIER | tc.F_BAR_ARRIVE | tc.F_EXIT
    for pc, inst in enumerate(program.insts):
        f = 0
        n_reg = int(inst.guard >= 0)
        for op in _operands(inst):
            if op.kind is OpKind.SPECIAL and not _special_uniform(op.name):
                f |= PF_TIDDEP
            n_reg += op.kind is OpKind.REG
        if pc_sbsrc is not None and n_reg > 0 and pc < pc_sbsrc.shape[0] and pc_sbsrc[pc, 0] < 0:
            f |= PF_TIDDEP
        opc = int(pc_info[pc, F_PC_OPCLASS])
        if inst.opcode in _WARP_OPS:
            f |= PF_TIDDEP
        elif int(pc_info[pc, F_PC_FLAGS]) & ctrl:
            if int(pc_info[pc, F_PC_FLAGS]) & tc.F_BRANCH:
                f |= PF_BRANCH
        elif inst.opcode in _LOADS:
            # a local-memory address names each thread's own memory: never one value [A]
            f |= PF_TIDDEP if inst.space == "local" else PF_LOAD
        elif opc not in (tc.OPC_LDST, tc.OPC_TENSOR) and (
                int(pc_info[pc, F_PC_NDST]) > 0 or any(d.kind is OpKind.REG for d in inst.dsts)):
            f |= PF_ELIG
        out[pc] = f
    return out
