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
- ``can_issue(hs, sm, warp, pc, cycle) -> bool``: veto issue of the warp's next instruction.
- ``on_issue(hs, sm, warp, pc, rec, cycle) -> int``: 1 when the mechanism completes the
  instruction itself (reuse hit: no operand read, no execution), else 0. Called for every
  issued instruction except barriers, ``bar.arrive`` and ``exit``.
- ``on_operand_read(hs, sm, warp, reg, bank, cycle) -> int``: bank accesses this operand read
  costs (baseline 1).
- ``on_writeback(hs, sm, warp, pc, rec, cycle) -> int``: extra bank writes (baseline 0).
- ``on_retire(hs, sm, warp, pc, rec, cycle) -> None``: the instruction left the pipeline.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from warpsim._jit import jit

__all__ = ["HOOK_NAMES", "Hooks", "can_issue", "cta_fit", "issue_priority", "noop_hooks",
           "noop_state", "on_cta_release", "on_issue", "on_operand_read", "on_retire",
           "on_writeback"]

HOOK_NAMES = ("compile_pass", "cta_fit", "on_cta_release", "issue_priority", "can_issue",
              "on_issue", "on_operand_read", "on_writeback", "on_retire")
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


def noop_hooks() -> Hooks:
    """Every hook as the shared no-op: the baseline engine."""
    return Hooks(cta_fit, on_cta_release, issue_priority, can_issue, on_issue,
                 on_operand_read, on_writeback, on_retire)


def noop_state() -> np.ndarray:
    """The hook state passed when no mechanism is active (a one-element int64 array)."""
    return np.zeros(1, np.int64)
