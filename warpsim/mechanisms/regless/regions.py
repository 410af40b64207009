"""Region formation (Algorithm 1) and per-region register classes and capacity needs.

Follows: Kloosterman et al., RegLess (MICRO-50 2017) §3.1-§3.3, Algorithm 1 (CreateRegions,
IsValid, FindSplitPoint); specs/regless.md §3.3 (the index-based restatement) and §3.4
(inputs, outputs, interior registers, pinned intervals, per-bank need).

Assumptions:
  [A] ``max_regs_per_region`` (A4) bounds the peak pinned count; ``bank_entries`` bounds it per
      bank, bank = register mod 8 for warp 0 (the maximum is invariant under the run-time
      rotation by warp id).
  [A] A barrier may only be the last instruction of a region (A6).
  [A] A single instruction is always a valid region (its own need raises the limit, §3.3
      step 4); ``RegionError`` when it needs more than a bank holds.
  [A] Ties of FindSplitPoint take the largest split point (A28); the first region is at least
      six instructions when possible (the paper's "startPC + 48").
  [A] Pinned interval per register and region (§3.4): inputs from the region start, others
      from the first write, to the last access; extended to the region end when the last
      write is a long-latency load (the pending register stays allocated).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from warpsim.errors import WarpsimError
from warpsim.mechanisms.regless.divergence import GpuLiveness
from warpsim.mechanisms.regless.kernel_view import KernelView

__all__ = ["N_BANKS", "MIN_REGION", "Region", "RegionError", "classify", "form_regions",
           "load_use_pairs"]

N_BANKS = 8
"""OSU banks per shard (paper §4.3)."""
MIN_REGION = 6
"""Minimum first-region length when splitting: 48 bytes of 8-byte instructions (§3.3)."""

SPLIT_CAPACITY, SPLIT_BANK, SPLIT_LOAD_USE, SPLIT_BARRIER = "capacity", "bank", "load-use", \
    "barrier"


class RegionError(WarpsimError):
    """A single instruction needs more OSU entries in one bank than a bank holds."""


@dataclass(slots=True)
class Region:
    """Instructions ``[start, end]`` (inclusive) of one basic block and their register classes."""

    id: int
    block: int
    start: int
    end: int
    inputs: tuple[int, ...]
    """Registers to preload (read or softly written before any full write in the region)."""
    outputs: tuple[int, ...]
    interior: tuple[int, ...]
    need_total: int
    """Peak pinned registers (Fig. 19 "concurrent live registers")."""
    need_per_bank: tuple[int, ...]
    """Peak pinned registers per bank for warp 0 (bank = reg mod 8)."""
    split_reason: str = ""
    """Why the region was cut after its end ('' when it ends its block)."""
    invalidating: tuple[int, ...] = ()
    """Inputs whose preload is their last use (set by ``lifetimes.annotate``)."""
    header_invalidations: tuple[int, ...] = ()
    meta_words: int = 0
    extra: dict = field(default_factory=dict)

    @property
    def n_insns(self) -> int:
        return self.end - self.start + 1


def load_use_pairs(view: KernelView) -> list[tuple[int, int]]:
    """``(l, u)``: long-latency producer ``l`` and the first later instruction of its block
    reading one of its destination registers (before a full rewrite), spec §3.3 (c)."""
    pairs = []
    for b in view.cfg.blocks:
        for lo in range(b.start, b.end):
            if not view.longlat[lo] or not view.writes[lo]:
                continue
            pending = set(view.writes[lo])
            for u in range(lo + 1, b.end):
                pending -= set(view.premat[u])
                if pending & set(view.reads[u]):
                    pairs.append((lo, u))
                    break
                if not view.guarded[u]:
                    pending -= set(view.writes[u])
                if not pending:
                    break
    return pairs


def _pinned_counts(view: KernelView, soft: list[int], s: int, e: int) -> list[list[int]]:
    """``cnt[i - s][b]``: pinned registers of bank ``b`` at instruction ``i`` of ``[s, e]``."""
    length = e - s + 1
    cnt = [[0] * N_BANKS for _ in range(length)]
    first: dict[int, int] = {}
    last: dict[int, int] = {}
    ll_last: dict[int, bool] = {}
    for i in range(s, e + 1):
        for r in view.premat[i]:
            first.setdefault(r, i)
            last[r] = i
            ll_last[r] = False
        for r in view.reads[i]:
            first.setdefault(r, s)
            last[r] = i
        for r in view.writes[i]:
            first.setdefault(r, s if soft[i] >> r & 1 else i)
            last[r] = i
            ll_last[r] = view.longlat[i]
    for r, f in first.items():
        end = e if ll_last.get(r, False) else last[r]
        b = r % N_BANKS
        for i in range(f, end + 1):
            cnt[i - s][b] += 1
    return cnt


def _io_sets(view: KernelView, live: GpuLiveness, s: int, e: int
             ) -> tuple[dict[int, None], dict[int, None]]:
    """``(inputs, defined)`` of ``[s, e]`` in first-access order (spec §3.4)."""
    full: set[int] = set()
    inputs: dict[int, None] = {}
    defined: dict[int, None] = {}
    for i in range(s, e + 1):
        for r in view.premat[i]:
            full.add(r)
            defined.setdefault(r)
        for r in view.reads[i]:
            if r not in full:
                inputs.setdefault(r)
        for r in view.writes[i]:
            if live.soft[i] >> r & 1:
                if r not in full:
                    inputs.setdefault(r)
            else:
                full.add(r)
            defined.setdefault(r)
    return inputs, defined


def classify(view: KernelView, live: GpuLiveness, s: int, e: int) -> tuple[
        tuple[int, ...], tuple[int, ...], tuple[int, ...], int, tuple[int, ...]]:
    """``(inputs, outputs, interior, need_total, need_per_bank)`` of ``[s, e]`` (spec §3.4)."""
    inputs, defined = _io_sets(view, live, s, e)
    out_bits = live.live_out[e]
    outputs = tuple(r for r in defined if out_bits >> r & 1)
    interior = tuple(r for r in defined if r not in inputs and not out_bits >> r & 1)
    cnt = _pinned_counts(view, live.soft, s, e)
    total = max((sum(row) for row in cnt), default=0)
    per_bank = tuple(max((row[b] for row in cnt), default=0) for b in range(N_BANKS))
    return tuple(inputs), outputs, interior, total, per_bank


class _Prefix:
    """Incremental IsValid over prefixes ``[s, q]`` of one candidate region (monotone)."""

    def __init__(self, view: KernelView, soft: list[int], s: int, max_regs: int,
                 bank_entries: int, pair_first: dict[int, list[int]]) -> None:
        self.view, self.soft, self.s = view, soft, s
        self.max_regs, self.bank_entries = max_regs, bank_entries
        self.pair_first = pair_first
        self.cnt: list[list[int]] = []
        self.last: dict[int, int] = {}
        self.pending: set[int] = set()
        self.loads: set[int] = set()

    def add(self, q: int) -> str:
        """Extend to ``q``; the reason ``[s, q]`` is invalid, or ''."""
        v, s = self.view, self.s
        if q > s and v.barrier[q - 1]:
            return SPLIT_BARRIER
        if any(lo in self.loads for lo in self.pair_first.get(q, ())):
            return SPLIT_LOAD_USE
        self.cnt.append([0] * N_BANKS)
        touched = dict.fromkeys(v.premat[q] + v.reads[q] + v.writes[q])
        for r in touched:
            if r in self.last:
                lo = self.last[r] + 1
            elif r in v.reads[q] or self.soft[q] >> r & 1:
                lo = s  # an input: pinned from the region start
            else:
                lo = q
            for i in range(lo, q + 1):
                self.cnt[i - s][r % N_BANKS] += 1
            self.last[r] = q
        for r in v.premat[q]:
            self.pending.discard(r)
        for r in v.writes[q]:
            if v.longlat[q]:
                self.pending.add(r)
            else:
                self.pending.discard(r)
        for r in self.pending:
            if r not in touched:
                self.cnt[q - s][r % N_BANKS] += 1
                self.last[r] = q
        if v.longlat[q]:
            self.loads.add(q)
        if q == s:
            return ""  # a single instruction is always valid (limit raised to its need)
        if max(max(row) for row in self.cnt) > self.bank_entries:
            return SPLIT_BANK
        if max(sum(row) for row in self.cnt) > self.max_regs:
            return SPLIT_CAPACITY
        return ""


def _io(view: KernelView, live: GpuLiveness, s: int, e: int) -> int:
    """|in| + |out| of ``[s, e]`` (the split cost of FindSplitPoint)."""
    inputs, defined = _io_sets(view, live, s, e)
    out_bits = live.live_out[e]
    return len(inputs) + sum(1 for r in defined if out_bits >> r & 1)


def form_regions(view: KernelView, live: GpuLiveness, *, max_regs_per_region: int,
                 bank_entries: int) -> list[Region]:
    """Algorithm 1: split every basic block into valid regions (in program order)."""
    pairs = load_use_pairs(view)
    pair_first: dict[int, list[int]] = {}
    for lo, u in pairs:
        pair_first.setdefault(u, []).append(lo)
    spans: list[tuple[int, int, int, str]] = []
    for b in view.cfg.blocks:
        s, e = b.start, b.end - 1
        while True:
            pre = _Prefix(view, live.soft, s, max_regs_per_region, bank_entries, pair_first)
            upper, reason = e + 1, ""
            for q in range(s, e + 1):
                reason = pre.add(q)
                if reason:
                    upper = q
                    break
            if upper > e:
                spans.append((b.id, s, e, ""))
                break
            # FindSplitPoint: after the last load whose first use lies beyond the window
            crossing = [lo for lo, u in pairs if s <= lo < upper <= u <= e]
            lower_star = max(crossing) + 1 if crossing else s + 1
            lower = min(max(s + MIN_REGION, lower_star), upper)
            best_p, best = upper, None
            for p in range(lower, upper + 1):
                cost = _io(view, live, s, p - 1) + _io(view, live, p, e)
                if best is None or cost <= best:
                    best, best_p = cost, p
            spans.append((b.id, s, best_p - 1, reason))
            s = best_p
    regions = []
    for k, (blk, s, e, why) in enumerate(spans):
        inputs, outputs, interior, total, per_bank = classify(view, live, s, e)
        if max(per_bank) > bank_entries and s != e:
            raise AssertionError("Algorithm 1 produced an invalid region")
        if max(per_bank) > bank_entries:
            raise RegionError(f"instruction {s} needs {max(per_bank)} entries in one OSU bank; "
                              f"a bank holds {bank_entries}")
        regions.append(Region(id=k, block=blk, start=s, end=e, inputs=inputs, outputs=outputs,
                              interior=interior, need_total=total, need_per_bank=per_bank,
                              split_reason=why))
    return regions
