"""warpsim's C standard headers for NVRTC (``warpsim/nvrtc_headers/``): where they are, and
the hash that keys NVRTC's compile cache.

Follows: C11 §7.7 (``<float.h>``), §7.10 (``<limits.h>``), §7.12 (``<math.h>`` macros), §7.19
(``<stddef.h>``), §7.20 (``<stdint.h>``) and their C++ ``<c...>`` forms; CuPy's and jitify's
approach (NVRTC has no C library, so a small header set is handed to it).
Assumptions: [A] the LP64 data model (64-bit ``long``) of NVRTC's Linux targets; IEEE 754
binary32 / binary64 floating point. The math functions themselves are NVRTC built-ins.
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

__all__ = ["HEADERS_DIR", "headers_digest"]

HEADERS_DIR = Path(__file__).resolve().parent / "nvrtc_headers"
"""``<stdint.h>``, ``<cstdint>``, ``<limits.h>``, ``<climits>``, ``<float.h>``, ``<cfloat>``,
``<math.h>``, ``<cmath>``, ``<stddef.h>``, ``<cstddef>``: searched after the user's and the
CUDA folders, by the NVRTC backend only (nvcc has the host's)."""


@functools.cache
def headers_digest() -> str:
    """SHA-256 of the headers' names and contents (part of the NVRTC cache key)."""
    h = hashlib.sha256()
    for f in sorted(HEADERS_DIR.iterdir()):
        h.update(f.name.encode() + b"\0" + f.read_bytes())
    return h.hexdigest()
