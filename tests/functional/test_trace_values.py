"""Buffered value entries of narrow dispatches (``functional/trace_values.py``).

Oracles: numpy signatures and uniformity of the lanes (``trace.signature``, lane comparisons),
the predicate signature as the sum of the keys of the set lanes, and the wide (unbuffered)
path's entries for the BDI codes; entries must come out in record-major order across
flushes and mixed narrow/wide dispatches.
"""

from __future__ import annotations

import numpy as np

from warpsim.functional.simt_stack import Group
from warpsim.functional.trace import SIG_KEYS, signature
from warpsim.functional.trace_values import BUFFER_WARPS, ValueRecorder


class _Sink:
    """Stands in for ``TraceBuilder``: keeps the value entries handed to it."""

    def __init__(self) -> None:
        self.sig: list[np.ndarray] = []
        self.bdi: list[np.ndarray] = []
        self.uni: list[np.ndarray] = []

    def values(self, sig: np.ndarray, bdi: np.ndarray, uni: np.ndarray) -> None:
        self.sig.append(sig.reshape(-1).copy())
        self.bdi.append(bdi.reshape(-1).copy())
        self.uni.append(uni.reshape(-1).copy())

    def entries(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return np.concatenate(self.sig), np.concatenate(self.bdi), np.concatenate(self.uni)


def _regs(n_warps: int, seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    n = n_warps * 32
    u32 = rng.integers(0, 2**32, n, dtype=np.uint32)
    u32[:64] = 7  # two uniform warps
    u32[64:96] = 5 + 3 * np.arange(32, dtype=np.uint32)   # an affine warp (stride 3)
    u32[96:128] = 0xFFFFFFF0 + 9 * np.arange(32, dtype=np.uint32)  # stride 9, wrapping
    u32[127] += 1                                          # ... but its last lane is off
    u64 = rng.integers(0, 2**63, n, dtype=np.uint64)
    pred = rng.random(n) < 0.5
    return [u32, u64, pred]


def _group(ws: np.ndarray, masks: np.ndarray, live: np.ndarray) -> Group:
    g = Group(0, ws, masks, np.zeros(0, np.int64), 0)
    g.prepare(live, live.size)
    return g


def test_buffered_entries_match_numpy_and_the_wide_path() -> None:
    n_warps = 2 * BUFFER_WARPS
    regs = _regs(n_warps, 1)
    live = np.full(n_warps, 0xFFFFFFFF, np.uint32)
    rng = np.random.default_rng(2)
    masks = rng.integers(1, 2**32, n_warps, dtype=np.uint32)
    masks[:4] = 0xFFFFFFFF
    exist = np.full(n_warps, 0xFFFFFFFF, np.uint32)
    val_regs = (0, 1, 2)  # k = 1 + 2 + 1 entries per warp
    k = 4
    narrow = ValueRecorder(_Sink())  # type: ignore[arg-type]
    wide = ValueRecorder(_Sink())  # type: ignore[arg-type]
    order: list[np.ndarray] = []
    for ws in (np.arange(0, 3), np.array([5, 9, 40]), np.array([7]), np.arange(BUFFER_WARPS,
               n_warps), np.array([41]), np.arange(3, 3 + BUFFER_WARPS - 1)):  # [7], [41]: lone
        g = _group(ws, masks[ws], live)
        narrow.record(regs, val_regs, k, g, exist[ws], masks[ws])
        wide._annotate_now(regs, val_regs, k, g, exist[ws], masks[ws])
        order.append(ws)
    narrow.flush()
    sig, bdi, uni = narrow.tracer.entries()  # type: ignore[attr-defined]
    wsig, wbdi, wuni = wide.tracer.entries()  # type: ignore[attr-defined]
    np.testing.assert_array_equal(sig, wsig)
    np.testing.assert_array_equal(bdi, wbdi)
    np.testing.assert_array_equal(uni, wuni)
    ws = np.concatenate(order)
    lanes32 = regs[0].reshape(n_warps, 32)[ws]
    lanes64 = regs[1].view(np.uint32).reshape(n_warps, 64)[ws]
    bits = regs[2].reshape(n_warps, 32)[ws]
    e = sig.reshape(ws.size, k)
    np.testing.assert_array_equal(e[:, 0], signature(lanes32))
    np.testing.assert_array_equal(e[:, 1], signature(lanes64[:, 0::2]))
    np.testing.assert_array_equal(e[:, 2], signature(lanes64[:, 1::2]))
    want_pred = np.array([int(SIG_KEYS[b].astype(object).sum()) % 2**64 for b in bits],
                         dtype=np.uint64)
    np.testing.assert_array_equal(e[:, 3], want_pred)
    act = (masks[ws][:, None] >> np.arange(32, dtype=np.uint32)) & 1 == 1
    first = lanes32[np.arange(ws.size), np.argmax(act, axis=1)]
    want_uni = ((lanes32 == first[:, None]) | ~act).all(axis=1)
    np.testing.assert_array_equal(uni.reshape(ws.size, k)[:, 0] & 1, want_uni)
    assert want_uni[:2].all() and not want_uni.all()
    # bit 1: a full warp whose lanes step by one stride (WIR's affine values)
    full = (masks[ws] == 0xFFFFFFFF) & (exist[ws] == 0xFFFFFFFF)
    steps = np.diff(lanes32, axis=1)                 # uint32: modulo 2**32
    want_aff = full & (steps == steps[:, :1]).all(axis=1)
    np.testing.assert_array_equal((uni.reshape(ws.size, k)[:, 0] >> 1) & 1, want_aff)
    assert want_aff[:3].all() and not want_aff[list(ws).index(3)] and want_aff.sum() == 3


def test_flush_on_a_full_buffer_keeps_the_order() -> None:
    n_warps = 8
    regs = _regs(n_warps, 3)
    live = np.full(n_warps, 0xFFFFFFFF, np.uint32)
    rec = ValueRecorder(_Sink())  # type: ignore[arg-type]
    want = []
    for step in range(300):  # one warp, one entry per dispatch: several flushes and growths
        w = step % n_warps
        regs[0][w * 32:(w + 1) * 32] += np.uint32(step)
        g = _group(np.array([w]), live[[w]], live)
        rec.record(regs, (0,), 1, g, live[[w]], live[[w]])
        want.append(signature(regs[0][w * 32:(w + 1) * 32].reshape(1, 32))[0])
    rec.flush()
    sig, _, _ = rec.tracer.entries()  # type: ignore[attr-defined]
    np.testing.assert_array_equal(sig, np.array(want, np.uint64))


def test_a_lone_warp_matches_the_wide_path_for_every_register_width() -> None:
    """One-warp dispatches (their own path) of 8-, 16-, 32-, 64-bit and predicate registers,
    with partial masks and a partial warp: the entries of the wide path and numpy signatures
    of the zero-extended lanes."""
    rng = np.random.default_rng(5)
    n = 4 * 32
    regs = [rng.integers(0, 2**8, n, dtype=np.uint8), rng.integers(0, 2**16, n, dtype=np.uint16),
            rng.integers(0, 2**32, n, dtype=np.uint32),
            rng.integers(0, 2**63, n, dtype=np.uint64), rng.random(n) < 0.3]
    live = np.array([0xFFFFFFFF, 0xFFFFFFFF, 0x0000FFFF, 0xFFFFFFFF], np.uint32)
    exist = np.array([0xFFFFFFFF, 0xFFFFFFFF, 0x0000FFFF, 0xFFFFFFFF], np.uint32)
    masks = np.array([0xFFFFFFFF, 0x00F0F0F1, 0x0000FFFF, 0x80000000], np.uint32)
    narrow = ValueRecorder(_Sink())  # type: ignore[arg-type]
    wide = ValueRecorder(_Sink())  # type: ignore[arg-type]
    val_regs, k = (0, 1, 2, 3, 4), 6
    for w in (0, 1, 2, 3, 1):
        ws = np.array([w])
        g = _group(ws, masks[ws], live)
        narrow.record(regs, val_regs, k, g, exist[ws], masks[ws])
        wide._annotate_now(regs, val_regs, k, g, exist[ws], masks[ws])
    narrow.flush()
    got, want = narrow.tracer.entries(), wide.tracer.entries()  # type: ignore[attr-defined]
    for a, b in zip(got, want, strict=True):
        np.testing.assert_array_equal(a, b)
    e = got[0].reshape(5, k)
    for i, w in enumerate((0, 1, 2, 3, 1)):
        lanes = slice(w * 32, (w + 1) * 32)
        for j in range(3):
            want_sig = signature(regs[j][lanes].astype(np.uint32).reshape(1, 32))[0]
            assert e[i, j] == want_sig
        halves = regs[3][lanes].view(np.uint32)
        assert e[i, 3] == signature(halves[0::2].reshape(1, 32))[0]
        assert e[i, 4] == signature(halves[1::2].reshape(1, 32))[0]
