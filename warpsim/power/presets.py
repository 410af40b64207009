"""The energy-table presets by name, and the default table of each GPU preset.

Follows: STYLE.md §2.6 (one table per preset); reference/energy-and-configs.md §2.8 (keep a
GPUWattch-GTX480 and an AccelWattch-QV100 preset, plus physical RF-bank variants) and §6 item 2
(no power model exists for A100/H100: the QV100 table is the nearest, tagged [A]).
"""

from __future__ import annotations

from warpsim.errors import ConfigError
from warpsim.power.gtx480 import GTX480_GPUWATTCH, GTX480_GPUWATTCH_LANE_GATED
from warpsim.power.paper_tables import GTX480_WARPED_COMPRESSION, GTX480_XIANG_VRF
from warpsim.power.qv100 import QV100_ACCELWATTCH
from warpsim.power.table import EnergyTable

__all__ = ["ENERGY_TABLES", "GPU_DEFAULT_TABLES", "get_energy_table", "table_for_gpu"]

ENERGY_TABLES: dict[str, EnergyTable] = {
    t.name: t for t in (GTX480_GPUWATTCH, GTX480_GPUWATTCH_LANE_GATED, QV100_ACCELWATTCH,
                        GTX480_WARPED_COMPRESSION, GTX480_XIANG_VRF)
}
"""Energy tables by name."""

GPU_DEFAULT_TABLES: dict[str, str] = {
    "gtx480": "gtx480_gpuwattch",
    "c2050": "gtx480_gpuwattch",   # [A] same Fermi GF100 die at 40 nm
    "gtx285": "gtx480_gpuwattch",  # [A] Xiang's model is GPUWattch-style at 40 nm
    "gtx980": "gtx480_gpuwattch",  # [A] RegLess used GPUWattch (GTX 980-like); no own table
    "qv100": "qv100_accelwattch",
    "a100": "qv100_accelwattch",   # [A] no A100 power model exists (§6 item 2)
    "h100": "qv100_accelwattch",   # [A] no H100 power model exists (§6 item 2)
}
"""Default energy table of each GPU preset (only gtx480 and qv100 are the tools' own)."""


def get_energy_table(name: str) -> EnergyTable:
    """The energy table called ``name`` (case-insensitive).

    Raises
    ------
    ConfigError
        For an unknown name; the message lists the valid ones.
    """
    key = name.strip().lower()
    if key not in ENERGY_TABLES:
        raise ConfigError("energy_table", name, f"one of {', '.join(ENERGY_TABLES)}")
    return ENERGY_TABLES[key]


def table_for_gpu(gpu_name: str) -> EnergyTable:
    """The default table of a GPU preset name; ``gtx480_gpuwattch`` for custom configs."""
    return ENERGY_TABLES[GPU_DEFAULT_TABLES.get(gpu_name.strip().lower(), "gtx480_gpuwattch")]
