"""Register lifetime annotations: erase and evict flags at region-local last accesses,
invalidating preloads and region-header cache invalidations, and the metadata words that carry
them.

Follows: Kloosterman et al., RegLess (MICRO-50 2017) §3.4 (Figure 6: erase, evict, invalidating
read, cache invalidation; "the invalidation annotation is placed in the postdominator of all the
definitions and death points of the live range") and §3.5 (metadata encoding);
specs/regless.md §3.5 (placement algorithm, steps 1-7) and §3.7 (cost model).

Assumptions:
  [A] Live ranges are webs: definitions and uses joined through reaching definitions (a soft
      definition is a use and does not kill).
  [A] Death points of a web: its uses and dead definitions after which the register is not
      live, and the targets of CFG edges on which it stops being live (loop exits, the arm of a
      branch that does not need it).
  [A] When the invalidation point P (nearest common post-dominator) holds the web's final
      access, that access is an erase (an input preloaded for it becomes an invalidating read);
      otherwise a header invalidation in P's first region when the register is not live into
      P; at the virtual exit nothing (warp exit frees the entries, spec §4.2.7).
  [A] Every other region-local last access is an evict; an instruction that reads and writes
      the same register carries the flag on its destination only (spec §3.5 step 7).
  [A] Metadata cost (spec §3.7, A10): one compact word for <= 4 instructions and <= 2
      preloads/invalidations, else a header word with 3 entries, one word per 6 more entries
      and one last-use word per 9 instructions.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from warpsim.mechanisms.regless.divergence import GpuLiveness
from warpsim.mechanisms.regless.kernel_view import KernelView
from warpsim.mechanisms.regless.regions import Region
from warpsim.ptx.cfg import EXIT

__all__ = ["ERASE", "EVICT", "Annotations", "annotate", "meta_words"]

ERASE, EVICT = "erase", "evict"


@dataclass(slots=True)
class Annotations:
    """Per-instruction last-use flags (register -> ERASE/EVICT)."""

    src: list[dict[int, str]] = field(default_factory=list)
    dst: list[dict[int, str]] = field(default_factory=list)
    region_of: list[int] = field(default_factory=list)


def meta_words(n_insns: int, n_entries: int, *, compact_insns: int = 4, compact_entries: int = 2,
               header_entries: int = 3, entries_per_word: int = 6,
               insns_per_flag_word: int = 9) -> int:
    """Metadata instructions of a region (spec §3.7)."""
    if n_insns <= compact_insns and n_entries <= compact_entries:
        return 1
    more = max(0, n_entries - header_entries)
    return 1 + -(-more // entries_per_word) + -(-n_insns // insns_per_flag_word)


def _join(uf: _UF, node: tuple, reach: int, sites: list[tuple]) -> None:
    uf.find(node)
    while reach:
        low = reach & -reach
        uf.union(node, sites[low.bit_length() - 1])
        reach ^= low


class _UF:
    def __init__(self) -> None:
        self.parent: dict = {}

    def find(self, x):
        self.parent.setdefault(x, x)
        while self.parent[x] != x:
            self.parent[x] = self.parent[self.parent[x]]
            x = self.parent[x]
        return x

    def union(self, a, b) -> None:
        self.parent[self.find(a)] = self.find(b)


def _webs(view: KernelView, live: GpuLiveness
          ) -> tuple[_UF, list[int], list[tuple]]:
    """Union-find over access sites ``(i, r)``, joined through reaching definitions; also the
    reaching-definition bitsets at block ends and the site list of definitions."""
    cfg = view.cfg
    sites: list[tuple] = []
    site_id: dict[tuple, int] = {}
    defs_of: dict[int, int] = {}
    entry = 0
    for r in sorted({r for rs in view.reads for r in rs}):  # values live into the kernel
        site_id[("e", r)] = len(sites)
        defs_of[r] = defs_of.get(r, 0) | 1 << len(sites)
        entry |= 1 << len(sites)
        sites.append(("e", r))
    for i in range(view.n):
        for key in [("m", i, r) for r in view.premat[i]] + [(i, r) for r in view.writes[i]]:
            r = key[-1]
            site_id[key] = len(sites)
            defs_of[r] = defs_of.get(r, 0) | 1 << len(sites)
            sites.append(key)
    nb = len(cfg.blocks)

    def define(key: tuple, cur: int, kills: bool) -> int:
        if kills:
            cur &= ~defs_of[key[-1]]
        return cur | 1 << site_id[key]

    def premat(i: int, cur: int) -> int:
        for r in view.premat[i]:
            cur = define(("m", i, r), cur, True)
        return cur

    def writes(i: int, cur: int) -> int:
        for r in view.writes[i]:
            cur = define((i, r), cur, not live.soft[i] >> r & 1)
        return cur

    out = [0] * nb
    changed = True
    while changed:
        changed = False
        for b in cfg.blocks:
            cur = entry if b.id == 0 else 0
            for p in b.preds:
                cur |= out[p]
            for i in range(b.start, b.end):
                cur = writes(i, premat(i, cur))
            if cur != out[b.id]:
                out[b.id] = cur
                changed = True
    uf = _UF()
    for b in cfg.blocks:
        cur = entry if b.id == 0 else 0
        for p in b.preds:
            cur |= out[p]
        for i in range(b.start, b.end):
            cur = premat(i, cur)
            for r in view.premat[i]:
                _join(uf, ("u", i, r), cur & defs_of[r], sites)
            for r in view.reads[i]:
                _join(uf, ("u", i, r), cur & defs_of.get(r, 0), sites)
            for r in view.writes[i]:
                uf.find((i, r))
                if live.soft[i] >> r & 1:  # a soft definition also uses the old value
                    _join(uf, (i, r), cur & defs_of.get(r, 0), sites)
            cur = writes(i, cur)
    return uf, out, sites


def _dies_before_def(view: KernelView, reg: Region, r: int, final: set[tuple[int, int]]
                     ) -> bool:
    """Whether input ``r``'s value has its final access in ``reg`` before any full rewrite
    (the preload is then its last use: an invalidating read)."""
    for i in range(reg.start, reg.end + 1):
        if (i, r) in final and (r in view.reads[i] or r in view.writes[i]):
            return True
        if r in view.writes[i] and not view.guarded[i]:
            return False
    return False


def _common_pdom(view: KernelView, blocks: set[int]) -> int:
    """Nearest common post-dominator block of ``blocks`` (EXIT when only the virtual exit)."""
    cfg = view.cfg

    def chain(b: int) -> list[int]:
        out = []
        while b != EXIT and b >= 0:
            out.append(b)
            b = cfg.ipdom[b]
        return out

    it = iter(blocks)
    common = chain(next(it))
    for b in it:
        c = set(chain(b))
        common = [x for x in common if x in c]
    return common[0] if common else EXIT


def annotate(view: KernelView, live: GpuLiveness, regions: list[Region], **meta: int
             ) -> Annotations:
    """Fill the flags, invalidating preloads, header invalidations and metadata words."""
    cfg = view.cfg
    uf, reach_out, sites = _webs(view, live)
    web_defs: dict = {}
    for k, site in enumerate(sites):
        root = uf.find(site)
        web_defs[root] = web_defs.get(root, 0) | 1 << k
    members: dict = {}
    for i in range(view.n):
        for r in view.premat[i] + view.reads[i]:
            members.setdefault(uf.find(("u", i, r)), []).append(i)
        for r in view.writes[i]:
            members.setdefault(uf.find((i, r)), []).append(i)
    region_of = [0] * view.n
    first_region_of_block: dict[int, int] = {}
    for reg in regions:
        for i in range(reg.start, reg.end + 1):
            region_of[i] = reg.id
        first_region_of_block.setdefault(reg.block, reg.id)
    final_sites: set[tuple[int, int]] = set()
    header_inv: dict[int, list[int]] = {}
    for root, idx in members.items():
        r = root[-1]
        idx = sorted(set(idx))
        blocks = {int(cfg.block_of[i]) for i in idx}
        deaths = [i for i in idx if not live.live_out[i] >> r & 1]
        mask = web_defs.get(root, 0)
        for b in cfg.blocks:  # edges on which the web stops being live
            if not live.block_out[b.id] >> r & 1 or not reach_out[b.id] & mask:
                continue
            for s in b.succs:
                if not live.block_in[s] >> r & 1:
                    blocks.add(s)
        p = _common_pdom(view, blocks)
        if p == EXIT:
            continue
        in_p = [i for i in deaths if int(cfg.block_of[i]) == p]
        if in_p:
            final_sites.add((in_p[-1], r))
        elif not live.block_in[p] >> r & 1:
            header_inv.setdefault(first_region_of_block[p], []).append(r)
    ann = Annotations(src=[{} for _ in range(view.n)], dst=[{} for _ in range(view.n)],
                      region_of=region_of)
    for reg in regions:
        last: dict[int, int] = {}
        for i in range(reg.start, reg.end + 1):
            for r in view.premat[i] + view.reads[i] + view.writes[i]:
                last[r] = i
        for r, i in last.items():
            kind = ERASE if (i, r) in final_sites else EVICT
            if r in view.writes[i]:
                ann.dst[i][r] = kind
            else:
                ann.src[i][r] = kind
        reg.invalidating = tuple(r for r in reg.inputs if _dies_before_def(view, reg, r,
                                                                           final_sites))
        reg.header_invalidations = tuple(sorted(set(header_inv.get(reg.id, ()))))
        reg.meta_words = meta_words(reg.n_insns, len(reg.inputs) + len(reg.header_invalidations),
                                    **meta)
    return ann

