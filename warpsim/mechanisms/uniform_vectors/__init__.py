"""Uniform vectors (Xiang, "Toward Efficient SIMT Execution", ch. 2; Xiang, Yang, Mantor,
Rubin, Zhou, ICS 2013): decode-time detection of intra-warp uniform vector instructions, their
execution as scalar operations with token bits or a scalar register file (rename table, free
list, fall back when full), copy-on-write under divergence, the per-SM inter-warp uniform
instruction reuse buffer and opportunistic redundancy for reliability.

Follows: specs/xiang-simt-efficiency.md §1; docs/mechanisms/uniform-vectors.md. Turned on by
``-o uniform_vectors.enabled=true``. ``ENERGY`` charges the added structures (SRF, IRB, Table 2
and spec §1.12 [A]); the vector register file and ALU savings are in the ``uv_*`` lane counts,
which the reproduction prices (``experiments/uv_energy.py``).
"""

from __future__ import annotations

from warpsim.arch.uniform_vectors import UniformVectorsConfig
from warpsim.mechanisms.spec import MechanismSpec

__all__ = ["ENERGY", "HOOKS", "NAME", "SPEC"]

NAME = "uniform_vectors"
HOOKS = ("on_warp_launch", "on_warp_exit", "can_issue", "on_issue", "operand_bank",
         "unit_choice", "dest_bank", "on_retire", "on_cycle_end")
"""The hook points it implements (``mechanisms/hooks.py``)."""
ENERGY = (("uv_srf_reads", "srf_read_pj"), ("uv_srf_writes", "srf_write_pj"),
          ("uv_irb_lookups", "irb_access_pj"), ("uv_irb_fills", "irb_access_pj"))
"""Dynamic energy of the SRF (Table 2) and the IRB (spec §1.12 [A])."""

SPEC = MechanismSpec(
    name=NAME,
    paper="Xiang, Toward Efficient SIMT Execution (dissertation) ch. 2: uniform vectors "
          "(spec §1)",
    config=UniformVectorsConfig,
    implementation="warpsim.mechanisms.uniform_vectors.mechanism:UniformVectors",
    hooks=HOOKS, stat_prefix="uv_", energy=ENERGY)
"""The mechanism's declaration (``registry.PACKAGES``)."""
