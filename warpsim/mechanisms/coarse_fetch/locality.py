"""The probability-based locality measure of an address stream: temporal and spatial locality
as a function of the near-future window w and the neighbourhood n.

Follows: Xiang's dissertation §5.2.1 (after its ref. [23]): "given that an address is accessed,
how likely the same address (temporal locality) or an address within its neighbourhood (spatial
locality) will be accessed in the near future"; §5.3 (computed per SM on the L1 access stream);
specs/xiang-simt-efficiency.md §4.
Assumptions (docs/mechanisms/coarse-fetch.md):
  [A] Access i (address a_i) is reused when some access j in i+1 .. i+w has |a_j - a_i| < n
      (a neighbourhood centred on a_i, in bytes; n = 1 is temporal locality only).
  [A] L(w, n) = reused accesses / all accesses of the stream, the last w accesses included
      (their window is cut short by the end of the stream).
  [A] Several streams (one per SM) are pooled: sum of reused over sum of accesses.
The measure is non-decreasing in w and in n by construction.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from warpsim.errors import ConfigError

__all__ = ["DEFAULT_NEIGHBOURHOODS", "DEFAULT_WINDOWS", "LocalitySurface", "locality",
           "next_reuse_distance", "reuse_counts"]

DEFAULT_WINDOWS: tuple[int, ...] = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024)
"""Near-future windows (accesses) of the table, powers of two as the dissertation's plots."""
DEFAULT_NEIGHBOURHOODS: tuple[int, ...] = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048,
                                           4096)
"""Neighbourhoods (bytes) of the table."""

_NONE = np.iinfo(np.int64).max


def _check_axis(name: str, values: Sequence[int]) -> np.ndarray:
    arr = np.asarray(list(values), dtype=np.int64)
    if arr.size == 0 or arr.ndim != 1 or np.any(arr < 1):
        raise ConfigError(f"locality.{name}", tuple(values), "one or more positive integers")
    return np.unique(arr)


def next_reuse_distance(addrs: np.ndarray, neighbourhoods: Sequence[int]) -> np.ndarray:
    """``d[k, i]``: accesses from access i to the next access j > i with
    ``|a_j - a_i| < neighbourhoods[k]`` (int64; ``INT64_MAX`` when there is none).

    Exact for any addresses: for each rank offset r of the sorted distinct addresses the next
    occurrence of that neighbour after i is found with one ``searchsorted`` (O(N log N) per
    offset); offsets grow until every neighbour is farther than the largest neighbourhood."""
    a = np.asarray(addrs, dtype=np.int64)
    ns = np.asarray(list(neighbourhoods), dtype=np.int64)
    n_acc = a.size
    out = np.full((ns.size, n_acc), _NONE, np.int64)
    if n_acc == 0:
        return out
    uniq, rank = np.unique(a, return_inverse=True)
    rank = rank.astype(np.int64)
    pos = np.arange(n_acc, dtype=np.int64)
    keys = np.sort(rank * n_acc + pos)  # (distinct address, position), ascending
    nmax = int(ns.max())
    for step in range(uniq.size):
        alive = False
        for r in ((0,) if step == 0 else (step, -step)):
            nr = rank + r
            ok = (nr >= 0) & (nr < uniq.size)
            if not ok.any():
                continue
            nr_c = np.clip(nr, 0, uniq.size - 1)
            gap = np.abs(uniq[nr_c] - a)
            ok &= gap < nmax
            if not ok.any():
                continue
            alive = True
            want = nr_c * n_acc + pos + 1  # first access of that address after i
            k = np.searchsorted(keys, want)
            kc = np.minimum(k, n_acc - 1)
            hit = ok & (k < n_acc) & (keys[kc] // n_acc == nr_c)
            dist = np.where(hit, keys[kc] % n_acc - pos, _NONE)
            for j in range(ns.size):
                sel = gap < ns[j]
                np.minimum(out[j], np.where(sel, dist, _NONE), out=out[j])
        if not alive:
            break
    return out


def reuse_counts(addrs: np.ndarray, windows: Sequence[int],
                 neighbourhoods: Sequence[int]) -> np.ndarray:
    """``c[k, m]``: accesses of the stream reused within ``windows[m]`` accesses in
    neighbourhood ``neighbourhoods[k]`` (int64)."""
    d = next_reuse_distance(addrs, neighbourhoods)
    w = np.asarray(list(windows), dtype=np.int64)
    out = np.zeros((d.shape[0], w.size), np.int64)
    for k in range(d.shape[0]):
        srt = np.sort(d[k])
        out[k] = np.searchsorted(srt, w, side="right")
    return out


class LocalitySurface:
    """L(w, n) of one or more pooled streams: ``values[k, m]`` for neighbourhood
    ``neighbourhoods[k]`` (bytes) and window ``windows[m]`` (accesses)."""

    def __init__(self, windows: np.ndarray, neighbourhoods: np.ndarray, reused: np.ndarray,
                 n_accesses: int) -> None:
        self.windows = windows
        self.neighbourhoods = neighbourhoods
        self.reused = reused
        """Reused accesses (int64, neighbourhood x window)."""
        self.n_accesses = int(n_accesses)
        """Accesses of all pooled streams."""

    @property
    def values(self) -> np.ndarray:
        """The locality measure, 0..1 (float64; NaN for an empty stream)."""
        if self.n_accesses == 0:
            return np.full(self.reused.shape, np.nan)
        return self.reused / float(self.n_accesses)

    def at(self, window: int, neighbourhood: int) -> float:
        """L(window, neighbourhood) for values on the surface's axes."""
        m = np.flatnonzero(self.windows == window)
        k = np.flatnonzero(self.neighbourhoods == neighbourhood)
        if m.size == 0 or k.size == 0:
            raise ConfigError("locality.point", (window, neighbourhood),
                              f"a window in {self.windows.tolist()} and a neighbourhood in "
                              f"{self.neighbourhoods.tolist()}")
        return float(self.values[k[0], m[0]])

    def table(self) -> str:
        """Rows = neighbourhood (bytes), columns = window (accesses)."""
        head = "n \\ w".ljust(8) + "".join(f"{int(w):>9d}" for w in self.windows)
        rows = [head]
        for k, n in enumerate(self.neighbourhoods):
            rows.append(f"{int(n):<8d}" + "".join(f"{v:9.4f}" for v in self.values[k]))
        return "\n".join(rows)

    def as_dict(self) -> dict:
        """Plain values (for ``--json``)."""
        return {"windows": self.windows.tolist(),
                "neighbourhoods": self.neighbourhoods.tolist(),
                "n_accesses": self.n_accesses, "values": self.values.tolist()}


def locality(streams: np.ndarray | Iterable[np.ndarray],
             windows: Sequence[int] = DEFAULT_WINDOWS,
             neighbourhoods: Sequence[int] = DEFAULT_NEIGHBOURHOODS) -> LocalitySurface:
    """The locality surface of one address stream (a 1-D array) or of several pooled (an
    iterable of arrays, e.g. one per SM).

    Raises
    ------
    ConfigError
        When a window or neighbourhood is not a positive integer.
    """
    w = _check_axis("windows", windows)
    n = _check_axis("neighbourhoods", neighbourhoods)
    if isinstance(streams, np.ndarray):
        streams = [streams]
    reused = np.zeros((n.size, w.size), np.int64)
    total = 0
    for s in streams:
        s = np.asarray(s, dtype=np.int64).reshape(-1)
        if s.size == 0:
            continue
        reused += reuse_counts(s, w, n)
        total += s.size
    return LocalitySurface(w, n, reused, total)
