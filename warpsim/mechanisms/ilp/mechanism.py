"""The ILP-core ``Mechanism``: per-launch state, per-record columns (active mask, branch
direction, divergence) and the ``ilp_*`` statistics.

Follows: specs/xiang-simt-efficiency.md §3.2-§3.4, §3.7 (counters); docs/mechanisms/ilp.md.
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
from warpsim.timing.divergence import split_records

__all__ = ["ILPCore", "record_columns"]


@dataclass
class _LaunchState:
    info: LaunchInfo
    core: Any = None
    counters: Any = None
    state: ILPState | None = None


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
        """Per record: pc, active mask, branch direction and divergence."""
        return record_columns(chunk)

    def hook_state(self, launch_state: _LaunchState, rec_cols: np.ndarray,
                   rec_base: int) -> ILPState:
        """The launch's state with the current trace window."""
        ls = launch_state
        if ls.state is None:
            core = ls.core
            ls.state = make_state(self.cfg, ls.info, ls.counters, core.warp, core.warp_sb,
                                  core.warp_sb_long)
        ls.state.prm[P_REC_BASE] = rec_base
        return ls.state._replace(rc=np.ascontiguousarray(rec_cols, np.int64))

    def finish_launch(self, launch_state: _LaunchState,
                      counts: np.ndarray) -> dict[str, int | float]:
        """Derived figures (the counters themselves are exported by the driver)."""
        st, info = launch_state.state, launch_state.info
        if st is None:
            return {}
        if info.program is not None:
            self.launches.append({"kernel": info.kernel,
                                  "warps_per_sm": info.ctas_per_sm * info.warps_per_cta,
                                  "threads": info.n_ctas * info.cta_threads})
        c = st.cnt.sum(axis=0)
        pred = int(c[COUNTERS.index("ilp_bp_predictions")])
        good = int(c[COUNTERS.index("ilp_bp_correct")])
        return {"ilp_bp_accuracy": good / pred if pred else 0.0}
