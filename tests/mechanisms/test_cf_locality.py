"""The locality measure (dissertation §5.2.1) against a brute-force definition and hand-computed
tiny streams; the per-SM stream extraction from a hand-built trace chunk."""

from __future__ import annotations

import numpy as np
import pytest

from warpsim.errors import ConfigError
from warpsim.mechanisms.coarse_fetch.locality import locality
from warpsim.mechanisms.coarse_fetch.streams import GlobalStreams, is_global_access


def _brute(a, w, n):
    """The definition, literally: access i is reused when one of the next w accesses lies
    within |a_j - a_i| < n."""
    hits = sum(1 for i in range(len(a))
               if any(abs(int(a[j]) - int(a[i])) < n for j in range(i + 1, min(len(a), i + 1 + w))))
    return hits / len(a)


def test_hand_computed_tiny_stream():
    # stream 0, 128, 0, 512: access 0 sees 0 again 2 later; 128 is within 129 B of 0 next;
    # the last two are never reused (512 is 512 B from 0)
    a = np.array([0, 128, 0, 512])
    s = locality(a, windows=(1, 2, 4), neighbourhoods=(1, 128, 129, 513))
    # n=1 (temporal): only access 0, at distance 2 -> w>=2: 1/4
    assert s.at(1, 1) == 0.0 and s.at(2, 1) == 0.25 and s.at(4, 1) == 0.25
    # n=128: |128-0| = 128 is not < 128: same as temporal
    assert s.at(1, 128) == 0.0 and s.at(4, 128) == 0.25
    # n=129: access 0 (next 128 at distance 1), access 1 (next 0 at distance 1) -> 2/4 at w=1
    assert s.at(1, 129) == 0.5 and s.at(4, 129) == 0.5
    # n=513: also access 2 (next is 512, |512-0| = 512 < 513) -> 3/4
    assert s.at(1, 513) == 0.75


def test_matches_brute_force_on_random_streams():
    rng = np.random.default_rng(7)
    ws, ns = (1, 2, 3, 5, 8, 40), (1, 2, 3, 7, 20, 64)
    for _ in range(20):
        a = rng.integers(0, 30, size=int(rng.integers(1, 50))) * int(rng.choice([1, 4, 128]))
        s = locality(a, ws, ns)
        want = np.array([[_brute(a, w, n) for w in ws] for n in ns])
        np.testing.assert_allclose(s.values, want, rtol=0, atol=1e-12)


def test_non_decreasing_in_window_and_neighbourhood():
    rng = np.random.default_rng(3)
    a = (rng.integers(0, 200, size=3000) * 64 + rng.integers(0, 3, size=3000) * 4096)
    v = locality(a).values
    assert np.all(np.diff(v, axis=0) >= 0) and np.all(np.diff(v, axis=1) >= 0)


def test_streams_are_pooled_not_concatenated():
    # two SMs each touching one line twice in a row: reuse within w=1 for the first access of
    # each; concatenating them would add a spurious cross-stream neighbour
    s = locality([np.array([0, 0]), np.array([128, 128])], windows=(1,), neighbourhoods=(1, 256))
    assert s.n_accesses == 4
    assert s.at(1, 1) == 0.5 and s.at(1, 256) == 0.5


def test_bad_axis_is_a_config_error():
    with pytest.raises(ConfigError, match=r"locality\.windows"):
        locality(np.array([0]), windows=(0, 2))


def test_global_access_opcodes():
    assert is_global_access("ld.global.f32") and is_global_access("st.global.v4.u32")
    assert is_global_access("ld.f32") and is_global_access("ldu.global.u64")
    assert not is_global_access("ld.shared.f32") and not is_global_access("ld.param.u64")
    assert not is_global_access("atom.global.add.u32") and not is_global_access("add.s32")


class _Chunk:
    """The columns of a TraceChunk the stream extraction reads."""

    def __init__(self):
        # two warps, of CTAs 0 and 16: SMs 0 and 1 of 15
        self.warp_cta = np.array([0, 16], np.int64)
        self.warp = np.array([0, 1, 0, 1], np.int32)
        self.pc = np.array([0, 0, 1, 2], np.int32)  # pc 1 is shared, pc 2 global store
        self.n_lines = np.array([2, 1, 1, 1], np.uint8)
        self.line_start = np.array([0, 2, 3, 4], np.int64)
        self.lines = np.array([0x100, 0x180, 0x400, 0x999, 0x480], np.uint64)


def test_streams_follow_cta_to_sm_and_skip_other_spaces():
    col = GlobalStreams(15)
    col.add_chunk(_Chunk(), np.array([True, False, True]))
    st = col.streams()
    assert st[0].tolist() == [0x100, 0x180] and st[1].tolist() == [0x400, 0x480]
    assert all(s.size == 0 for s in st[2:])
