"""Per-program tables reused across launches (``Program.launch_cache``): the batch layout of
the last launch shape must never leak a register value or a special register of an earlier
launch into the next one.

Oracle: numpy values of what the kernel computes for each launch shape, hand-written PTX.
"""

from __future__ import annotations

import struct

import numpy as np

from warpsim.functional.executor import launch
from warpsim.functional.memory import GlobalMemory
from warpsim.functional.program import ModuleImage
from warpsim.ptx.parser import parse_ptx

# out[gid] = r9 + 100 * nctaid.x + 10 * ctaid.x + tid.x, where r9 = 1000 is written (in place,
# by a divergent path) only by threads with tid.x < flag: it reads as 0 in every other thread
PTX = r"""
.version 9.0
.target sm_80
.address_size 64
.visible .entry shape(.param .u64 po, .param .u32 flag)
{
    .reg .pred %p<2>; .reg .b32 %r<12>; .reg .b64 %rd<5>;
    ld.param.u64 %rd1, [po];
    ld.param.u32 %r1, [flag];
    mov.u32 %r4, %tid.x;
    setp.ge.u32 %p1, %r4, %r1;
    @%p1 bra SKIP;
    mov.u32 %r9, 1000;
SKIP:
    mov.u32 %r2, %nctaid.x;
    mov.u32 %r3, %ctaid.x;
    mov.u32 %r5, %ntid.x;
    mul.lo.u32 %r6, %r2, 100;
    mad.lo.u32 %r6, %r3, 10, %r6;
    add.u32 %r6, %r6, %r4;
    add.u32 %r6, %r6, %r9;
    mad.lo.u32 %r7, %r3, %r5, %r4;
    mul.wide.u32 %rd2, %r7, 4;
    cvta.to.global.u64 %rd3, %rd1;
    add.u64 %rd4, %rd3, %rd2;
    st.global.u32 [%rd4], %r6;
    ret;
}
"""


def _run(image: ModuleImage, mem: GlobalMemory, out: int, grid: int, block: int,
         flag: int) -> np.ndarray:
    launch(image, "shape", grid=grid, block=block, params=struct.pack("<QI", out, flag),
           trace=False)
    return mem.read(out, grid * block * 4).view(np.uint32)


def _want(grid: int, block: int, flag: int) -> np.ndarray:
    c = np.repeat(np.arange(grid), block)
    t = np.tile(np.arange(block), grid)
    return (1000 * (t < flag) + 100 * grid + 10 * c + t).astype(np.uint32)


def test_relaunches_of_other_shapes_see_fresh_registers() -> None:
    mem = GlobalMemory()
    image = ModuleImage(parse_ptx(PTX, "shape.ptx"), mem)
    out = mem.alloc(4 * 64)
    for grid, block, flag in ((2, 8, 3), (2, 8, 0), (3, 8, 0), (2, 8, 5), (1, 5, 0),
                              (2, 8, 0)):
        got = _run(image, mem, out, grid, block, flag)
        np.testing.assert_array_equal(got, _want(grid, block, flag),
                                      err_msg=f"grid={grid} block={block} flag={flag}")


def test_large_layouts_are_not_kept_on_the_program(monkeypatch) -> None:
    import warpsim.functional.batch_setup as ex

    mem = GlobalMemory()
    image = ModuleImage(parse_ptx(PTX, "shape.ptx"), mem)
    out = mem.alloc(4 * 64)
    prog = image.program("shape")
    np.testing.assert_array_equal(_run(image, mem, out, 1, 8, 0), _want(1, 8, 0))
    # a batch is whole warps: one CTA of 8 threads holds 32 thread slots, two hold 64
    monkeypatch.setattr(ex, "CACHED_LAYOUT_BYTES", 48 * prog.launch_cache["reg_bytes"])
    del prog.launch_cache["batch"]
    np.testing.assert_array_equal(_run(image, mem, out, 2, 8, 3), _want(2, 8, 3))
    assert "batch" not in prog.launch_cache  # 64 thread slots exceed the limit
    np.testing.assert_array_equal(_run(image, mem, out, 1, 8, 0), _want(1, 8, 0))
    assert prog.launch_cache["batch"][0][0] == 1  # 32 fit: kept for the next launch
    np.testing.assert_array_equal(_run(image, mem, out, 2, 8, 0), _want(2, 8, 0))


ENVREG = r"""
.version 9.0
.target sm_80
.address_size 64
.visible .entry env(.param .u64 po)
{
    .reg .b32 %r<3>; .reg .b64 %rd<3>;
    ld.param.u64 %rd1, [po];
    cvta.to.global.u64 %rd2, %rd1;
    mov.u32 %r1, %envreg1;
    mov.u32 %r2, %envreg2;
    st.global.v2.u32 [%rd2], {%r2, %r1};
    ret;
}
"""


def test_each_launch_sees_its_own_grid_sync_workspace() -> None:
    mem = GlobalMemory()
    image = ModuleImage(parse_ptx(ENVREG, "env.ptx"), mem)
    out = mem.alloc(8)
    seen = []
    for coop in (False, True, False, True):
        launch(image, "env", grid=1, block=1, params=struct.pack("<Q", out), trace=False,
               cooperative=coop)
        seen.append(int(mem.read(out, 8).view(np.uint64)[0]))
    assert seen[0] == seen[2] == 0  # no workspace outside a cooperative launch
    assert seen[1] != 0 and seen[3] != 0  # the workspace of the launch, not a kept 0
