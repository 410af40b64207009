"""Registers start on shared read-only zero arrays and are copied on their first partial write
(``batch_setup.setup_batch``, ``simt_stack.own``): a register written on some lanes only (a
predicated load, a load of a parameter, an atomic and a shuffle in divergent code) reads 0 on
every other lane, in every batch and in the next launch of the same shape, and the shared zero
arrays stay zero.

Oracle: numpy values of what the hand-written PTX below computes for each thread.
"""

from __future__ import annotations

import struct

import numpy as np

from warpsim.functional.executor import launch
from warpsim.functional.memory import GlobalMemory
from warpsim.functional.program import ModuleImage
from warpsim.ptx.parser import parse_ptx

# per thread (gid = ctaid.x * 64 + tid.x), five words out[5 * gid + k]:
#   k=0: r10 = in[gid] loaded by odd threads only (predicated ld.global), 0 elsewhere
#   k=1: r13 = flag loaded by odd threads only (predicated ld.param), 0 elsewhere
#   k=2: r11 = old value of atom.add(cnt[gid], 1) for threads with tid < flag, 0 elsewhere
#   k=3: r12 = shfl.idx from lane 0 of tid for threads with tid < flag (divergent), 0 elsewhere
#   k=4: r14 = r10 + r12 (reads both; a whole-batch write)
PTX = r"""
.version 9.0
.target sm_80
.address_size 64
.visible .entry cow(.param .u64 po, .param .u64 pin, .param .u64 pcnt, .param .u32 flag)
{
    .reg .pred %p<4>; .reg .b32 %r<20>; .reg .b64 %rd<12>;
    ld.param.u64 %rd1, [po];
    ld.param.u64 %rd2, [pin];
    ld.param.u64 %rd3, [pcnt];
    ld.param.u32 %r1, [flag];
    mov.u32 %r2, %tid.x;
    mov.u32 %r3, %ctaid.x;
    mad.lo.u32 %r4, %r3, 64, %r2;
    mul.wide.u32 %rd4, %r4, 4;
    add.u64 %rd5, %rd2, %rd4;
    add.u64 %rd6, %rd3, %rd4;
    and.b32 %r5, %r2, 1;
    setp.eq.u32 %p1, %r5, 1;
    @%p1 ld.global.u32 %r10, [%rd5];
    @%p1 ld.param.u32 %r13, [flag];
    setp.ge.u32 %p2, %r2, %r1;
    @%p2 bra SKIP;
    atom.global.add.u32 %r11, [%rd6], 1;
    activemask.b32 %r6;
    shfl.sync.idx.b32 %r12, %r2, 0, 31, %r6;
SKIP:
    add.u32 %r14, %r10, %r12;
    mul.wide.u32 %rd7, %r4, 20;
    add.u64 %rd8, %rd1, %rd7;
    st.global.u32 [%rd8], %r10;
    st.global.u32 [%rd8+4], %r13;
    st.global.u32 [%rd8+8], %r11;
    st.global.u32 [%rd8+12], %r12;
    st.global.u32 [%rd8+16], %r14;
    ret;
}
"""

GRID, BLOCK = 4, 64


def _want(inp: np.ndarray, cnt: np.ndarray, flag: int) -> np.ndarray:
    gid = np.arange(GRID * BLOCK)
    tid = gid % BLOCK
    odd = (tid & 1) == 1
    inside = tid < flag
    w = np.zeros((GRID * BLOCK, 5), np.uint32)
    w[:, 0] = np.where(odd, inp, 0)
    w[:, 1] = np.where(odd, flag, 0)
    w[:, 2] = np.where(inside, cnt, 0)
    w[:, 3] = np.where(inside, tid - tid % 32, 0)  # lane 0 of the thread's warp
    w[:, 4] = w[:, 0] + w[:, 3]
    return w.reshape(-1)


def test_partial_writes_read_zero_elsewhere_in_every_batch_and_launch():
    mem = GlobalMemory()
    img = ModuleImage(parse_ptx(PTX, "cow.ptx"), mem)
    n = GRID * BLOCK
    out = mem.alloc(n * 20)
    pin = mem.alloc(n * 4)
    pcnt = mem.alloc(n * 4)
    inp = (np.arange(n, dtype=np.uint32) * 7 + 3)
    cnt = np.arange(n, dtype=np.uint32) * 3
    mem.write(pin, inp)
    mem.write(pcnt, cnt)
    for flag, batch_threads in ((40, 64), (20, 64), (33, 1 << 16)):  # 4 batches, then 1
        before = mem.read(pcnt, n * 4).view(np.uint32).copy()
        mem.write(out, np.full(n * 5, 0xDEADBEEF, np.uint32))
        launch(img, "cow", grid=GRID, block=BLOCK, trace=False, batch_threads=batch_threads,
               params=struct.pack("<QQQI", out, pin, pcnt, flag))
        got = mem.read(out, n * 20).view(np.uint32)
        np.testing.assert_array_equal(got, _want(inp, before, flag))
        tid = np.arange(n) % BLOCK
        np.testing.assert_array_equal(mem.read(pcnt, n * 4).view(np.uint32),
                                      before + (tid < flag))
    layout = img.program("cow").launch_cache["batch"]
    shared = [r for r in layout[4] if not r.flags.writeable]
    assert shared and all(not r.any() for r in shared)  # the zero arrays were never written
