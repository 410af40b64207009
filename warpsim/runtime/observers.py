"""Helpers for launch observers (``Device.add_launch_observer``) that analyse the program of
each launched kernel: the analysis runs once per program, and the program is kept alive with it
(so its ``id`` is never reused by another while the result is cached)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["per_program"]

T = TypeVar("T")


def per_program(analyse: Callable[[Any], T]) -> Callable[[Any], T]:
    """``of(kernel)`` returns ``analyse(program)`` for the executor's program of ``kernel`` (its
    device functions inlined, ``kernel.module.image.program``), computed at the first launch of
    that program and reused for every later one."""
    memo: dict[int, tuple[Any, T]] = {}

    def of(kernel: Any) -> T:
        program = kernel.module.image.program(kernel.name)
        hit = memo.get(id(program))
        if hit is None:
            hit = memo[id(program)] = (program, analyse(program))
        return hit[1]

    return of
