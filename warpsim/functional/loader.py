"""Compile a kernel for the executor: inline calls, build the CFG and reconvergence PCs, lay out
registers and state spaces, and turn every static instruction into a closure (ALU through
``semantics.build_op``, memory, warp-level and texture instructions through their modules).

Follows: ARCHITECTURE.md §3; docs/dev-contracts.md (``build_op``, ``build_cfg``,
``inline_calls``). Everything warpsim cannot execute raises ``UnsupportedPTXError`` here, at
load time, never during a launch (except a device ``printf`` format, which is data: its
conversions are checked when it runs, ``printf.py``). ``call`` of the body-less ``vprintf`` is
a built-in.
Assumptions:
  [A] Special registers become read-only pseudo registers filled per CTA batch; ``%clock``,
      ``%clock64`` and ``%globaltimer*`` read the number of warp instructions the batch has
      dispatched so far (deterministic).
  [A] An integer literal given to a floating-point operand means that number (``mov.f32 %f, 1``
      is 1.0); ``0f``/``0d`` literals are converted to the operand's width.
"""

from __future__ import annotations

import dataclasses
import enum
import struct
from typing import Any

import numpy as np

from warpsim.errors import DeviceTrapError, UnsupportedPTXError
from warpsim.functional.program import ModuleImage, Program, SymbolInfo
from warpsim.ptx.ir import TYPE_BITS, Function, Instruction, Module, Operand, OpKind, RegDecl

__all__ = ["Kind", "imm_bits", "load_program"]


class Kind(enum.IntEnum):
    """How the executor runs an instruction."""

    STRAIGHT = 0
    BRANCH = 1
    EXIT = 2
    BARRIER = 3
    TRAP = 4


_U = {1: np.bool_, 8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64, 128: np.uint64}
_SPECIAL64 = frozenset({"%clock64", "%globaltimer", "%gridid"})
_DYNAMIC = frozenset({"%clock", "%clock64", "%clock_hi", "%globaltimer", "%globaltimer_lo",
                      "%globaltimer_hi"})
_NOOPS = frozenset({"membar", "fence", "bar.warp", "nanosleep", "prefetch", "prefetchu",
                    "pmevent", "discard", "applypriority", "createpolicy"})
_MEMORY = frozenset({"ld", "ldu", "st", "atom", "red"})
_WARP = frozenset({"shfl", "vote", "redux", "match", "activemask"})
_FLOATS = frozenset({"f16", "bf16", "f32", "f64", "f16x2", "bf16x2", "tf32"})


def reg_dtype(ptx_type: str) -> Any:
    """Raw-bit dtype of a register of ``ptx_type``."""
    return _U[TYPE_BITS[ptx_type]]


def imm_bits(op: Operand, dtype: Any, is_float: bool) -> Any:
    """An immediate operand as a numpy scalar of raw bits of ``dtype``."""
    dt = np.dtype(dtype)
    if dt == np.bool_:
        return np.bool_(op.value != 0)
    bits = dt.itemsize * 8
    if op.fmt == "i":
        if is_float and bits in (32, 64):
            val = float(op.value)
            raw = struct.unpack("<I", struct.pack("<f", val))[0] if bits == 32 else \
                struct.unpack("<Q", struct.pack("<d", val))[0]
            return dt.type(raw)
        return dt.type(op.value & ((1 << bits) - 1))
    if op.fmt == "f32":
        f = struct.unpack("<f", struct.pack("<I", op.value & 0xFFFFFFFF))[0]
        if bits == 64:
            return dt.type(struct.unpack("<Q", struct.pack("<d", f))[0])
        return dt.type(op.value & ((1 << bits) - 1))
    d = struct.unpack("<d", struct.pack("<Q", op.value & 0xFFFFFFFFFFFFFFFF))[0]
    if bits == 32:
        return dt.type(struct.unpack("<I", struct.pack("<f", np.float32(d)))[0])
    if bits == 16:
        return dt.type(np.float16(d).view(np.uint16))
    return dt.type(op.value & ((1 << bits) - 1))


class LoadContext:
    """What the instruction builders need to know about the kernel being compiled."""

    def __init__(self, module: Module, fn: Function, image: ModuleImage) -> None:
        self.module = module
        self.fn = fn
        self.image = image
        self.name = fn.name
        self.file = fn.file or module.file
        self.reg_dtypes: list[Any] = [reg_dtype(r.type) for r in fn.regs]
        self.reg_types: list[str] = [r.type for r in fn.regs]
        self.special_regs: dict[str, int] = {}
        self.symbols: dict[str, SymbolInfo] = {}
        self._layout()
        self.cc_reg = self.add_pseudo("%cc", "u32")

    def add_pseudo(self, name: str, ptx_type: str) -> int:
        rid = len(self.reg_dtypes)
        self.reg_dtypes.append(reg_dtype(ptx_type))
        self.reg_types.append(ptx_type)
        return rid

    def special(self, name: str) -> int:
        rid = self.special_regs.get(name)
        if rid is None:
            rid = self.add_pseudo(name, "u64" if name in _SPECIAL64 else "u32")
            self.special_regs[name] = rid
        return rid

    def _layout(self) -> None:
        fn, mod = self.fn, self.module
        for name, addr in self.image.addresses.items():
            var = mod.variables[name]
            self.symbols[name] = SymbolInfo(var.space, addr, var.size_bytes)
        for name, addr in self.image.function_addresses.items():
            self.symbols[name] = SymbolInfo("global", addr, 16)
        for p in fn.params:
            self.symbols[p.name] = SymbolInfo("param", p.offset, p.size_bytes)
        self.param_bytes = fn.param_bytes
        off = 0
        self.extern_shared = ""
        shared_vars = [v for v in mod.variables.values() if v.space == "shared"]
        shared_vars += [v for v in fn.variables if v.space == "shared"]
        for v in shared_vars:
            if v.extern or v.size_bytes == 0:
                self.extern_shared = self.extern_shared or v.name
                continue
            off = -(-off // max(v.align, 1)) * max(v.align, 1)
            self.symbols[v.name] = SymbolInfo("shared", off, v.size_bytes)
            off += v.size_bytes
        self.shared_static_bytes = off
        dyn = -(-off // 16) * 16
        for v in shared_vars:
            if v.extern or v.size_bytes == 0:
                self.symbols[v.name] = SymbolInfo("shared", dyn, 0)
        loc = 0
        for v in fn.variables:
            if v.space not in ("local", "param"):
                continue
            loc = -(-loc // max(v.align, 1)) * max(v.align, 1)
            space = "local" if v.space == "local" else "param_local"
            self.symbols[v.name] = SymbolInfo(space, loc, v.size_bytes)
            loc += v.size_bytes
        self.local_bytes = -(-loc // 16) * 16
        for v in mod.variables.values():
            if v.type in ("texref", "samplerref", "surfref") and v.name not in self.symbols:
                self.symbols[v.name] = SymbolInfo("texref", 0, 0)

    def error(self, inst: Instruction, what: str, hint: str = "") -> UnsupportedPTXError:
        return UnsupportedPTXError(f"{what} in {inst.full_opcode!r}", file=self.file,
                                   line=inst.line or None, kernel=self.name,
                                   source_line=inst.text, hint=hint, src=inst.src)

    def symbol(self, inst: Instruction, name: str) -> SymbolInfo:
        info = self.symbols.get(name)
        if info is None:
            raise self.error(inst, f"unknown symbol {name!r}")
        return info

    def symbol_value(self, inst: Instruction, name: str, generic: bool) -> int:
        """Address of a symbol as an operand value (generic address when ``generic``)."""
        from warpsim.functional.memory import LOCAL_WINDOW, PARAM_WINDOW, SHARED_WINDOW

        info = self.symbol(inst, name)
        if info.space in ("global", "const"):
            return info.address
        if not generic:
            return info.address
        base = {"shared": SHARED_WINDOW, "local": LOCAL_WINDOW, "param_local": LOCAL_WINDOW,
                "param": PARAM_WINDOW}.get(info.space)
        if base is None:
            raise self.error(inst, f"symbol {name!r} has no address")
        return base + info.address


def _rewrite_for_alu(inst: Instruction, ctx: LoadContext) -> Instruction:
    """Replace special-register sources by pseudo registers and symbols by their address."""
    def fix(op: Operand) -> Operand:
        if op.kind is OpKind.SPECIAL:
            return Operand(OpKind.REG, reg=ctx.special(op.name))
        if op.kind is OpKind.SYMBOL:
            return Operand(OpKind.IMM, value=ctx.symbol_value(inst, op.name, False))
        if op.kind is OpKind.VECTOR:
            return dataclasses.replace(op, elems=tuple(fix(e) for e in op.elems))
        return op
    srcs = tuple(fix(s) for s in inst.srcs)
    if srcs == inst.srcs:
        return inst
    return dataclasses.replace(inst, srcs=srcs)


def _flat(ops: tuple[Operand, ...]) -> list[Operand]:
    out: list[Operand] = []
    for op in ops:
        if op.kind is OpKind.VECTOR:
            out.extend(op.elems)
        else:
            out.append(op)
    return out


def _src_is_float(inst: Instruction, i: int) -> bool:
    types = inst.types
    if not types:
        return False
    if inst.opcode == "cvt" and len(types) >= 2:
        return types[1] in _FLOATS
    if inst.opcode in ("shl", "shr", "bfe", "bfi", "selp") and i >= 1:
        return inst.opcode == "selp" and i < 2 and types[0] in _FLOATS
    return types[0] in _FLOATS or types[-1] in _FLOATS


def build_alu(inst: Instruction, ctx: LoadContext, fn2: Function) -> Any:
    """The closure of an ALU instruction (via ``semantics.build_op``)."""
    from warpsim.functional.alu_dispatch import alu_closure
    from warpsim.functional.semantics import build_op

    inst2 = _rewrite_for_alu(inst, ctx)
    if len(fn2.regs) < len(ctx.reg_types):
        fn2.regs.extend(RegDecl(i, f"%pseudo{i}", ctx.reg_types[i])
                        for i in range(len(fn2.regs), len(ctx.reg_types)))
    op = build_op(inst2, fn2)
    srcs = _flat(inst2.srcs)
    n_plain = op.n_srcs - (1 if op.reads_cc else 0)
    if len(srcs) != n_plain:
        raise ctx.error(inst, f"{len(srcs)} source values, the semantics expects {n_plain}")
    spec: list[Any] = []
    for i, s in enumerate(srcs):
        if s.kind is OpKind.REG:
            spec.append(s.reg)
        elif s.kind is OpKind.IMM:
            types = getattr(op, "src_types", None)
            if types is not None and i < len(types) and types[i] not in ("cc", "pred"):
                from warpsim.functional.semantics import immediate_bits

                spec.append(immediate_bits(s, types[i]))
            else:
                spec.append(imm_bits(s, op.src_dtypes[i], _src_is_float(inst, i)))
        else:
            raise ctx.error(inst, f"source operand kind {s.kind.name}")
    if op.reads_cc:
        spec.append(ctx.cc_reg)
    dsts = [d.reg if d.kind is OpKind.REG else -1 for d in _flat(inst2.dsts)]
    if op.writes_cc:
        dsts.append(ctx.cc_reg)
    if len(dsts) != op.n_dsts:
        raise ctx.error(inst, f"{len(dsts)} destinations, the semantics gives {op.n_dsts}")
    # the executor runs closures under np.errstate(all="ignore"): the bare evaluator suffices
    evaluate = getattr(op.evaluate, "raw", op.evaluate)
    pairs = tuple((k, r) for k, r in enumerate(dsts) if r >= 0)
    specs = tuple((s, isinstance(s, int)) for s in spec)

    return alu_closure(specs, pairs, evaluate)


def load_program(module: Module, kernel_name: str, image: ModuleImage | None = None) -> Program:
    """Compile kernel ``kernel_name`` of ``module`` (see module docstring)."""
    from warpsim.functional.assertfail import build_assertfail
    from warpsim.functional.cp_async import build_cp
    from warpsim.functional.device_launch import build_device_runtime_call
    from warpsim.functional.device_malloc import build_free, build_malloc
    from warpsim.functional.graph_conditional import build_set_conditional
    from warpsim.functional.ldmatrix import build_ldmatrix, build_movmatrix
    from warpsim.functional.ldst import build_cvta, build_memory
    from warpsim.functional.mbarrier import build_mbarrier
    from warpsim.functional.memory import GlobalMemory
    from warpsim.functional.mma_sync import build_mma_sync
    from warpsim.functional.printf import build_vprintf
    from warpsim.functional.surfaces import build_surface
    from warpsim.functional.textures import build_tex
    from warpsim.functional.warp_ops import build_warp_op
    from warpsim.functional.wmma import build_wmma
    from warpsim.ptx.cfg import build_cfg
    from warpsim.ptx.inline import inline_calls

    if image is None:
        image = ModuleImage(module, GlobalMemory())
    fn0 = module.kernel(kernel_name)
    fn = inline_calls(module, fn0)
    cfg = build_cfg(fn)
    ctx = LoadContext(module, fn, image)
    fn2 = dataclasses.replace(fn, regs=list(fn.regs))
    n = len(fn.instructions)
    kinds = np.zeros(n + 1, np.int8)
    kinds[n] = Kind.EXIT
    runs: list[Any] = [None] * (n + 1)
    targets = np.full(n + 1, -1, np.int64)
    rpcs = np.full(n + 1, -1, np.int64)
    guards: list[tuple[int, bool]] = [(-1, False)] * (n + 1)
    barrier_args: list[tuple[Any, ...]] = [()] * (n + 1)
    dynamic: set[int] = set()
    for inst in fn.instructions:
        pc = inst.index
        guards[pc] = (inst.guard, inst.guard_neg)
        op = inst.opcode
        full = ".".join((op, *inst.mods))
        for s in _flat(inst.srcs):
            if s.kind is OpKind.SPECIAL:
                if s.name in _DYNAMIC:
                    dynamic.add(pc)
                ctx.special(s.name)
        if op == "bra" or op == "brx":
            if op == "brx" or not inst.srcs or inst.srcs[0].kind is not OpKind.SYMBOL:
                raise ctx.error(inst, "indirect branch")
            kinds[pc] = Kind.BRANCH
            targets[pc] = fn.labels[inst.srcs[0].name]
            rpcs[pc] = int(cfg.reconvergence_pc[pc])
        elif op in ("ret", "exit"):
            kinds[pc] = Kind.EXIT
        elif op == "trap" and inst.guard >= 0:  # traps only where its guard holds
            runs[pc] = _guarded_trap(inst)
        elif op == "trap":
            kinds[pc] = Kind.TRAP
        elif op in ("bar", "barrier") and ("warp" not in inst.mods):
            mode = "sync"
            for m in ("sync", "arrive", "red"):
                if m in inst.mods:
                    mode = m
            kinds[pc] = Kind.BARRIER
            ops = _flat(inst.srcs)
            red = _barrier_reduction(inst, ctx, ops) if mode == "red" else None
            if red is not None:
                ops = ops[:-1]
            bid = ops[0] if ops else Operand(OpKind.IMM, value=0)
            cnt = ops[1] if len(ops) > 1 else None
            barrier_args[pc] = (bid, cnt, mode != "arrive", red)
        elif op in _NOOPS or full.startswith("bar.warp"):
            runs[pc] = _noop
        elif op == "call" and _is_builtin(module, inst, "vprintf"):
            runs[pc] = build_vprintf(inst, ctx)
        elif op == "call" and _is_builtin(module, inst, "__assertfail"):
            runs[pc] = build_assertfail(inst, ctx)
        elif op == "call" and _is_builtin(module, inst, "malloc"):
            runs[pc] = build_malloc(inst, ctx)
        elif op == "call" and _is_builtin(module, inst, "free"):
            runs[pc] = build_free(inst, ctx)
        elif op == "call" and _is_builtin(module, inst, "cudaGraphSetConditional"):
            runs[pc] = build_set_conditional(inst, ctx)
        elif op == "call" and _runtime_call(module, inst):
            runs[pc] = build_device_runtime_call(inst, ctx)
        elif op == "call":
            raise ctx.error(inst, "call of a function without a body",
                            hint="only calls to .func definitions in the module and to "
                                 "the built-ins vprintf (printf), __assertfail (assert), "
                                 "malloc and free, cudaGraphSetConditional, and the device "
                                 "runtime's launch, stream and error calls (dynamic "
                                 "parallelism) are supported")
        elif op in _MEMORY:
            runs[pc] = build_memory(inst, ctx)
        elif op == "cp":
            runs[pc] = build_cp(inst, ctx)
        elif op == "mbarrier":
            runs[pc] = build_mbarrier(inst, ctx)
        elif op == "cvta":
            runs[pc] = build_cvta(inst, ctx)
        elif op in _WARP:
            runs[pc] = build_warp_op(inst, ctx)
        elif op in ("tex", "tld4", "txq"):
            runs[pc] = build_tex(inst, ctx)
        elif op == "wmma":
            runs[pc] = build_wmma(inst, ctx)
        elif op == "mma":
            runs[pc] = build_mma_sync(inst, ctx)
        elif op in ("ldmatrix", "stmatrix"):
            runs[pc] = build_ldmatrix(inst, ctx)
        elif op == "movmatrix":
            runs[pc] = build_movmatrix(inst, ctx)
        elif op in ("suld", "sust"):
            runs[pc] = build_surface(inst, ctx)
        else:
            runs[pc] = build_alu(inst, ctx, fn2)
    val_regs: list[tuple[int, ...]] = []
    n_values = np.zeros(n + 1, np.int32)
    for inst in fn.instructions:
        regs = tuple(d.reg for d in _flat(inst.dsts) if d.kind is OpKind.REG)
        if kinds[inst.index] != Kind.STRAIGHT:
            regs = ()
        val_regs.append(regs)
        n_values[inst.index] = sum(2 if np.dtype(ctx.reg_dtypes[r]).itemsize == 8 else 1
                                   for r in regs)
    val_regs.append(())
    reach = _reaches_barrier(kinds, targets, guards, n)
    return Program(
        name=fn.name, file=ctx.file, fn=fn, insts=list(fn.instructions), kinds=kinds, runs=runs,
        targets=targets, rpcs=rpcs, guards=guards, reg_dtypes=ctx.reg_dtypes,
        special_regs=dict(ctx.special_regs), cc_reg=ctx.cc_reg, val_regs=val_regs,
        n_values=n_values, symbols=ctx.symbols, shared_static_bytes=ctx.shared_static_bytes,
        extern_shared=ctx.extern_shared, local_bytes=ctx.local_bytes,
        param_bytes=ctx.param_bytes, barrier_args=barrier_args,
        opcodes=[i.full_opcode for i in fn.instructions] + ["<exit>"],
        lines=np.array([i.line for i in fn.instructions] + [0], np.int32),
        dynamic_pcs=frozenset(dynamic), reaches_barrier=reach)


def _barrier_reduction(inst: Instruction, ctx: LoadContext, ops: list[Operand]
                       ) -> tuple[str, int, Operand]:
    """(``popc``/``and``/``or``, destination register, predicate operand) of ``bar.red``
    (PTX ISA: ``bar.red.popc.u32 d, a{, b}, {!}c`` / ``bar.red.{and,or}.pred p, a{, b}, {!}c``)."""
    ops_red = [m for m in ("popc", "and", "or") if m in inst.mods]
    want = {"popc": "u32", "and": "pred", "or": "pred"}
    if len(ops_red) != 1 or inst.types != (want[ops_red[0]],):
        raise ctx.error(inst, "bar.red needs one of .popc.u32, .and.pred, .or.pred")
    dsts = _flat(inst.dsts)
    if len(dsts) != 1 or dsts[0].kind is not OpKind.REG or not 2 <= len(ops) <= 3:
        raise ctx.error(inst, "bar.red takes a destination register, a barrier id, an "
                              "optional thread count and a predicate")
    c = ops[-1]
    if (c.kind is OpKind.REG and ctx.fn.regs[c.reg].type == "pred") or c.kind is OpKind.IMM:
        return ops_red[0], dsts[0].reg, c
    raise ctx.error(inst, "the last operand of bar.red must be a predicate")


def _runtime_call(module: Module, inst: Instruction) -> bool:
    """Whether ``inst`` calls a body-less device-runtime function (dynamic parallelism)."""
    from warpsim.functional.device_launch import device_runtime_call

    if not inst.srcs or inst.srcs[0].kind is not OpKind.SYMBOL:
        return False
    name = inst.srcs[0].name
    return device_runtime_call(name) is not None and _is_builtin(module, inst, name)


def _is_builtin(module: Module, inst: Instruction, name: str) -> bool:
    """Whether ``inst`` calls the body-less built-in ``name`` (e.g. ``vprintf``)."""
    if not inst.srcs or inst.srcs[0].kind is not OpKind.SYMBOL or inst.srcs[0].name != name:
        return False
    fn = module.functions.get(name)
    return fn is None or not fn.defined


def _guarded_trap(inst: Instruction) -> Any:
    """``@p trap``: a straight-line instruction that fails the launch when a lane's guard
    holds (an unguarded ``trap`` is ``Kind.TRAP``, handled by the executor)."""
    def run(bs: Any, g: Any, pred: Any, exm: Any) -> None:
        if exm is not None and bool(np.any(exm)):
            raise DeviceTrapError(bs.prog.name, f"trap executed at line {inst.line}: "
                              f"{inst.text.strip()}")
    return run


def _reaches_barrier(kinds: np.ndarray, targets: np.ndarray,
                     guards: list[tuple[int, bool]], n: int) -> np.ndarray:
    """Per pc: whether some path from it executes a barrier before the thread exits."""
    preds: list[list[int]] = [[] for _ in range(n + 1)]
    for pc in range(n):
        k = kinds[pc]
        succ = []
        if k == Kind.BRANCH:
            succ.append(int(targets[pc]))
            if guards[pc][0] >= 0:
                succ.append(pc + 1)
        elif k in (Kind.EXIT, Kind.TRAP):
            if guards[pc][0] >= 0:
                succ.append(pc + 1)
        else:
            succ.append(pc + 1)
        for s in succ:
            preds[s].append(pc)
    reach = np.zeros(n + 1, np.bool_)
    work = [pc for pc in range(n) if kinds[pc] == Kind.BARRIER]
    for pc in work:
        reach[pc] = True
    while work:
        pc = work.pop()
        for q in preds[pc]:
            if not reach[q]:
                reach[q] = True
                work.append(q)
    return reach


def _noop(bs: Any, g: Any, pred: Any, exm: Any) -> None:
    return None
