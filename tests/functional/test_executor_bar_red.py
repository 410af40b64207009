"""Functional executor: ``bar.red`` / ``barrier.red`` (CTA-wide popc / and / or of a predicate,
PTX ISA §9.7.13.1), against numpy reductions of the same inputs per CTA."""

from __future__ import annotations

import struct

import numpy as np
import pytest

from warpsim.errors import UnsupportedPTXError
from warpsim.functional.executor import launch
from warpsim.functional.memory import GlobalMemory
from warpsim.functional.program import ModuleImage
from warpsim.ptx.parser import parse_ptx

HDR = ".version 9.0\n.target sm_80\n.address_size 64\n"

BAR_RED = HDR + r"""
.visible .entry bar_red(.param .u64 inp, .param .u64 out)
{
    .reg .b32 %r<12>; .reg .pred %p<8>; .reg .b64 %rd<8>;
    ld.param.u64 %rd1, [inp];
    ld.param.u64 %rd2, [out];
    mov.u32 %r1, %tid.x;
    mov.u32 %r2, %ctaid.x;
    mov.u32 %r3, %ntid.x;
    mad.lo.u32 %r4, %r2, %r3, %r1;
    mul.wide.u32 %rd3, %r4, 4;
    add.s64 %rd4, %rd1, %rd3;
    ld.global.u32 %r5, [%rd4];
    and.b32 %r6, %r5, 1;
    setp.ne.u32 %p1, %r6, 0;
    setp.lt.u32 %p2, %r5, 3;
    bar.red.popc.u32 %r7, 0, %p1;
    bar.red.popc.u32 %r8, 1, !%p1;
    bar.red.and.pred %p3, 0, %p1;
    barrier.red.or.pred %p4, 2, %r3, %p2;
    bar.red.and.pred %p5, 0, !%p2;
    bar.red.popc.u32 %r9, 0, 1;
    selp.u32 %r10, 1, 0, %p3;
    selp.u32 %r11, 1, 0, %p4;
    mul.wide.u32 %rd5, %r4, 32;
    add.s64 %rd6, %rd2, %rd5;
    st.global.v4.u32 [%rd6], {%r7, %r8, %r10, %r11};
    selp.u32 %r10, 1, 0, %p5;
    st.global.v4.u32 [%rd6+16], {%r10, %r9, %r9, %r9};
    ret;
}
"""


@pytest.mark.parametrize("block,grid,batch", [(80, 5, 160), (64, 3, 64), (256, 2, 512)])
def test_bar_red_reduces_each_cta(block: int, grid: int, batch: int) -> None:
    """80 threads: a partial last warp; batches of several CTAs keep their tallies apart."""
    mem = GlobalMemory()
    img = ModuleImage(parse_ptx(BAR_RED, "test.ptx"), mem)
    n = block * grid
    rng = np.random.default_rng(block)
    x = rng.integers(0, 40, n).astype(np.uint32)
    x[:block] |= 1  # CTA 0: every predicate true
    x[block:2 * block] = np.where(x[block:2 * block] < 3, 7, x[block:2 * block])  # CTA 1: no x<3
    inp = mem.alloc(x.nbytes)
    mem.write(inp, x)
    out = mem.alloc(n * 32)
    launch(img, "bar_red", grid=(grid,), block=(block,), params=struct.pack("<QQ", inp, out),
           batch_threads=batch)
    got = mem.read(out, n * 32).view(np.uint32).reshape(n, 8)[:, :6]
    odd = (x & 1).astype(bool).reshape(grid, block)
    small = (x < 3).reshape(grid, block)
    per_cta = np.stack([odd.sum(1), (~odd).sum(1), odd.all(1), small.any(1), (~small).all(1),
                        np.full(grid, block)], axis=1)
    assert np.array_equal(got, np.repeat(per_cta, block, axis=0).astype(np.uint32))
    assert per_cta[0, 2] == 1 and per_cta[1, 3] == 0  # both outcomes appear


@pytest.mark.parametrize("spell", ["bar.red.popc.pred %p1, 0, %p2",
                                   "bar.red.and.u32 %r1, 0, %p2",
                                   "bar.red.popc.u32 %r1, 0, %r2"])
def test_malformed_bar_red_is_refused_at_load(spell: str) -> None:
    ptx = HDR + (".visible .entry k()\n{\n .reg .b32 %r<3>; .reg .pred %p<3>;\n"
                 f" {spell};\n ret;\n}}\n")
    img = ModuleImage(parse_ptx(ptx, "test.ptx"), GlobalMemory())
    with pytest.raises(UnsupportedPTXError, match=r"bar\.red"):
        launch(img, "k", grid=(1,), block=(32,), params=b"")
