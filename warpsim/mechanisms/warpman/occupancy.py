"""Block-level and warp-level occupancy arithmetic (no timing): what WarpMan's spatial
allocation adds, and the registers block-level allocation never uses.

Follows: specs/xiang-simt-efficiency.md §2.2 (unused registers at block-level occupancy, Fig. 20,
Table 5) and §2.3 (the MM worked example: 5 full blocks + 1 partial block of 2 warps). The
block-level occupancy is GPGPU-Sim's ``max_cta`` (``timing.dispatch.occupancy_limits``, which
this module does not import: it is the independent arithmetic the tests compare against).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["PAPER_TABLE5", "Occupancy", "block_occupancy", "unused_register_gm"]

PAPER_TABLE5 = {
    # name: (shmem bytes/TB, warps/TB, regs/TB) (spec §2.4, with its [FIX]es for CT and PF)
    "CT": (0, 6, 4608), "MC": (0, 12, 7680), "RS": (4096, 16, 11776), "SN": (8192, 16, 8704),
    "HS": (3072, 8, 8960), "PF": (2048, 8, 3328), "SR": (4096, 16, 2560),
    "ST": (0, 32, 17408), "RAY": (0, 6, 12288), "MM": (2048, 8, 6144), "NN": (0, 8, 6114)}
"""The dissertation's Table 5 (GTX480: 32768 registers, 48 warps, 8 TBs, 48 kB per SM)."""


@dataclass(frozen=True, slots=True)
class Occupancy:
    """Occupancy of one kernel on one SM."""

    blocks: int
    """Full blocks at block-level allocation."""
    regs_per_warp: int
    regs_per_block: int
    unused_regs: int
    """Registers block-level allocation leaves unallocated."""
    unused_frac: float
    spatial_full_blocks: int
    """Warp-level allocation (temp+spatial) at launch: full blocks ..."""
    spatial_partial_warps: int
    """... plus the eligible warps of one partially dispatched block (0: none)."""
    limiter: str


def block_occupancy(*, regs_per_block: int, warps_per_block: int, shmem_per_block: int = 0,
                    n_registers: int = 32768, n_warps: int = 48, n_blocks: int = 8,
                    shmem_bytes: int = 48 * 1024) -> Occupancy:
    """Block-level occupancy and what warp-level allocation adds (Fig. 30)."""
    rpw = math.ceil(regs_per_block / warps_per_block)  # spec §2.7 item 7 [A]
    limits = {"regs": n_registers // regs_per_block, "warps": n_warps // warps_per_block,
              "blocks": n_blocks,
              "shmem": shmem_bytes // shmem_per_block if shmem_per_block else n_blocks}
    b = min(limits.values())
    limiter = "+".join(k for k, v in limits.items() if v == b)
    unused = n_registers - b * regs_per_block
    # warp-level: whole blocks while they fit, then one partial block
    full = b
    slots = min(n_blocks, limits["shmem"])
    free_w, free_r = n_warps - b * warps_per_block, n_registers - b * rpw * warps_per_block
    k = min(free_w, free_r // rpw) if full < slots else 0
    return Occupancy(blocks=b, regs_per_warp=rpw, regs_per_block=regs_per_block,
                     unused_regs=unused, unused_frac=unused / n_registers,
                     spatial_full_blocks=full, spatial_partial_warps=max(0, k),
                     limiter=limiter)


def unused_register_gm(rows: dict[str, tuple[int, int, int]], **sm) -> float:
    """1 - GM(allocated / total registers) over ``rows`` (name: (shmem, warps, regs) per
    block): the dissertation's "29.4 % of registers are never used" (spec §2.2 [D])."""
    n = sm.get("n_registers", 32768)
    logs = []
    for shmem, warps, regs in rows.values():
        o = block_occupancy(regs_per_block=regs, warps_per_block=warps, shmem_per_block=shmem,
                            **sm)
        logs.append(math.log(o.blocks * regs / n))
    return 1.0 - math.exp(sum(logs) / len(logs))
