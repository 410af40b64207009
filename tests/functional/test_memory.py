"""The global heap: allocator, host access, bounds checks and the generic address map."""

from __future__ import annotations

import numpy as np
import pytest

from warpsim.functional.memory import (
    HEAP_BASE,
    LOCAL_WINDOW,
    SHARED_WINDOW,
    GlobalMemory,
    HeapError,
)


def test_allocations_are_aligned_nonzero_and_disjoint() -> None:
    mem = GlobalMemory(initial_bytes=4096)
    addrs = [mem.alloc(n) for n in (1, 100, 256, 5000, 3)]
    assert all(a >= HEAP_BASE and a % 256 == 0 for a in addrs)
    spans = sorted((a, a + max(n, 1)) for a, n in zip(addrs, (1, 100, 256, 5000, 3), strict=True))
    assert all(spans[i][1] <= spans[i + 1][0] for i in range(len(spans) - 1))
    assert mem.alloc(10, align=4096) % 4096 == 0


def test_write_read_memset_round_trip_and_growth() -> None:
    mem = GlobalMemory(initial_bytes=4096)
    a = mem.alloc(64)
    mem.write(a, np.arange(16, dtype=np.uint32))
    big = mem.alloc(1 << 20)  # forces the buffer to grow
    mem.memset(big + 8, 0xAB, 16)
    assert np.array_equal(mem.read(a, 64).view(np.uint32), np.arange(16))
    assert mem.read(big, 32).tolist() == [0] * 8 + [0xAB] * 16 + [0] * 8
    mem.write(a + 4, b"\x01\x02")
    assert mem.read(a + 4, 4).tolist() == [1, 2, 0, 0]


def test_freed_memory_is_reused_and_zeroed() -> None:
    mem = GlobalMemory()
    a = mem.alloc(512)
    b = mem.alloc(512)
    mem.memset(a, 7, 512)
    mem.free(a)
    assert mem.allocation_of(a) is None
    c = mem.alloc(256)
    assert c == a and not mem.read(c, 256).any()
    assert mem.allocation_of(b + 511) == (b, 512)


def test_host_access_outside_allocations_is_refused() -> None:
    mem = GlobalMemory()
    a = mem.alloc(100)
    with pytest.raises(HeapError, match="outside every live allocation"):
        mem.read(a + 96, 8)
    with pytest.raises(HeapError):
        mem.write(0, b"\0")
    with pytest.raises(HeapError, match="not the start"):
        mem.free(a + 4)
    mem.free(a)
    with pytest.raises(HeapError):
        mem.free(a)


def test_allocation_table_and_nearest_description() -> None:
    mem = GlobalMemory()
    a = mem.alloc(100, name="x")
    b = mem.alloc(300)
    starts, ends = mem.tables()
    assert starts.tolist() == [a, b] and ends.tolist() == [a + 100, b + 300]
    assert "'x'" in mem.describe_nearest(a + 120)
    assert mem.check_range(b, 300) and not mem.check_range(b, 301)


def test_generic_windows_lie_above_the_heap() -> None:
    assert HEAP_BASE < SHARED_WINDOW < LOCAL_WINDOW
    assert HEAP_BASE > 0xFFFF


def test_covers_agrees_with_a_scan_of_the_live_allocations() -> None:
    """``GlobalMemory.covers`` (the narrow-access bounds test) against a brute-force scan."""
    mem = GlobalMemory()
    blocks = [mem.alloc(n) for n in (64, 256, 8, 1024, 32)]
    mem.free(blocks[1])
    live = [(b, n) for b, n in zip(blocks, (64, 256, 8, 1024, 32), strict=True)
            if b != blocks[1]]
    rng = np.random.default_rng(7)
    lo0, hi0 = min(blocks) - 64, max(blocks) + 2048
    for _ in range(2000):
        lo = int(rng.integers(lo0, hi0))
        end = lo + int(rng.integers(1, 300))
        want = any(b <= lo and end <= b + n for b, n in live)
        assert mem.covers(lo, end) == want, (lo, end)
