"""Coarse-grained L1 fetch with set dueling, and the probability-based locality measure that
motivates it (Xiang, "Toward Efficient SIMT Execution", ch. 5).

Follows: the dissertation §5.2-§5.5; specs/xiang-simt-efficiency.md §4. The locality measure
(``locality.py``), the per-SM global streams it is computed on (``streams.py``) and its surface
plot (``surface_plot.py``); the mechanism's state (``state.py``), hooks (``hooks.py``) and life
cycle (``mechanism.py``). docs/mechanisms/coarse-fetch.md lists what is modelled and every
assumption.
"""

from __future__ import annotations

from warpsim.arch.coarse_fetch import CoarseFetchConfig
from warpsim.mechanisms.spec import MechanismSpec

__all__ = ["HOOKS", "NAME", "PAPER", "SPEC"]

NAME = "coarse_fetch"
PAPER = ("Xiang, Toward Efficient SIMT Execution (dissertation) ch. 5: locality and "
         "coarse-grained L1 fetch (spec §4)")
HOOKS = ("on_issue", "on_cycle_end", "mem_request", "on_mem_sent", "on_mem_complete",
         "l1_fetch_group")
"""The hook points it implements (``mechanisms/hooks.py``)."""

SPEC = MechanismSpec(name=NAME, paper=PAPER, config=CoarseFetchConfig,
                     implementation="warpsim.mechanisms.coarse_fetch.mechanism:CoarseFetch",
                     hooks=HOOKS, stat_prefix="cf_")
"""The mechanism's declaration (``registry.PACKAGES``); the neighbour check and the dueling
counters are "minor hardware cost" (§5.6): no energy events of its own (the extra L1, L2 and
DRAM accesses are counted by the baseline's energy model)."""
