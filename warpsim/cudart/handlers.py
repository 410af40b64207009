"""The table of wire calls: the name ``shim.c`` sends -> the ``CudaContext`` method that runs it.

Follows: the request format of ``server.py`` (a call name, 64-bit integers, a byte blob).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["HANDLERS", "api"]

HANDLERS: dict[str, Callable[..., Any]] = {}
"""Call name -> unbound method ``(context, ints, blob) -> (status, ints, blob)``."""


def api(name: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register a method as the handler of the wire call ``name``."""
    def wrap(fn: Callable[..., Any]) -> Callable[..., Any]:
        HANDLERS[name] = fn
        return fn
    return wrap
