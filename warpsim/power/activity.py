"""GPUWattch activity counters of a launch, from the functional executor's per-PC counts.

GPGPU-Sim feeds GPUWattch per-opcode activity that the timing engine's per-pipeline counters
(``exec_*_warp_insts``) do not separate: ALU accesses weighted by opcode, non-register-file
operands, and the INT/FP decoded instructions of the scheduler. This module computes those
counts from a launch's ``pc_warp_counts`` / ``pc_thread_counts`` (``LaunchResult``) and its PTX
instructions, the way GPGPU-Sim 3.x classifies them; ``counters.power_counts`` falls back to
the per-pipeline counters when they are absent.

Follows (gpgpu-sim/gpgpu-sim_distribution; the weights GPUWattch was calibrated with, the
parent of commit 262663ac, reference/energy-and-configs.md §2.1 and §2.7 caveat 2):
- ``ptx_instruction::set_mul_div_or_other_archop`` and ``set_opcode_and_latency``
  (src/cuda-sim/cuda-sim.cc): FP types (f32/f64): mul/mad -> FP_MUL, div/rcp -> FP_DIV,
  sqrt/rsqrt -> SQRT, lg2 -> LG, sin/cos -> SIN, ex2 -> EXP, other ALU ops -> FP; other
  types: mul24/mad24 -> IMUL24, mul/mad of 32-bit types -> IMUL32, of other types -> IMUL,
  div -> IDIV, other ALU ops -> INT. Loads, stores, atomics, texture fetches, branches,
  barriers, membar, call/ret/exit/nop get no ALU activity.
- ``shader_core_ctx::incexecstat`` (src/gpgpu-sim/shader.cc): weights INT 25, IMUL 7.2,
  IMUL24 4.2, IMUL32 4, IDIV 40, FP 1, FP_MUL 1.8, FP_DIV 48, SQRT 25, LG 35, SIN 12, EXP 35,
  texture 1 per thread; ``-gpgpu_clock_gated_lanes 0`` (GTX480) adds inactive lanes:
  ``(32 - active) >> 1`` times the weight (``inactive_lanes_accesses_nonsfu``), plus
  ``2 x ((32 - active) >> 3)`` on the SFU-style stats IMUL32, IDIV, FP_DIV and transcendentals
  (``inactive_lanes_accesses_sfu``).
- ``power_stat.h`` ``get_ialu_accessess`` (SP_ACC: INT), ``get_tot_fpu_accessess`` (FPU_ACC:
  FP, FP_MUL, FP_DIV, IMUL, IMUL24, texture), ``get_tot_sfu_accessess`` (SFU_ACC: IMUL32, IDIV,
  transcendentals).
- Non-RF operands: ``opndcoll_rfu_t::dispatch_ready_cu`` counts ``num_operands - num_regs``
  per warp instruction, where ``pre_decode`` counts every PTX operand after the first and the
  register or vector ones among them: immediates, special registers (``%tid.x``), symbols and
  memory operands (``[%rd1+4]``, ``[param]``) are non-RF operands.
- FP_INT (scheduler): ``set_fp_or_int_archop``: every warp instruction but membar, bra, bar,
  ret, exit, nop and call is an INT or FP decoded instruction.
Assumptions: [A] per PC only the sums of active lanes and of warps are known, so the inactive
lanes of a PC are ``32 x warps - threads`` and the ``>> 1`` / ``>> 3`` floors are dropped;
[A] ``pc_thread_counts`` (lanes that executed) stand for GPGPU-Sim's ``active_count()``;
[A] ``red`` is treated like ``atom`` (a memory instruction).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from warpsim.errors import InternalError

__all__ = [
    "ACTIVITY_COUNTERS",
    "GPUWATTCH_WEIGHTS",
    "InstInfo",
    "exec_stat",
    "gpuwattch_activity",
    "inst_info",
    "inst_info_from_text",
    "non_rf_operands",
    "sum_activity",
]

WARP_SIZE = 32

GPUWATTCH_WEIGHTS: dict[str, float] = {
    "int": 25.0, "imul": 7.2, "imul24": 4.2, "imul32": 4.0, "idiv": 40.0, "fp": 1.0,
    "fp_mul": 1.8, "fp_div": 48.0, "sqrt": 25.0, "lg": 35.0, "sin": 12.0, "exp": 35.0,
}
"""``incexecstat`` weight per GPGPU-Sim exec stat (INT 25: the 2013 calibration, §2.7)."""

_UNIT = {"int": "sp", "imul": "fpu", "imul24": "fpu", "imul32": "sfu", "idiv": "sfu",
         "fp": "fpu", "fp_mul": "fpu", "fp_div": "fpu", "sqrt": "sfu", "lg": "sfu",
         "sin": "sfu", "exp": "sfu"}
"""GPUWattch counter (SP_ACC, FPU_ACC, SFU_ACC) each exec stat is summed into."""

_SFU_STYLE = frozenset({"imul32", "idiv", "fp_div", "sqrt", "lg", "sin", "exp"})
"""Stats whose inactive lanes use ``inactive_lanes_accesses_sfu`` (x 0.75 instead of 0.5)."""

_NO_EXEC = frozenset({"membar", "fence", "bra", "brx", "bar", "barrier", "exit", "nop", "ret",
                      "call", "trap", "brkpt", "ld", "ldu", "st", "atom", "red", "tex", "tld4",
                      "txq", "suld", "sust", "prefetch", "prefetchu"})
"""Opcodes with no ALU activity (control flow, barriers; memory ops are LOAD_OP/STORE_OP)."""

_NO_DECODE_CLASS = frozenset({"membar", "fence", "bra", "brx", "bar", "barrier", "exit", "nop",
                              "ret", "call"})
"""Opcodes ``set_fp_or_int_archop`` leaves UN_OP (not counted in FP_INT)."""

_TEX = frozenset({"tex", "tld4"})
_FP_TYPES = frozenset({"f32", "f64"})
_PTX_TYPES = frozenset({"b8", "b16", "b32", "b64", "b128", "u8", "u16", "u32", "u64", "s8",
                        "s16", "s32", "s64", "f16", "f16x2", "bf16", "bf16x2", "f32", "f64",
                        "pred", "tf32"})
_INT32_TYPES = frozenset({"u32", "s32", "b32"})
_REG_KINDS = frozenset({"REG", "VECTOR", "SINK"})

ACTIVITY_COUNTERS: tuple[str, ...] = (
    "gpuwattch_sp_acc", "gpuwattch_fpu_acc", "gpuwattch_sfu_acc",
    "gpuwattch_sp_acc_active", "gpuwattch_fpu_acc_active", "gpuwattch_sfu_acc_active",
    "gpuwattch_fp_int_insts", "gpuwattch_non_rf_operands",
)
"""The counters ``gpuwattch_activity`` returns (declared in ``counters.POWER_COUNTERS``)."""


@dataclass(frozen=True, slots=True)
class InstInfo:
    """What the classification needs of one PTX instruction."""

    opcode: str
    """Base opcode (``mad``)."""
    types: tuple[str, ...]
    """Type suffixes in written order (``("lo", "s32")`` -> ``("s32",)``)."""
    dst_kinds: tuple[str, ...]
    """``OpKind`` names of the destination operands."""
    src_kinds: tuple[str, ...]
    """``OpKind`` names of the source operands, in written order."""


def inst_info(inst: Any) -> InstInfo:
    """``InstInfo`` of a ``warpsim.ptx.ir.Instruction``."""
    return InstInfo(opcode=inst.opcode, types=tuple(inst.types),
                    dst_kinds=tuple(d.kind.name for d in inst.dsts),
                    src_kinds=tuple(s.kind.name for s in inst.srcs))


def inst_info_from_text(full_opcode: str, dst_kinds: Iterable[str],
                        src_kinds: Iterable[str]) -> InstInfo:
    """``InstInfo`` from a dotted opcode (``mad.lo.s32``) and operand kind names."""
    parts = full_opcode.split(".")
    return InstInfo(opcode=parts[0], types=tuple(p for p in parts[1:] if p in _PTX_TYPES),
                    dst_kinds=tuple(dst_kinds), src_kinds=tuple(src_kinds))


def exec_stat(info: InstInfo) -> str:
    """GPGPU-Sim's exec stat of an instruction (a ``GPUWATTCH_WEIGHTS`` key), or ``""``."""
    op = info.opcode
    if op in _NO_EXEC:
        return ""
    first = info.types[0] if info.types else ""
    if first in _FP_TYPES:
        return {"mul": "fp_mul", "mad": "fp_mul", "div": "fp_div", "rcp": "fp_div",
                "sqrt": "sqrt", "rsqrt": "sqrt", "lg2": "lg", "sin": "sin", "cos": "sin",
                "ex2": "exp"}.get(op, "fp")
    if op in ("mul24", "mad24"):
        return "imul24"
    if op in ("mul", "mad"):
        return "imul32" if first in _INT32_TYPES else "imul"
    if op == "div":
        return "idiv"
    return "int"


def non_rf_operands(info: InstInfo) -> int:
    """Operands after the first PTX operand that are not registers (GPGPU-Sim
    ``num_operands - num_regs``): immediates, special registers, symbols, memory operands."""
    kinds = list(info.src_kinds) if info.dst_kinds else list(info.src_kinds[1:])
    return sum(1 for k in kinds if k not in _REG_KINDS)


def gpuwattch_activity(insts: Sequence[InstInfo], pc_warp_counts: Sequence[float],
                       pc_thread_counts: Sequence[float],
                       pc_exec_warps: Sequence[float] | None = None,
                       pc_exec_threads: Sequence[float] | None = None) -> dict[str, float]:
    """GPUWattch activity of one launch (or the sum of several with the same code).

    ``pc_warp_counts`` / ``pc_thread_counts``: warp instructions and lanes issued per PC (the
    decoded-instruction and operand counts); ``pc_exec_*``: those that reached an execution
    unit (the timing engine's ``TimingResult.pc_activity``; an instruction a mechanism completed
    without a unit costs no ALU access), by default the issued ones.

    ``*_acc`` counters are GPUWattch access units (lanes x weight) with inactive lanes charged
    as ``-gpgpu_clock_gated_lanes 0`` does; ``*_acc_active`` charge active lanes only
    (``-gpgpu_clock_gated_lanes 1``). ``gpuwattch_fp_int_insts`` and
    ``gpuwattch_non_rf_operands`` count warp instructions and warp operands.

    Raises
    ------
    InternalError
        When the three sequences differ in length or a PC has more lanes than 32 x warps.
    """
    if not len(insts) == len(pc_warp_counts) == len(pc_thread_counts):
        raise InternalError(f"activity: {len(insts)} instructions but "
                            f"{len(pc_warp_counts)} / {len(pc_thread_counts)} PC counts")
    out = dict.fromkeys(ACTIVITY_COUNTERS, 0.0)
    for pc, info in enumerate(insts):
        warps, threads = float(pc_warp_counts[pc]), float(pc_thread_counts[pc])
        if warps == 0:
            continue
        if info.opcode not in _NO_DECODE_CLASS:
            out["gpuwattch_fp_int_insts"] += warps
        out["gpuwattch_non_rf_operands"] += warps * non_rf_operands(info)
        if pc_exec_warps is not None and pc_exec_threads is not None:
            warps, threads = float(pc_exec_warps[pc]), float(pc_exec_threads[pc])
        idle = WARP_SIZE * warps - threads
        if idle < 0:
            raise InternalError(f"activity: pc {pc} has {threads:g} lanes in {warps:g} warps")
        if info.opcode in _TEX:  # inctex_stat(active_count, 1) -> FPU_ACC
            out["gpuwattch_fpu_acc"] += threads
            out["gpuwattch_fpu_acc_active"] += threads
        stat = exec_stat(info)
        if not stat:
            continue
        w = GPUWATTCH_WEIGHTS[stat]
        inactive = idle * (0.75 if stat in _SFU_STYLE else 0.5)
        unit = _UNIT[stat]
        out[f"gpuwattch_{unit}_acc"] += w * (threads + inactive)
        out[f"gpuwattch_{unit}_acc_active"] += w * threads
    return out


def sum_activity(parts: Iterable[Mapping[str, float]]) -> dict[str, float]:
    """Counter-wise sum of several launches' activity dicts."""
    total = dict.fromkeys(ACTIVITY_COUNTERS, 0.0)
    for part in parts:
        for name in ACTIVITY_COUNTERS:
            total[name] += float(part.get(name, 0.0))
    return total

