"""Simulated device memory: the global heap with its allocator, and the generic address map.

Follows: ARCHITECTURE.md §3 (one byte-addressed global heap with an allocator and bounds
checks); CUDA's generic addressing (PTX ISA §6.4: the shared, local and parameter windows of
the generic address space; ``cvta``).
Assumptions:
  [A] The heap starts at ``HEAP_BASE`` (4 GiB), so that null and small pointers fault.
  [A] ``.global`` and ``.const`` module variables live in the heap as named allocations; a
      ``.const`` address is therefore also a valid generic address (as on hardware, where
      constant memory is a window of global memory).
  [A] Generic windows: shared at ``SHARED_WINDOW``, local at ``LOCAL_WINDOW``, kernel
      parameters at ``PARAM_WINDOW``; each window is 4 GiB and sits above any heap address.
Deviations: freed memory is reused first-fit; CUDA's allocator granularity differs.
"""

from __future__ import annotations

import bisect
from typing import Any

import numpy as np

from warpsim.errors import WarpsimError

__all__ = [
    "HEAP_BASE",
    "LOCAL_WINDOW",
    "PARAM_WINDOW",
    "SHARED_WINDOW",
    "WINDOW_BYTES",
    "GlobalMemory",
    "HeapError",
]

HEAP_BASE = 0x1_0000_0000
"""Address of the first heap byte (null pointers and small integers are never valid)."""
SHARED_WINDOW = 0x7000_0000_0000
"""Generic address of shared-memory offset 0 of the executing CTA."""
LOCAL_WINDOW = 0x7100_0000_0000
"""Generic address of local-memory offset 0 of the executing thread."""
PARAM_WINDOW = 0x7200_0000_0000
"""Generic address of the kernel parameter buffer (``cvta.param``)."""
WINDOW_BYTES = 1 << 32
"""Size of each generic window."""
_HEAP_LIMIT = SHARED_WINDOW - HEAP_BASE


class HeapError(WarpsimError):
    """A host-side heap operation that cannot be done (bad free, out of range, too large)."""


class GlobalMemory:
    """The device's global heap: a growable byte buffer plus a table of live allocations.

    Every device access is checked against the allocation table: an access is valid only when
    it lies entirely inside one live allocation (user buffers and module variables alike).
    """

    def __init__(self, initial_bytes: int = 1 << 24, base: int = HEAP_BASE) -> None:
        cap = 1 << max(12, int(initial_bytes - 1).bit_length())
        self.base = base
        self._buf = np.zeros(cap, dtype=np.uint8)
        self._views: dict[Any, np.ndarray] = {}
        self._starts: list[int] = []
        self._sizes: dict[int, int] = {}
        self._names: dict[int, str] = {}
        self._top = 0
        self._floor = 0
        self.version = 0
        """Incremented whenever the buffer is reallocated (cached views become stale)."""
        self._tables: tuple[np.ndarray, np.ndarray] | None = None

    # ---- allocator -------------------------------------------------------------------
    def alloc(self, nbytes: int, align: int = 256, name: str = "") -> int:
        """Reserve ``nbytes`` (zero-filled) and return the device address of the first byte."""
        nbytes = int(nbytes)
        if nbytes < 0:
            raise HeapError(f"cannot allocate {nbytes} bytes", hint="pass a size >= 0")
        if align <= 0 or align & (align - 1):
            raise HeapError(f"alignment {align} is not a power of two")
        size = max(nbytes, 1)
        off = self._find_gap(size, align)
        if off + size > _HEAP_LIMIT:
            raise HeapError(f"device memory exhausted allocating {nbytes} bytes",
                            hint="free unused arrays")
        self._ensure_capacity(off + size)
        addr = self.base + off
        bisect.insort(self._starts, addr)
        self._sizes[addr] = size
        if name:
            self._names[addr] = name
        self._top = max(self._top, off + size)
        self._buf[off:off + size] = 0
        self._tables = None
        return addr

    def free(self, addr: int) -> None:
        """Release the allocation that starts at ``addr``."""
        addr = int(addr)
        if addr not in self._sizes:
            raise HeapError(f"free of {addr:#x}, which is not the start of a live allocation",
                            hint="free each allocation once, by the address alloc returned")
        del self._sizes[addr]
        self._names.pop(addr, None)
        self._starts.remove(addr)
        self._tables = None
        self._top = (self._starts[-1] - self.base + self._sizes[self._starts[-1]]
                     if self._starts else 0)

    def keep_below_free(self, nbytes: int) -> None:
        """Start allocations ``nbytes`` above the heap base: the bytes below stay zero and in
        no allocation (``functional/oob.py``'s report mode). Only before the first alloc."""
        if self._starts:
            raise HeapError("keep_below_free after allocations were made")
        self._floor = int(nbytes)
        self._ensure_capacity(self._floor)

    def _find_gap(self, size: int, align: int) -> int:
        prev_end = self._floor
        for start in self._starts:
            off = start - self.base
            cand = (prev_end + align - 1) & ~(align - 1)
            if cand + size <= off:
                return cand
            prev_end = off + self._sizes[start]
        return (prev_end + align - 1) & ~(align - 1)

    def _ensure_capacity(self, nbytes: int) -> None:
        if nbytes <= self._buf.size:
            return
        cap = self._buf.size
        while cap < nbytes:
            cap *= 2
        new = np.zeros(cap, dtype=np.uint8)
        new[:self._buf.size] = self._buf
        self._buf = new
        self._views.clear()
        self.version += 1

    # ---- queries ---------------------------------------------------------------------
    @property
    def buffer(self) -> np.ndarray:
        """The raw heap bytes (index = address - base). Do not keep across allocations."""
        return self._buf

    def view(self, dtype: Any) -> np.ndarray:
        """The heap as an array of ``dtype`` (element i at address base + i * itemsize)."""
        key = np.dtype(dtype)
        v = self._views.get(key)
        if v is None:
            v = self._buf.view(key)
            self._views[key] = v
        return v

    def tables(self) -> tuple[np.ndarray, np.ndarray]:
        """(starts, ends) of the live allocations as sorted uint64 arrays."""
        if self._tables is None:
            starts = np.array(self._starts, dtype=np.uint64)
            ends = np.array([s + self._sizes[s] for s in self._starts], dtype=np.uint64)
            self._tables = (starts, ends)
        return self._tables

    def covers(self, lo: int, end: int) -> bool:
        """Whether ``[lo, end)`` lies inside one live allocation (``tables``' test for one
        range, on the sorted start list: no arrays for a narrow access)."""
        i = bisect.bisect_right(self._starts, lo) - 1
        if i < 0:
            return False
        s = self._starts[i]
        return end <= s + self._sizes[s]

    def allocation_of(self, addr: int) -> tuple[int, int] | None:
        """(start, size) of the live allocation holding ``addr``, or None."""
        i = bisect.bisect_right(self._starts, int(addr)) - 1
        if i >= 0:
            s = self._starts[i]
            if int(addr) < s + self._sizes[s]:
                return s, self._sizes[s]
        return None

    def allocations(self) -> list[tuple[int, int, str]]:
        """Every live allocation as (start, size, name)."""
        return [(s, self._sizes[s], self._names.get(s, "")) for s in self._starts]

    def describe_nearest(self, addr: int) -> str:
        """Text naming the allocation nearest to ``addr`` (for error messages)."""
        if not self._starts:
            return "no live allocations"
        addr = int(addr)
        best = min(self._starts, key=lambda s: 0 if s <= addr < s + self._sizes[s]
                   else min(abs(addr - s), abs(addr - (s + self._sizes[s]))))
        size = self._sizes[best]
        name = self._names.get(best, "")
        label = f" {name!r}" if name else ""
        return f"nearest allocation{label} [{best:#x}, {best + size:#x}), {size} bytes"

    def check_range(self, addr: int, nbytes: int) -> bool:
        """True when ``[addr, addr + nbytes)`` lies inside one live allocation."""
        hit = self.allocation_of(addr)
        return hit is not None and int(addr) + int(nbytes) <= hit[0] + hit[1]

    # ---- host access -----------------------------------------------------------------
    def _host_range(self, addr: int, nbytes: int, what: str) -> int:
        addr, nbytes = int(addr), int(nbytes)
        if nbytes == 0:
            return addr - self.base
        if not self.check_range(addr, nbytes):
            raise HeapError(f"host {what} of {nbytes} bytes at {addr:#x} is outside every "
                            f"live allocation ({self.describe_nearest(addr)})")
        return addr - self.base

    def read(self, addr: int, nbytes: int) -> np.ndarray:
        """A copy of ``nbytes`` bytes at ``addr`` (np.uint8)."""
        off = self._host_range(addr, nbytes, "read")
        return self._buf[off:off + int(nbytes)].copy()

    def write(self, addr: int, data: Any) -> None:
        """Copy ``data`` (bytes or a numpy array, taken as raw bytes) to ``addr``."""
        raw = np.frombuffer(bytes(data), dtype=np.uint8) if isinstance(
            data, (bytes, bytearray, memoryview)) else np.ascontiguousarray(data).view(np.uint8)
        raw = raw.reshape(-1)
        off = self._host_range(addr, raw.size, "write")
        self._buf[off:off + raw.size] = raw

    def memset(self, addr: int, byte: int, nbytes: int) -> None:
        """Fill ``nbytes`` bytes at ``addr`` with ``byte``."""
        off = self._host_range(addr, nbytes, "memset")
        self._buf[off:off + int(nbytes)] = np.uint8(int(byte) & 0xFF)

    def snapshot(self) -> np.ndarray:
        """A copy of the used part of the heap (tests: memory intact after a failed launch)."""
        return self._buf[:self._top].copy()
