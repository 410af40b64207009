"""warpsim: a fast GPU microarchitecture simulator in Python for register-file and SIMT-efficiency
research. See README.md and ARCHITECTURE (docs/) for the design."""

from __future__ import annotations

__version__ = "0.1.0"

__all__ = [
    "BarrierDeadlockError",
    "CompileError",
    "ConfigError",
    "Device",
    "DeviceArray",
    "DeviceMemoryError",
    "InternalError",
    "LaunchError",
    "MemoryAccessError",
    "PTXSyntaxError",
    "UnsupportedPTXError",
    "WarpsimError",
    "__version__",
]

_LAZY = {
    "Device": "warpsim.runtime",
    "DeviceArray": "warpsim.runtime",
    "DeviceMemoryError": "warpsim.runtime",
}
"""Public names imported on first use, so that ``import warpsim`` stays cheap."""

from warpsim.errors import (  # noqa: E402  (cheap: no numpy)
    BarrierDeadlockError,
    CompileError,
    ConfigError,
    InternalError,
    LaunchError,
    MemoryAccessError,
    PTXSyntaxError,
    UnsupportedPTXError,
    WarpsimError,
)


def __getattr__(name: str):  # PEP 562 lazy re-exports
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'warpsim' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
