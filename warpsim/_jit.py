"""The one place numba options are set (STYLE.md §2.4)."""

from __future__ import annotations

import pickle
from typing import Any

from numba import njit
from numba.core.caching import FunctionCache, IndexDataCacheFile

__all__ = ["jit", "jit_inline", "jit_no_refcount", "jit_uncached"]

_cached = njit(cache=True, fastmath=False, error_model="numpy")
_cached_no_refcount = njit(cache=True, fastmath=False, error_model="numpy", _nrt=False)


class _TolerantIndex(IndexDataCacheFile):
    """numba's cache index of one function, read as empty when an entry cannot be rebuilt in
    this process (its signature names a class from a module this process cannot import, e.g.
    a test's memory stub): the function compiles as if uncached instead of failing, and the
    next save rewrites the index."""

    def _load_index(self) -> dict:
        try:
            return super()._load_index()
        except (ImportError, AttributeError, pickle.UnpicklingError, EOFError):
            return {}


def jit(fn: Any) -> Any:
    """Decorator for every engine kernel: cached on disk, IEEE-exact, numpy error model. The
    cache entry is valid only for the same sources of the function's package and of the
    engine packages (``_bundle.sources_digest``), not only of its own file."""
    return _stamped(_cached(fn), fn)


def jit_no_refcount(fn: Any) -> Any:
    """``jit`` without numba's reference counting (NRT): for per-instruction engine kernels
    that take state arrays and allocate, slice-return or keep none. A numba function
    otherwise calls ``NRT_incref`` and ``NRT_decref`` (out of line, even for the cycle
    loop's borrowed arrays) for most array arguments on every call. Same machine
    arithmetic, so the same results."""
    return _stamped(_cached_no_refcount(fn), fn)


def _stamped(dispatcher: Any, fn: Any) -> Any:
    from warpsim._bundle import sources_digest

    cache = getattr(dispatcher, "_cache", None)
    if isinstance(cache, FunctionCache):
        index = cache._cache_file
        index.__class__ = _TolerantIndex
        index._source_stamp = (index._source_stamp, sources_digest(fn))
    return dispatcher


jit_uncached = njit(cache=False, fastmath=False, error_model="numpy")
"""Same, without the on-disk cache: for the cycle loop that takes hook functions as arguments
(numba issue #2956)."""

jit_inline = njit(cache=False, fastmath=False, error_model="numpy", inline="always")
"""Same as ``jit_uncached``, inlined into its callers at numba-IR level: for per-cycle units and
helpers that receive whole state tuples (a call costs about 15 ns per array of its tuple
arguments). Never compiled on its own when only jitted code calls it."""
