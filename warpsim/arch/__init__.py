"""GPU configurations: frozen dataclasses, presets, dotted overrides, gpgpusim.config reader.

Follows: STYLE.md §2.3; ARCHITECTURE.md §2 (``arch/``). Layer 0: imports only ``errors``.

>>> from warpsim.arch import get_preset, apply_overrides
>>> cfg = apply_overrides(get_preset("gtx480"), ["sm.n_schedulers=4", "l1d.size_bytes=32KiB"])
>>> cfg.sm.n_schedulers, cfg.l1d.size_bytes
(4, 32768)
"""

from __future__ import annotations

from warpsim.arch.config import (
    CacheConfig,
    ClockConfig,
    CollectorSetConfig,
    DRAMConfig,
    GPUConfig,
    InterconnectConfig,
    L1CConfig,
    L1DConfig,
    L1IConfig,
    L1TConfig,
    L2Config,
    PipeConfig,
    PipelinesConfig,
    RegFileConfig,
    SharedMemConfig,
    SMConfig,
    SMKindsConfig,
)
from warpsim.arch.gpgpusim_config import OPTION_TABLE, parse_cache_spec, read_gpgpusim_config
from warpsim.arch.overrides import (
    apply_overrides,
    config_diff,
    field_paths,
    flatten,
    parse_override,
    parse_value,
)
from warpsim.arch.policies import (
    AllocPolicy,
    BankFrom,
    BankMapping,
    DramScheduler,
    LatencyOp,
    OccupancyArch,
    OtherOps,
    ReplacementPolicy,
    SchedPolicy,
    SetIndexFn,
    WriteAllocPolicy,
    WritePolicy,
)
from warpsim.arch.presets import (
    A100,
    C2050,
    GTX285,
    GTX480,
    GTX480_3X,
    GTX980,
    H100,
    PRESET_SOURCES,
    PRESETS,
    QV100,
    TABLE8,
    get_preset,
)
from warpsim.arch.resolve import resolve_config
from warpsim.arch.schema import ConfigBase

__all__ = [
    "A100",
    "C2050",
    "GTX285",
    "TABLE8",
    "GTX480",
    "GTX480_3X",
    "GTX980",
    "H100",
    "OPTION_TABLE",
    "PRESETS",
    "PRESET_SOURCES",
    "QV100",
    "AllocPolicy",
    "BankFrom",
    "BankMapping",
    "CacheConfig",
    "ClockConfig",
    "CollectorSetConfig",
    "ConfigBase",
    "DRAMConfig",
    "DramScheduler",
    "GPUConfig",
    "InterconnectConfig",
    "L1CConfig",
    "L1DConfig",
    "L1IConfig",
    "L1TConfig",
    "L2Config",
    "LatencyOp",
    "OtherOps",
    "PipeConfig",
    "PipelinesConfig",
    "RegFileConfig",
    "ReplacementPolicy",
    "SMConfig",
    "SMKindsConfig",
    "OccupancyArch",
    "SchedPolicy",
    "SetIndexFn",
    "SharedMemConfig",
    "WriteAllocPolicy",
    "WritePolicy",
    "apply_overrides",
    "config_diff",
    "field_paths",
    "flatten",
    "get_preset",
    "parse_cache_spec",
    "parse_override",
    "parse_value",
    "read_gpgpusim_config",
    "resolve_config",
]
