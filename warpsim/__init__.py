"""warpsim: a fast GPU microarchitecture simulator in Python for register-file and SIMT-efficiency
research. See README.md and ARCHITECTURE (docs/) for the design."""

from __future__ import annotations

__version__ = "0.1.0"

__all__ = ["__version__"]
