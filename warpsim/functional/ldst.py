"""Closures of the memory instructions ``ld``/``ldu``/``st``/``atom``/``red`` and of ``cvta``.

Follows: PTX ISA §9.7.9.3 (``cvta``), §9.7.9.8-§9.7.9.10 (``ld``, ``ldu``, ``st``),
§9.7.13.5-§9.7.13.6 (``atom``, ``red``); the execution itself is in ``memops.py``.
Assumptions:
  [A] The lanes of a memory instruction are the group's active lanes, narrowed by the guard
      predicate; inactive lanes neither read nor write memory nor registers.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from warpsim.functional.access import ATOM_OPS
from warpsim.functional.memops import (
    Access,
    MemSpace,
    atomic_parts,
    convert_loaded,
    load_parts,
    resolve_parts,
    store_parts,
    trace_access,
)
from warpsim.functional.memory import LOCAL_WINDOW, PARAM_WINDOW, SHARED_WINDOW
from warpsim.functional.simt_stack import own
from warpsim.ptx.ir import SIGNED_TYPES, TYPE_BITS, Instruction, Operand, OpKind

__all__ = ["build_cvta", "build_memory", "lanes_of", "operand_address"]

_SPACES = frozenset({"global", "shared", "local", "const", "param", "generic"})
_WINDOW = {"shared": SHARED_WINDOW, "local": LOCAL_WINDOW, "param": PARAM_WINDOW}


def lanes_of(g: Any, pred: Any) -> tuple[Any, np.ndarray, np.ndarray, bool]:
    """(selection, batch thread indices, per-warp segment offsets, covers the whole batch) of
    the lanes that execute: the active lanes, narrowed by the guard when ``pred`` is given."""
    if pred is None:
        return g.act, g.act_idx, g.seg, g.act_all
    pa = g.pred_on_act(pred)
    t = g.act_idx[pa]
    counts = np.bincount(g.warp_of_act()[pa], minlength=g.nw)
    seg = np.zeros(g.nw + 1, np.int64)
    np.cumsum(counts, out=seg[1:])
    return t, t, seg, False


def _address(inst: Instruction, op: Operand, ctx: Any) -> tuple[int, int, str]:
    """(base register or -1, constant offset, space implied by a symbol base or "")."""
    if op.kind is not OpKind.ADDRESS:
        raise ctx.error(inst, "expected an address operand")
    base = op.base
    if base is None:
        return -1, op.value, ""
    if base.kind is OpKind.REG:
        return base.reg, op.value, ""
    if base.kind is OpKind.SYMBOL:
        info = ctx.symbol(inst, base.name)
        space = inst.space or "generic"
        if space == "generic":
            return -1, ctx.symbol_value(inst, base.name, True) + op.value, ""
        return -1, info.address + op.value, info.space
    raise ctx.error(inst, f"address base of kind {base.kind.name}")


def operand_address(inst: Instruction, op: Operand, ctx: Any) -> tuple[int, int]:
    """(base register or -1, constant offset) of an address operand in a register or an
    immediate address (``cp.async``)."""
    base, off, _ = _address(inst, op, ctx)
    return base, off


def _space(inst: Instruction, ctx: Any, sym_space: str) -> str:
    space = inst.space or "generic"
    if space not in _SPACES:
        raise ctx.error(inst, f"state space .{space}")
    if sym_space == "param_local" or (space == "param" and sym_space == "local"):
        return "param_local"
    if space == "param" and sym_space not in ("", "param"):
        return sym_space
    return space


def _addr_values(bs: Any, base: int, tsel: Any, n: int) -> np.ndarray:
    if base < 0:
        return np.zeros(n, np.uint64)
    a = bs.regs[base][tsel]
    return a


def build_memory(inst: Instruction, ctx: Any) -> Any:
    """The closure of a ``ld``/``ldu``/``st``/``atom``/``red`` instruction."""
    op = inst.opcode
    if op in ("ld", "ldu"):
        return _build_ld(inst, ctx)
    if op == "st":
        return _build_st(inst, ctx)
    return _build_atom(inst, ctx)


def _elem(inst: Instruction, ctx: Any) -> tuple[str, int, int]:
    typ = inst.types[-1] if inst.types else ""
    if typ not in TYPE_BITS or typ == "pred":
        raise ctx.error(inst, f"type .{typ or '?'}")
    size = TYPE_BITS[typ] // 8
    if size not in (1, 2, 4, 8):
        raise ctx.error(inst, f"{TYPE_BITS[typ]}-bit access")
    return typ, size, size.bit_length() - 1


def _build_ld(inst: Instruction, ctx: Any) -> Any:
    typ, size, shift = _elem(inst, ctx)
    vec = inst.vec
    if vec not in (1, 2, 4):
        raise ctx.error(inst, f".v{vec}")
    dst = inst.dsts[0]
    dregs = [e.reg if e.kind is OpKind.REG else -1 for e in
             (dst.elems if dst.kind is OpKind.VECTOR else (dst,))]
    if len(dregs) != vec:
        raise ctx.error(inst, "destination count does not match the vector width")
    base, off, sym_space = _address(inst, inst.srcs[0], ctx)
    space = _space(inst, ctx, sym_space)
    signed = typ in SIGNED_TYPES
    is_float = typ.startswith("f")
    dtypes = [ctx.reg_dtypes[r] if r >= 0 else None for r in dregs]
    total = size * vec

    if space == "param" and base < 0:
        def run_param(bs: Any, g: Any, pred: Any, exm: Any) -> None:
            tsel, tidx, _, whole = lanes_of(g, pred)
            if off < 0 or off + total > bs.params.size:
                resolve_parts(bs, "param", tidx[:1], np.zeros(1, np.uint64), off, total, shift)
            raw = bs.params[off:off + total].view(np.dtype(f"<u{size}"))
            for j, r in enumerate(dregs):
                if r < 0:
                    continue
                v = convert_loaded(raw[j:j + 1], size, signed, is_float, dtypes[j])[0]
                if whole:
                    bs.regs[r] = np.full(bs.n_threads, v, dtype=dtypes[j])
                else:
                    own(bs.regs, r)[tsel] = v
        return run_param

    uniform_param = space == "param" and base >= 0
    soff = off - (1 << 64) if (off & 0xFFFFFFFFFFFFFFFF) >> 63 else off & 0xFFFFFFFFFFFFFFFF
    ut = np.dtype(f"<u{size}")

    def run(bs: Any, g: Any, pred: Any, exm: Any) -> None:
        tsel, tidx, seg, whole = lanes_of(g, pred)
        n = tidx.size
        addr = _addr_values(bs, base, tsel, n)
        if uniform_param and n and _param_fast(bs, addr, tsel, tidx, seg, whole):
            return
        parts = resolve_parts(bs, space, tidx, addr, off, total, shift)
        vals = load_parts(bs, parts, n, size, vec)
        regs = bs.regs
        for j, r in enumerate(dregs):
            if r < 0:
                continue
            v = convert_loaded(vals[j], size, signed, is_float, dtypes[j])
            if whole:
                regs[r] = v
            else:
                own(regs, r)[tsel] = v
        if bs.tracer is not None:
            trace_access(bs, space, tidx, addr, off, total, seg, parts)

    def _param_fast(bs: Any, addr: np.ndarray, tsel: Any, tidx: np.ndarray, seg: np.ndarray,
                    whole: bool) -> bool:
        """``ld.param`` at one in-bounds, aligned address in every lane (a by-value array
        parameter read through ``mov.b64 %rd, param``): the general path's values without its
        per-lane index arrays. False (nothing done) for any other access."""
        n = addr.size
        if n > 1 and not (addr == addr[0]).all():
            return False
        a0 = int(addr[0])
        if addr.dtype.itemsize <= 4:
            p = (a0 + soff) & 0xFFFFFFFF
        else:
            p = (a0 - (1 << 64) if a0 >> 63 else a0) + soff
        if p & (total - 1) or p < 0 or p + total > bs.params.size:
            return False
        view = bs.params.view(ut)
        i0 = p >> shift
        regs = bs.regs
        for j, r in enumerate(dregs):
            if r < 0:
                continue
            v = convert_loaded(np.full(n, view[i0 + j], ut), size, signed, is_float, dtypes[j])
            if whole:
                regs[r] = v
            else:
                own(regs, r)[tsel] = v
        if bs.tracer is not None:
            trace_access(bs, space, tidx, addr, off, total, seg,
                         [Access(MemSpace.PARAM, None, np.zeros(0, np.int64))])
        return True
    return run


def _value_spec(inst: Instruction, op: Operand, ctx: Any, size: int) -> list[Any]:
    from warpsim.functional.loader import imm_bits

    out: list[Any] = []
    for e in (op.elems if op.kind is OpKind.VECTOR else (op,)):
        if e.kind is OpKind.REG:
            out.append(e.reg)
        elif e.kind is OpKind.IMM:
            typ = inst.types[-1]
            out.append(imm_bits(e, np.dtype(f"u{size}"), typ.startswith("f")))
        else:
            raise ctx.error(inst, f"value operand of kind {e.kind.name}")
    return out


def _values(bs: Any, spec: list[Any], tsel: Any, n: int, size: int) -> list[np.ndarray]:
    dt = np.dtype(f"u{size}")
    out = []
    for s in spec:
        if isinstance(s, int):
            v = bs.regs[s][tsel]
            if v.dtype == np.bool_:
                v = v.astype(dt)
            elif v.dtype.itemsize < size:
                v = v.astype(dt)
            elif v.dtype != dt:
                v = v.astype(dt)
        else:
            v = np.full(n, s, dtype=dt)
        out.append(v)
    return out


def _build_st(inst: Instruction, ctx: Any) -> Any:
    _, size, shift = _elem(inst, ctx)
    vec = inst.vec
    base, off, sym_space = _address(inst, inst.srcs[0], ctx)
    space = _space(inst, ctx, sym_space)
    if space in ("const", "param"):
        raise ctx.error(inst, f"store to the .{space} space",
                        hint="kernel parameters and constants are read-only")
    spec = _value_spec(inst, inst.srcs[1], ctx, size)
    if len(spec) != vec:
        raise ctx.error(inst, "source count does not match the vector width")
    total = size * vec

    def run(bs: Any, g: Any, pred: Any, exm: Any) -> None:
        tsel, tidx, seg, _ = lanes_of(g, pred)
        n = tidx.size
        addr = _addr_values(bs, base, tsel, n)
        parts = resolve_parts(bs, space, tidx, addr, off, total, shift)
        vals = _values(bs, spec, tsel, n, size)
        store_parts(bs, parts, vals, size)
        if bs.tracer is not None:
            trace_access(bs, space, tidx, addr, off, total, seg, parts)
    return run


def _build_atom(inst: Instruction, ctx: Any) -> Any:
    typ, size, shift = _elem(inst, ctx)
    ops = [m for m in inst.mods if m in ATOM_OPS]
    if len(ops) != 1:
        raise ctx.error(inst, "missing or ambiguous atomic operation")
    aop = ops[0]
    if inst.vec != 1:
        raise ctx.error(inst, "vector atomics")
    if typ in ("f16", "bf16", "f16x2", "bf16x2") or size not in (4, 8):
        raise ctx.error(inst, f"atomic on .{typ}")
    if typ.startswith("f") and aop not in ("add", "min", "max", "exch"):
        raise ctx.error(inst, f"atomic .{aop} on .{typ}")
    if aop in ("inc", "dec") and typ != "u32":
        raise ctx.error(inst, f"atomic .{aop} on .{typ}")
    has_dst = inst.opcode == "atom"
    dreg = inst.dsts[0].reg if has_dst and inst.dsts and inst.dsts[0].kind is OpKind.REG \
        else -1
    base, off, sym_space = _address(inst, inst.srcs[0], ctx)
    space = _space(inst, ctx, sym_space)
    if space in ("const", "param", "local", "param_local"):
        raise ctx.error(inst, f"atomic in the .{space} space")
    b_spec = _value_spec(inst, inst.srcs[1], ctx, size)
    c_spec = _value_spec(inst, inst.srcs[2], ctx, size) if aop == "cas" else None
    ddt = ctx.reg_dtypes[dreg] if dreg >= 0 else None

    def run(bs: Any, g: Any, pred: Any, exm: Any) -> None:
        tsel, tidx, seg, whole = lanes_of(g, pred)
        n = tidx.size
        addr = _addr_values(bs, base, tsel, n)
        parts = resolve_parts(bs, space, tidx, addr, off, size, shift)
        b = _values(bs, b_spec, tsel, n, size)[0]
        c = _values(bs, c_spec, tsel, n, size)[0] if c_spec is not None else None
        old = atomic_parts(bs, parts, aop, typ, b, c, n)
        if dreg >= 0:
            v = old if old.dtype == ddt else old.astype(ddt)
            if whole:
                bs.regs[dreg] = v
            else:
                own(bs.regs, dreg)[tsel] = v
        if bs.tracer is not None:
            trace_access(bs, space, tidx, addr, off, size, seg, parts)
    return run


def build_cvta(inst: Instruction, ctx: Any) -> Any:
    """``cvta[.to].space.size d, a``: between a state-space address and a generic address."""
    from warpsim.functional.simt_stack import write_dst

    space = inst.space
    to = "to" in inst.mods
    bits = TYPE_BITS[inst.types[-1]] if inst.types else 64
    dt = np.uint64 if bits == 64 else np.uint32
    if space in ("global", "const"):
        delta = 0
    elif space in _WINDOW:
        delta = _WINDOW[space]
    else:
        raise ctx.error(inst, f"cvta with space .{space or '?'}")
    src = inst.srcs[0]
    dreg = inst.dsts[0].reg
    if src.kind is OpKind.SYMBOL:
        info = ctx.symbol(inst, src.name)
        const = info.address + (0 if to else delta)
        src_reg = -1
    elif src.kind is OpKind.REG:
        const, src_reg = 0, src.reg
    else:
        const, src_reg = src.value, -1
    mod = np.uint64((-delta if to else delta) & 0xFFFFFFFFFFFFFFFF)
    mask = (1 << bits) - 1

    def run(bs: Any, g: Any, pred: Any, exm: Any) -> None:
        if src_reg < 0:
            out = dt(const & mask)
            write_dst(bs.regs, dreg, g, out, pred, [])
            return
        a = bs.regs[src_reg] if g.allb else bs.regs[src_reg][g.sel]
        if delta == 0:
            out = a if a.dtype == dt else a.astype(dt)
        else:
            with np.errstate(over="ignore"):
                out = (a.astype(np.uint64) + mod).astype(dt, copy=False)
        write_dst(bs.regs, dreg, g, out, pred, [a])
    return run
