"""The SIMT reconvergence stack of every warp of a CTA batch, and warp groups: the warps that sit
at the same PC and run one instruction together in one vectorised dispatch.

Follows: GPGPU-Sim ``simt_stack::update`` (reference/gpu-simulators.md, SIMT stack): entries
``(pc, reconvergence pc, active mask)``; on a divergent branch the top entry's PC becomes the
reconvergence PC, then the not-taken entry and the taken entry are pushed (the taken path runs
first); an entry whose PC reaches its reconvergence PC is popped. ARCHITECTURE.md §9: the
mask-derived index arrays of a group are computed once per group, not per instruction.
Assumptions:
  [A] Exited lanes are removed from every entry of their warp's stack; an entry with no lane
      left is popped.
  [A] A group caches its selections: ``sel`` (the lanes an ALU instruction computes: whole
      warps when every live lane is active, so that dead lanes compute harmless garbage and no
      compaction is needed), ``act`` (exactly the active lanes, for memory and warp ops).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from warpsim._jit import jit

__all__ = ["FULL", "LANES", "Group", "SimtStacks", "ballot", "own", "write_dst"]

FULL = np.uint32(0xFFFFFFFF)
LANES = np.arange(32, dtype=np.int64)


@jit
def _settle(pc, rpc, mask, depth, ws):  # pragma: no cover - jit
    """Pop the top entries of each warp of ``ws`` while they reconverged or are empty."""
    for i in range(ws.shape[0]):
        w = ws[i]
        d = depth[w]
        while d > 0 and (pc[w, d - 1] == rpc[w, d - 1] or mask[w, d - 1] == 0):
            d -= 1
        depth[w] = d


@jit
def _tops(pc, rpc, mask, depth, ws):  # pragma: no cover - jit
    """(pc, rpc, mask) of the top entry of each warp of ``ws``."""
    n = ws.shape[0]
    tp = np.empty(n, np.int64)
    tr = np.empty(n, np.int64)
    tm = np.empty(n, np.uint32)
    for i in range(n):
        w = ws[i]
        d = depth[w] - 1
        tp[i] = pc[w, d]
        tr[i] = rpc[w, d]
        tm[i] = mask[w, d]
    return tp, tr, tm


@jit
def _active_lanes(masks, ws, contig, n):  # pragma: no cover - jit
    """(position in the group's [n_warps * 32] lane layout, batch thread index) of the ``n``
    active lanes, ascending. Branch-free over the lanes (random masks defeat prediction)."""
    lpos = np.empty(n + 1, np.int64)
    act = np.empty(n + 1, np.int64)
    j = 0
    w0 = ws[0]
    for i in range(masks.shape[0]):
        m = np.uint32(masks[i])
        base = (w0 + i) * 32 if contig else ws[i] * 32
        for lane in range(32):
            lpos[j] = i * 32 + lane
            act[j] = base + lane
            j += np.int64((m >> np.uint32(lane)) & np.uint32(1))
    return lpos[:n], act[:n]


class SimtStacks:
    """Reconvergence stacks of all warps of a batch as arrays ``[warp, depth]``."""

    def __init__(self, n_warps: int, init_mask: np.ndarray, depth: int = 8) -> None:
        self.pc = np.zeros((n_warps, depth), np.int64)
        self.rpc = np.full((n_warps, depth), -1, np.int64)
        self.mask = np.zeros((n_warps, depth), np.uint32)
        self.mask[:, 0] = init_mask
        self.depth = np.ones(n_warps, np.int64)
        self.depth[init_mask == 0] = 0

    def grow(self) -> None:
        """Double the stack depth of every warp."""
        self.pc = np.concatenate([self.pc, np.zeros_like(self.pc)], axis=1)
        self.rpc = np.concatenate([self.rpc, np.full_like(self.rpc, -1)], axis=1)
        self.mask = np.concatenate([self.mask, np.zeros_like(self.mask)], axis=1)

    def set_top_pc(self, ws: np.ndarray, pc: int | np.ndarray) -> None:
        self.pc[ws, self.depth[ws] - 1] = pc

    def push(self, ws: np.ndarray, pc: int, rpc: int, mask: np.ndarray) -> None:
        """Push one entry on each warp of ``ws``."""
        if ws.size == 0:
            return
        d = self.depth[ws]
        while int(d.max()) >= self.pc.shape[1]:
            self.grow()
        self.pc[ws, d] = pc
        self.rpc[ws, d] = rpc
        self.mask[ws, d] = mask
        self.depth[ws] = d + 1

    def clear_lanes(self, ws: np.ndarray, lanes: np.ndarray) -> None:
        """Remove ``lanes[i]`` from every entry of warp ``ws[i]`` (exit)."""
        self.mask[ws, :] &= ~lanes[:, None]

    def settle(self, ws: np.ndarray) -> None:
        """Pop entries that reconverged (pc == rpc) or lost every lane, on each warp of ``ws``."""
        _settle(self.pc, self.rpc, self.mask, self.depth, ws)

    def tops(self, ws: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(pc, rpc, mask) of each warp's top entry (warps with depth >= 1)."""
        return _tops(self.pc, self.rpc, self.mask, self.depth, ws)


class Group:
    """Warps at one PC that execute together; selections are computed on first use."""

    __slots__ = ("_act_idx", "_lpos", "_seg", "_tw", "act", "act_all", "allb", "contig",
                 "exist", "full", "masks", "n_act", "nexec", "nw", "pc", "rpcset", "sel",
                 "sel_is_act", "steps0", "ws", "wsl", "wthreads")

    def __init__(self, pc: int, ws: np.ndarray, masks: np.ndarray, rpcs: np.ndarray,
                 steps0: int) -> None:
        self.pc = pc
        self.ws = ws
        self.masks = masks
        if rpcs.size <= 256:
            self.rpcset = frozenset(rpcs.tolist())
        elif rpcs[0] == rpcs.min() == rpcs.max():  # one reconvergence pc (the common case)
            self.rpcset = frozenset((int(rpcs[0]),))
        else:
            self.rpcset = frozenset(np.unique(rpcs).tolist())
        self.nexec = 0
        self.steps0 = steps0
        self.sel: Any = None
        self.nw = ws.size
        self.exist: Any = None
        """Existing lanes of each warp (set by the executor's trace on first use)."""

    def prepare(self, live: np.ndarray, n_warps: int) -> None:
        """Compute the selections from the masks (once per group)."""
        ws, masks, nw = self.ws, self.masks, self.nw
        w0, w1 = int(ws[0]), int(ws[-1])
        self.contig = contig = w1 - w0 + 1 == nw
        self.wsl = slice(w0 * 32, (w1 + 1) * 32) if contig else None
        self.wthreads = None if contig else (ws[:, None] * 32 + LANES).reshape(-1)
        self.full = full = bool(np.array_equal(masks, live[ws]))
        allones = bool((masks == FULL).all())
        self.allb = full and contig and nw == n_warps
        whole = self.wsl if contig else self.wthreads
        self._act_idx = None
        self._seg = None
        self._tw = None
        if allones:
            self.n_act = nw * 32
            self.act = whole
            self._lpos = None
        else:
            self.n_act = n_act = int(np.bitwise_count(masks).sum())
            lpos, act = _active_lanes(masks, ws, contig, n_act)
            self._lpos = lpos
            self.act = self._act_idx = act
        self.act_all = allones and self.allb
        if full:
            self.sel = whole
            self.sel_is_act = allones
        else:
            self.sel = self.act
            self.sel_is_act = True

    @property
    def act_idx(self) -> np.ndarray:
        """Batch thread index of every active lane (int64, ascending)."""
        if self._act_idx is None:
            self._act_idx = (np.arange(self.wsl.start, self.wsl.stop, dtype=np.int64)
                             if self.contig else self.wthreads)
        return self._act_idx

    @property
    def seg(self) -> np.ndarray:
        """Offsets of each warp's active lanes in the ``act`` order (n_warps + 1)."""
        if self._seg is None:
            seg = np.zeros(self.nw + 1, np.int64)
            if self._lpos is None:
                seg[1:] = np.arange(32, 32 * self.nw + 1, 32)
            else:
                np.cumsum(np.bitwise_count(self.masks), out=seg[1:])
            self._seg = seg
        return self._seg

    def warp_view(self, arr: np.ndarray) -> np.ndarray:
        """``arr``'s 32 lanes of every warp of the group, shaped [n_warps, 32]."""
        if self.contig:
            return arr[self.wsl].reshape(self.nw, 32)
        return arr[self.wthreads].reshape(self.nw, 32)

    def pred_on_act(self, pred_sel: np.ndarray) -> np.ndarray:
        """A boolean over ``sel`` restricted to the active lanes (``act`` order)."""
        if self.sel_is_act:
            return pred_sel
        return pred_sel[self._lpos]

    def lanes_of_act(self) -> np.ndarray:
        """Position of each active lane in the group's [n_warps * 32] lane layout."""
        if self._lpos is None:
            return np.arange(self.nw * 32, dtype=np.int64)
        return self._lpos

    def partial_lanes(self) -> np.ndarray | None:
        """``lanes_of_act()`` when some lane of the group's warps is inactive, else None."""
        return self._lpos

    def warp_of_act(self) -> np.ndarray:
        """Group-local warp index of each active lane."""
        if self._tw is None:
            self._tw = self.lanes_of_act() // 32
        return self._tw


def ballot(g: Group, pred_sel: np.ndarray) -> np.ndarray:
    """Per warp of ``g``: the bits of active lanes where ``pred_sel`` (over ``g.sel``) holds."""
    if g.full:
        p = np.ascontiguousarray(pred_sel, dtype=np.bool_).reshape(g.nw, 32)
    else:
        p = np.zeros(g.nw * 32, np.bool_)
        p[g.lanes_of_act()] = pred_sel
        p = p.reshape(g.nw, 32)
    bits = np.packbits(p, axis=1, bitorder="little").view("<u4").reshape(g.nw)
    return bits.astype(np.uint32) & g.masks


def _broadcast(out: Any, n: int, dtype: Any) -> np.ndarray:
    if np.ndim(out) == 0:
        return np.full(n, out, dtype=dtype)
    if out.dtype != dtype:
        return out.astype(dtype)
    return out


def own(regs: list[np.ndarray], r: int) -> np.ndarray:
    """Register ``r``'s array, ready for a write of some of its lanes. A batch starts with
    every register on one read-only zero array per dtype (``batch_setup``): the first write
    of some lanes gives the register its own zeroed array (a missed call fails loudly with
    numpy's "assignment destination is read-only", never silently)."""
    a = regs[r]
    if not a.flags.writeable:
        a = regs[r] = np.zeros(a.size, a.dtype)
    return a


def write_dst(regs: list[np.ndarray], r: int, g: Group, out: Any, pred: Any,
              srcs: list[Any]) -> None:
    """Write ``out`` (over ``g.sel``) into register ``r``; lanes where ``pred`` is False (when
    given) keep their value. Never leaves two registers sharing one array."""
    reg = regs[r]
    if g.allb:
        if type(out) is not np.ndarray or out.ndim == 0 or out.dtype != reg.dtype:
            out = _broadcast(out, reg.size, reg.dtype)
        if pred is not None:
            regs[r] = np.where(pred, out, reg)
            return
        if out.base is None:
            for s in srcs:
                if s is out:
                    out = out.copy()
                    break
        else:
            for s in srcs:
                if s is out or (isinstance(s, np.ndarray) and np.may_share_memory(out, s)):
                    out = out.copy()
                    break
        regs[r] = out
        return
    sel = g.sel
    if not reg.flags.writeable:  # still the batch's shared zero array: copy on write
        reg = regs[r] = np.zeros(reg.size, reg.dtype)
    if np.ndim(out) == 0:
        out = reg.dtype.type(out)
    elif out.dtype != reg.dtype:
        out = out.astype(reg.dtype)
    if pred is not None:
        reg[sel] = np.where(pred, out, reg[sel])
    else:
        reg[sel] = out
