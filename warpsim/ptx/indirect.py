"""Indirect calls and branches lowered to compare-and-branch chains before inlining.

Follows: PTX ISA 9.x §9.7.13.4 (``brx.idx``), §9.7.13.5 (``call`` through a register with a
``.callprototype`` or ``.calltargets`` operand) and §11.2 (``.callprototype``,
``.calltargets``, ``.branchtargets``); docs/dev-contracts.md (``inline_calls``).

A call through a function pointer (C function pointers, C++ virtual functions) becomes::

    mov.u64 %ic_a, f0;  setp.eq.u64 %ic_p, %ptr, %ic_a;  @%ic_p bra CALL0;
    mov.u64 %ic_a, f1;  setp.eq.u64 %ic_p, %ptr, %ic_a;
    @!%ic_p trap;                             // the pointer names no function: a launch error
    CALL1: call (ret), f1, (args);  bra DONE;
    CALL0: call (ret), f0, (args);
    DONE:

and the inliner then inlines each direct call. The candidates are the ``.calltargets`` list
when the call names one, else every function of the module with a body whose address is
taken (named outside a call's callee position, in an instruction or in a variable's
initialiser) and whose result and parameter counts match the ``.callprototype``. Lanes of
a warp holding different pointers diverge at the chain and reconverge at ``DONE`` (the
immediate post-dominator), as a hardware indirect call reconverges at its return. ``brx.idx
i, list`` becomes ``setp.eq.u32 %ic_q, i, k;  @%ic_q bra list[k]`` for every k but the last,
then ``@!%ic_q trap`` (an index out of the list) and ``bra`` to the last target.

Assumptions:
  [A] A function's address is the device address the functional model gives it
      (``functional/program.py``: a 16-byte slot per function, so pointers compare equal
      exactly when they name the same function); the timing model sees the chain's real
      ``mov``/``setp``/``bra`` instructions, so an indirect call costs one compare and one
      branch per candidate tried (hardware: one indirect ``CALL``), an overestimate of a few
      instructions per call.
Recursion through pointers becomes direct recursion here, which ``ptx/recursion.py`` makes
explicit.
"""

from __future__ import annotations

import dataclasses
import itertools

from warpsim.errors import UnsupportedPTXError
from warpsim.ptx.ir import Function, Instruction, Module, Operand, OpKind, RegDecl

__all__ = ["address_taken", "kernels_taken", "lower_indirect", "symbols_in"]


def symbols_in(ops: tuple[Operand, ...]) -> list[str]:
    """Names of the SYMBOL operands in ``ops`` (vectors and address bases included)."""
    out: list[str] = []
    for op in ops:
        if op.kind is OpKind.SYMBOL:
            out.append(op.name)
        elif op.kind is OpKind.VECTOR:
            out.extend(symbols_in(op.elems))
        elif op.kind is OpKind.ADDRESS and op.base is not None:
            out.extend(symbols_in((op.base,)))
    return out


def address_taken(module: Module, *, kernels: bool = False) -> tuple[str, ...]:
    """Functions with a body whose address the module takes, in order of first mention
    (with ``kernels``: the ``.entry`` functions instead, named by device-side launches)."""
    seen: dict[str, None] = {}
    funcs = module.functions

    def note(name: str) -> None:
        fn = funcs.get(name)
        if fn is not None and fn.defined and fn.is_entry == kernels:
            seen.setdefault(name, None)

    for var in module.variables.values():
        for _, name in var.init_symbols:
            note(name)
    for fn in funcs.values():
        for inst in fn.instructions:
            srcs = inst.srcs[1:] if inst.opcode == "call" else inst.srcs
            for name in symbols_in(srcs):
                note(name)
    return tuple(seen)


def kernels_taken(module: Module) -> tuple[str, ...]:
    """Kernels whose address the module takes (``mov.u64 %rd, kernel``: a device-side launch,
    ``functional/device_launch.py``)."""
    return address_taken(module, kernels=True)


class _Builder:
    """A function's instruction list rebuilt with new instructions, labels and registers."""

    def __init__(self, fn: Function) -> None:
        self.fn = fn
        self.regs = list(fn.regs)
        self.reg_ids = dict(fn.reg_ids)
        self.out: list[Instruction] = []
        self.labels: dict[str, int] = {}

    def reg(self, name: str, type_: str) -> Operand:
        rid = self.reg_ids.get(name)
        if rid is None:
            rid = len(self.regs)
            self.regs.append(RegDecl(rid, name, type_))
            self.reg_ids[name] = rid
        return Operand(OpKind.REG, reg=rid)

    def label(self, name: str) -> None:
        self.labels[name] = len(self.out)

    def emit(self, like: Instruction, opcode: str, types: tuple[str, ...] = (),
             dsts: tuple[Operand, ...] = (), srcs: tuple[Operand, ...] = (),
             mods: tuple[str, ...] = (), guard: int = -1, neg: bool = False,
             text: str = "", space: str = "") -> None:
        spelling = ".".join((opcode, *((space,) if space else ()), *mods, *types))
        self.out.append(dataclasses.replace(
            like, opcode=opcode, types=types, space=space, vec=1, mods=mods, dsts=dsts,
            srcs=srcs, guard=guard, guard_neg=neg, spelling=spelling,
            text=text or f"{spelling} (lowered from: {like.text.strip()})"))

    def branch(self, like: Instruction, target: str, guard: int = -1,
               neg: bool = False) -> None:
        self.emit(like, "bra", srcs=(Operand(OpKind.SYMBOL, name=target),), guard=guard,
                  neg=neg)


def _error(fn: Function, module: Module, inst: Instruction, what: str,
           hint: str = "") -> UnsupportedPTXError:
    return UnsupportedPTXError(what, file=fn.file or module.file, line=inst.line or None,
                               kernel=fn.name, source_line=inst.text, hint=hint,
                               src=inst.src)


def _call_candidates(module: Module, fn: Function, inst: Instruction,
                     taken: tuple[str, ...]) -> tuple[list[str], tuple[Operand, ...]]:
    """The functions an indirect ``call`` may reach, and its argument operands."""
    last = inst.srcs[-1] if len(inst.srcs) > 1 else None
    args = inst.srcs[1:]
    if last is not None and last.kind is OpKind.SYMBOL:
        if last.name in fn.target_lists:
            names = [n for n in fn.target_lists[last.name] if n in module.functions]
            return names, args[:-1]
        if last.name in fn.call_prototypes:
            rets, params = fn.call_prototypes[last.name]
            names = [n for n in taken if len(module.functions[n].params) == params
                     and len(module.functions[n].ret_params) == rets]
            return names, args[:-1]
    raise _error(fn, module, inst, "indirect call without a .callprototype or .calltargets "
                 "operand")


def _lower_call(b: _Builder, module: Module, inst: Instruction, site: int,
                taken: tuple[str, ...]) -> None:
    names, args = _call_candidates(module, b.fn, inst, taken)
    for name in names:
        callee = module.functions[name]
        if not callee.defined:
            raise _error(b.fn, module, inst, f"indirect call may reach {name!r}, which has "
                         "no body in this module", "build without -rdc=true")
    ptr = inst.srcs[0]
    done = f"$L__icall{site}_done"
    if inst.guard >= 0:
        b.branch(inst, done, inst.guard, not inst.guard_neg)
    addr = b.reg(f"%ic_a{site}", "u64")
    pred = b.reg(f"%ic_p{site}", "pred")
    trap = ("call through a pointer that is no function of this module "
            f"({inst.text.strip()})")
    if not names:
        b.emit(inst, "trap", text=trap)
        b.label(done)
        return
    last = len(names) - 1
    for k, name in enumerate(names):
        b.emit(inst, "mov", ("u64",), (addr,), (Operand(OpKind.SYMBOL, name=name),))
        b.emit(inst, "setp", ("u64",), (pred,), (ptr, addr), mods=("eq",))
        if k < last:
            b.branch(inst, f"$L__icall{site}_{k}", pred.reg)
    # a guarded trap falls through, so the chain's lanes reconverge at DONE (an unguarded
    # trap would end the paths and move the reconvergence point to the kernel's exit)
    b.emit(inst, "trap", guard=pred.reg, neg=True, text=trap)
    for n, k in enumerate((last, *range(last))):
        b.label(f"$L__icall{site}_{k}")
        b.out.append(dataclasses.replace(
            inst, srcs=(Operand(OpKind.SYMBOL, name=names[k]), *args), guard=-1,
            guard_neg=False, spelling="call"))
        if n < last:
            b.branch(inst, done)
    b.label(done)


def _lower_brx(b: _Builder, module: Module, inst: Instruction, site: int) -> None:
    fn = b.fn
    last = inst.srcs[-1] if len(inst.srcs) == 2 else None
    if last is None or last.kind is not OpKind.SYMBOL or last.name not in fn.target_lists:
        raise _error(fn, module, inst, "brx.idx needs an index and a .branchtargets label")
    targets = fn.target_lists[last.name]
    missing = [t for t in targets if t not in fn.labels]
    if missing:
        raise _error(fn, module, inst, f"brx.idx target {missing[0]!r} is not a label of "
                     f"{fn.name!r}")
    skip = f"$L__ibrx{site}_skip"
    if inst.guard >= 0:
        b.branch(inst, skip, inst.guard, not inst.guard_neg)
    pred = b.reg(f"%ic_q{site}", "pred")
    last = len(targets) - 1
    for k, label in enumerate(targets):
        b.emit(inst, "setp", ("u32",), (pred,), (inst.srcs[0], Operand(OpKind.IMM, value=k)),
               mods=("eq",))
        if k < last:
            b.branch(inst, label, pred.reg)
    b.emit(inst, "trap", guard=pred.reg, neg=True, text=f"brx.idx index out of its "
           f"{len(targets)}-entry target list ({inst.text.strip()})")
    b.branch(inst, targets[last])
    b.label(skip)


def lower_indirect(module: Module, fn: Function) -> Function:
    """``fn`` with every indirect call and ``brx.idx`` lowered (see the module docstring);
    ``fn`` itself when it has none."""
    def indirect(inst: Instruction) -> bool:
        return inst.opcode == "brx" or (inst.opcode == "call" and bool(inst.srcs)
                                        and inst.srcs[0].kind is OpKind.REG)

    if not any(indirect(inst) for inst in fn.instructions):
        return fn
    taken = address_taken(module)
    b = _Builder(fn)
    at: dict[int, list[str]] = {}
    for name, idx in fn.labels.items():
        at.setdefault(idx, []).append(name)
    sites = itertools.count(1)
    for i, inst in enumerate(fn.instructions):
        for name in at.get(i, ()):
            b.label(name)
        if not indirect(inst):
            b.out.append(inst)
        elif inst.opcode == "brx":
            _lower_brx(b, module, inst, next(sites))
        else:
            _lower_call(b, module, inst, next(sites), taken)
    for name in at.get(len(fn.instructions), ()):
        b.label(name)
    out = [dataclasses.replace(inst, index=k) for k, inst in enumerate(b.out)]
    return dataclasses.replace(fn, regs=b.regs, reg_ids=b.reg_ids, instructions=out,
                               labels=b.labels)
