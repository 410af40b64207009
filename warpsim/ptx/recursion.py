"""Recursive device functions made explicit: a per-thread call stack in local memory.

Follows: PTX ISA 9.x §7.2 (``call``/``ret``, ``.param`` argument passing, a function's
``.local`` variables are private to each activation) and the CUDA ABI's use of a per-thread
stack in local memory for what lives across a call (saved registers, the callee's frame);
docs/dev-contracts.md (``inline_calls``).

``inline_calls`` inlines device functions. A function that (after inlining its own callees)
still calls itself, directly or through a cycle of functions, cannot be inlined; it is made
explicit here *once* and the inliner then inlines the result like any body. The result of
``explicit_recursion(module, f)`` is ``f`` in which:

* a prologue sets a depth register to 0 and a frame pointer to a new per-thread ``.local``
  array of ``depth_limit`` frames;
* every ``.local`` variable of ``f`` (its ``__local_depot``) lives in the current frame:
  ``mov dst, var`` becomes ``add.u64 dst, %rfp, offset`` and ``[var+k]`` becomes
  ``[%rfp+offset+k]``, so pointers into a caller's locals stay valid in its callees;
* each self-call ``call (ret), f, (args)`` (site ``j``) stores the registers live after the
  call (liveness of ``f``; predicates as 0/1 words), the current contents of ``f``'s
  ``.param`` inputs and ``j`` in the frame, copies ``args`` into ``f``'s parameters, advances
  frame pointer and depth (a depth at the limit traps with a message) and branches to the
  entry; its return point ``site_j`` copies ``f``'s return value into ``ret``, restores the
  registers and parameters and continues after the call;
* every ``ret`` branches to a dispatcher: at depth 0 it returns (the inliner turns that into a
  branch past the inlined body), else it steps back one frame, loads the site number and
  branches to that site through a compare-and-branch chain (as ``ptx/indirect.py`` does).

The functional and timing models see ordinary ``ld.local``/``st.local``/``setp``/``bra``
instructions: a recursive call costs the spill and fill traffic of its saved registers in local
memory (the L1), as on hardware; lanes of a warp at different depths diverge at the dispatcher
and at the recursion's branches and reconverge at their immediate post-dominators.

Assumptions:
  [A] Frames hold at most ``STACK_BYTES`` per thread (CUDA's default ``cudaLimitStackSize``,
      1 KiB) and never fewer than ``MIN_FRAMES`` frames; ``cudaDeviceSetLimit`` does not
      change it. Deeper recursion traps (a launch failure naming the function and the limit).
  [A] A ``.local`` variable of the recursive function is only named by ``mov`` (its address)
      or as an address base; any other use is refused with a message.
"""

from __future__ import annotations

import dataclasses

from warpsim.errors import UnsupportedPTXError
from warpsim.ptx.cfg import build_cfg
from warpsim.ptx.indirect import _Builder, symbols_in
from warpsim.ptx.ir import (
    TYPE_BITS,
    Function,
    Instruction,
    Module,
    Operand,
    OpKind,
    Param,
    Variable,
)
from warpsim.ptx.liveness import liveness

__all__ = ["MIN_FRAMES", "STACK_BYTES", "explicit_recursion", "self_calls"]

STACK_BYTES = 1024
"""Per-thread stack budget (CUDA's default ``cudaLimitStackSize``)."""
MIN_FRAMES = 32
"""The fewest frames a recursive function gets, however large its frame."""


def self_calls(fn: Function, name: str) -> list[int]:
    """Indices of the ``call`` instructions of ``fn`` that name the function ``name``."""
    return [i for i, inst in enumerate(fn.instructions)
            if inst.opcode == "call" and inst.srcs and inst.srcs[0].kind is OpKind.SYMBOL
            and inst.srcs[0].name == name]


def _chunks(size: int, align: int) -> list[tuple[int, int]]:
    """(offset, bits) pieces that copy ``size`` bytes aligned to ``align``."""
    step = max(w for w in (8, 4, 2, 1) if w <= max(1, align) and size % w == 0)
    return [(k, 8 * step) for k in range(0, size, step)]


def _addr(base: Operand, offset: int) -> Operand:
    return Operand(OpKind.ADDRESS, value=offset, base=base)


def _sym(name: str) -> Operand:
    return Operand(OpKind.SYMBOL, name=name)


def _imm(value: int) -> Operand:
    return Operand(OpKind.IMM, value=value)


class _Frame:
    """Byte layout of one activation record: locals, saved registers, saved parameters, the
    return-site number."""

    def __init__(self, fn: Function, saved: list[int]) -> None:
        off = 0
        self.local: dict[str, int] = {}
        for v in fn.variables:
            if v.space == "local":
                off = -(-off // max(1, v.align)) * max(1, v.align)
                self.local[v.name] = off
                off += v.size_bytes
        off = -(-off // 8) * 8
        self.reg: dict[int, int] = {}
        for r in saved:
            self.reg[r] = off
            off += 8
        self.param: dict[str, int] = {}
        for p in fn.params:
            off = -(-off // 8) * 8
            self.param[p.name] = off
            off += p.size_bytes
        off = -(-off // 4) * 4
        self.site = off
        self.size = -(-(off + 4) // 16) * 16


class _Lowering:
    def __init__(self, module: Module, fn: Function) -> None:
        self.module, self.fn = module, fn
        self.b = _Builder(fn)
        sites = self_calls(fn, fn.name)
        cfg = build_cfg(fn)
        live = liveness(fn, cfg)
        saved = sorted({r for i in sites for r in live.live_out(i)})
        self.frame = _Frame(fn, saved)
        self.frames = max(MIN_FRAMES, STACK_BYTES // self.frame.size)
        self.site_of = {i: k + 1 for k, i in enumerate(sites)}
        tag = "_rec"
        self.stack = f"__rec_stack_{fn.name}"
        self.depth = self.b.reg(f"%rdep{tag}", "u32")
        self.fp = self.b.reg(f"%rfp{tag}", "u64")
        self.pred = self.b.reg(f"%rq{tag}", "pred")
        self.word = self.b.reg(f"%rw{tag}", "b32")
        self.ret_label = f"$L__rec_ret_{fn.name}"
        self.entry_label = f"$L__rec_entry_{fn.name}"

    def error(self, inst: Instruction, what: str) -> UnsupportedPTXError:
        return UnsupportedPTXError(what, file=self.fn.file or self.module.file,
                                   line=inst.line or None, kernel=self.fn.name,
                                   source_line=inst.text, src=inst.src)

    # -------------------------------------------------------------- pieces of code
    def copy_bytes(self, like: Instruction, src: Operand, dst: Operand, size: int,
                   align: int, src_space: str, dst_space: str) -> None:
        """``size`` bytes from address operand ``src`` to ``dst`` (both ADDRESS)."""
        for k, bits in _chunks(size, align):
            tmp = self.b.reg(f"%rc{bits}_rec", f"b{bits}")
            self.b.emit(like, "ld", (f"b{bits}",), (tmp,),
                        (dataclasses.replace(src, value=src.value + k),), space=src_space)
            self.b.emit(like, "st", (f"b{bits}",), (),
                        (dataclasses.replace(dst, value=dst.value + k), tmp), space=dst_space)

    def save_reg(self, like: Instruction, reg: int) -> None:
        decl = self.fn.regs[reg]
        at = _addr(self.fp, self.frame.reg[reg])
        value = Operand(OpKind.REG, reg=reg)
        if decl.type == "pred":
            self.b.emit(like, "selp", ("b32",), (self.word,), (_imm(1), _imm(0), value))
            value, bits = self.word, 32
        else:
            bits = TYPE_BITS[decl.type]
        self.b.emit(like, "st", (f"b{bits}",), (), (at, value), space="local")

    def restore_reg(self, like: Instruction, reg: int) -> None:
        decl = self.fn.regs[reg]
        at = _addr(self.fp, self.frame.reg[reg])
        if decl.type == "pred":
            self.b.emit(like, "ld", ("b32",), (self.word,), (at,), space="local")
            self.b.emit(like, "setp", ("u32",), (Operand(OpKind.REG, reg=reg),),
                        (self.word, _imm(0)), mods=("ne",))
        else:
            self.b.emit(like, "ld", (f"b{TYPE_BITS[decl.type]}",),
                        (Operand(OpKind.REG, reg=reg),), (at,), space="local")

    def move_params(self, like: Instruction, params: list[Param], names: list[str],
                    to_frame: bool) -> None:
        """Copy each parameter ``p`` to (``to_frame``) or from its frame slot; with ``names``
        copy the variables ``names`` into the parameters instead."""
        for k, p in enumerate(params):
            slot = _addr(self.fp, self.frame.param[p.name])
            mine = _addr(_sym(p.name), 0)
            if names:
                self.copy_bytes(like, _addr(_sym(names[k]), 0), mine, p.size_bytes, p.align,
                                "param", "param")
            elif to_frame:
                self.copy_bytes(like, mine, slot, p.size_bytes, p.align, "param", "local")
            else:
                self.copy_bytes(like, slot, mine, p.size_bytes, p.align, "local", "param")

    def call_site(self, inst: Instruction, j: int) -> None:
        fn, b, frame = self.fn, self.b, self.frame
        after = f"$L__rec_after{j}_{fn.name}"
        args, rets = symbols_in(inst.srcs[1:]), symbols_in(inst.dsts)
        if len(args) != len(fn.params) or len(rets) > len(fn.ret_params):
            raise self.error(inst, f"recursive call of {fn.name!r} with {len(args)} "
                             f"arguments; the function takes {len(fn.params)}")
        if inst.guard >= 0:
            b.branch(inst, after, inst.guard, not inst.guard_neg)
        b.emit(inst, "setp", ("u32",), (self.pred,), (self.depth, _imm(self.frames - 1)),
               mods=("ge",))
        b.emit(inst, "trap", guard=self.pred.reg, text=(
            f"recursion of {fn.name!r} deeper than {self.frames} calls (warpsim's per-thread "
            f"stack: {self.frames} frames of {frame.size} bytes; cudaDeviceSetLimit does not "
            "change it)"))
        for reg in frame.reg:
            self.save_reg(inst, reg)
        self.move_params(inst, fn.params, [], to_frame=True)
        self.move_params(inst, fn.params, args, to_frame=False)
        b.emit(inst, "mov", ("b32",), (self.word,), (_imm(j),))
        b.emit(inst, "st", ("b32",), (), (_addr(self.fp, frame.site), self.word), space="local")
        b.emit(inst, "add", ("u64",), (self.fp,), (self.fp, _imm(frame.size)))
        b.emit(inst, "add", ("u32",), (self.depth,), (self.depth, _imm(1)))
        b.branch(inst, self.entry_label)
        b.label(f"$L__rec_site{j}_{fn.name}")
        for p, r in zip(fn.ret_params, rets, strict=False):
            self.copy_bytes(inst, _addr(_sym(p.name), 0), _addr(_sym(r), 0), p.size_bytes,
                            p.align, "param", "param")
        for reg in frame.reg:
            self.restore_reg(inst, reg)
        self.move_params(inst, fn.params, [], to_frame=False)
        b.label(after)

    def dispatcher(self, like: Instruction) -> None:
        b, n = self.b, len(self.site_of)
        b.label(self.ret_label)
        b.emit(like, "setp", ("u32",), (self.pred,), (self.depth, _imm(0)), mods=("eq",))
        b.emit(like, "ret", guard=self.pred.reg)
        b.emit(like, "sub", ("u64",), (self.fp,), (self.fp, _imm(self.frame.size)))
        b.emit(like, "sub", ("u32",), (self.depth,), (self.depth, _imm(1)))
        b.emit(like, "ld", ("b32",), (self.word,), (_addr(self.fp, self.frame.site),),
               space="local")
        for j in range(1, n):
            b.emit(like, "setp", ("u32",), (self.pred,), (self.word, _imm(j)), mods=("eq",))
            b.branch(like, f"$L__rec_site{j}_{self.fn.name}", self.pred.reg)
        b.branch(like, f"$L__rec_site{n}_{self.fn.name}")

    def relocated(self, inst: Instruction) -> Instruction | None:
        """``inst`` with its ``.local`` variables addressed in the current frame (None when
        it was a ``mov`` of such a variable's address, emitted here as an ``add``)."""
        local = self.frame.local
        if not any(n in local for n in symbols_in((*inst.dsts, *inst.srcs))):
            return inst
        if inst.opcode == "mov" and len(inst.srcs) == 1 and inst.srcs[0].kind is OpKind.SYMBOL:
            self.b.out.append(dataclasses.replace(
                inst, opcode="add", types=("u64",), mods=(), spelling="add.u64",
                srcs=(self.fp, _imm(local[inst.srcs[0].name]))))
            return None

        def fix(op: Operand) -> Operand:
            if (op.kind is OpKind.ADDRESS and op.base is not None
                    and op.base.kind is OpKind.SYMBOL and op.base.name in local):
                return Operand(OpKind.ADDRESS, value=op.value + local[op.base.name],
                               base=self.fp)
            if op.kind is OpKind.SYMBOL and op.name in local:
                raise self.error(inst, f"the local variable {op.name!r} of the recursive "
                                 f"function {self.fn.name!r} is used other than by its "
                                 "address or as an address base")
            return op

        return dataclasses.replace(inst, dsts=tuple(map(fix, inst.dsts)),
                                   srcs=tuple(map(fix, inst.srcs)))

    def run(self) -> Function:
        fn, b = self.fn, self.b
        first = fn.instructions[0]
        b.emit(first, "mov", ("u32",), (self.depth,), (_imm(0),))
        b.emit(first, "mov", ("u64",), (self.fp,), (_sym(self.stack),))
        b.label(self.entry_label)
        at: dict[int, list[str]] = {}
        for name, idx in fn.labels.items():
            at.setdefault(idx, []).append(name)
        for i, inst in enumerate(fn.instructions):
            for name in at.get(i, ()):
                b.label(name)
            if i in self.site_of:
                self.call_site(inst, self.site_of[i])
            elif inst.opcode == "ret":
                b.branch(inst, self.ret_label, inst.guard, inst.guard_neg)
            else:
                kept = self.relocated(inst)
                if kept is not None:
                    b.out.append(kept)
        for name in at.get(len(fn.instructions), ()):
            b.label(name)
        self.dispatcher(fn.instructions[-1])
        out = [dataclasses.replace(inst, index=k) for k, inst in enumerate(b.out)]
        size = self.frames * self.frame.size
        stack = Variable(name=self.stack, space="local", type="b8", size_bytes=size,
                         align=16, count=size)
        variables = [v for v in fn.variables if v.space != "local"] + [stack]
        return dataclasses.replace(fn, regs=b.regs, reg_ids=b.reg_ids, instructions=out,
                                   labels=b.labels, variables=variables)


def explicit_recursion(module: Module, fn: Function) -> Function:
    """``fn`` (already flat: its other callees inlined) with its calls of itself made
    explicit on a per-thread stack (see the module docstring); ``fn`` when it has none."""
    if not self_calls(fn, fn.name) or not fn.instructions:
        return fn
    return _Lowering(module, fn).run()
