"""The WarpMan ``Mechanism``: per-launch state, the TB-slot cap, per-warp times and statistics.

Follows: specs/xiang-simt-efficiency.md §2.3 (mechanism), §2.2 (RTRU), §2.6 (counters);
docs/mechanisms/warpman.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field
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
    S_MAX_REGS,
    S_MAX_WARPS,
    S_N_PARTIAL,
    S_N_WARP_LEVEL,
    W_DISPATCH,
    W_ELIGIBLE,
    W_EXIT,
    WMState,
    make_state,
)

__all__ = ["LaunchRecord", "WarpMan"]


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


class WarpMan(Mechanism):
    """WarpMan in the timing engine (``-o warpman.enabled=true``, ``warpman.mode``).

    ``launches`` keeps a ``LaunchRecord`` per finished launch (per-warp times, RTRU per block).
    """

    name = "warpman"
    heterogeneous_sms = False  # its register and scheduler pools are the sm section's
    n_record_columns = 1  # unused by the hooks: the chunks give each warp's instruction count

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
                        info.baseline_ctas_per_sm, self._slots(info.shmem_bytes))
        return _LaunchState(st, info, np.zeros(max(1, n_ctas * info.warps_per_cta), np.int64))

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
        }
