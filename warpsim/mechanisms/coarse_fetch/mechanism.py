"""The coarse-grained L1 fetch ``Mechanism``: the per-launch state, the record columns (each
global load's aligned groups) and the ``cf_*`` statistics.

Follows: Xiang's dissertation §5.4-§5.5; specs/xiang-simt-efficiency.md §4;
docs/mechanisms/coarse-fetch.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from warpsim.errors import ConfigError
from warpsim.mechanisms.base import LaunchInfo, Mechanism
from warpsim.mechanisms.coarse_fetch.hooks import (
    cf_l1_fetch_group,
    cf_mem_request,
    cf_on_cycle_end,
    cf_on_issue,
    cf_on_mem_complete,
    cf_on_mem_sent,
)
from warpsim.mechanisms.coarse_fetch.state import (
    LINE_BYTES,
    N_COLS,
    P_EPOCHS,
    P_EPOCHS_COARSE,
    P_FOLLOW,
    P_REC_BASE,
    STAT_NAMES,
    CFState,
    group_columns,
    make_state,
)
from warpsim.timing.fields import F_PC_MEM

__all__ = ["CoarseFetch"]


@dataclass
class _LaunchState:
    state: CFState
    pc_mem: np.ndarray


class CoarseFetch(Mechanism):
    """Coarse-grained L1 fetch in the timing engine (``-o coarse_fetch.enabled=true``,
    ``coarse_fetch.n_group_lines``, ``coarse_fetch.dueling``, ``coarse_fetch.pairing``). The
    hooks are the same for both pairings (one engine compilation); ``paired`` leaves the
    memory-port queue empty, ``separate`` asks for no fetch group."""

    name = "coarse_fetch"
    n_record_columns = N_COLS

    def __init__(self, cfg: Any) -> None:
        super().__init__(cfg)
        cf = cfg.coarse_fetch
        if cfg.l1d.line_bytes != LINE_BYTES:
            raise ConfigError("l1d.line_bytes", cfg.l1d.line_bytes,
                              f"{LINE_BYTES} with coarse_fetch (groups of the trace's 128 B "
                              "lines, the dissertation's Table 8 L1)")
        if cfg.l1d.is_sectored:
            raise ConfigError("l1d.sector_bytes", cfg.l1d.sector_bytes,
                              f"{cfg.l1d.line_bytes} with coarse_fetch (the fetch group fills "
                              "whole lines; a sectored L1D is not modelled with it)")
        if cfg.l1d.bypass_global:
            raise ConfigError("l1d.bypass_global", True,
                              "false with coarse_fetch (global loads must use the L1D)")
        if cf.dueling:
            for f in ("n_leader_base_sm", "n_leader_coarse_sm"):
                if getattr(cf, f) >= cfg.sm.n_sms:
                    raise ConfigError(f"coarse_fetch.{f}", getattr(cf, f),
                                      f"an SM index below sm.n_sms = {cfg.sm.n_sms}")
        self.follow = 1
        """The followers' policy, carried from launch to launch (1: coarse)."""
        self.hooks = self.hooks._replace(
            on_issue=cf_on_issue, on_cycle_end=cf_on_cycle_end, mem_request=cf_mem_request,
            on_mem_sent=cf_on_mem_sent, on_mem_complete=cf_on_mem_complete,
            l1_fetch_group=cf_l1_fetch_group)

    def start_launch(self, info: LaunchInfo) -> _LaunchState:
        """Empty queues; the memory kind of each pc for the record columns."""
        pc_mem = np.asarray(info.tables.pc_info[:, F_PC_MEM], np.int64) if info.tables \
            is not None else np.zeros(1, np.int64)
        return _LaunchState(make_state(self.cfg, self.follow), pc_mem)

    def record_columns(self, launch_state: _LaunchState, chunk: Any) -> np.ndarray:
        """Per record (replay order): its groups, packed (``state.group_columns``)."""
        order = chunk.order
        return group_columns(chunk.pc[order], chunk.n_lines[order], chunk.line_start[order],
                             chunk.lines, launch_state.pc_mem,
                             self.cfg.coarse_fetch.n_group_lines)

    def hook_state(self, launch_state: _LaunchState, rec_cols: np.ndarray,
                   rec_base: int) -> CFState:
        """The launch's arrays with the window's record columns."""
        st = launch_state.state
        st.prm[P_REC_BASE] = rec_base
        return st._replace(cols=rec_cols)

    def finish_launch(self, launch_state: _LaunchState,
                      counts: np.ndarray) -> dict[str, int | float]:
        """The ``cf_*`` statistics of the launch; the dueling decision is kept."""
        st = launch_state.state
        self.follow = int(st.prm[P_FOLLOW])
        out: dict[str, int | float] = {f"cf_{n}": int(v) for n, v in zip(STAT_NAMES, st.st,
                                                                          strict=True)}
        out["cf_dueling_epochs"] = int(st.prm[P_EPOCHS])
        out["cf_dueling_epochs_coarse"] = int(st.prm[P_EPOCHS_COARSE])
        return out
