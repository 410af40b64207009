"""Names and indices of the Warped-Compression statistics (all integers, ``wc_`` prefix) and
of the per-record columns handed to the timing hooks.

Follows: specs/warped-compression.md §9.2 (the counters the reproduction needs); the statistics
contract of docs/mechanisms/warped-compression.md.
"""

from __future__ import annotations

__all__ = ["GATE_STATS", "HOOK_STATS", "N_COLS", "WALK_STATS"]

_ENC = ("0", "1", "2", "3")
_SIM = ("zero", "128", "32k", "random")
_FULL = ("4_0", "4_1", "4_2", "8_0", "8_1", "8_2", "8_4", "unc")

WALK_STATS: tuple[str, ...] = (
    "wc_warp_insts_nondiv", "wc_warp_insts_div", "wc_mov_insts", "wc_reg_writes_nondiv",
    "wc_reg_writes_div", "wc_partial_pred_writes",
    *(f"wc_enc_nondiv_{e}" for e in _ENC), *(f"wc_enc_div_{e}" for e in _ENC),
    *(f"wc_whatif_enc_div_{e}" for e in _ENC), *(f"wc_bdi_full_{f}" for f in _FULL),
    *(f"wc_sim_nondiv_{s}" for s in _SIM), *(f"wc_sim_div_{s}" for s in _SIM),
    "wc_bank_reads", "wc_bank_writes", "wc_mov_bank_reads", "wc_mov_bank_writes",
    "wc_base_bank_reads", "wc_base_bank_writes", "wc_comp_activations",
    "wc_decomp_activations", "wc_reads_of_invalid_regs", "wc_compressed_regs_nondiv",
    "wc_allocated_regs_nondiv", "wc_compressed_regs_div", "wc_allocated_regs_div")
"""Statistics fixed by the trace (program order per warp), counted when chunks arrive."""
W = {n: i for i, n in enumerate(WALK_STATS)}

HOOK_STATS: tuple[str, ...] = ("wc_wakeups", "wc_wakeup_stall_cycles", "wc_comp_struct_stalls",
                               "wc_decomp_struct_stalls", "wc_mov_collector_stalls")
"""Statistics counted by the timing hooks."""
H = {n: i for i, n in enumerate(HOOK_STATS)}

GATE_STATS: tuple[str, ...] = (
    "wc_bank_cycles", "wc_gated_bank_cycles", "wc_gated_bank_cycles_resident",
    *(f"wc_gated_bank_cycles_b{b}" for b in range(32)))
"""Power-gating statistics, from the banks' on-intervals at the end of a launch."""

# record columns (one row per trace record, in the engine's replay order)
COL_FLAGS = 0
"""Bit flags: ``FL_*``."""
COL_DST_BANKS = 1
"""Banks of the stored image of destination ``k`` of ``pc_dst`` in bits ``4k..4k+3``."""
COL_DECOMP = 2
"""Decompressions the record's own source reads need."""
COL_MOV_REG = 3
"""Physical register a dummy MOV decompresses before the record's write, or -1."""
COL_COMP = 4
"""Compressor activations of the record's writes."""
N_COLS = 5

FL_PARTIAL = 1
"""The write is partial (exec mask != the warp's valid lanes): stored uncompressed."""
FL_DIV = 2
"""SIMT-divergent instruction (active mask != valid lanes)."""
FL_READS_COMPRESSED = 4
"""Some source operand is compressed (for ``latency_only_when_compressed``)."""
FL_WRITES_COMPRESSED = 8
"""Some destination is stored compressed."""
FL_HAS_DST = 16
"""The record writes registers (the compression stage applies)."""
FL_MOV_SHIFT = 8
"""``flags >> FL_MOV_SHIFT``: dummy MOVs before the record's write."""
