"""Warped-Compression (Lee et al., ISCA 2015): BDI compression of warp registers, dummy MOVs
for divergent writes and power gating of empty register banks.

Follows: specs/warped-compression.md; docs/mechanisms/warped-compression.md. Turned on by
``-o warped_compression.enabled=true``. ``NAME``/``ENERGY``/``STATIC`` describe the
compressor and decompressor energy for ``warpsim.power.model.mechanism_energy``; the paper's
register-file energy (spec §6.5) is computed by the reproduction from the ``wc_*`` statistics.
"""

from __future__ import annotations

from warpsim.arch.warped_compression import WarpedCompressionConfig
from warpsim.mechanisms.spec import MechanismSpec
from warpsim.mechanisms.warped_compression.bdi import bdi_banks, compress, cri, decompress
from warpsim.mechanisms.warped_compression.mechanism import WarpedCompression

__all__ = ["ENERGY", "NAME", "SPEC", "STATIC", "WarpedCompression", "bdi_banks", "compress",
           "cri", "decompress"]

NAME = "warped_compression"
ENERGY = (("wc_comp_activations", "comp_pj"), ("wc_decomp_activations", "decomp_pj"))
"""Dynamic energy of the compressors and decompressors (Table 3)."""
STATIC = (("comp_leak_mw", "n_compressors"), ("decomp_leak_mw", "n_decompressors"))
"""Leakage of the units (Table 3); the banks' leakage belongs to the register file."""

SPEC = MechanismSpec(
    name=NAME,
    paper="Lee et al., Warped-Compression, ISCA 2015: Secs. 4-5 (specs/warped-compression.md)",
    config=WarpedCompressionConfig,
    implementation="warpsim.mechanisms.warped_compression.mechanism:WarpedCompression",
    hooks=("on_warp_launch", "on_cta_release", "extra_operand", "operand_bank",
           "on_operand_read", "result_delay", "can_writeback", "dest_bank", "on_writeback"),
    stat_prefix="wc_",
    energy=ENERGY, static=STATIC,
    conflicts=("regless",))  # RegLess has no register file to compress
"""The mechanism's declaration (``registry.PACKAGES``)."""
