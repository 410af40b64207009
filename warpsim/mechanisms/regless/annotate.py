"""The RegLess compiler pass: GPU-aware liveness, regions, lifetime annotations and metadata
for one register-allocated kernel, plus the staging check.

Follows: Kloosterman et al., RegLess (MICRO-50 2017) §3 (compiler support);
specs/regless.md §3.1-§3.9 (the output consumed by the simulator, §3.9).

The staging check (``check_staging``) is an independent oracle of the hardware promise "the
instructions in a region are guaranteed to have the registers they need available in the OSU":
walking each region, every register read is a preloaded input or was written earlier in the
region, and every erased value is dead (GPU-aware) after the erasing access.
"""

from __future__ import annotations

from dataclasses import dataclass

from warpsim.mechanisms.regless.divergence import GpuLiveness, gpu_liveness
from warpsim.mechanisms.regless.kernel_view import KernelView, kernel_view
from warpsim.mechanisms.regless.lifetimes import ERASE, Annotations, annotate
from warpsim.mechanisms.regless.regions import N_BANKS, Region, form_regions
from warpsim.ptx.ir import Function
from warpsim.ptx.regalloc import Allocation

__all__ = ["RegionPlan", "check_staging", "compile_regions", "default_region_limits"]


@dataclass(slots=True)
class RegionPlan:
    """Everything the compiler gives the simulator for one kernel (spec §3.9)."""

    view: KernelView
    live: GpuLiveness
    regions: list[Region]
    ann: Annotations
    max_regs_per_region: int
    bank_entries: int

    @property
    def n_meta_words(self) -> int:
        return sum(r.meta_words for r in self.regions)

    def mean_insns(self) -> float:
        return sum(r.n_insns for r in self.regions) / max(1, len(self.regions))


def default_region_limits(entries_per_sm: int, n_shards: int = 4) -> tuple[int, int]:
    """``(max_regs_per_region, bank_entries)`` for a capacity per SM: shard capacity / 4
    (spec A4) and shard capacity / 8 banks."""
    shard = entries_per_sm // n_shards
    return shard // 4, shard // N_BANKS


def compile_regions(fn: Function, alloc: Allocation, *, max_regs_per_region: int,
                    bank_entries: int, predicated_is_soft: bool = True) -> RegionPlan:
    """Run the RegLess compiler on ``fn`` (PTX order) as allocated by ``alloc``."""
    view = kernel_view(fn, alloc)
    return plan_for_view(view, max_regs_per_region=max_regs_per_region,
                         bank_entries=bank_entries, predicated_is_soft=predicated_is_soft)


def plan_for_view(view: KernelView, *, max_regs_per_region: int, bank_entries: int,
                  predicated_is_soft: bool = True) -> RegionPlan:
    """The compiler on an already built ``KernelView``."""
    live = gpu_liveness(view, predicated_is_soft=predicated_is_soft)
    regions = form_regions(view, live, max_regs_per_region=max_regs_per_region,
                           bank_entries=bank_entries)
    ann = annotate(view, live, regions)
    return RegionPlan(view=view, live=live, regions=regions, ann=ann,
                      max_regs_per_region=max_regs_per_region, bank_entries=bank_entries)


def check_staging(plan: RegionPlan) -> list[str]:
    """Problems found (empty: every read is staged, every erase is of a dead value, every
    header invalidation is of a register not live into the region, regions tile the blocks)."""
    v, live = plan.view, plan.live
    bad: list[str] = []
    covered = [0] * v.n
    for reg in plan.regions:
        b = v.cfg.blocks[reg.block]
        if not b.start <= reg.start <= reg.end < b.end:
            bad.append(f"region {reg.id} leaves block {reg.block}")
        staged = set(reg.inputs)
        for i in range(reg.start, reg.end + 1):
            covered[i] += 1
            staged.update(v.premat[i])
            for r in v.reads[i]:
                if r not in staged:
                    bad.append(f"pc {i}: R{r} read but not staged in region {reg.id}")
            for r in v.writes[i]:
                if live.soft[i] >> r & 1 and r not in staged:
                    bad.append(f"pc {i}: R{r} soft-written but not preloaded")
                staged.add(r)
            for r, kind in list(plan.ann.src[i].items()) + list(plan.ann.dst[i].items()):
                if kind == ERASE and live.live_out[i] >> r & 1:
                    bad.append(f"pc {i}: R{r} erased while live")
        for r in reg.header_invalidations:
            if live.live_in[reg.start] >> r & 1:
                bad.append(f"region {reg.id}: R{r} invalidated while live")
        if max(reg.need_per_bank) > plan.bank_entries:
            bad.append(f"region {reg.id}: needs {max(reg.need_per_bank)} entries in a bank")
    bad += [f"pc {i} in {c} regions" for i, c in enumerate(covered) if c != 1]
    return bad
