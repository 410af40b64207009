"""WarpMan's per-launch state: the hook state (a NamedTuple of int64 arrays) and its layout.

Follows: specs/xiang-simt-efficiency.md §2.3 (per-SM allocation account, the workload buffer of
Fig. 31) and §2.6 (per-warp dispatch / eligible / exit cycles). The engine's registers and
shared memory are not tracked beyond the CTA count (timing/dispatch.py [A]), so the mechanism
keeps its own account of registers and warp-scheduler entries per SM.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

__all__ = ["M_DUELING", "M_SPATIAL", "M_TB", "M_TEMP", "M_THRESHOLD", "MODE_CODES", "WMState",
           "make_state"]

# modes (config ``warpman.mode``)
M_TB, M_TEMP, M_SPATIAL, M_DUELING, M_THRESHOLD = 0, 1, 2, 3, 4
MODE_CODES = {"tb": M_TB, "temp": M_TEMP, "temp_spatial": M_SPATIAL, "dueling": M_DUELING,
              "threshold": M_THRESHOLD}

# prm: launch constants and launch-wide dueling state
P_MODE = 0
P_WPC = 1            # warps per block
P_RPW = 2            # registers per warp (regs/thread rounded to the granule x 32)
P_TEMP_WARPS = 3     # 'temp' caps: block-level occupancy x warps (registers) per block
P_TEMP_REGS = 4
P_PHYS_WARPS = 5     # 'spatial' caps: the SM's warp-scheduler entries and registers
P_PHYS_REGS = 6
P_SLOTS = 7          # blocks per SM (TB slots, shared memory: block-granular)
P_THRESH = 8
P_EPOCH = 9
P_LEAD_SP = 10
P_LEAD_TEMP = 11
P_NEXT_EPOCH = 12    # next epoch boundary (dueling)
P_SPATIAL_ON = 13    # followers allocate spatially this epoch (dueling)
P_INSN_SP = 14       # leaders' thread instructions at the epoch start
P_INSN_TEMP = 15
P_EPOCHS = 16        # epochs decided
P_EPOCHS_SPATIAL = 17  # of them, won by spatial allocation
P_N_WARPS = 18       # warps in the launch (rows of ``wt``)
N_PRM = 19

# sm: per-SM allocation account (the workload buffer is S_PARTIAL) and counters
S_WARPS = 0          # live warps holding a scheduler entry
S_REGS = 1           # registers allocated
S_CTAS = 2           # resident blocks (TB slots, shared memory)
S_PARTIAL = 3        # CTA slot + 1 of the partially dispatched block (0: buffer invalid)
S_N_PARTIAL = 4      # blocks started partially
S_N_WARP_LEVEL = 5   # warps placed from the workload buffer
S_MAX_WARPS = 6      # most live warps seen
S_MAX_REGS = 7       # most registers allocated
N_SM = 8

# wt: per warp of the launch (global warp id = cta * warps_per_cta + position)
W_DISPATCH = 0       # its block was dispatched (took a TB slot)
W_ELIGIBLE = 1       # it got a scheduler entry and registers (placed)
W_EXIT = 2
W_SM = 3
N_W = 4


class WMState(NamedTuple):
    """The hook state (``hs``): same types every launch."""

    prm: np.ndarray
    """int64[N_PRM]."""
    sm: np.ndarray
    """int64[n_sms, N_SM]."""
    slot_cta: np.ndarray
    """int64[n_sms, n_cta_slots]: the block in each TB slot (-1 none)."""
    slot_gw: np.ndarray
    """int64[n_sms, n_warp_slots]: the launch's warp on each warp slot (-1 none)."""
    wt: np.ndarray
    """int64[n_warps, N_W]: per-warp cycles (-1 not yet)."""


def make_state(cfg, n_ctas: int, warps_per_cta: int, regs_per_thread: int,
               baseline_ctas: int, slots: int) -> WMState:
    """Zeroed state of one launch."""
    wm, sm = cfg.warpman, cfg.sm
    g = sm.n_regs_alloc_granule
    rpw = -(-regs_per_thread // g) * g * sm.n_threads_per_warp
    prm = np.zeros(N_PRM, np.int64)
    prm[P_MODE] = MODE_CODES[wm.mode]
    prm[P_WPC] = warps_per_cta
    prm[P_RPW] = rpw
    prm[P_TEMP_WARPS] = baseline_ctas * warps_per_cta
    prm[P_TEMP_REGS] = baseline_ctas * warps_per_cta * rpw
    prm[P_PHYS_WARPS] = sm.n_max_warps
    prm[P_PHYS_REGS] = sm.n_registers
    prm[P_SLOTS] = slots
    prm[P_THRESH] = wm.n_warp_threshold
    prm[P_EPOCH] = wm.dueling_epoch_cycles
    prm[P_LEAD_SP] = wm.n_leader_spatial_sm
    prm[P_LEAD_TEMP] = wm.n_leader_temp_sm
    prm[P_NEXT_EPOCH] = wm.dueling_epoch_cycles
    prm[P_SPATIAL_ON] = 1
    n_w = max(1, n_ctas * warps_per_cta)
    prm[P_N_WARPS] = n_ctas * warps_per_cta
    wt = np.full((n_w, N_W), -1, np.int64)
    return WMState(prm=prm, sm=np.zeros((sm.n_sms, N_SM), np.int64),
                   slot_cta=np.full((sm.n_sms, sm.n_max_ctas), -1, np.int64),
                   slot_gw=np.full((sm.n_sms, sm.n_max_warps), -1, np.int64), wt=wt)
