"""Names and indices of the uniform-vector statistics (``uv_`` prefix), the per-record columns
handed to the timing hooks and the per-record flag bits.

Follows: specs/xiang-simt-efficiency.md §1.14 (the counters the reproduction needs);
docs/mechanisms/uniform-vectors.md (what each statistic counts).
"""

from __future__ import annotations

__all__ = ["COL_FLAGS", "COL_KEY", "COL_NTHR", "HOOK_STATS", "H", "N_COLS", "RF_BCAST", "RF_DET",
           "RF_FULL", "RF_TRUE", "W", "WALK_STATS"]

COL_FLAGS, COL_KEY, COL_NTHR = 0, 1, 2
N_COLS = 3
"""Record columns: flags (``RF_*``), the IRB value key (a hash of the pc, source values and
result values) and the executing thread count."""

RF_FULL = 1
"""The record's active mask is the warp's launch mask (not divergent)."""
RF_TRUE = 2
"""An eligible instruction whose every result is uniform in the trace (true uniformity)."""
RF_DET = 4
"""Detected intra-warp uniform by the token design's decode logic (program-order walk)."""
RF_BCAST = 8
"""A load whose lanes all read one address under the full mask (its address registers hold one
value in every lane, in the trace): its result comes from the broadcast path."""

WALK_STATS: tuple[str, ...] = (
    "uv_walk_eligible_insts", "uv_walk_detected_insts", "uv_walk_true_uniform_insts",
    "uv_walk_detected_not_true", "uv_walk_eligible_thread_ops", "uv_walk_broadcast_loads")
"""Statistics of the program-order decode analysis (token-design detection against the trace's
true uniformity), counted when chunks arrive."""
W = {n: i for i, n in enumerate(WALK_STATS)}

HOOK_STATS: tuple[str, ...] = (
    "uv_detected_insts", "uv_converted_insts", "uv_not_converted_srf_full",
    "uv_uniform_loads", "uv_irb_lookups", "uv_irb_tag_hits", "uv_irb_hits",
    "uv_irb_value_mismatches", "uv_irb_misses", "uv_irb_fills",
    "uv_redundant_ops_intra", "uv_redundant_ops_inter", "uv_redundant_ops_combined",
    "uv_thread_insts", "uv_cow_narrow", "uv_cow_all", "uv_copy_insts",
    "uv_token_sets", "uv_token_resets", "uv_srf_allocs", "uv_srf_frees", "uv_srf_reads",
    "uv_srf_writes", "uv_vrf_lane_reads", "uv_vrf_lane_writes", "uv_base_vrf_lane_reads",
    "uv_base_vrf_lane_writes", "uv_alu_lane_ops", "uv_base_alu_lane_ops",
    "uv_broadcast_operands", "uv_scalar_issues", "uv_alu_ops_protected", "uv_alu_ops_total",
    "uv_vrf_live_cycles", "uv_vrf_protected_live_cycles", "uv_srf_peak_occupancy",
    "uv_broadcast_loads", "uv_irb_faults", "uv_irb_parity_errors", "uv_irb_silent_corruptions",
    "uv_alu_faults", "uv_alu_faults_detected", "uv_alu_faults_masked", "uv_rename_stalls",
    "uv_srf_wb_releases")
"""Statistics counted by the timing hooks, in issue order."""
H = {n: i for i, n in enumerate(HOOK_STATS)}
