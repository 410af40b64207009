"""Energy model: per-event energy tables (presets) and energy(stats) -> breakdown by component.

Follows: ARCHITECTURE.md §6; STYLE.md §2.6; reference/energy-and-configs.md; docs/energy-model.md.
Layer 4: imports ``arch``, ``errors`` and ``stats`` only.

>>> from warpsim.power import energy, GTX480_GPUWATTCH
>>> bd = energy({"regfile_granule_reads": 1000}, GTX480_GPUWATTCH.with_entries(
...     (), replace_static_of=("constant", "idle_sm", "register_file")),
...     cycles=700, clock_mhz=700.0, n_sms=1)
>>> round(bd.by_component_j["register_file"] * 1e9, 2)   # 1000 x 29.08 pJ
29.08
"""

from __future__ import annotations

from warpsim.power.activity import ACTIVITY_COUNTERS, gpuwattch_activity, inst_info
from warpsim.power.cacti import CACTI_BANKS, CactiBank, cacti_bank, regfile_entries_from_bank
from warpsim.power.counters import (
    DERIVATION_RULES,
    POWER_COUNTERS,
    POWER_REGISTRY,
    power_counts,
)
from warpsim.power.gtx480 import GTX480_GPUWATTCH, GTX480_GPUWATTCH_LANE_GATED
from warpsim.power.model import (
    EnergyBreakdown,
    MechanismEnergy,
    energy,
    energy_for_gpu,
    mechanism_energy,
    saving_frac,
)
from warpsim.power.paper_tables import (
    GTX480_WARPED_COMPRESSION,
    GTX480_XIANG_VRF,
    REGLESS_CLAIMS,
    WARPED_COMPRESSION_TABLE3,
    WIR_TABLE3,
    XIANG_TABLE2,
    regless_capacity_ratio,
)
from warpsim.power.presets import (
    ENERGY_TABLES,
    GPU_DEFAULT_TABLES,
    get_energy_table,
    table_for_gpu,
)
from warpsim.power.qv100 import QV100_ACCELWATTCH
from warpsim.power.report import format_energy_table, plot_energy_breakdown
from warpsim.power.rf_share import format_rf_share_table, rf_share_row, rf_share_summary
from warpsim.power.table import (
    CHIP_COMPONENTS,
    COMPONENTS,
    EnergyEntry,
    EnergyTable,
    StaticEntry,
    StaticScope,
    make_entries,
)

__all__ = [
    "ACTIVITY_COUNTERS",
    "CACTI_BANKS",
    "CHIP_COMPONENTS",
    "COMPONENTS",
    "DERIVATION_RULES",
    "ENERGY_TABLES",
    "GPU_DEFAULT_TABLES",
    "GTX480_GPUWATTCH",
    "GTX480_GPUWATTCH_LANE_GATED",
    "GTX480_WARPED_COMPRESSION",
    "GTX480_XIANG_VRF",
    "POWER_COUNTERS",
    "POWER_REGISTRY",
    "QV100_ACCELWATTCH",
    "REGLESS_CLAIMS",
    "WARPED_COMPRESSION_TABLE3",
    "WIR_TABLE3",
    "XIANG_TABLE2",
    "CactiBank",
    "EnergyBreakdown",
    "EnergyEntry",
    "EnergyTable",
    "MechanismEnergy",
    "StaticEntry",
    "StaticScope",
    "cacti_bank",
    "energy",
    "energy_for_gpu",
    "format_energy_table",
    "format_rf_share_table",
    "get_energy_table",
    "gpuwattch_activity",
    "inst_info",
    "make_entries",
    "mechanism_energy",
    "plot_energy_breakdown",
    "power_counts",
    "regless_capacity_ratio",
    "regfile_entries_from_bank",
    "rf_share_row",
    "rf_share_summary",
    "saving_frac",
    "table_for_gpu",
]
