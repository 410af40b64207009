"""Grid-wide synchronisation of cooperative launches (``cooperative_groups::this_grid().sync()``).

Follows: CUDA's cooperative-groups header (``details/sync.h``, ``details/driver_abi.h``): the
grid's barrier is a 32-bit arrival counter in a workspace whose 64-bit address the driver
passes in ``%envreg1`` (high half) and ``%envreg2`` (low half); a kernel that finds it 0 traps.
Each CTA's thread 0 adds to the counter (``atom.add.release.gpu``) and spins
(``ld.acquire.gpu``) until the counter's top bit flips.
Assumptions:
  [A] A cooperative launch runs all its CTAs in one batch of the functional executor, so a
      spinning CTA yields to the others (``executor.YIELD_BRANCHES``) until all arrive; the
      timing model replays each warp's recorded spin iterations.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np

from warpsim.functional.memory import GlobalMemory

__all__ = ["HINT", "grid_workspace"]

HINT = ("a grid sync (cooperative_groups::this_grid().sync()) traps outside a cooperative "
        "launch: launch with cudaLaunchCooperativeKernel, or "
        "kernel.configure(grid, block, cooperative=True)")


@contextmanager
def grid_workspace(memory: GlobalMemory, cooperative: bool) -> Iterator[int]:
    """A zeroed 16-byte workspace for one cooperative launch (its address; 0 otherwise),
    freed when the launch ends."""
    if not cooperative:
        yield 0
        return
    addr = memory.alloc(16, align=16, name="grid sync workspace")
    memory.write(addr, np.zeros(16, np.uint8))
    try:
        yield addr
    finally:
        memory.free(addr)
