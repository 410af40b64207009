"""The fixed mechanism hook points of the timing engine, their signatures, and the shared no-op
implementations the engine receives for every hook no active mechanism implements.

Follows: STYLE.md §2.2 (fixed hook names, one signature each; off means free) and §2.4 (hooks are
jitted functions passed as arguments into the jitted cycle loop, as PySDM passes ``scheme``);
ARCHITECTURE.md §5 (dispatch, scheduling priority and issue permission, rename/reuse at issue,
operand read, writeback, retire).

Signatures (``hs`` is the mechanism's state, any numba-typable value; ``sm``, ``warp`` are the SM
and its warp slot; ``rec`` is the absolute trace record of the instruction; ``cycle`` int64):

- ``compile_pass(program, alloc, cfg) -> annotations`` (plain Python, before the run).
- ``cta_fit(hs, sm, cta, fits) -> bool``: whether CTA ``cta`` may be dispatched to ``sm`` now;
  ``fits`` is the baseline occupancy decision.
- ``on_cta_release(hs, sm, cta_slot, cycle) -> None``: the CTA's resources were released.
- ``issue_priority(hs, sm, warp, key) -> int64``: scheduling key (smaller issues first); ``key``
  is the policy's own key.
- ``can_issue(hs, sm, warp, pc, cycle) -> bool``: veto issue of the warp's next instruction
  (asked after the scoreboard and the ID_OC room; a vetoed warp counts as not ready, i.e. in
  ``sched_scoreboard_stall_cycles`` when no warp of the scheduler issues).
- ``on_issue(hs, sm, warp, pc, rec, cycle) -> int``: 1 when the mechanism completes the
  instruction itself (reuse hit: no operand read, no execution), else 0. Called for every
  issued instruction except barriers, ``bar.arrive`` and ``exit``.
- ``on_operand_read(hs, sm, warp, reg, bank, cycle) -> int``: bank accesses this operand read
  costs (baseline 1).
- ``on_writeback(hs, sm, warp, pc, rec, cycle) -> int``: extra bank writes (baseline 0).
- ``on_retire(hs, sm, warp, pc, rec, cycle) -> None``: the instruction left the pipeline.
- ``on_warp_launch(hs, sm, warp, cta_slot, pos, cycle) -> None``: warp slot ``warp`` starts
  warp ``pos`` (0-based within the CTA) of the CTA placed in CTA slot ``cta_slot``.
- ``on_warp_exit(hs, sm, warp, cycle) -> None``: the warp issued its last record and every
  instruction it issued wrote back (called before ``on_cta_release`` of its CTA).
- ``result_delay(hs, sm, warp, rec, cycle) -> int64``: extra pipeline cycles between dispatch
  to a unit and the result being ready (baseline 0; memory instructions: added when their data
  arrives).
- ``can_writeback(hs, sm, warp, pc, rec, cycle) -> bool``: veto the write of a ready result
  this cycle (asked after the bank write ports were found free; retried next cycle).
- ``extra_operand(hs, sm, warp, rec) -> int``: one more register the instruction's collector
  unit must read before dispatch (e.g. an injected MOV's source), or -1.
- ``on_cycle_end(hs, counters, cycle) -> int64``: end of every simulated cycle; returns the
  next cycle the engine must simulate rather than skip (INT64_MAX: no constraint).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from warpsim._jit import jit
from warpsim.timing.consts import INT64_MAX

__all__ = ["HOOK_NAMES", "Hooks", "can_issue", "can_writeback", "cta_fit", "extra_operand",
           "issue_priority", "noop_hooks", "noop_state", "on_cta_release", "on_cycle_end",
           "on_issue", "on_operand_read", "on_retire", "on_warp_exit", "on_warp_launch",
           "on_writeback", "result_delay"]

HOOK_NAMES = ("compile_pass", "cta_fit", "on_warp_launch", "on_cta_release", "issue_priority",
              "can_issue", "on_issue", "extra_operand", "on_operand_read", "result_delay",
              "can_writeback", "on_writeback", "on_retire", "on_warp_exit", "on_cycle_end")
"""The fixed hook points, in pipeline order."""


@jit
def cta_fit(hs, sm, cta, fits):  # pragma: no cover - trivial
    """Baseline: the occupancy decision stands."""
    return fits


@jit
def on_cta_release(hs, sm, cta_slot, cycle):  # pragma: no cover - trivial
    """Baseline: nothing to do."""
    return None


@jit
def issue_priority(hs, sm, warp, key):  # pragma: no cover - trivial
    """Baseline: the policy's key."""
    return key


@jit
def can_issue(hs, sm, warp, pc, cycle):  # pragma: no cover - trivial
    """Baseline: no veto."""
    return True


@jit
def on_issue(hs, sm, warp, pc, rec, cycle):  # pragma: no cover - trivial
    """Baseline: every instruction executes."""
    return 0


@jit
def on_operand_read(hs, sm, warp, reg, bank, cycle):  # pragma: no cover - trivial
    """Baseline: one bank access per operand."""
    return 1


@jit
def on_writeback(hs, sm, warp, pc, rec, cycle):  # pragma: no cover - trivial
    """Baseline: no extra bank writes."""
    return 0


@jit
def on_retire(hs, sm, warp, pc, rec, cycle):  # pragma: no cover - trivial
    """Baseline: nothing to do."""
    return None


@jit
def on_warp_launch(hs, sm, warp, cta_slot, pos, cycle):  # pragma: no cover - trivial
    """Baseline: nothing to do."""
    return None


@jit
def on_warp_exit(hs, sm, warp, cycle):  # pragma: no cover - trivial
    """Baseline: nothing to do."""
    return None


@jit
def result_delay(hs, sm, warp, rec, cycle):  # pragma: no cover - trivial
    """Baseline: the unit's latency only."""
    return 0


@jit
def can_writeback(hs, sm, warp, pc, rec, cycle):  # pragma: no cover - trivial
    """Baseline: a result writes as soon as its banks are free."""
    return True


@jit
def extra_operand(hs, sm, warp, rec):  # pragma: no cover - trivial
    """Baseline: the instruction's own operands only."""
    return -1


@jit
def on_cycle_end(hs, counters, cycle):  # pragma: no cover - trivial
    """Baseline: no cycle must be simulated."""
    return INT64_MAX


class Hooks(NamedTuple):
    """The jitted hook functions handed to the engine (``compile_pass`` runs before)."""

    cta_fit: Any
    on_cta_release: Any
    issue_priority: Any
    can_issue: Any
    on_issue: Any
    on_operand_read: Any
    on_writeback: Any
    on_retire: Any
    on_warp_launch: Any
    on_warp_exit: Any
    result_delay: Any
    can_writeback: Any
    extra_operand: Any
    on_cycle_end: Any


def noop_hooks() -> Hooks:
    """Every hook as the shared no-op: the baseline engine."""
    return Hooks(cta_fit, on_cta_release, issue_priority, can_issue, on_issue,
                 on_operand_read, on_writeback, on_retire, on_warp_launch, on_warp_exit,
                 result_delay, can_writeback, extra_operand, on_cycle_end)


def noop_state() -> np.ndarray:
    """The hook state passed when no mechanism is active (a one-element int64 array)."""
    return np.zeros(1, np.int64)
