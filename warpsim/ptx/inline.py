"""Inlining of PTX ``.func`` calls into their caller, so every later analysis sees one body.

Follows: PTX ISA 9.x §7.2 ("Function declarations and definitions": ``.param`` space argument
passing, ``call`` and ``ret``); docs/dev-contracts.md (``inline_calls``).

Assumptions:
  [A] A callee reads its arguments with ``ld.param [name_param_k]`` and writes results with
      ``st.param [name_retval0]``; the caller names the ``.param`` variables of its call scope
      in the ``call``. Renaming the callee's parameter symbols to the caller's variables is
      therefore exact: those variables are ordinary per-thread storage to the functional model.
  [A] The callee's registers get fresh ids appended to the caller's ``regs`` (names
      ``%r1_i3`` for inline site 3); its labels and per-thread body variables (``.local``
      depots, call-scope ``.param`` variables) get the same ``_i3`` suffix. Body-scope
      ``.shared``/``.global``/``.const`` variables are static: one copy, name unchanged.
  [A] A ``ret`` of the callee becomes a ``bra`` (same guard) to a fresh label right after the
      inlined body; a guarded ``call`` is preceded by a branch around the body.
  [A] Calls to prototypes without a body (``vprintf``, ``extern`` functions) are left in
      place; indirect calls and ``brx.idx`` are first lowered to compare-and-branch chains of
      direct calls and branches (``ptx/indirect.py``), which are then inlined.
  [A] A function that still calls itself once its own callees are inlined (recursion, direct,
      through a cycle or through pointers) is first made explicit on a per-thread stack in
      local memory (``ptx/recursion.py``), then inlined once per call site like any body.
Deviations: GPGPU-Sim keeps a hardware-style call stack with ``CALL``-type SIMT stack entries
and no memory traffic for saved registers; warpsim's explicit stack spills and fills them.
"""

from __future__ import annotations

import dataclasses
import itertools

from warpsim.ptx.indirect import lower_indirect, symbols_in
from warpsim.ptx.ir import Function, Instruction, Module, Operand, OpKind, RegDecl
from warpsim.ptx.recursion import explicit_recursion

__all__ = ["inline_calls"]

_STATIC_SPACES = frozenset({"shared", "global", "const"})
"""Spaces whose body-scope variables are static storage, shared by every inline site."""


def _rename(op: Operand, offset: int, symbols: dict[str, str]) -> Operand:
    """``op`` with register ids shifted by ``offset`` and symbols renamed."""
    kind = op.kind
    if kind is OpKind.REG:
        return dataclasses.replace(op, reg=op.reg + offset)
    if kind is OpKind.SYMBOL:
        new = symbols.get(op.name)
        return op if new is None else dataclasses.replace(op, name=new)
    if kind is OpKind.ADDRESS:
        if op.base is None:
            return op
        return dataclasses.replace(op, base=_rename(op.base, offset, symbols))
    if kind is OpKind.VECTOR:
        return dataclasses.replace(op, elems=tuple(_rename(e, offset, symbols)
                                                   for e in op.elems))
    return op


def _callee(module: Module, inst: Instruction) -> Function | None:
    """The module function a ``call`` names, when it has a body; else None."""
    if inst.opcode != "call" or not inst.srcs or inst.srcs[0].kind is not OpKind.SYMBOL:
        return None
    fn = module.functions.get(inst.srcs[0].name)
    if fn is None or not fn.defined or fn.is_entry:
        return None
    return fn


class _Inliner:
    def __init__(self, module: Module, sites: itertools.count | None = None) -> None:
        self.module = module
        self.done: dict[str, Function] = {}
        self.sites = sites or itertools.count(1)

    def flat(self, fn: Function, stack: tuple[str, ...]) -> Function:
        """``fn`` with its calls inlined (memoised per function)."""
        if fn.name in self.done:
            return self.done[fn.name]
        result = self._inline(fn, (*stack, fn.name))
        self.done[fn.name] = result
        return result

    def explicit(self, callee: Function, stack: tuple[str, ...]) -> Function:
        """The flat body of ``callee`` with its recursion made explicit (memoised)."""
        key = "rec:" + callee.name
        if key not in self.done:
            self.done[key] = explicit_recursion(self.module, self.flat(callee, stack))
        return self.done[key]

    def _inline(self, fn: Function, stack: tuple[str, ...]) -> Function:
        fn = lower_indirect(self.module, fn)
        if not any(_callee(self.module, inst) is not None for inst in fn.instructions):
            return fn
        regs = list(fn.regs)
        reg_ids = dict(fn.reg_ids)
        variables = list(fn.variables)
        out: list[Instruction] = []
        labels: dict[str, int] = {}
        at: dict[int, list[str]] = {}
        for name, idx in fn.labels.items():
            at.setdefault(idx, []).append(name)
        for i, inst in enumerate(fn.instructions):
            for name in at.get(i, ()):
                labels[name] = len(out)
            callee = _callee(self.module, inst)
            if callee is None:
                out.append(inst)
                continue
            if callee.name in stack:  # recursion: left for ptx/recursion.py at its entry
                out.append(inst)
                continue
            body = self.explicit(callee, stack)
            site = next(self.sites)
            tag = f"_i{site}"
            offset = len(regs)
            for r in body.regs:
                new = RegDecl(offset + r.id, r.name + tag, r.type)
                regs.append(new)
                reg_ids[new.name] = new.id
            symbols: dict[str, str] = {}
            args = symbols_in(inst.srcs[1:])
            rets = symbols_in(inst.dsts)
            for p, a in zip(body.params, args, strict=False):
                symbols[p.name] = a
            for p, a in zip(body.ret_params, rets, strict=False):
                symbols[p.name] = a
            for v in body.variables:
                if v.space in _STATIC_SPACES:  # one allocation however often it is inlined
                    if all(x.name != v.name for x in variables):
                        variables.append(v)
                    continue
                symbols[v.name] = v.name + tag
                variables.append(dataclasses.replace(v, name=v.name + tag))
            for name in body.labels:
                symbols[name] = name + tag
            done_label = f"$L__ret{tag}"
            if inst.guard >= 0:  # a guarded call: skip the body when the guard is false
                out.append(dataclasses.replace(
                    inst, opcode="bra", types=(), space="", vec=1, mods=(), dsts=(),
                    srcs=(Operand(OpKind.SYMBOL, name=done_label),),
                    guard_neg=not inst.guard_neg, spelling="bra"))
            body_at: dict[int, list[str]] = {}
            for name, idx in body.labels.items():
                body_at.setdefault(idx, []).append(name)
            for j, b in enumerate(body.instructions):
                for name in body_at.get(j, ()):
                    labels[symbols[name]] = len(out)
                guard = b.guard + offset if b.guard >= 0 else -1
                if b.opcode == "ret":
                    out.append(dataclasses.replace(
                        b, opcode="bra", types=(), space="", vec=1, mods=(), dsts=(),
                        srcs=(Operand(OpKind.SYMBOL, name=done_label),), guard=guard,
                        spelling="bra"))
                    continue
                out.append(dataclasses.replace(
                    b, dsts=tuple(_rename(o, offset, symbols) for o in b.dsts),
                    srcs=tuple(_rename(o, offset, symbols) for o in b.srcs), guard=guard))
            for name in body_at.get(len(body.instructions), ()):
                labels[symbols[name]] = len(out)
            labels[done_label] = len(out)
        for name in at.get(len(fn.instructions), ()):
            labels[name] = len(out)
        out = [dataclasses.replace(inst, index=k) for k, inst in enumerate(out)]
        return dataclasses.replace(fn, regs=regs, reg_ids=reg_ids, instructions=out,
                                   labels=labels, variables=variables)


def inline_calls(module: Module, fn: Function) -> Function:
    """A copy of ``fn`` in which every ``call`` to a ``.func`` with a body in ``module`` is
    replaced by the callee's (recursively inlined) body; see the module docstring."""
    inliner = _Inliner(module)
    result = inliner.flat(fn, ())
    for _ in range(len(module.functions)):
        # a call left inside a cycle's function that was inlined outside the cycle (f and g
        # call each other, the kernel calls both): one more pass inlines the cycle there
        if not any(_callee(module, inst) is not None for inst in result.instructions):
            break
        result = _Inliner(module, inliner.sites).flat(  # new sites: names stay unique
            dataclasses.replace(result, name=result.name + "'"), ())
        result = dataclasses.replace(result, name=fn.name)
    if result is fn:  # nothing inlined: still hand back a copy
        result = dataclasses.replace(fn, regs=list(fn.regs), reg_ids=dict(fn.reg_ids),
                                     instructions=list(fn.instructions),
                                     labels=dict(fn.labels), variables=list(fn.variables))
    return result
