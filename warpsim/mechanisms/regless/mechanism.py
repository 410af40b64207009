"""The RegLess ``Mechanism``: the compiler pass per kernel, the per-launch hook state and the
``rl_*`` statistics.

Follows: Kloosterman et al., RegLess (MICRO-50 2017) §3-§4; specs/regless.md §8.2 (counters);
docs/mechanisms/regless.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from warpsim.errors import ConfigError
from warpsim.mechanisms.base import LaunchInfo, Mechanism
from warpsim.mechanisms.regless.annotate import RegionPlan, compile_regions
from warpsim.mechanisms.regless.backing_store import record_patterns
from warpsim.mechanisms.regless.hooks import (
    rl_can_issue,
    rl_fetch_word,
    rl_mem_request,
    rl_on_cycle_end,
    rl_on_issue,
    rl_on_mem_complete,
    rl_on_mem_sent,
    rl_on_retire,
    rl_on_warp_exit,
    rl_on_warp_launch,
)
from warpsim.mechanisms.regless.regions import N_BANKS
from warpsim.mechanisms.regless.rfv import (
    rfv_can_issue,
    rfv_on_issue,
    rfv_on_retire,
    rfv_on_warp_exit,
    rfv_on_warp_launch,
)
from warpsim.mechanisms.regless.state import (
    N_RCOL,
    RCOL_META,
    RG_NOISSUE_END,
    STAT_NAMES,
    RLState,
    make_state,
    meta_before,
    region_tables,
)
from warpsim.timing.consts import F_BAR_ARRIVE, F_BARRIER, F_EXIT
from warpsim.timing.fields import F_PC_FLAGS

__all__ = ["BACKING_STORE_BASE", "RegLess", "l1_hit_threshold"]

BACKING_STORE_BASE = 1 << 44
"""[A] Base address of the register backing store: above any device allocation (§4.5)."""


def l1_hit_threshold(cfg: Any) -> int:
    """[A] Latest arrival (cycles after the L1 port accepted the line) of a preload that hit
    in L1: the L1 hit latency plus half the L2's; the engine reports no hit/miss per request."""
    return int(cfg.l1d.hit_latency_cycles + cfg.l2.hit_latency_cycles // 2)


@dataclass
class _LaunchState:
    state: RLState
    plan: RegionPlan | None
    n_values: np.ndarray
    pc_meta: np.ndarray
    """[n_pc] metadata words in front of each pc (``state.meta_before``)."""


class RegLess(Mechanism):
    """RegLess in the timing engine (``-o regless.enabled=true``).

    ``plans`` keeps the compiler's ``RegionPlan`` per kernel name."""

    name = "regless"
    n_record_columns = N_RCOL
    counter_names = ("rl_cm_capacity_stall_cycles",)

    def __init__(self, cfg: Any) -> None:
        super().__init__(cfg)
        rl = cfg.regless
        ns = cfg.sm.n_schedulers
        if rl.entries_per_sm % (N_BANKS * ns):
            raise ConfigError("regless.entries_per_sm", rl.entries_per_sm,
                              f"a multiple of {N_BANKS * ns} (8 banks x {ns} schedulers)")
        shard = rl.entries_per_sm // ns
        self.bank_entries = shard // N_BANKS
        self.max_regs = rl.max_regs_per_region or max(1, shard // 4)
        self.predicated_is_soft = rl.predicated_is_soft
        self.plans: dict[str, RegionPlan] = {}
        self.rfv = rl.design == "rfv"
        if self.rfv:
            self.hooks = self.hooks._replace(
                can_issue=rfv_can_issue, on_issue=rfv_on_issue, on_retire=rfv_on_retire,
                on_warp_launch=rfv_on_warp_launch, on_warp_exit=rfv_on_warp_exit)
            return
        self.hooks = self.hooks._replace(
            can_issue=rl_can_issue, on_issue=rl_on_issue, on_retire=rl_on_retire,
            on_warp_launch=rl_on_warp_launch, on_warp_exit=rl_on_warp_exit,
            on_cycle_end=rl_on_cycle_end, mem_request=rl_mem_request,
            on_mem_sent=rl_on_mem_sent, on_mem_complete=rl_on_mem_complete,
            fetch_word=rl_fetch_word)

    def compile_pass(self, program: Any, alloc: Any) -> Any:
        """Regions and annotations of the kernel (the allocation is unchanged)."""
        self.plans[program.name] = compile_regions(
            program.fn, alloc, max_regs_per_region=self.max_regs,
            bank_entries=self.bank_entries, predicated_is_soft=self.predicated_is_soft)
        return alloc

    def start_launch(self, info: LaunchInfo) -> _LaunchState:
        """Region tables of the kernel and a zeroed OSU / capacity-manager state."""
        cfg = self.cfg
        plan = None
        n_pc = 1
        if info.program is not None:
            plan = self.plans.get(info.program.name)
            if plan is None:
                self.compile_pass(info.program, info.alloc)
                plan = self.plans[info.program.name]
            n_pc = len(info.program.insts)
        tables = region_tables(plan, n_pc)
        if plan is not None:  # regions ending in an instruction issued without on_issue
            flags = info.tables.pc_info[:, F_PC_FLAGS]
            rg = tables[4]
            for k, reg in enumerate(plan.regions):
                rg[k, RG_NOISSUE_END] = int(flags[reg.end] & (F_BARRIER | F_BAR_ARRIVE | F_EXIT)
                                            != 0)
        maxreg = max(1, plan.view.n_regs if plan is not None else 1)
        eng_dst = getattr(getattr(info, "tables", None), "pc_dst", None)
        self._n_values = (np.asarray(info.program.n_values, np.int64)
                          if info.program is not None and hasattr(info.program, "n_values")
                          else np.zeros(1, np.int64))
        state = make_state(tables, n_sms=cfg.sm.n_sms, n_warps=cfg.sm.n_max_warps,
                           n_shards=cfg.sm.n_schedulers, bank_cap=self.bank_entries,
                           maxreg=maxreg, base=BACKING_STORE_BASE,
                           l1_latency=l1_hit_threshold(cfg), compressor=cfg.regless.compressor,
                           cc_lines=cfg.regless.compressor_lines, eng_dst=eng_dst)
        if self.rfv:  # one physical pool per scheduler: [free, capacity]
            state.free[:, :, 0] = cfg.regless.entries_per_sm // cfg.sm.n_schedulers
            state.free[:, :, 1] = state.free[:, :, 0]
        return _LaunchState(state, plan, self._n_values, meta_before(plan, n_pc))

    def bind_counters(self, launch_state: _LaunchState, counters: np.ndarray) -> None:
        """The engine-scaled capacity-stall counter."""
        launch_state.state = launch_state.state._replace(cnt=counters)

    def record_columns(self, launch_state: _LaunchState, chunk: Any) -> np.ndarray:
        """Per record: which written values match a compressor pattern (§4.4) and, for
        RegLess (not RFV, whose metadata is free), the metadata words in front of it (§5.4)."""
        n = int(chunk.pc.size)
        cols = np.zeros((n, N_RCOL), np.int64)
        if n and chunk.bdi.size:
            record_patterns(chunk.order, chunk.pc, chunk.val_start, chunk.bdi, chunk.uniform,
                            launch_state.n_values, cols)
        if n and not self.rfv:
            pcs = np.asarray(chunk.pc)[np.asarray(chunk.order)]
            cols[:, RCOL_META] = launch_state.pc_meta[np.minimum(pcs,
                                                                 launch_state.pc_meta.size - 1)]
        return cols

    def hook_state(self, launch_state: _LaunchState, rec_cols: np.ndarray,
                   rec_base: int) -> RLState:
        """The launch's state with this chunk's record columns."""
        rec = (np.zeros((1, N_RCOL), np.int64) if rec_cols is None or rec_cols.size == 0
               else np.ascontiguousarray(rec_cols, np.int64))
        return launch_state.state._replace(rec=rec, rec_base=np.array([rec_base], np.int64))

    def finish_launch(self, launch_state: _LaunchState,
                      counts: np.ndarray) -> dict[str, int | float]:
        """The ``rl_*`` statistics of the launch (spec §8.2)."""
        plan = launch_state.plan
        if plan is None:
            return {}
        st = launch_state.state.st
        out: dict[str, int | float] = {f"rl_{n}": int(v) for n, v in zip(STAT_NAMES, st,
                                                                          strict=True)}
        # launch constants as floats: the device sums integers over launches
        out["rl_static_regions"] = float(len(plan.regions))
        out["rl_static_insns_per_region"] = round(plan.mean_insns(), 4)
        out["rl_entries_per_sm"] = float(self.cfg.regless.entries_per_sm)
        return out

