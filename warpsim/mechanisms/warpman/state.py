"""WarpMan's per-launch state: the hook state (a NamedTuple of int64 arrays) and its layout.

Follows: specs/xiang-simt-efficiency.md §2.3 (per-SM allocation account, the workload buffer of
Fig. 31) and §2.6 (counters: per-warp dispatch / eligible / exit cycles; the per-SM series of
allocated registers, warps, resident blocks and shared memory). The engine's registers and
shared memory are not tracked beyond the CTA count (timing/dispatch.py [A]), so the mechanism
keeps its own account of registers and warp-scheduler entries per SM.

The per-SM series is an event log (``log``): a row per cycle in which the SM's allocation
changed (a warp placed or exited, a block started or released; several changes in one cycle
give one row, holding the values after the last), in a bounded buffer of ``SERIES_ROWS`` rows
per SM; rows past it are counted (``S_LOG_DROPPED``), not stored. The time integrals
(``S_*_CYC``) are accumulated at every change, so they stay exact when rows are dropped.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from warpsim.timing.fields import N_CTA_FIELDS

__all__ = ["LOG_COLUMNS", "M_DUELING", "M_SPATIAL", "M_TB", "M_TEMP", "M_THRESHOLD", "MODE_CODES",
           "SERIES_ROWS", "WMState", "make_state"]

SERIES_ROWS = 4096
"""[A] Rows of each SM's allocation log per launch (the quick set needs at most ~600)."""

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
P_SHMEM = 19         # shared memory per block (bytes)
N_PRM = 20

# sm: per-SM allocation account (the workload buffer is S_PARTIAL) and counters
S_WARPS = 0          # live warps holding a scheduler entry
S_REGS = 1           # registers allocated
S_CTAS = 2           # resident blocks (TB slots, shared memory)
S_PARTIAL = 3        # CTA slot + 1 of the partially dispatched block (0: buffer invalid)
S_N_PARTIAL = 4      # blocks started partially
S_N_WARP_LEVEL = 5   # warps placed from the workload buffer
S_MAX_WARPS = 6      # most live warps seen
S_MAX_REGS = 7       # most registers allocated
S_ACTIVE = 8         # placed warps not exited yet
S_SHMEM = 9          # shared memory in use (bytes)
S_LAST = 10          # cycle of the last allocation change
S_REG_CYC = 11       # time integrals up to S_LAST: registers x cycles
S_WARP_CYC = 12      # scheduler entries held x cycles
S_ACTIVE_CYC = 13    # active warps x cycles
S_CTA_CYC = 14       # resident blocks x cycles
S_SHMEM_CYC = 15     # shared-memory bytes x cycles
S_LOG_N = 16         # rows of ``log`` used
S_LOG_DROPPED = 17   # rows not stored (buffer full)
N_SM = 18

# log: per SM, one row per cycle with an allocation change (values after it)
L_CYCLE, L_REGS, L_WARPS, L_ACTIVE, L_CTAS, L_SHMEM = 0, 1, 2, 3, 4, 5
N_L = 6
LOG_COLUMNS = ("cycle", "regs", "warps", "active_warps", "ctas", "shmem_bytes")
"""``log`` columns: registers allocated, scheduler entries held, warps placed and not exited,
resident blocks, shared memory in use (bytes)."""

# wt: per warp of the launch (global warp id = cta * warps_per_cta + position)
W_DISPATCH = 0       # its block was dispatched (took a TB slot)
W_ELIGIBLE = 1       # it got a scheduler entry and registers (placed)
W_EXIT = 2
W_SM = 3
W_TBLOCKED = 4       # 1: the threshold refused its allocation at least once
N_W = 5

_RO_CTA = np.zeros((1, 1, N_CTA_FIELDS), np.int64)
_RO_CTA.setflags(write=False)
"""The core's CTA table's stand-in until ``bind_core`` (same numba type: read-only)."""


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
    log: np.ndarray
    """int64[n_sms, SERIES_ROWS, N_L]: the allocation log."""
    cta: np.ndarray
    """The core's ``cta[sm, c, F_CTA_*]`` (read-only; ``Mechanism.bind_core``)."""
    cnt: np.ndarray
    """int64[n_sms, 1]: the engine-scaled counter ``wm_partial_barrier_stall_cycles``
    (``Mechanism.bind_counters``)."""


def make_state(cfg, n_ctas: int, warps_per_cta: int, regs_per_thread: int,
               baseline_ctas: int, slots: int, shmem_bytes: int = 0) -> WMState:
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
    prm[P_SHMEM] = shmem_bytes
    wt = np.full((n_w, N_W), -1, np.int64)
    wt[:, W_TBLOCKED] = 0
    rows = SERIES_ROWS if n_ctas > 0 else 1
    return WMState(prm=prm, sm=np.zeros((sm.n_sms, N_SM), np.int64),
                   slot_cta=np.full((sm.n_sms, sm.n_max_ctas), -1, np.int64),
                   slot_gw=np.full((sm.n_sms, sm.n_max_warps), -1, np.int64), wt=wt,
                   log=np.zeros((sm.n_sms, rows, N_L), np.int64), cta=_RO_CTA,
                   cnt=np.zeros((sm.n_sms, 1), np.int64))
