"""Configuration of WIR (Kim & Ro, "WIR: Warp Instruction Reuse to Minimize Repeated Computations
in GPUs", HPCA 2018): warp register reuse (renaming onto shared physical warp registers through a
value signature buffer) and warp instruction reuse (a reuse buffer tagged by opcode and physical
source IDs). Off by default; ``-o wir.enabled=true`` turns on the headline design RLPV.

Follows: specs/wir.md §2 (structures), §3 (variants R/RL/RLP/RLPV/RPV/RLPVc/NoVSB as settings of
these fields), §4.3 (Table III energies), §7 (every knob configurable), STYLE.md §2.3.
"""

from __future__ import annotations

from dataclasses import dataclass

from warpsim.arch.schema import ConfigBase

__all__ = ["REGISTER_POLICIES", "WIRConfig"]

REGISTER_POLICIES = ("max", "capped")
"""Physical register policy (spec §2.9): ``max`` uses every physical register, ``capped``
limits use to (logical registers per warp x live warps) (RLPVc)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class WIRConfig(ConfigBase):
    """WIR parameters (``GPUConfig.wir``); the defaults are the paper's RLPV (Table II)."""

    _PATH = "wir"

    enabled: bool = False
    """Warp instruction and register reuse when True; False is the baseline."""
    n_phys_registers: int = 0
    """Physical warp registers per SM (paper: 1024); 0: the SM's register file,
    ``sm.n_registers / sm.n_threads_per_warp``."""
    rb_entries: int = 256
    """Reuse-buffer entries per SM, direct mapped (Table II; Fig. 21 sweeps 32-512); 0 turns
    instruction reuse off (register sharing only)."""
    vsb_entries: int = 256
    """Value-signature-buffer entries per SM, direct mapped (Table II; Fig. 20); 0 is the NoVSB
    design: a new register for every convergent write."""
    verify_cache_entries: int = 8
    """Verify-cache entries, fully associative LRU (Table II, §VI-C); 0: every verify read goes
    to the register banks (the RLP design)."""
    load_reuse: bool = True
    """Reuse of loads (§VI-A): store flags, barrier counts, TB IDs; False is RPV / R."""
    pending_retry: bool = True
    """Misses reserve their entry and later same-tag instructions wait (§VI-B); False: RL."""
    pending_queue_entries: int = 16
    """Pending-retry queue entries per SM (§VI-B); a full queue sends the instruction to
    execution."""
    extra_delay_cycles: int = 4
    """Backend cycles added to every executed instruction (rename, reuse, 2 allocation stages;
    §VII-A; Fig. 22 sweeps 3-7)."""
    reuse_hit_latency: int = 3
    """Cycles from issue to retire of a reuse hit (rename, reuse, retire) [A8]."""
    register_policy: str = "max"
    """One of ``REGISTER_POLICIES`` (spec §2.9)."""
    release_delay_cycles: int = 2
    """Cycles before a register whose count reached 0 is back in the free pool (the pipelined
    reference counter, Table III)."""
    hash_bits: int = 32
    """Width of the value signature (H3 hash, §V-B); small widths force false positives
    (tests of the verify-mismatch path)."""
    hash_seed: int = 1
    """Seed of the H3 matrix and of the reuse-buffer index hash [A5]."""
    check: bool = False
    """Checking mode (spec §2.14): a reused arithmetic result that differs from the executed
    one, or a broken reference-count invariant at the end of a launch, raises InternalError
    instead of being counted only."""
    rename_table_pj: float = 3.50
    """Energy per rename-table access (Table III)."""
    reuse_buffer_pj: float = 4.71
    """Energy per reuse-buffer access (Table III)."""
    hash_pj: float = 4.85
    """Energy per hash generation (Table III)."""
    vsb_pj: float = 4.96
    """Energy per value-signature-buffer access (Table III)."""
    allocator_pj: float = 1.35
    """Energy per free-pool access (Table III)."""
    refcount_pj: float = 0.32
    """Energy per reference-count update (Table III)."""
    verify_cache_pj: float = 2.93
    """Energy per verify-cache access (Table III)."""

    def __post_init__(self) -> None:
        self._validate()

    def _check(self) -> None:
        if self.register_policy not in REGISTER_POLICIES:
            self._fail("register_policy", f"one of {', '.join(REGISTER_POLICIES)}")
        if self.n_phys_registers != 0 and self.n_phys_registers < 64:
            self._fail("n_phys_registers", "0 (the SM's register file) or >= 64")
        for name in ("rb_entries", "vsb_entries", "verify_cache_entries", "extra_delay_cycles",
                     "release_delay_cycles", "hash_seed", "rename_table_pj", "reuse_buffer_pj",
                     "hash_pj", "vsb_pj", "allocator_pj", "refcount_pj", "verify_cache_pj"):
            self._at_least(name, 0)
        self._at_least("pending_queue_entries", 1)
        self._at_least("reuse_hit_latency", 1)
        if not 1 <= self.hash_bits <= 32:
            self._fail("hash_bits", "1 .. 32")
        if self.verify_cache_entries > 64:
            self._fail("verify_cache_entries", "<= 64")
