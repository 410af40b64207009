"""WIR (Kim & Ro, "WIR: Warp Instruction Reuse to Minimize Repeated Computations in GPUs",
HPCA 2018): warp register reuse through renaming and a value signature buffer, and warp
instruction reuse through a reuse buffer, with pending-retry, verify cache and load reuse.

Follows: specs/wir.md; docs/mechanisms/wir.md. Turned on by ``-o wir.enabled=true`` (the
defaults are the paper's RLPV design). ``ENERGY`` charges Table III's per-access energies of
the added structures through ``warpsim.power.model.mechanism_energy``; the savings (skipped
operand reads, executions and register writes) show in the engine's own counters.
"""

from __future__ import annotations

from warpsim.arch.wir import WIRConfig
from warpsim.mechanisms.spec import MechanismSpec

__all__ = ["ENERGY", "NAME", "SPEC"]

NAME = "wir"
ENERGY = (("wir_rename_accesses", "rename_table_pj"),
          ("wir_rb_lookups", "reuse_buffer_pj"), ("wir_rb_reservations", "reuse_buffer_pj"),
          ("wir_rb_updates", "reuse_buffer_pj"), ("wir_pend_retries", "reuse_buffer_pj"),
          ("wir_hashes", "hash_pj"),
          ("wir_vsb_lookups", "vsb_pj"), ("wir_vsb_inserts", "vsb_pj"),
          ("wir_pool_ops", "allocator_pj"),
          ("wir_refcount_ops", "refcount_pj"),
          ("wir_verify_cache_hits", "verify_cache_pj"),
          ("wir_verify_cache_misses", "verify_cache_pj"))
"""Dynamic energy of the added structures (Table III; spec §4.3 recipe)."""

SPEC = MechanismSpec(
    name=NAME,
    paper="Kim & Ro, WIR, HPCA 2018: Secs. V-VI (specs/wir.md)",
    config=WIRConfig,
    implementation="warpsim.mechanisms.wir.mechanism:WIR",
    hooks=("on_warp_launch", "on_warp_exit", "on_cta_release", "on_issue", "poll_parked",
           "extra_operand", "operand_bank", "result_delay", "can_writeback", "dest_bank",
           "writeback_read_bank", "on_writeback", "on_retire", "on_cycle_end"),
    stat_prefix="wir_",
    energy=ENERGY,
    conflicts=("regless",))  # RegLess has no register file whose registers WIR renames
"""The mechanism's declaration (``registry.PACKAGES``)."""
