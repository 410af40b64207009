"""The ILP-core ``Mechanism``: per-launch state, per-record columns (active mask, branch
direction, divergence), per-CTA instruction and branch counts, and the ``ilp_*`` statistics.

Follows: specs/xiang-simt-efficiency.md §3.2-§3.4, §3.7 (counters; per-TB instruction counts:
the dissertation §4.4.3 measures NQU's thread block 0); docs/mechanisms/ilp.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from warpsim.errors import ConfigError
from warpsim.mechanisms.base import LaunchInfo, Mechanism
from warpsim.mechanisms.ilp.hooks import (
    ilp_can_issue,
    ilp_on_cycle_end,
    ilp_on_issue,
    ilp_on_retire,
    ilp_result_delay,
)
from warpsim.mechanisms.ilp.state import (
    COUNTERS,
    N_R,
    P_REC_BASE,
    R_DIVERGED,
    R_MASK,
    R_PC,
    R_TAKEN,
    ILPState,
    make_state,
)
from warpsim.timing.consts import F_BRANCH
from warpsim.timing.divergence import split_records
from warpsim.timing.fields import F_PC_FLAGS

__all__ = ["ILPCore", "cta_counts", "record_columns"]


@dataclass
class _LaunchState:
    info: LaunchInfo
    core: Any = None
    counters: Any = None
    state: ILPState | None = None
    cta_insts: Any = None
    """``int64[n_ctas]``: warp instructions of each CTA (its trace records)."""
    cta_branches: Any = None
    """``int64[n_ctas]``: branch warp instructions of each CTA."""


def cta_counts(chunk: Any, is_branch: np.ndarray, n_ctas: int) -> tuple[np.ndarray, np.ndarray]:
    """Warp instructions and branches of each CTA in ``chunk`` (``int64[n_ctas]`` each);
    ``is_branch[pc]`` flags the branch instructions (pcs beyond it are not branches)."""
    warp_cta = np.asarray(chunk.warp_cta, np.int64)
    per_warp = np.diff(np.asarray(chunk.offsets, np.int64))
    insts = np.bincount(warp_cta, weights=per_warp, minlength=n_ctas)[:n_ctas]
    pc = np.asarray(chunk.pc, np.int64)
    br = np.zeros(pc.size, bool)
    ok = pc < is_branch.size
    br[ok] = is_branch[pc[ok]]
    rec_cta = warp_cta[np.asarray(chunk.warp, np.int64)[br]]
    branches = np.bincount(rec_cta, minlength=n_ctas)[:n_ctas]
    return insts.astype(np.int64), branches.astype(np.int64)


def record_columns(chunk: Any) -> np.ndarray:
    """``int64[n, N_R]`` in ``chunk.order``: pc, active mask, taken (the warp's next record is
    not the next instruction), diverged (the next record's lanes are a strict subset)."""
    order = np.asarray(chunk.order)
    n = order.size
    out = np.zeros((n, N_R), np.int64)
    if n == 0:
        return out
    pc = np.asarray(chunk.pc)[order].astype(np.int64)
    mask = np.asarray(chunk.mask)[order]
    out[:, R_PC] = pc
    out[:, R_MASK] = mask.astype(np.int64)
    taken = np.zeros(n, np.int64)
    taken[:-1] = pc[1:] != pc[:-1] + 1
    last = np.asarray(chunk.offsets, np.int64)[1:] - 1
    taken[last[(last >= 0) & (last < n)]] = 0
    out[:, R_TAKEN] = taken
    out[:, R_DIVERGED] = split_records(mask, chunk.offsets)
    return out


class ILPCore(Mechanism):
    """The dissertation's TLP/ILP core (``-o ilp.enabled=true``, ``ilp.bypass``,
    ``ilp.scoreboard_entries``, ``ilp.branch_predictor``, ``ilp.sm_kinds``).

    ``launches`` keeps, per finished launch, what GPU-H's routing rule reads."""

    name = "ilp"
    n_record_columns = N_R
    counter_names = COUNTERS

    def __init__(self, cfg: Any) -> None:
        super().__init__(cfg)
        self.launches: list[dict[str, Any]] = []
        """Per finished launch: kernel, resident warps per SM, threads (GPU-H routing)."""
        n_kinds = max(1, len(cfg.sm_kinds.n_sms))
        for k in cfg.ilp.sm_kinds:
            if k >= n_kinds:
                raise ConfigError("ilp.sm_kinds", cfg.ilp.sm_kinds,
                                  f"kind indices below the {n_kinds} kind(s) of sm_kinds.n_sms")
        self.hooks = self.hooks._replace(
            can_issue=ilp_can_issue, on_issue=ilp_on_issue, result_delay=ilp_result_delay,
            on_retire=ilp_on_retire, on_cycle_end=ilp_on_cycle_end)

    def start_launch(self, info: LaunchInfo) -> _LaunchState:
        """The state is built once the core views and counters are bound."""
        return _LaunchState(info)

    def bind_core(self, launch_state: _LaunchState, core: Any) -> None:
        """Keeps the warp table and the scoreboard bits (read-only)."""
        launch_state.core = core

    def bind_counters(self, launch_state: _LaunchState, counters: np.ndarray) -> None:
        """Keeps the ``ilp_*`` columns of the engine's counts."""
        launch_state.counters = counters

    def record_columns(self, launch_state: _LaunchState, chunk: Any) -> np.ndarray:
        """Per record: pc, active mask, branch direction and divergence; adds the chunk's
        per-CTA instruction and branch counts to the launch's."""
        ls = launch_state
        n = max(1, ls.info.n_ctas)
        if ls.cta_insts is None:
            ls.cta_insts = np.zeros(n, np.int64)
            ls.cta_branches = np.zeros(n, np.int64)
        if chunk.n_warps:
            flags = np.asarray(ls.info.tables.pc_info[:, F_PC_FLAGS], np.int64)
            insts, branches = cta_counts(chunk, (flags & F_BRANCH) != 0, n)
            ls.cta_insts += insts
            ls.cta_branches += branches
        return record_columns(chunk)

    def hook_state(self, launch_state: _LaunchState, rec_cols: np.ndarray,
                   rec_base: int) -> ILPState:
        """The launch's state with the current trace window."""
        ls = launch_state
        if ls.state is None:
            core = ls.core
            ls.state = make_state(self.cfg, ls.info, ls.counters, core.warp, core.warp_sb,
                                  core.warp_sb_long, core.cta)
        ls.state.prm[P_REC_BASE] = rec_base
        return ls.state._replace(rc=np.ascontiguousarray(rec_cols, np.int64))

    def finish_launch(self, launch_state: _LaunchState,
                      counts: np.ndarray) -> dict[str, int | float]:
        """Derived figures (the counters themselves are exported by the driver) and thread
        block 0's counts (C-R7): its warp instructions, branches and branches that stalled
        the pipeline, and the most warp instructions of any one CTA."""
        ls = launch_state
        st, info = ls.state, ls.info
        if st is None:
            return {}
        tb0: dict[str, int | float] = {}
        if ls.cta_insts is not None and info.n_ctas > 0:
            tb0 = {"ilp_tb0_warp_insts": int(ls.cta_insts[0]),
                   "ilp_tb0_branches": int(ls.cta_branches[0]),
                   "ilp_tb0_branch_stalls": int(st.cta_br_stalls[0]),
                   "ilp_cta_max_warp_insts": int(ls.cta_insts.max())}
        if info.program is not None:
            self.launches.append({"kernel": info.kernel,
                                  "warps_per_sm": info.ctas_per_sm * info.warps_per_cta,
                                  "threads": info.n_ctas * info.cta_threads})
        c = st.cnt.sum(axis=0)
        pred = int(c[COUNTERS.index("ilp_bp_predictions")])
        good = int(c[COUNTERS.index("ilp_bp_correct")])
        return {"ilp_bp_accuracy": good / pred if pred else 0.0, **tb0}
