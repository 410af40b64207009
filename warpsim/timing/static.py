"""Per-pc static tables of a kernel for the timing engine: op class, unit, collector set,
latency, initiation interval, physical source/destination registers, memory kind, flags.

Follows: GPGPU-Sim 3.x ``-ptx_opcode_latency_<class>`` / ``-ptx_opcode_initiation_<class>``
lists in LatencyOp order (ADD, MAX, MUL, MAD, DIV[, SHFL]; arch.PipeConfig), pipeline classes
SP/SFU/DP/INT/MEM (reference/gpu-simulators.md §2); physical registers from
``ptx/regalloc.py`` on the inlined kernel the executor ran (ARCHITECTURE.md §4).
SFU class as GPGPU-Sim 4.2 ``ptx_instruction::set_opcode_and_latency`` (src/cuda-sim/cuda-sim.cc):
``sqrt``, ``sin``, ``cos``, ``ex2``, ``lg2``, ``rsqrt``, ``rcp`` of every type and rounding are
``SFU_OP`` with ``-ptx_opcode_latency_sfu`` / ``-ptx_opcode_initiation_sfu`` (warpsim:
``pipelines.sfu``); ``div`` and ``rem`` are ``SFU_OP`` too (issued to the SFU, shader.cc
``scheduler_unit::cycle``) but take the DIV entry of their type's list (int, fp or dp).
Assumptions:
  [A] Op class of the rest from the opcode and its types: f64 types -> DP, f32/f16/bf16 -> SP
      (fp32), integer and untyped -> INT; ld/st/atom/red/tex, wmma.load/store and
      ldmatrix/stmatrix -> LDST (shared, or generic without a state space); mma/wmma.mma ->
      tensor; movmatrix -> INT with the SHFL latency (a register exchange across lanes);
      ``tanh`` (newer than GPGPU-Sim's PTX) -> SFU, as the hardware's MUFU.TANH.
  [A] A source register read twice by one instruction is read from its bank once.
  [A] Predicate registers take part in the scoreboard but are not register-file bank reads.
``regfile.bank_from = ptx_name``: the bank arbiter sees GPGPU-Sim 4.2's architectural register
operands instead of physical registers (cuda-sim.cc ``ptx_instruction::pre_decode``
``arch_reg.src/dst``; ptx_parser.cc: the number is the first decimal number in the declared
name, ``%sp`` 0): one per register operand of the PTX whatever its width, predicate operands
included, address bases (memory operands) and the guard not, repeated source numbers read once
(shader.cc ``collector_unit_t::allocate``), a register whose name has no number not banked; the
allocator's constant-bank and folded operands are PTX registers there. The scoreboard keeps the
physical registers.
The LATENCY of an instruction of a pipelined unit (not LD/ST) includes
``pipelines.register_stage_cycles``: GPGPU-Sim's OC_EX register, the unit's dispatch register
and EX_WB (shader.cc ``execute``, ``pipelined_simd_unit::cycle``, ``writeback``;
validation/gpgpusim/README.md §7.9).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from warpsim.arch import BankFrom, GPUConfig, LatencyOp, OtherOps
from warpsim.errors import ConfigError
from warpsim.timing import consts as tc
from warpsim.timing import fields as fl

__all__ = ["StaticTables", "build_static", "check_bank_from", "classify"]

_SFU_OPS = frozenset({"sqrt", "sin", "cos", "ex2", "lg2", "rsqrt", "rcp", "tanh"})
_DIGITS = re.compile(r"[0-9]+")
_SFU_DIV_OPS = frozenset({"div", "rem"})
_MAX_OPS = frozenset({"min", "max"})
_MUL_OPS = frozenset({"mul", "mul24", "mulhi"})
_MAD_OPS = frozenset({"mad", "fma", "mad24", "sad", "madc", "dp4a", "dp2a"})
_LDST_OPS = frozenset({"ld", "ldu", "st", "atom", "red", "tex", "tld4", "txq", "suld",
                       "sust", "prefetch", "prefetchu", "ldmatrix", "stmatrix"})
_TENSOR_OPS = frozenset({"mma", "wmma", "wgmma"})
_FP_TYPES = frozenset({"f32", "f16", "bf16", "f16x2", "bf16x2", "tf32"})
_TABLE_OPS = frozenset({"add", "addc", "sub", "subc", "min", "max", "mul", "mul24", "mad",
                        "madc", "fma", "mad24"})
"""Arithmetic GPGPU-Sim 4.2 times from the latency tables (with SFU, DIV, SHFL, MMA and memory
operations); every other instruction is ``OtherOps``' business."""


class StaticTables(NamedTuple):
    """Per-pc tables (axis ``pc`` = instruction index of ``Program.insts``) and the per-SM
    layout of collector units and execution units (fields: ``timing/fields.py``)."""

    pc_info: np.ndarray
    """``pc_info[pc, F_PC_*]`` int64: OPCLASS (OPC_*, exec_* counters), UNIT (UNIT_* it runs
    on, fallbacks resolved), OCSET (OC_* collector set), LATENCY and II (core cycles), NSRC,
    NDST, NIMM (immediate sources: regfile_non_rf_operands), MEM (MK_*), FLAGS (F_* bits)."""
    pc_src: np.ndarray
    """``pc_src[pc, k]`` int32: distinct physical source registers (bank reads), -1 padded."""
    pc_dst: np.ndarray
    """``pc_dst[pc, k]`` int32: physical destination registers (bank writes), -1 padded."""
    pc_sbsrc: np.ndarray
    """``pc_sbsrc[pc, k]`` int32: scoreboard ids read (registers, then predicates at
    ``n_regs + p``), -1 padded."""
    pc_sbdst: np.ndarray
    """``pc_sbdst[pc, k]`` int32: scoreboard ids written, -1 padded."""
    cu_set: np.ndarray
    """``cu_set[cu]`` int8: collector set of collector unit ``cu`` of an SM."""
    set_info: np.ndarray
    """``set_info[set, F_SET_*]`` int64: CU_START, CU_COUNT, IN_PORTS, OUT_PORTS, IDOC_CAP
    (ID_OC entries in front of the set)."""
    unit_type: np.ndarray
    """``unit_type[u]`` int8: UNIT_* of execution unit instance ``u`` of an SM."""
    type_info: np.ndarray
    """``type_info[type, F_TYPE_*]`` int64: UNIT_START, UNIT_COUNT of each unit type."""
    n_sb_bits: int
    """Scoreboard ids per warp (registers + predicates)."""


_CLASS_NAMES = ("int32", "fp32", "fp64", "sfu", "ldst", "tensor")
_UNIT_OF_CLASS = (tc.UNIT_INT, tc.UNIT_SP, tc.UNIT_DP, tc.UNIT_SFU, tc.UNIT_LDST, tc.UNIT_TENSOR)
_FALLBACK = {tc.UNIT_INT: tc.UNIT_SP, tc.UNIT_DP: tc.UNIT_SFU, tc.UNIT_TENSOR: tc.UNIT_SP}
_UNIT_PIPE = {tc.UNIT_SP: "fp32", tc.UNIT_SFU: "sfu", tc.UNIT_DP: "fp64", tc.UNIT_INT: "int32",
              tc.UNIT_LDST: "ldst", tc.UNIT_TENSOR: "tensor"}


def classify(inst: Any) -> tuple[int, LatencyOp]:
    """(OPC_* class, LatencyOp) of a PTX instruction."""
    op = inst.opcode
    types = set(inst.types)
    if op in _LDST_OPS or _is_async_copy(inst) or _is_wmma_memory(inst):
        return tc.OPC_LDST, LatencyOp.ADD
    if op in _TENSOR_OPS:
        return tc.OPC_TENSOR, LatencyOp.MAD
    if op in ("shfl", "movmatrix"):
        return tc.OPC_INT32, LatencyOp.SHFL
    if op in _SFU_OPS or op in _SFU_DIV_OPS:
        return tc.OPC_SFU, LatencyOp.DIV
    lop = (LatencyOp.MAX if op in _MAX_OPS else LatencyOp.MUL if op in _MUL_OPS
           else LatencyOp.MAD if op in _MAD_OPS else LatencyOp.ADD)
    if "f64" in types:
        return tc.OPC_FP64, lop
    if types & _FP_TYPES:
        return tc.OPC_FP32, lop
    return tc.OPC_INT32, lop


def _is_async_copy(inst: Any) -> bool:
    """``cp.async`` global-to-shared (not its commit/wait group operations): timed as a
    global load whose data goes to shared memory, with no register to wait for
    (functional/cp_async.py)."""
    return inst.opcode == "cp" and inst.space == "shared" and "global" in inst.mods


def _is_wmma_memory(inst: Any) -> bool:
    """``wmma.load``/``wmma.store``: one memory instruction over the tile
    (functional/wmma.py); ``wmma.mma`` is the tensor unit's."""
    return inst.opcode == "wmma" and bool(inst.mods) and inst.mods[0] in ("load", "store")


def _mem_kind(inst: Any) -> int:
    op, sp = inst.opcode, inst.space
    if _is_wmma_memory(inst):
        op = "ld" if inst.mods[0] == "load" else "st"
    elif op in ("ldmatrix", "stmatrix"):
        op = "ld" if op == "ldmatrix" else "st"
        sp = sp or "generic"
    if _is_async_copy(inst):
        return tc.MK_LD_GLOBAL
    if op == "sust":  # a surface store writes through L1/L2 like a global store
        return tc.MK_ST_GLOBAL
    if op in ("tex", "tld4", "txq", "suld"):
        return tc.MK_LD_TEX
    if op in ("prefetch", "prefetchu"):
        return tc.MK_NONE
    if op in ("atom", "red"):
        return {"shared": tc.MK_SHARED, "global": tc.MK_ATOMIC}.get(sp, tc.MK_ATOMIC_GENERIC)
    if op in ("ld", "ldu"):
        return {"global": tc.MK_LD_GLOBAL, "local": tc.MK_LD_LOCAL, "shared": tc.MK_SHARED,
                "const": tc.MK_LD_CONST, "param": tc.MK_PARAM}.get(sp, tc.MK_LD_GENERIC)
    if op == "st":
        return {"global": tc.MK_ST_GLOBAL, "local": tc.MK_ST_LOCAL, "shared": tc.MK_SHARED,
                "param": tc.MK_PARAM}.get(sp, tc.MK_ST_GENERIC)
    return tc.MK_NONE


def _type_pipe(inst: Any) -> str:
    """The latency list a ``div``/``rem`` takes its DIV entry from (GPGPU-Sim: by type)."""
    types = set(inst.types)
    return "fp64" if "f64" in types else "fp32" if types & _FP_TYPES else "int32"


def _latency(cfg: GPUConfig, opc: int, lop: LatencyOp, inst: Any) -> tuple[int, int]:
    if opc == tc.OPC_SFU and inst.opcode in _SFU_DIV_OPS:
        pipe = getattr(cfg.pipelines, _type_pipe(inst))
        return pipe.latency_of(LatencyOp.DIV), pipe.initiation_of(LatencyOp.DIV)
    pipe = getattr(cfg.pipelines, _CLASS_NAMES[opc])
    if opc in (tc.OPC_SFU, tc.OPC_LDST, tc.OPC_TENSOR):
        return pipe.latency_cycles, pipe.initiation_interval_cycles
    if lop is LatencyOp.SHFL and len(pipe.op_latency_cycles) < 6:
        return pipe.latency_cycles, pipe.initiation_interval_cycles
    return pipe.latency_of(lop), pipe.initiation_of(lop)


def _resolve_unit(cfg: GPUConfig, unit: int) -> int:
    while getattr(cfg.pipelines, _UNIT_PIPE[unit]).n_units == 0:
        unit = _FALLBACK[unit]
    return unit


def _oc_set(cfg: GPUConfig, opc: int) -> int:
    rf = cfg.regfile
    if rf.oc_gen.n_collector_units:
        return tc.OC_GEN
    if opc == tc.OPC_INT32:
        return tc.OC_INT if rf.oc_int.n_collector_units else tc.OC_SP
    if opc == tc.OPC_FP64:
        return tc.OC_DP if rf.oc_dp.n_collector_units else tc.OC_SFU
    if opc == tc.OPC_TENSOR:
        return tc.OC_TENSOR if rf.oc_tensor.n_collector_units else tc.OC_SP
    return {tc.OPC_FP32: tc.OC_SP, tc.OPC_SFU: tc.OC_SFU, tc.OPC_LDST: tc.OC_MEM}[opc]


def _pad(rows: list[list[int]]) -> np.ndarray:
    width = max([1, *(len(r) for r in rows)])
    out = np.full((len(rows), width), -1, np.int32)
    for i, r in enumerate(rows):
        out[i, :len(r)] = r
    return out


def _name_number(name: str) -> int:
    """GPGPU-Sim's architectural number of a PTX register: the first decimal number in its
    name (``%rd12`` -> 12, ``%f1`` -> 1), ``%sp`` -> 0, -1 when there is none."""
    if name == "%sp":
        return 0
    m = _DIGITS.search(name)
    return int(m.group()) if m else -1


def _operand_numbers(ops: Sequence[Any], names: Sequence[str]) -> list[int]:
    """Architectural numbers of the register operands and vector elements among ``ops``
    (address operands are GPGPU-Sim memory operands, not registers; -1: no number)."""
    from warpsim.ptx.ir import OpKind

    out: list[int] = []
    for op in ops:
        elems = op.elems if op.kind is OpKind.VECTOR else (op,)
        out.extend(_name_number(names[e.reg]) for e in elems if e.kind is OpKind.REG)
    return out


def _ptx_numbered(inst: Any, names: Sequence[str]) -> tuple[list[int], list[int]]:
    """(source, destination) architectural register numbers of ``inst``
    (``regfile.bank_from = ptx_name``), as GPGPU-Sim 4.2 ``ptx_instruction::pre_decode``
    fills ``arch_reg``: one per register operand of the PTX (predicates included, the guard
    and address bases not), repeated source numbers once."""
    src = _operand_numbers(inst.srcs, names)
    dst = _operand_numbers(inst.dsts, names)
    return ([r for r in dict.fromkeys(src) if r >= 0], [r for r in dst if r >= 0])


def check_bank_from(cfg: GPUConfig, mechanism: Any) -> None:
    """ConfigError for ``regfile.bank_from = ptx_name`` under a mechanism: its hooks take the
    physical registers of ``pc_src``/``pc_dst``, which then hold PTX name numbers."""
    if mechanism is not None and cfg.regfile.bank_from is not BankFrom.PHYSICAL:
        raise ConfigError("regfile.bank_from", cfg.regfile.bank_from.value,
                          "physical with a mechanism (its hooks take physical registers)")


def build_static(program: Any, alloc: Any, cfg: GPUConfig,
                 extra_units: Sequence[tuple[str, int]] = ()) -> StaticTables:
    """Static tables of ``program`` (``functional.program.Program``) with register allocation
    ``alloc`` (``ptx.regalloc.Allocation`` of ``program.fn``) on GPU ``cfg``.

    One extra row at pc ``len(program.insts)`` (the executor's ``<exit>``) is an exit.
    ``extra_units``: ``(name, instances per SM)`` of unit types a mechanism adds (a scalar unit,
    say); they get type ids ``N_UNIT_TYPES + i`` in order and are used only where the
    ``unit_choice`` hook sends an instruction."""
    from warpsim.ptx.ir import OpKind

    insts = program.insts
    n = len(insts) + 1
    opclass = np.full(n, tc.OPC_INT32, np.int8)
    unit = np.full(n, tc.UNIT_SP, np.int8)
    ocset = np.full(n, tc.OC_SP, np.int8)
    lat = np.ones(n, np.int64)
    ii = np.ones(n, np.int64)
    nimm = np.zeros(n, np.int32)
    mem = np.zeros(n, np.int8)
    flags = np.zeros(n, np.int8)
    srcs: list[list[int]] = []
    dsts: list[list[int]] = []
    sbsrc: list[list[int]] = []
    sbdst: list[list[int]] = []
    nregs = int(alloc.n_regs)
    kinds = np.asarray(program.kinds)
    other_alu1 = cfg.pipelines.other_ops is OtherOps.ALU1
    stages = cfg.pipelines.register_stage_cycles
    by_name = cfg.regfile.bank_from is BankFrom.PTX_NAME
    names = [r.name for r in program.fn.regs] if by_name else []
    for pc, inst in enumerate(insts):
        opc, lop = classify(inst)
        kind = int(kinds[pc])
        if kind == 1:  # loader.Kind.BRANCH
            flags[pc] |= tc.F_BRANCH
            opc, lop = tc.OPC_INT32, LatencyOp.ADD
        elif kind == 2:  # EXIT
            flags[pc] |= tc.F_EXIT
        elif kind == 3:  # BARRIER
            waits = bool(program.barrier_args[pc][2]) if program.barrier_args[pc] else True
            flags[pc] |= tc.F_BARRIER if waits else tc.F_BAR_ARRIVE
        alu1 = (other_alu1 and kind in (0, 1) and opc in (tc.OPC_INT32, tc.OPC_FP32, tc.OPC_FP64)
                and lop is not LatencyOp.SHFL and (kind == 1 or inst.opcode not in _TABLE_OPS))
        if alu1:
            opc = tc.OPC_INT32
        opclass[pc] = opc
        unit[pc] = _resolve_unit(cfg, _UNIT_OF_CLASS[opc])
        ocset[pc] = _oc_set(cfg, opc)
        lat[pc], ii[pc] = (1, 1) if alu1 else _latency(cfg, opc, lop, inst)
        if opc != tc.OPC_LDST:
            lat[pc] += stages
        mk = _mem_kind(inst) if opc == tc.OPC_LDST else tc.MK_NONE
        mem[pc] = mk
        if mk in (tc.MK_LD_GLOBAL, tc.MK_LD_LOCAL, tc.MK_LD_TEX, tc.MK_LD_GENERIC):
            flags[pc] |= tc.F_LONGOP
        rd = list(dict.fromkeys(alloc.reads(inst)))
        wr = list(alloc.writes(inst))
        srcs.append(rd)
        dsts.append(wr)
        if by_name:
            srcs[-1], dsts[-1] = _ptx_numbered(inst, names)
        sbsrc.append(rd + [nregs + p for p in dict.fromkeys(alloc.pred_reads(inst))])
        sbdst.append(wr + [nregs + p for p in alloc.pred_writes(inst)])
        nimm[pc] = sum(1 for s in inst.srcs if s.kind is OpKind.IMM)
    flags[n - 1] = tc.F_EXIT
    for rows in (srcs, dsts, sbsrc, sbdst):
        rows.append([])
    src, dst = _pad(srcs), _pad(dsts)
    rf = cfg.regfile
    sets = [rf.oc_sp, rf.oc_dp, rf.oc_sfu, rf.oc_int, rf.oc_mem, rf.oc_tensor, rf.oc_gen]
    counts = np.array([s.n_collector_units for s in sets], np.int32)
    starts = np.zeros(tc.N_OC_SETS, np.int32)
    starts[1:] = np.cumsum(counts)[:-1]
    cu_set = np.repeat(np.arange(tc.N_OC_SETS, dtype=np.int8), counts)
    pipes = cfg.pipelines
    cap_pipe = {tc.OC_SP: pipes.fp32, tc.OC_DP: pipes.fp64, tc.OC_SFU: pipes.sfu,
                tc.OC_INT: pipes.int32, tc.OC_MEM: pipes.ldst, tc.OC_TENSOR: pipes.tensor}
    idoc = np.zeros(tc.N_OC_SETS, np.int32)
    for s in range(tc.N_OC_SETS):
        base = cap_pipe[s].n_id_oc_slots if s in cap_pipe else sets[s].n_in_ports
        idoc[s] = max(1, base, sets[s].n_in_ports if s == tc.OC_GEN else 0)
    n_types = tc.N_UNIT_TYPES + len(extra_units)
    tcount = np.zeros(n_types, np.int32)
    for t in range(tc.N_UNIT_TYPES):
        tcount[t] = getattr(pipes, _UNIT_PIPE[t]).n_units
    for i, (name, count) in enumerate(extra_units):
        if int(count) < 1:
            raise ConfigError(f"extra unit {name}", count, "at least one instance per SM")
        tcount[tc.N_UNIT_TYPES + i] = int(count)
    tstart = np.zeros(n_types, np.int32)
    tstart[1:] = np.cumsum(tcount)[:-1]
    utype = np.repeat(np.arange(n_types, dtype=np.int8), tcount)
    pc_info = np.zeros((n, fl.N_PC_INFO_FIELDS), np.int64)
    for col, arr in ((fl.F_PC_OPCLASS, opclass), (fl.F_PC_UNIT, unit), (fl.F_PC_OCSET, ocset),
                     (fl.F_PC_LATENCY, lat), (fl.F_PC_II, ii),
                     (fl.F_PC_NSRC, [len(r) for r in srcs]),
                     (fl.F_PC_NDST, [len(r) for r in dsts]), (fl.F_PC_NIMM, nimm),
                     (fl.F_PC_MEM, mem), (fl.F_PC_FLAGS, flags)):
        pc_info[:, col] = arr
    set_info = np.zeros((tc.N_OC_SETS, fl.N_SET_INFO_FIELDS), np.int64)
    set_info[:, fl.F_SET_CU_START] = starts
    set_info[:, fl.F_SET_CU_COUNT] = counts
    set_info[:, fl.F_SET_IN_PORTS] = [s.n_in_ports for s in sets]
    set_info[:, fl.F_SET_OUT_PORTS] = [s.n_out_ports for s in sets]
    set_info[:, fl.F_SET_IDOC_CAP] = idoc
    type_info = np.zeros((n_types, fl.N_TYPE_INFO_FIELDS), np.int64)
    type_info[:, fl.F_TYPE_UNIT_START] = tstart
    type_info[:, fl.F_TYPE_UNIT_COUNT] = tcount
    return StaticTables(
        pc_info=pc_info, pc_src=src, pc_dst=dst, pc_sbsrc=_pad(sbsrc), pc_sbdst=_pad(sbdst),
        cu_set=cu_set, set_info=set_info, unit_type=utype, type_info=type_info,
        n_sb_bits=max(1, nregs + int(alloc.n_preds)))
