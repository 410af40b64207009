"""Configuration of the coarse-grained L1 fetch (Xiang, dissertation ch. 5): every global load
also fetches the missing lines of its aligned 2- or 4-line group, with optional set dueling
between a baseline leader SM and a coarse leader SM. Off by default;
``-o coarse_fetch.enabled=true`` turns it on.

Follows: specs/xiang-simt-efficiency.md §4 (mechanism, set dueling) and §5.1 (knobs
``l1_neighbor_fetch`` 1 | 2 | 4 = ``n_group_lines``, ``l1_dueling`` = ``dueling``), STYLE.md §2.3.
"""

from __future__ import annotations

from dataclasses import dataclass

from warpsim.arch.schema import ConfigBase

__all__ = ["GROUP_LINES", "PAIRINGS", "CoarseFetchConfig"]

GROUP_LINES = (1, 2, 4)
"""Lines per aligned fetch group: 1 the baseline 128 B policy, 2 coarse2, 4 coarse4 (§5.5)."""
PAIRINGS = ("paired", "separate")
"""How the neighbour lines reach the L1 and L2 (``CoarseFetchConfig.pairing``)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class CoarseFetchConfig(ConfigBase):
    """Coarse-grained L1 fetch parameters (``GPUConfig.coarse_fetch``)."""

    _PATH = "coarse_fetch"

    enabled: bool = False
    """Neighbour fetch when True; False is the baseline."""
    n_group_lines: int = 2
    """Lines of the aligned group a global load brings in (``GROUP_LINES``): 2 = coarse2 (one
    neighbouring 128 B line), 4 = coarse4 (three), 1 = the baseline policy (§5.5, Fig. 57)."""
    dueling: bool = False
    """Set dueling (§5.5, Fig. 58): SM ``n_leader_base_sm`` always runs the baseline policy, SM
    ``n_leader_coarse_sm`` always fetches groups, every other SM follows the leader with more
    thread instructions in the last epoch."""
    dueling_epoch_cycles: int = 5000
    """Dueling [A]: core cycles between two comparisons of the leaders (the text gives none)."""
    n_leader_base_sm: int = 0
    """Dueling: the SM that always uses the baseline 128 B fetch (§5.5: "1 SM")."""
    n_leader_coarse_sm: int = 1
    """Dueling: the SM that always uses the group fetch (§5.5: "another SM")."""
    pairing: str = "paired"
    """How the neighbours are fetched (``PAIRINGS``). ``paired`` (the paper, §5.4-5.5): an L1D
    miss checks its group's other lines in the same tag lookup and requests the absent ones
    with it, one request per L2 slice, looked up by the L2 in the same cycle (the engine's L1
    fetch group, ``timing/l1group.py``). ``separate`` [A]: each neighbour is a load of its own
    through the SM's memory port (an L1 port cycle, MSHR and L2 request each; the comparison
    path, with ``queue_entries`` and ``filter_entries``)."""
    queue_entries: int = 32
    """[A] ``pairing=separate`` only: neighbour lines waiting per SM for a free L1 port cycle;
    a group whose lines do not fit is not fetched (counted in ``cf_lines_dropped``)."""
    filter_entries: int = 8
    """[A] ``pairing=separate`` only: groups per SM remembered as fetched already (FIFO): a
    load to a remembered group does not check its neighbours again; 0 checks them on every
    load."""

    def __post_init__(self) -> None:
        self._validate()

    def _check(self) -> None:
        if self.n_group_lines not in GROUP_LINES:
            self._fail("n_group_lines", "1, 2 or 4 (baseline, coarse2, coarse4)")
        self._at_least("dueling_epoch_cycles", 1)
        self._at_least("n_leader_base_sm", 0)
        self._at_least("n_leader_coarse_sm", 0)
        self._at_least("queue_entries", 1)
        self._at_least("filter_entries", 0)
        if self.pairing not in PAIRINGS:
            self._fail("pairing", "paired or separate")
        if self.pairing == "paired":
            for name in ("queue_entries", "filter_entries"):
                default = type(self).__dataclass_fields__[name].default
                if getattr(self, name) != default:
                    self._fail(name, f"{default} with pairing=paired (the neighbour queue and "
                               "filter of the separate path)",
                               hint="set coarse_fetch.pairing=separate")
        if self.n_leader_base_sm == self.n_leader_coarse_sm:
            self._fail("n_leader_coarse_sm", "an SM other than n_leader_base_sm")
