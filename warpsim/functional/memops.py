"""Execution of PTX memory instructions over the active lanes of a warp group: ``ld``, ``st``,
``atom``, ``red`` in every state space (generic included), ``.v2``/``.v4``, 8/16-bit accesses.

Follows: PTX ISA §9.7.9 (``ld``, ``st``, ``atom``, ``red``: sizes, vectors, sign/zero
extension into wider registers); ARCHITECTURE.md §3 (bounds checks; a failed store leaves memory
untouched: every address is checked before any byte is written).
Assumptions:
  [A] ``.const`` variables are heap allocations, so ``.const`` accesses use the heap path.
  [A] A function-body ``.param`` variable (call arguments after inlining) is per-thread storage
      laid out after the ``.local`` variables; ``ld.param`` of a kernel parameter reads the
      launch's parameter buffer.
  [A] Cache operators, eviction hints, ``.volatile``, ``.relaxed``/``.acquire``/``.release``
      and scopes do not change functional results in a lockstep executor.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from warpsim.errors import MemoryAccessError
from warpsim.functional.access import (
    ATOM_OPS,
    BAD_ALIGN,
    atomic_apply,
    atomic_apply_float,
    global_index,
    window_index,
)
from warpsim.functional.memory import (
    LOCAL_WINDOW,
    PARAM_WINDOW,
    SHARED_WINDOW,
)
from warpsim.functional.trace import bank_conflict_degree, mem_lines

__all__ = [
    "Access",
    "MemSpace",
    "access_fault",
    "atomic_parts",
    "convert_loaded",
    "load_parts",
    "resolve_parts",
    "space_view",
    "store_parts",
    "trace_access",
]

_U = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}
_S = {1: np.int8, 2: np.int16, 4: np.int32, 8: np.int64}
_F = {4: np.float32, 8: np.float64}
LOCAL_TRACE_BASE = 0x7800_0000_0000
"""Base of the interleaved addresses at which local accesses are traced."""


class MemSpace:
    """Space codes of a resolved access part."""

    HEAP = 0
    SHARED = 1
    LOCAL = 2
    PARAM = 3
    NAMES = ("global", "shared", "local", "param")


class Access:
    """One resolved part of an access: a space, which of the lanes (positions into the lane
    list, or None for all), their element indices into the space's byte buffer view."""

    __slots__ = ("idx", "pos", "space")

    def __init__(self, space: int, pos: np.ndarray | None, idx: np.ndarray) -> None:
        self.space = space
        self.pos = pos
        self.idx = idx


def access_fault(bs: Any, tidx: np.ndarray, addr: np.ndarray, i: int, kind: int, space: str,
                 bounds: str) -> MemoryAccessError:
    """The error for lane ``i`` of an access (batch thread ``tidx[i]``, address ``addr[i]``)."""
    t = int(tidx[i])
    tid, cta = bs.thread_coords(t)
    inst = bs.prog.insts[bs.cur_pc]
    problem = "misaligned access" if kind == BAD_ALIGN else "out-of-bounds access"
    return MemoryAccessError(
        problem, kernel=bs.prog.name, line=inst.line or None, thread=tid, block=cta,
        address=int(addr[i]), space=space, bounds=bounds, file=bs.prog.file,
        source_line=inst.text, src=inst.src)


def _heap_part(bs: Any, tidx: np.ndarray, addr: np.ndarray, off: int, size: int, shift: int,
               space: str) -> np.ndarray:
    mem = bs.memory
    idx = np.empty(addr.shape[0], np.int64)
    lo, hi, bad, kind = global_index(addr, np.uint64(off & 0xFFFFFFFFFFFFFFFF), mem.base,
                                     mem.buffer.size, size, shift, idx)
    if bad < 0 and addr.size and mem.covers(int(lo), int(hi) + size):
        return idx
    if addr.size == 0:
        return idx
    full = _full(addr, off)
    if bad < 0:
        starts, ends = mem.tables()
        j = np.searchsorted(starts, full, side="right").astype(np.int64) - 1
        ok = (j >= 0) & (full + np.uint64(size) <= ends[np.maximum(j, 0)]) if starts.size \
            else np.zeros(full.size, np.bool_)
        if ok.all():
            return idx
        if bs.oob_log is not None:  # inside the heap: forgiven and reported (functional/oob.py)
            bs.oob_log.add(bs, tidx, full, np.flatnonzero(~ok), space)
            return idx
        bad = int(np.argmin(ok))
        kind = 1
    a = int(full[bad])
    raise access_fault(bs, tidx, full, bad, kind, space, mem.describe_nearest(a))


def resolve_parts(bs: Any, space: str, tidx: np.ndarray, addr: np.ndarray, off: int,
                  size: int, shift: int) -> list[Access]:
    """Check every lane's access and return its parts (one per space for generic addresses).

    ``tidx``: batch thread index per lane; ``addr``: the address register values per lane
    (without ``off``). Raises ``MemoryAccessError`` before anything is accessed."""
    if space in ("global", "const"):
        return [Access(MemSpace.HEAP, None, _heap_part(bs, tidx, addr, off, size, shift, space))]
    if space == "shared":
        return [Access(MemSpace.SHARED, None, _window(bs, MemSpace.SHARED, tidx, addr, off,
                                                       size, shift))]
    if space in ("local", "param_local"):
        return [Access(MemSpace.LOCAL, None, _window(bs, MemSpace.LOCAL, tidx, addr, off,
                                                      size, shift))]
    if space == "param":
        return [Access(MemSpace.PARAM, None, _param(bs, tidx, addr, off, size, shift))]
    # generic: split by window
    a = addr.astype(np.uint64) + np.uint64(off & 0xFFFFFFFFFFFFFFFF)
    if a.size == 0:
        return []
    hi = int(a.max())
    if hi < SHARED_WINDOW:
        return [Access(MemSpace.HEAP, None, _heap_part(bs, tidx, a, 0, size, shift, "global"))]
    parts = []
    win = a >> np.uint64(32)
    for code, base in ((MemSpace.SHARED, SHARED_WINDOW), (MemSpace.LOCAL, LOCAL_WINDOW),
                       (MemSpace.PARAM, PARAM_WINDOW)):
        sel = win == np.uint64(base >> 32)
        if sel.any():
            pos = np.flatnonzero(sel)
            rel = a[pos] - np.uint64(base)
            if code == MemSpace.PARAM:
                idx = _param(bs, tidx[pos], rel, 0, size, shift)
            else:
                idx = _window(bs, code, tidx[pos], rel, 0, size, shift)
            parts.append(Access(code, pos, idx))
    rest = np.flatnonzero(a < np.uint64(SHARED_WINDOW))
    covered = sum(p.pos.size for p in parts) + rest.size  # type: ignore[union-attr]
    if covered != a.size:
        inside = np.zeros(a.size, np.bool_)
        inside[rest] = True
        for p in parts:
            inside[p.pos] = True
        bad = int(np.argmin(inside))
        raise access_fault(bs, tidx, a, bad, 1, "generic",
                           "outside the global, shared, local and parameter windows")
    if rest.size:
        parts.append(Access(MemSpace.HEAP, rest,
                            _heap_part(bs, tidx[rest], a[rest], 0, size, shift, "global")))
    return parts


def _signed(off: int) -> int:
    """An address offset as a signed 64-bit value."""
    off &= 0xFFFFFFFFFFFFFFFF
    return off - (1 << 64) if off >> 63 else off


def _full(addr: np.ndarray, off: int, wrap32: bool = False) -> np.ndarray:
    a = addr.astype(np.uint64) + np.uint64(off & 0xFFFFFFFFFFFFFFFF)
    return a & np.uint64(0xFFFFFFFF) if wrap32 else a


def _window(bs: Any, code: int, tidx: np.ndarray, addr: np.ndarray, off: int, size: int,
            shift: int) -> np.ndarray:
    if code == MemSpace.SHARED:
        div, stride, limit, name = bs.cta_threads, bs.shared_bytes, bs.shared_bytes, "shared"
    else:
        div, stride, limit, name = 1, bs.local_bytes, bs.local_bytes, "local"
    wrap32 = addr.dtype.itemsize <= 4
    idx = np.empty(addr.shape[0], np.int64)
    bad, kind = window_index(addr, _signed(off), tidx, div, stride, limit, size, shift, wrap32,
                             idx)
    if bad >= 0:
        raise access_fault(bs, tidx, _full(addr, off, wrap32), bad, kind, name,
                           f"the {name} window of each {'CTA' if code == 1 else 'thread'} "
                           f"is [0, {limit:#x})")
    return idx


def _param(bs: Any, tidx: np.ndarray, addr: np.ndarray, off: int, size: int,
           shift: int) -> np.ndarray:
    limit = bs.params.size
    wrap32 = addr.dtype.itemsize <= 4
    idx = np.empty(addr.shape[0], np.int64)
    bad, kind = window_index(addr, _signed(off), tidx, 1, 0, limit, size, shift, wrap32, idx)
    if bad >= 0:
        raise access_fault(bs, tidx, _full(addr, off, wrap32), bad, kind, "param",
                           f"the parameter buffer is [0, {limit:#x})")
    return idx


def space_view(bs: Any, code: int, dtype: Any) -> np.ndarray:
    """The byte buffer of space ``code`` viewed as ``dtype``."""
    if code == MemSpace.HEAP:
        return bs.memory.view(dtype)
    if code == MemSpace.SHARED:
        return bs.shared.view(dtype)
    if code == MemSpace.LOCAL:
        return bs.local.view(dtype)
    return bs.params.view(dtype)


def trace_access(bs: Any, space: str, tidx: np.ndarray, addr: np.ndarray, off: int,
                 size: int, seg: np.ndarray, parts: list[Access]) -> None:
    """Memory annotations (sectors, lines, bank conflicts) of one access, per warp."""
    nw = seg.size - 1
    a = addr.astype(np.uint64) + np.uint64(off & 0xFFFFFFFFFFFFFFFF)
    nsec = np.zeros(nw, np.uint8)
    nlin = np.zeros(nw, np.uint8)
    bank = np.zeros(nw, np.uint8)
    lines = np.zeros(0, np.uint64)
    lsec = np.zeros(0, np.uint8)
    codes = {p.space for p in parts}
    if codes == {MemSpace.SHARED}:
        rel = a if space == "shared" else a - np.uint64(SHARED_WINDOW)
        deg = np.zeros(nw, np.int64)
        bank_conflict_degree(rel, seg, size, bs.shmem_banks, bs.shmem_bank_width_bytes, deg)
        bank = np.minimum(deg, 255).astype(np.uint8)
    elif codes and codes <= {MemSpace.HEAP, MemSpace.LOCAL}:
        if MemSpace.LOCAL in codes:
            phys = a.copy()
            for p in parts:
                if p.space == MemSpace.LOCAL:
                    pos = slice(None) if p.pos is None else p.pos
                    rel = a[pos] - (np.uint64(LOCAL_WINDOW) if space not in (
                        "local", "param_local") else np.uint64(0))
                    t = tidx[pos].astype(np.uint64)
                    phys[pos] = (np.uint64(LOCAL_TRACE_BASE)
                                 + (rel >> np.uint64(2)) * np.uint64(bs.n_threads * 4)
                                 + t * np.uint64(4) + (rel & np.uint64(3)))
            a = phys
        buf = np.empty(a.size, np.uint64)
        s = np.zeros(nw, np.int64)
        ln = np.zeros(nw, np.int64)
        lsec = np.empty(a.size, np.uint8)
        k = mem_lines(a, seg, 32, 128, s, ln, buf, lsec)
        nsec = s.astype(np.uint8)
        nlin = ln.astype(np.uint8)
        lines = buf[:k]
        lsec = lsec[:k]
    bs.tracer.memory(bs.tracer.n_rec, nsec, nlin, bank, lines, lsec)


def convert_loaded(vals: np.ndarray, size: int, signed: bool, is_float: bool,
                   dtype: Any) -> np.ndarray:
    """Memory values of ``size`` bytes to a register of ``dtype`` (sign/zero extension)."""
    dt = np.dtype(dtype)
    if dt == vals.dtype:
        return vals
    if dt.itemsize <= size or dt == np.bool_:
        return vals.astype(dt)
    if signed:
        return vals.view(_S[size]).astype(_S[dt.itemsize]).view(dt)
    return vals.astype(dt)


def load_parts(bs: Any, parts: list[Access], n: int, size: int, vec: int) -> list[np.ndarray]:
    """Gather ``vec`` elements of ``size`` bytes per lane from resolved parts."""
    dt = _U[size]
    if len(parts) == 1 and parts[0].pos is None:
        view = space_view(bs, parts[0].space, dt)
        idx = parts[0].idx
        return [view[idx] if j == 0 else view[idx + j] for j in range(vec)]
    outs = [np.zeros(n, dt) for _ in range(vec)]
    for p in parts:
        view = space_view(bs, p.space, dt)
        for j in range(vec):
            outs[j][p.pos] = view[p.idx + j]
    return outs


def store_parts(bs: Any, parts: list[Access], vals: list[np.ndarray], size: int) -> None:
    """Scatter ``vals`` (one array per vector element, raw bits of ``size`` bytes)."""
    dt = _U[size]
    for p in parts:
        if p.space == MemSpace.PARAM:
            continue
        view = space_view(bs, p.space, dt)
        for j, v in enumerate(vals):
            vv = v if p.pos is None or np.ndim(v) == 0 else v[p.pos]
            view[p.idx + j if j else p.idx] = vv


def atomic_parts(bs: Any, parts: list[Access], op: str, typ: str, b: np.ndarray,
                 c: np.ndarray | None, n: int) -> np.ndarray:
    """Run an atomic over the lanes in order; returns the old values (raw bits)."""
    size = int(typ[1:]) // 8
    if typ.startswith("f"):
        dt = _F[size]
    elif typ.startswith("s"):
        dt = _S[size]
    else:
        dt = _U[size]
    raw = _U[size]
    out = np.zeros(n, raw)
    for p in parts:
        view = space_view(bs, p.space, dt)
        bb = np.ascontiguousarray(b if p.pos is None else b[p.pos]).astype(raw).view(dt)
        if typ.startswith("f"):
            old = atomic_apply_float(view, p.idx, bb, ATOM_OPS[op] if op != "exch" else 3)
        else:
            cc = bb if c is None else np.ascontiguousarray(
                c if p.pos is None else c[p.pos]).astype(raw).view(dt)
            old = atomic_apply(view, p.idx, bb, cc, ATOM_OPS[op])
        if p.pos is None:
            out = old.view(raw)
        else:
            out[p.pos] = old.view(raw)
    return out

