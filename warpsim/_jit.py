"""The one place numba options are set (STYLE.md §2.4)."""

from __future__ import annotations

from numba import njit

__all__ = ["jit", "jit_uncached"]

jit = njit(cache=True, fastmath=False, error_model="numpy")
"""Decorator for every engine kernel: cached, IEEE-exact, numpy error model."""

jit_uncached = njit(cache=False, fastmath=False, error_model="numpy")
"""Same, without the on-disk cache: for the cycle loop that takes hook functions as arguments
(numba issue #2956)."""
