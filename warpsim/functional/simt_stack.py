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

__all__ = ["FULL", "LANES", "Group", "SimtStacks", "ballot", "write_dst"]

FULL = np.uint32(0xFFFFFFFF)
LANES = np.arange(32, dtype=np.int64)
_LANE_BITS = (np.uint32(1) << np.arange(32, dtype=np.uint32))


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
        while ws.size:
            d = self.depth[ws]
            top = np.maximum(d - 1, 0)
            pop = (d > 0) & ((self.pc[ws, top] == self.rpc[ws, top])
                             | (self.mask[ws, top] == 0))
            if not pop.any():
                return
            ws = ws[pop]
            self.depth[ws] -= 1

    def tops(self, ws: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(pc, rpc, mask) of each warp's top entry (warps with depth >= 1)."""
        top = self.depth[ws] - 1
        return self.pc[ws, top], self.rpc[ws, top], self.mask[ws, top]


class Group:
    """Warps at one PC that execute together; selections are computed on first use."""

    __slots__ = ("_act_idx", "_lpos", "_seg", "_tw", "act", "act_all", "allb", "contig", "full",
                 "masks", "n_act", "nexec", "nw", "pc", "rpcset", "sel", "sel_is_act",
                 "steps0", "ws", "wsl", "wthreads")

    def __init__(self, pc: int, ws: np.ndarray, masks: np.ndarray, rpcs: np.ndarray,
                 steps0: int) -> None:
        self.pc = pc
        self.ws = ws
        self.masks = masks
        self.rpcset = frozenset(rpcs.tolist() if rpcs.size <= 256 else np.unique(rpcs).tolist())
        self.nexec = 0
        self.steps0 = steps0
        self.sel: Any = None
        self.nw = ws.size

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
        self.n_act = int(np.bitwise_count(masks).sum()) if not allones else nw * 32
        whole = self.wsl if contig else self.wthreads
        self._act_idx = None
        self._seg = None
        self._tw = None
        if allones:
            self.act = whole
            self._lpos = None
        else:
            bits = ((masks[:, None] & _LANE_BITS) != 0).reshape(-1)
            lpos = np.flatnonzero(bits)
            self._lpos = lpos
            self.act = self._act_idx = (lpos + w0 * 32 if contig else self.wthreads[lpos])
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


def write_dst(regs: list[np.ndarray], r: int, g: Group, out: Any, pred: Any,
              srcs: list[Any]) -> None:
    """Write ``out`` (over ``g.sel``) into register ``r``; lanes where ``pred`` is False (when
    given) keep their value. Never leaves two registers sharing one array."""
    reg = regs[r]
    if g.allb:
        out = _broadcast(out, reg.size, reg.dtype)
        if pred is not None:
            regs[r] = np.where(pred, out, reg)
            return
        if out.base is not None or any(out is s for s in srcs):
            if any(out is s or (isinstance(s, np.ndarray) and np.may_share_memory(out, s))
                   for s in srcs):
                out = out.copy()
        regs[r] = out
        return
    sel = g.sel
    if np.ndim(out) == 0:
        out = reg.dtype.type(out)
    elif out.dtype != reg.dtype:
        out = out.astype(reg.dtype)
    if pred is not None:
        reg[sel] = np.where(pred, out, reg[sel])
    else:
        reg[sel] = out
