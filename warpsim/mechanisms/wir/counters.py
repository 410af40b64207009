"""WIR's statistics (specs/wir.md §6 "Counters the simulator must emit"): names, in the order
of the hooks' ``stats`` vector.

Follows: specs/wir.md §6-§7; docs/mechanisms/wir.md (what each one counts).
"""

from __future__ import annotations

__all__ = ["S", "STATS"]

STATS = (
    "wir_renamed_insts",        # instructions through the rename stage
    "wir_executed_insts",       # renamed instructions that executed (not reuse hits)
    "wir_rb_lookups",
    "wir_rb_hits",              # all reuse hits (direct + pending-retry)
    "wir_rb_pending_hits",      # hits through the pending-retry queue
    "wir_rb_misses",
    "wir_rb_reservations",      # misses that reserved their entry (pending bit)
    "wir_rb_evictions",         # valid entries replaced or invalidated
    "wir_rb_updates",           # entries written at retire
    "wir_hits_alu",
    "wir_hits_ld_ro",
    "wir_hits_ld_shared",
    "wir_hits_ld_global",
    "wir_bypass_class",         # not an eligible class (or loads with load reuse off)
    "wir_bypass_divergent",
    "wir_bypass_source",        # a pinned or invalid source
    "wir_bypass_store_flag",
    "wir_bypass_barrier_sat",
    "wir_low_reg_misses",       # RB misses in low register mode (evict, no insert)
    "wir_pendq_enqueues",
    "wir_pendq_full",
    "wir_pend_retries",
    "wir_pend_requeues",
    "wir_pend_fallbacks",       # tag replaced while waiting: executed
    "wir_hashes",
    "wir_vsb_lookups",
    "wir_vsb_hits",             # hash matches
    "wir_vsb_verified",         # hash match and equal value: no register write
    "wir_vsb_false_positives",
    "wir_vsb_misses",
    "wir_vsb_inserts",
    "wir_vsb_evictions",
    "wir_allocations",
    "wir_releases",
    "wir_alloc_stalls",         # writeback attempts that found no free register
    "wir_low_reg_evictions",    # entries evicted to free registers
    "wir_inplace_fallbacks",    # deadlock fallback: overwrite a register only its mapping holds
    "wir_reg_writes",           # result bank writes (dummy MOVs not included)
    "wir_dummy_movs",
    "wir_divergent_writes",
    "wir_dedicated_allocs",
    "wir_inplace_writes",       # divergent writes into a pinned register
    "wir_verify_reads",
    "wir_verify_cache_hits",
    "wir_verify_cache_misses",  # = verify reads that reach the banks
    "wir_rename_accesses",      # rename-table reads and writes (Table III energy)
    "wir_refcount_ops",
    "wir_pool_ops",
    "wir_arith_mismatches",     # checking mode: reused arithmetic result != executed result
    "wir_load_mismatches",      # reused load value != the functional value (informational)
    "wir_peak_regs_in_use",     # per launch: max over SMs and time (device: sum over launches)
)
"""Names of the hook statistics, in ``stats`` order."""

S = {n: i for i, n in enumerate(STATS)}
"""Index of each statistic in ``stats``."""
