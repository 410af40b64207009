"""What the timing driver tells a mechanism about a launch when it starts.

Follows: docs/dev-contracts.md "Mechanisms" (``Mechanism.start_launch(info)``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["LaunchInfo"]


@dataclass(frozen=True, slots=True)
class LaunchInfo:
    """What the driver knows about a launch when it starts."""

    cfg: Any
    """The ``GPUConfig``."""
    program: Any
    """``functional.program.Program`` of the kernel (None for the warm-up launch)."""
    alloc: Any
    """``ptx.regalloc.Allocation`` the timing replays (after ``compile_pass``)."""
    tables: Any
    """``timing.static.StaticTables``."""
    kernel: str
    n_ctas: int
    cta_threads: int
    warps_per_cta: int
    regs_per_thread: int
    shmem_bytes: int
    ctas_per_sm: int
    """CTA slots per SM for this launch (after ``Mechanism.ctas_per_sm``)."""
    baseline_ctas_per_sm: int
    """The occupancy limit without the mechanism."""
    unit_types: dict[str, int] = field(default_factory=dict)
    """Type id (``StaticTables.type_info`` row) of each unit the mechanisms add, by name."""
    sm_ctas: Any = None
    """``int64[n_sms]``: CTA slots of each SM for this launch (its kind's occupancy after
    ``Mechanism.ctas_per_sm``; -1 for an SM outside the launch's SM set)."""
    sm_kind: Any = None
    """``int64[n_sms]``: the kind (``arch.sm_kinds``) of each SM; all 0 without kinds."""
