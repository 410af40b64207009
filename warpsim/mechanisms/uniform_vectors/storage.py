"""Storage of the structures the uniform-vector designs add to an SM, and where the token
design keeps a uniform register's scalar value, derived from the GPU configuration: the token
file, the scalar register file, its rename map table and the reuse buffer (the dissertation's
Table 1 and §2.4's bit counts).

Follows: specs/xiang-simt-efficiency.md §1.5 (token file: one bit per physical vector
register; scalar in lane warpsize - NumSP), §1.6 (SRF 128 x 32 b, rename table 512 x 7 b),
§1.8 (IRB 8 x (10 + 3 x 32 + 32 + 3 + 8) = 1192 bits, +1 parity bit per entry with
reliability). Assumptions:
  [A] NumSP = warpsize / the SP unit's initiation interval (GTX285: 32 / 4 = 8).
  [A] The rename table's entry is log2(SRF entries) bits, its valid bit not counted (as the
      text's 3584 bits); the IRB's LRU field is log2(entries) bits (3 for 8 entries).
"""

from __future__ import annotations

import math
from typing import Any

__all__ = ["IRB_PC_TAG_BITS", "IRB_OPCODE_BITS", "num_sp", "scalar_lane", "storage_bits"]

IRB_PC_TAG_BITS = 10
"""Partial-PC tag of an IRB entry (§2.4.3)."""
IRB_OPCODE_BITS = 8
"""Opcode field of an IRB entry (§2.4.3)."""
_WORD = 32


def num_sp(cfg: Any) -> int:
    """SIMD lanes of an SM (NumSP): the warp size over the SP unit's initiation interval."""
    return cfg.sm.n_threads_per_warp // cfg.pipelines.fp32.initiation_interval_cycles


def scalar_lane(warpsize: int, n_sp: int) -> int:
    """The token design's lane holding a uniform register's value: warpsize - NumSP, in the
    last batch of threads executed, so a uniform source is not overwritten by its own
    instruction's earlier batches (§1.5: 24 with 8 SPs, 16 with 16, 0 with 32)."""
    if n_sp <= 0 or warpsize % n_sp:
        raise ValueError(f"NumSP {n_sp} must divide the warp size {warpsize}")
    return warpsize - n_sp


def _log2(n: int) -> int:
    return max(1, math.ceil(math.log2(n)))


def storage_bits(cfg: Any) -> dict[str, int]:
    """Bits per SM of each added structure for ``cfg`` (a ``GPUConfig``): ``token_file``,
    ``srf``, ``rename_table``, ``irb`` (0 without an IRB; the oracle's one entry per static
    instruction has no fixed size: -1) and ``vector_registers``."""
    uv = cfg.uniform_vectors
    n_vregs = cfg.sm.n_registers // cfg.sm.n_threads_per_warp
    n = uv.n_irb_entries
    if n > 0:
        entry = IRB_PC_TAG_BITS + 3 * _WORD + _WORD + _log2(n) + IRB_OPCODE_BITS
        irb = n * (entry + int(uv.reliability))
    else:
        irb = n  # 0: none, -1: the oracle
    return {"vector_registers": n_vregs, "token_file": n_vregs,
            "srf": uv.n_srf_entries * _WORD,
            "rename_table": n_vregs * _log2(uv.n_srf_entries), "irb": irb}
