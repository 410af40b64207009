"""The WarpMan ``Mechanism``: per-launch state, the TB-slot cap, per-warp times and statistics.

Follows: specs/xiang-simt-efficiency.md §2.3 (mechanism), §2.2 (RTRU), §2.6 (counters);
docs/mechanisms/warpman.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from warpsim.errors import ConfigError
from warpsim.mechanisms.base import LaunchInfo, Mechanism
from warpsim.mechanisms.warpman.hooks import (
    wm_cta_fit,
    wm_on_cta_release,
    wm_on_cycle_end,
    wm_on_warp_exit,
    wm_on_warp_launch,
    wm_release_warp_slot,
    wm_warps_to_place,
)
from warpsim.mechanisms.warpman.rtru import rtru_app, rtru_blocks
from warpsim.mechanisms.warpman.state import (
    P_EPOCHS,
    P_EPOCHS_SPATIAL,
    P_N_WARPS,
    S_ACTIVE_CYC,
    S_CTA_CYC,
    S_LOG_DROPPED,
    S_LOG_N,
    S_MAX_REGS,
    S_MAX_WARPS,
    S_N_PARTIAL,
    S_N_WARP_LEVEL,
    S_REG_CYC,
    S_SHMEM_CYC,
    S_WARP_CYC,
    W_DISPATCH,
    W_ELIGIBLE,
    W_EXIT,
    W_TBLOCKED,
    WMState,
    make_state,
)
from warpsim.stats import C_GPU_SIM_CYCLE

__all__ = ["LaunchRecord", "WarpMan", "series_rows"]


@dataclass
class _LaunchState:
    state: WMState
    info: LaunchInfo
    insts: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))


@dataclass(frozen=True, slots=True)
class LaunchRecord:
    """What one finished launch leaves in ``WarpMan.launches`` (per warp, global warp order)."""

    kernel: str
    warps_per_cta: int
    dispatch: np.ndarray
    """Cycle the warp's block was dispatched (took a TB slot)."""
    eligible: np.ndarray
    """Cycle the warp got its registers and scheduler entry."""
    exit: np.ndarray
    insts: np.ndarray
    """Trace records (warp instructions) of each warp."""
    rtru: np.ndarray
    """RTRU of each block."""
    cta_threads: int = 0
    regs_per_thread: int = 0
    shmem_bytes: int = 0
    baseline_ctas_per_sm: int = 0
    cycles: int = 0
    """The launch's cycles (its series run from 0 to here)."""
    n_registers: int = 0
    """Registers per SM."""
    series: np.ndarray | None = None
    """The per-SM allocation log: ``int64[rows, 1 + len(LOG_COLUMNS)]``, columns ``sm`` then
    ``state.LOG_COLUMNS`` (cycle, regs, warps, active_warps, ctas, shmem_bytes), a row per
    cycle in which the SM's allocation changed (values after the change), SM-major."""


class WarpMan(Mechanism):
    """WarpMan in the timing engine (``-o warpman.enabled=true``, ``warpman.mode``).

    ``launches`` keeps a ``LaunchRecord`` per finished launch (per-warp times, RTRU per block).
    """

    name = "warpman"
    heterogeneous_sms = False  # its register and scheduler pools are the sm section's
    n_record_columns = 1  # unused by the hooks: the chunks give each warp's instruction count
    counter_names = ("wm_partial_barrier_stall_cycles",)
    """Warp-cycles that warps of partially dispatched blocks spent waiting at a barrier
    (counted per simulated cycle in ``on_cycle_end``, scaled over skipped idle cycles)."""

    def __init__(self, cfg: Any) -> None:
        super().__init__(cfg)
        wm = cfg.warpman
        for f in ("n_leader_spatial_sm", "n_leader_temp_sm"):
            if wm.mode == "dueling" and getattr(wm, f) >= cfg.sm.n_sms:
                raise ConfigError(f"warpman.{f}", getattr(wm, f),
                                  f"an SM index below sm.n_sms = {cfg.sm.n_sms}")
        self.hooks = self.hooks._replace(
            cta_fit=wm_cta_fit, warps_to_place=wm_warps_to_place,
            on_warp_launch=wm_on_warp_launch, on_warp_exit=wm_on_warp_exit,
            release_warp_slot=wm_release_warp_slot, on_cta_release=wm_on_cta_release,
            on_cycle_end=wm_on_cycle_end)
        self.launches: list[LaunchRecord] = []

    def _slots(self, shmem_bytes: int) -> int:
        """TB slots per SM: the CTA limit and shared memory (block-granular)."""
        cfg = self.cfg
        n = cfg.sm.n_max_ctas
        if shmem_bytes:
            n = min(n, cfg.shmem.size_bytes // shmem_bytes)
        return max(1, n)

    def ctas_per_sm(self, cta_threads: int, regs_per_thread: int, shmem_bytes: int,
                    baseline: int) -> int:
        """``tb``: the baseline; otherwise the TB slots shared memory leaves (the hooks check
        registers and scheduler entries per warp)."""
        if self.cfg.warpman.mode == "tb":
            return baseline
        return max(baseline, self._slots(shmem_bytes))

    def start_launch(self, info: LaunchInfo) -> _LaunchState:
        """Zeroed account and per-warp times."""
        n_ctas = info.n_ctas if info.program is not None else 0
        st = make_state(self.cfg, n_ctas, info.warps_per_cta, info.regs_per_thread,
                        info.baseline_ctas_per_sm, self._slots(info.shmem_bytes),
                        info.shmem_bytes)
        return _LaunchState(st, info, np.zeros(max(1, n_ctas * info.warps_per_cta), np.int64))

    def bind_core(self, launch_state: _LaunchState, core: Any) -> None:
        """Keeps the core's CTA table (read-only): barrier arrivals and placed warps."""
        launch_state.state = launch_state.state._replace(cta=core.cta)

    def bind_counters(self, launch_state: _LaunchState, counters: np.ndarray) -> None:
        """The engine-scaled barrier-stall counter."""
        launch_state.state = launch_state.state._replace(cnt=counters)

    def record_columns(self, launch_state: _LaunchState, chunk: Any) -> np.ndarray:
        """Counts each warp's records (the per-warp instruction histogram); one zero column."""
        wpc = launch_state.info.warps_per_cta
        gw = np.asarray(chunk.warp_cta, np.int64) * wpc + np.asarray(chunk.warp_in_cta, np.int64)
        n = np.diff(np.asarray(chunk.offsets, np.int64))
        ok = gw < launch_state.insts.size
        launch_state.insts[gw[ok]] = n[ok]
        return np.zeros((int(np.asarray(chunk.warp).size), 1), np.int64)

    def hook_state(self, launch_state: _LaunchState, rec_cols: np.ndarray,
                   rec_base: int) -> WMState:
        """The hooks' state (the same arrays for the whole launch)."""
        return launch_state.state

    def finish_launch(self, launch_state: _LaunchState,
                      counts: np.ndarray) -> dict[str, int | float]:
        """The ``wm_*`` statistics of the launch; the per-warp record in ``launches``."""
        st, info = launch_state.state, launch_state.info
        n = int(st.prm[P_N_WARPS])
        if n == 0:
            return {}
        wpc = info.warps_per_cta
        wt = st.wt[:n]
        per_block = rtru_blocks(wt[:, W_ELIGIBLE], wt[:, W_EXIT], wpc)
        app = rtru_app(per_block)
        self.launches.append(LaunchRecord(
            kernel=info.kernel, warps_per_cta=wpc, dispatch=wt[:, W_DISPATCH].copy(),
            eligible=wt[:, W_ELIGIBLE].copy(), exit=wt[:, W_EXIT].copy(),
            insts=launch_state.insts[:n].copy(), rtru=per_block, cta_threads=info.cta_threads,
            regs_per_thread=info.regs_per_thread, shmem_bytes=info.shmem_bytes,
            baseline_ctas_per_sm=info.baseline_ctas_per_sm))
        busy = (wt[:, W_EXIT] - wt[:, W_ELIGIBLE]).clip(min=0)
        cycles = int(counts[0, C_GPU_SIM_CYCLE])
        regs = self.cfg.sm.n_registers
        reg_cyc = int(st.sm[:, S_REG_CYC].sum())
        n_sms = st.sm.shape[0]
        self.launches[-1] = replace(self.launches[-1], cycles=cycles, n_registers=regs,
                                    series=series_rows(st))
        return {
            "wm_partial_blocks": int(st.sm[:, S_N_PARTIAL].sum()),
            "wm_warp_level_placements": int(st.sm[:, S_N_WARP_LEVEL].sum()),
            "wm_max_live_warps": int(st.sm[:, S_MAX_WARPS].max()),
            "wm_max_allocated_regs": int(st.sm[:, S_MAX_REGS].max()),
            "wm_dueling_epochs": int(st.prm[P_EPOCHS]),
            "wm_dueling_epochs_spatial": int(st.prm[P_EPOCHS_SPATIAL]),
            "wm_warps": n,
            "wm_warp_busy_cycles": int(busy.sum()),
            "wm_rtru_gm": float(app["gm"]),
            "wm_rtru_mean": float(app["mean"]),
            "wm_reg_cycles": reg_cyc,
            "wm_warp_entry_cycles": int(st.sm[:, S_WARP_CYC].sum()),
            "wm_active_warp_cycles": int(st.sm[:, S_ACTIVE_CYC].sum()),
            "wm_cta_cycles": int(st.sm[:, S_CTA_CYC].sum()),
            "wm_shmem_byte_cycles": int(st.sm[:, S_SHMEM_CYC].sum()),
            "wm_reg_utilization": reg_cyc / (n_sms * regs * cycles) if cycles else 0.0,
            "wm_series_rows": int(st.sm[:, S_LOG_N].sum()),
            "wm_series_dropped": int(st.sm[:, S_LOG_DROPPED].sum()),
            "wm_threshold_blocked_warps": int(wt[:, W_TBLOCKED].sum()),
        }


def series_rows(st: WMState) -> np.ndarray:
    """The stored log rows of every SM: ``int64[rows, 1 + N_L]`` (``sm`` first), SM-major."""
    parts = []
    for sm in range(st.sm.shape[0]):
        n = int(st.sm[sm, S_LOG_N])
        rows = np.empty((n, 1 + st.log.shape[2]), np.int64)
        rows[:, 0] = sm
        rows[:, 1:] = st.log[sm, :n]
        parts.append(rows)
    return np.concatenate(parts) if parts else np.zeros((0, 1 + st.log.shape[2]), np.int64)
