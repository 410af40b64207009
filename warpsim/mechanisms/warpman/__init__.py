"""WarpMan (Xiang, "Toward Efficient SIMT Execution", ch. 3; Xiang, Yang, Zhou, HPCA 2014):
warp-level allocation and release of registers and warp-scheduler entries (shared memory stays
per block), at most one partially dispatched block per SM with its workload buffer, contention
control by SM dueling or a 36-warp threshold, and the RTRU metric with per-warp dispatch,
eligible and exit cycles.

Follows: the dissertation §3.3-§3.5; specs/xiang-simt-efficiency.md §2 (dispatch logic and
workload buffer ``hooks.py``, state ``state.py``, RTRU ``rtru.py``, occupancy arithmetic
``occupancy.py``, the life cycle ``mechanism.py``). docs/mechanisms/warpman.md lists what is
modelled and every assumption.
"""

from __future__ import annotations

from warpsim.arch.warpman import WarpManConfig
from warpsim.mechanisms.spec import MechanismSpec

__all__ = ["HOOKS", "NAME", "PAPER", "SPEC"]

NAME = "warpman"
PAPER = "Xiang, Toward Efficient SIMT Execution (dissertation) ch. 3: WarpMan (spec §2)"
HOOKS = ("cta_fit", "warps_to_place", "on_warp_launch", "on_warp_exit", "release_warp_slot",
         "on_cta_release", "on_cycle_end")
"""The hook points it implements (``mechanisms/hooks.py``)."""

SPEC = MechanismSpec(name=NAME, paper=PAPER, config=WarpManConfig,
                     implementation="warpsim.mechanisms.warpman.mechanism:WarpMan",
                     hooks=HOOKS, stat_prefix="wm_")
"""The mechanism's declaration (``registry.PACKAGES``); the paper's hardware (a 40-bit
workload buffer per SM, dispatcher logic) is "nearly negligible": no energy events."""
