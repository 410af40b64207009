"""RegLess (Kloosterman et al., MICRO-50 2017): the register file replaced by operand staging
units filled just in time, per compiler-formed region, under a capacity manager.

Follows: the paper §3 (compiler: ``kernel_view.py``, ``divergence.py`` Algorithm 2,
``regions.py`` Algorithm 1, ``lifetimes.py`` annotations and metadata, ``annotate.py`` the
pass and its staging check, ``regions_cli.py`` the ``warpsim regions`` command) and §4
(hardware); specs/regless.md. docs/mechanisms/regless.md lists what is modelled and every
assumption.
"""

from __future__ import annotations

from warpsim.arch.regless import RegLessConfig
from warpsim.mechanisms.spec import MechanismSpec

__all__ = ["ENERGY", "HOOKS", "NAME", "PAPER", "SPEC", "STATIC"]

NAME = "regless"
PAPER = "Kloosterman et al., RegLess: Just-in-Time Operand Staging for GPUs (MICRO-50 2017)"
HOOKS = ("compile_pass", "on_warp_launch", "on_warp_exit", "fetch_word", "can_issue", "on_issue",
         "on_retire", "on_cycle_end", "mem_request", "on_mem_sent", "on_mem_complete")
"""The hook points it implements (``mechanisms/hooks.py``)."""

ENERGY = (("rl_compressor_ops", "compressor_pj"), ("rl_meta_words", "meta_word_pj"))
"""Dynamic energy of its own units: compressor operations, metadata fetch and decode. The OSUs
replace the register file: ``experiments/rl_energy.py`` scales that component (spec §6.1)."""
STATIC = (("compressor_leak_mw", None),)
"""Leakage of the SM's compressors."""

SPEC = MechanismSpec(name=NAME, paper=PAPER, config=RegLessConfig,
                     implementation="warpsim.mechanisms.regless.mechanism:RegLess",
                     hooks=HOOKS, stat_prefix="rl_", energy=ENERGY, static=STATIC)
"""The mechanism's declaration (``registry.PACKAGES``)."""
