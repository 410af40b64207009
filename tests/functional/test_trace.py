"""Per-warp traces: records, masks, value signatures, BDI classes, uniformity, memory lines
and shared-memory bank conflicts.

Oracles: contents compared with numpy (signature equality iff equal contents), the
Warped-Compression spec's worked BDI examples (§3.4), hand-counted sectors/lines for strided
accesses and bank-conflict degrees for strided shared accesses.
"""

from __future__ import annotations

import struct

import numpy as np
import pytest

from warpsim.functional.executor import launch
from warpsim.functional.memory import GlobalMemory
from warpsim.functional.program import ModuleImage
from warpsim.functional.trace import (
    BDI_NA,
    SIG_KEYS,
    annotate_words,
    bdi_best,
    bdi_class_4,
    bdi_class_8,
    empty_values,
    signature,
)
from warpsim.ptx.parser import parse_ptx

HDR = ".version 9.0\n.target sm_80\n.address_size 64\n"


def _image(ptx: str) -> tuple[ModuleImage, GlobalMemory]:
    mem = GlobalMemory()
    return ModuleImage(parse_ptx(ptx, "test.ptx"), mem), mem


def _dev(mem: GlobalMemory, arr: np.ndarray) -> int:
    addr = mem.alloc(arr.nbytes)
    mem.write(addr, arr)
    return addr


def _annotate(vals: np.ndarray, active: int = 0xFFFFFFFF,
              exist: int = 0xFFFFFFFF) -> tuple[int, int, bool]:
    v = np.asarray(vals, dtype=np.uint64).astype(np.uint32).reshape(1, 32)
    sig, bdi, uni = empty_values(1, 1)
    annotate_words(v, np.array([exist], np.uint32), np.array([active], np.uint32), SIG_KEYS,
                   sig, bdi, uni, 0)
    return int(sig[0, 0]), int(bdi[0, 0]), bool(uni[0, 0])


def test_bdi_worked_examples_from_the_spec() -> None:
    lane = np.arange(32)
    assert bdi_class_4(_annotate(np.full(32, 5))[1]) == 0
    assert bdi_class_4(_annotate(0x1000 + lane)[1]) == 1
    assert bdi_class_4(_annotate(np.r_[0x7FFFFFFF, np.full(31, 0x80000000)])[1]) == 1
    assert bdi_class_4(_annotate(np.r_[1000, np.full(31, 1000 + 128)])[1]) == 2
    assert bdi_class_4(_annotate(np.r_[1000, np.full(31, 1000 - 128)])[1]) == 1
    assert bdi_class_4(_annotate(np.r_[0, np.full(31, 32767)])[1]) == 2
    assert bdi_class_4(_annotate(np.r_[0, np.full(31, 32768)])[1]) == 3


def test_bdi_eight_byte_base_classes() -> None:
    alt = np.tile([7, 0x12345678], 16)  # every lane pair equal: <8,0>, but <4,Y> fails
    _, code, _ = _annotate(alt)
    assert bdi_class_4(code) == 3 and bdi_class_8(code) == 0
    assert bdi_best(code) == "<8,0>"
    pairs = np.zeros(32, np.int64)
    pairs[0::2] = 0x10 + np.arange(16)
    pairs[1::2] = 0xFFFF0000
    _, code, _ = _annotate(pairs)
    assert bdi_class_8(code) == 1 and bdi_best(code) == "<8,1>"
    assert bdi_best(_annotate(np.full(32, 3))[1]) == "<4,0>"


def test_missing_lanes_count_as_delta_zero() -> None:
    vals = np.r_[np.full(8, 9), np.random.default_rng(0).integers(0, 2**31, 24)]
    assert bdi_class_4(_annotate(vals, active=0xFF, exist=0xFF)[1]) == 0
    assert bdi_class_4(_annotate(vals, active=0xFF)[1]) == 3


def test_uniform_considers_active_lanes_only() -> None:
    vals = np.r_[np.full(16, 4), np.arange(16)]
    assert _annotate(vals, active=0xFFFF)[2]
    assert not _annotate(vals)[2]
    assert _annotate(vals, active=0)[2]


def test_signature_equal_iff_contents_equal() -> None:
    rng = np.random.default_rng(1)
    base = rng.integers(0, 2**32, (200, 32), dtype=np.uint64).astype(np.uint32)
    rows = np.concatenate([base, base[:50]])
    for i in range(50):  # single-bit and single-lane changes
        r = base[i].copy()
        r[i % 32] ^= np.uint32(1 << (i % 32))
        rows = np.concatenate([rows, r[None]])
    sig = signature(rows)
    _, inv = np.unique(rows, axis=0, return_inverse=True)
    same_content = inv[:, None] == inv[None, :]
    assert np.array_equal(sig[:, None] == sig[None, :], same_content)
    assert _annotate(rows[3])[0] == int(sig[3])


VALUES = HDR + r"""
.visible .entry vals(.param .u64 out)
{
    .reg .b32 %r<6>; .reg .b64 %rd<6>; .reg .pred %p<2>;
    mov.u32 %r1, %tid.x;
    and.b32 %r2, %r1, 3;
    mul.wide.u32 %rd1, %r1, 8;
    setp.lt.u32 %p1, %r2, 2;
    @%p1 add.u32 %r3, %r2, 1;
    ret;
}
"""


def test_value_entries_per_destination_kind() -> None:
    img, _ = _image(VALUES)
    r = launch(img, "vals", grid=(1,), block=(64,), params=b"\0" * 8)
    tr = r.trace
    assert tr.n_values.tolist()[:6] == [1, 1, 2, 1, 1, 0]
    w0, w1 = tr.warp_values(0, 0), tr.warp_values(0, 1)
    lane = np.arange(32)
    # tid differs between warps, tid & 3 does not
    assert w0[0][0][0] != w1[0][0][0] and w0[1][0][0] == w1[1][0][0]
    assert w0[0][0][0] == int(signature(lane[None])[0])
    assert w1[0][0][0] == int(signature(lane[None] + 32)[0])
    # 64-bit tid*8: low half then high half (all zero: <4,0>, uniform)
    lo, hi = w0[2]
    assert lo[0] == int(signature((lane * 8)[None])[0]) and bdi_class_4(lo[1]) == 2
    assert hi[0] == 0 and bdi_class_4(hi[1]) == 0 and hi[2]
    assert w0[3][0][1] == BDI_NA
    assert w0[3][0][0] == int(signature(((lane & 3) < 2).astype(np.uint32)[None])[0])
    assert not w0[3][0][2]
    # guarded add: exec mask = lanes with tid & 3 < 2, register keeps old (0) elsewhere
    recs = tr.warp_records(0, 0)
    exec_mask = int(sum(1 << i for i in range(32) if (i & 3) < 2))
    assert int(recs["exec_mask"][4]) == exec_mask and int(recs["mask"][4]) == 0xFFFFFFFF
    assert w0[4][0][0] == int(signature(np.where((lane & 3) < 2, (lane & 3) + 1, 0)[None])[0])
    assert not w0[4][0][2]


STRIDED = HDR + r"""
.visible .entry strided(.param .u64 p, .param .u32 stride)
{
    .reg .b32 %r<6>; .reg .b64 %rd<6>;
    .shared .align 4 .b8 sm[4096];
    ld.param.u64 %rd1, [p];
    ld.param.u32 %r1, [stride];
    mov.u32 %r2, %tid.x;
    mul.lo.s32 %r3, %r2, %r1;
    mul.wide.u32 %rd2, %r3, 1;
    add.s64 %rd3, %rd1, %rd2;
    ld.global.u32 %r4, [%rd3];
    shl.b32 %r5, %r3, 0;
    and.b32 %r5, %r5, 4095;
    st.shared.u32 [%r5], %r4;
    ret;
}
"""


def _strided(stride: int, **banks: int) -> tuple[dict[str, np.ndarray], list[np.ndarray], int]:
    img, mem = _image(STRIDED)
    p = _dev(mem, np.zeros(32 * 128, np.uint32))
    r = launch(img, "strided", grid=(1,), block=(32,), params=struct.pack("<QI", p, stride),
               **banks)
    return r.trace.warp_records(0, 0), r.trace.warp_lines(0, 0), p


def test_sectors_and_lines_for_strided_global_loads() -> None:
    for stride, sectors, lines in ((4, 4, 1), (8, 8, 2), (128, 32, 32), (0, 1, 1)):
        recs, line_addr, p = _strided(stride)
        ld = int(np.flatnonzero(recs["pc"] == 6)[0])
        assert int(recs["n_sectors"][ld]) == sectors
        assert int(recs["n_lines"][ld]) == lines
        assert line_addr[ld].tolist() == [p + 128 * k for k in range(lines)]


def test_bank_conflict_degree_for_strided_shared_stores() -> None:
    for words, degree in ((1, 1), (2, 2), (32, 32), (0, 1), (3, 1)):
        recs, _, _ = _strided(4 * words)
        st = int(np.flatnonzero(recs["pc"] == 9)[0])
        assert int(recs["bank_conflict"][st]) == degree
        assert int(recs["n_lines"][st]) == 0


@pytest.mark.parametrize(("words", "banks", "width", "degree"), [
    # lane t stores the 4-byte word at byte 4 * words * t; by hand, the most distinct words
    # that share one bank (bank = (byte address // width) % banks):
    (1, 32, 4, 1),   # words 0..31 -> 32 banks, one each
    (1, 16, 4, 2),   # words 0..31 -> 16 banks, two each (t and t + 16)
    (2, 32, 4, 2),   # words 0, 2, ..., 62 -> the 16 even banks, two each
    (2, 16, 4, 4),   # words 0, 2, ..., 62 -> the 8 even banks of 16, four each
    (16, 16, 4, 32),  # every lane in bank 0, 32 distinct words
    (1, 32, 8, 1),   # 8-byte banks: bytes 0..127 are 16 words in 16 banks, lanes pair up
    (2, 32, 8, 1),   # 8-byte banks: 32 distinct 8-byte words in 32 banks
    (2, 16, 8, 2),   # 8-byte banks: 32 distinct words in 16 banks
])
def test_bank_conflict_degree_follows_the_bank_count_and_width(words, banks, width, degree):
    recs, _, _ = _strided(4 * words, shmem_banks=banks, shmem_bank_width_bytes=width)
    st = int(np.flatnonzero(recs["pc"] == 9)[0])
    assert int(recs["bank_conflict"][st]) == degree


def test_trace_sink_streams_one_chunk_per_batch_and_trace_off_matches() -> None:
    img, _mem = _image(VALUES)
    got = []
    r = launch(img, "vals", grid=(8,), block=(64,), params=b"\0" * 8, batch_threads=128,
               trace_sink=got.append)
    assert len(got) == r.n_batches == 4 and not r.trace.chunks
    assert [c.n_warps for c in got] == [4] * 4
    assert sum(c.n_records for c in got) == r.warp_instructions
    assert got[1].warp_cta.tolist() == [2, 2, 3, 3]
    r2 = launch(img, "vals", grid=(8,), block=(64,), params=b"\0" * 8, trace=False)
    assert r2.trace is None and r2.thread_instructions == r.thread_instructions
