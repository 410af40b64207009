"""ILP in the shader core (Xiang, "Toward Efficient SIMT Execution", ch. 4; CCGrid 2015): the
TLP core's one instruction in flight per warp, ALU data bypassing, the many-thread-aware
8-entry per-SM scoreboard with in-order commit, static/gshare/perfect branch prediction with
nullification, on every SM or on the ILP-SM kind of a heterogeneous GPU (GPU-H).

Follows: the dissertation §4.4-§4.5; specs/xiang-simt-efficiency.md §3 (state ``state.py``,
hooks ``hooks.py``, life cycle ``mechanism.py``, GPU configurations and kernel routing
``gpus.py``). docs/mechanisms/ilp.md lists what is modelled and every assumption.
"""

from __future__ import annotations

from warpsim.arch.ilp import ILPConfig
from warpsim.mechanisms.spec import MechanismSpec

__all__ = ["HOOKS", "NAME", "PAPER", "SPEC"]

NAME = "ilp"
PAPER = "Xiang, Toward Efficient SIMT Execution (dissertation) ch. 4: ILP core, GPU-H (spec §3)"
HOOKS = ("can_issue", "on_issue", "result_delay", "on_retire", "on_cycle_end")
"""The hook points it implements (``mechanisms/hooks.py``)."""

SPEC = MechanismSpec(name=NAME, paper=PAPER, config=ILPConfig,
                     implementation="warpsim.mechanisms.ilp.mechanism:ILPCore",
                     hooks=HOOKS, stat_prefix="ilp_")
"""The mechanism's declaration (``registry.PACKAGES``); the scoreboard's and bypass network's
energy is not modelled (the paper gives area only): no energy events."""
