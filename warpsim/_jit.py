"""The one place numba options are set (STYLE.md §2.4)."""

from __future__ import annotations

from numba import njit

__all__ = ["jit", "jit_inline", "jit_uncached"]

jit = njit(cache=True, fastmath=False, error_model="numpy")
"""Decorator for every engine kernel: cached, IEEE-exact, numpy error model."""

jit_uncached = njit(cache=False, fastmath=False, error_model="numpy")
"""Same, without the on-disk cache: for the cycle loop that takes hook functions as arguments
(numba issue #2956)."""

jit_inline = njit(cache=False, fastmath=False, error_model="numpy", inline="always")
"""Same as ``jit_uncached``, inlined into its callers at numba-IR level: for per-cycle units and
helpers that receive whole state tuples (a call costs about 15 ns per array of its tuple
arguments). Never compiled on its own when only jitted code calls it."""
