"""The one place numba options are set (STYLE.md §2.4)."""

from __future__ import annotations

import pickle
from typing import Any

from numba import njit
from numba.core.caching import FunctionCache, IndexDataCacheFile

__all__ = ["jit", "jit_alloc", "jit_inline", "jit_uncached"]

_cached = njit(cache=True, fastmath=False, error_model="numpy")
_cached_no_refcount = njit(cache=True, fastmath=False, error_model="numpy", _nrt=False)
_NO_REFCOUNT_PACKAGE = "warpsim.timing."


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
    engine packages (``_bundle.sources_digest``), not only of its own file.

    Kernels of the timing engine (modules under ``warpsim.timing``) compile without numba's
    reference counting (NRT): they index state arrays the cycle loop holds and allocate none
    (one that allocates takes ``jit_alloc``). With NRT, every call of such a kernel called
    ``NRT_incref``/``NRT_decref`` out of line for most of its array arguments (even for the
    cycle loop's borrowed arrays) and the calls kept LLVM from optimising around them: the
    memory system's kernels ran 1.3-1.6x slower (docs/timing-model.md "Speed"). Same machine
    arithmetic, so the same results."""
    mod = getattr(fn, "__module__", "") or ""
    base = _cached_no_refcount if mod.startswith(_NO_REFCOUNT_PACKAGE) else _cached
    return _stamped(base(fn), fn)


def jit_alloc(fn: Any) -> Any:
    """``jit`` with reference counting wherever the kernel lives: for timing-engine kernels
    that allocate arrays (``np.empty``) or return new ones."""
    return _stamped(_cached(fn), fn)


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
