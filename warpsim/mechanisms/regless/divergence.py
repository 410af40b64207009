"""GPU-aware liveness: soft definitions found by the paper's divergence analysis (Algorithm 2)
and liveness in which a soft definition does not end a live range.

Follows: Kloosterman et al., RegLess (MICRO-50 2017) §3.2 and Algorithm 2 (IsSoftDef);
specs/regless.md §3.2 (the fixed-point procedure, steps 1-5).

Assumptions:
  [A] A guarded (predicated) write is soft (spec A8, ``predicated_is_soft``): lanes whose guard
      is false keep the old value.
  [A] Nothing is live at the virtual exit. Sets are Python ints used as bitsets over physical
      registers.
"""

from __future__ import annotations

from dataclasses import dataclass

from warpsim.mechanisms.regless.kernel_view import KernelView
from warpsim.ptx.cfg import EXIT, postorder

__all__ = ["GpuLiveness", "dominator_sets", "gpu_liveness", "is_soft_def"]


@dataclass(slots=True)
class GpuLiveness:
    """Per-instruction and per-block live sets (bitsets) with soft definitions applied."""

    live_in: list[int]
    live_out: list[int]
    block_in: list[int]
    block_out: list[int]
    soft: list[int]
    """Per instruction: bitset of the registers it writes softly."""
    n_soft_divergent: int
    """Soft definitions found by Algorithm 2 (not counting guarded writes)."""
    n_soft_guarded: int

    def is_live_in(self, i: int, r: int) -> bool:
        return bool(self.live_in[i] >> r & 1)

    def is_live_out(self, i: int, r: int) -> bool:
        return bool(self.live_out[i] >> r & 1)


def dominator_sets(view: KernelView) -> tuple[list[frozenset[int]], list[frozenset[int]]]:
    """``(dom[b], pdom[b])``: the blocks dominating / post-dominating ``b``, ``b`` included
    (post-dominators relative to the virtual exit, which is left out)."""
    cfg = view.cfg
    dom: list[frozenset[int]] = []
    pdom: list[frozenset[int]] = []
    for b in range(len(cfg.blocks)):
        chain, x = [], b
        while x >= 0:
            chain.append(x)
            x = cfg.idom[x]
        dom.append(frozenset(chain))
        chain, x = [], b
        while x != EXIT and x >= 0:
            chain.append(x)
            x = cfg.ipdom[x]
        pdom.append(frozenset(chain))
    return dom, pdom


def is_soft_def(view: KernelView, i: int, r: int, block_in: list[int],
                dom: list[frozenset[int]], pdom: list[frozenset[int]]) -> bool:
    """Algorithm 2 (IsSoftDef) for the write of ``r`` by instruction ``i``; ``block_in`` is the
    current block live-in bitsets (the register is live on edge d->s when live into s)."""
    cfg = view.cfg
    bb = int(cfg.block_of[i])
    for d in dom[bb] - {bb}:
        strict_pdoms = pdom[d] - {d}
        if dom[bb] & strict_pdoms:
            continue  # the warp reconverged between d and the definition
        for s in cfg.blocks[d].succs:
            if s in dom[bb]:
                continue  # the path that leads to the definition
            if block_in[s] >> r & 1:
                return True
    return False


def _solve(view: KernelView, soft: list[int]) -> tuple[list[int], list[int], list[int],
                                                        list[int]]:
    """Backward liveness where a soft write is a use and does not kill."""
    cfg = view.cfg
    nb = len(cfg.blocks)
    use = []
    kill = []
    for i in range(view.n):
        u = 0
        for r in view.reads[i]:
            u |= 1 << r
        w = 0
        for r in view.writes[i]:
            w |= 1 << r
        m = 0
        for r in view.premat[i]:
            m |= 1 << r
        use.append((u | soft[i]) & ~m)
        kill.append((w & ~soft[i]) | m)
    gen = [0] * nb
    kl = [0] * nb
    for b in cfg.blocks:
        g = k = 0
        for i in range(b.end - 1, b.start - 1, -1):
            g = (g & ~kill[i]) | use[i]
            k |= kill[i]
        gen[b.id], kl[b.id] = g, k
    bin_, bout = [0] * nb, [0] * nb
    order = postorder(cfg)
    changed = True
    while changed:
        changed = False
        for b in order:
            out = 0
            for s in cfg.blocks[b].succs:
                out |= bin_[s]
            bout[b] = out
            new = gen[b] | (out & ~kl[b])
            if new != bin_[b]:
                bin_[b] = new
                changed = True
    lin, lout = [0] * view.n, [0] * view.n
    for b in cfg.blocks:
        cur = bout[b.id]
        for i in range(b.end - 1, b.start - 1, -1):
            lout[i] = cur
            cur = (cur & ~kill[i]) | use[i]
            lin[i] = cur
    return lin, lout, bin_, bout


def gpu_liveness(view: KernelView, *, predicated_is_soft: bool = True) -> GpuLiveness:
    """Spec §3.2 steps 1-5: liveness, soft definitions, repeated until they stop changing."""
    guarded = [0] * view.n
    if predicated_is_soft:
        for i in range(view.n):
            if view.guarded[i]:
                for r in view.writes[i]:
                    guarded[i] |= 1 << r
    dom, pdom = dominator_sets(view)
    soft = list(guarded)
    while True:
        lin, lout, bin_, bout = _solve(view, soft)
        new = list(guarded)
        for i in range(view.n):
            for r in view.writes[i]:
                if not new[i] >> r & 1 and is_soft_def(view, i, r, bin_, dom, pdom):
                    new[i] |= 1 << r
        # the set only grows (spec §3.2 step 5): keep earlier findings
        new = [a | b for a, b in zip(new, soft, strict=True)]
        if new == soft:
            break
        soft = new
    n_guard = sum(g.bit_count() for g in guarded)
    n_div = sum((s & ~g).bit_count() for s, g in zip(soft, guarded, strict=True))
    return GpuLiveness(live_in=lin, live_out=lout, block_in=bin_, block_out=bout, soft=soft,
                       n_soft_divergent=n_div, n_soft_guarded=n_guard)
