"""B-R1 for the ST-like and RS-like inputs of the WarpMan reproduction (``stencil_naive``,
``radix_sort``): the registers block-level occupancy leaves unused on the gtx480, computed by
hand from ptxas's register counts (spec §2.2, Table 5), against the reproduction's own
arithmetic (``wm_analysis.unused_registers``, ``warpman.occupancy.block_occupancy``)."""

from __future__ import annotations

import pytest

from warpsim.bench.registry import kernel_resources
from warpsim.experiments.wm_analysis import unused_registers
from warpsim.experiments.wm_runs import BENCH_QUICK
from warpsim.mechanisms.warpman.occupancy import block_occupancy


def test_the_st_and_rs_like_inputs_are_in_the_quick_set():
    sel = {s.name: s for s in BENCH_QUICK}
    assert sel["stencil_naive"].paper == "ST" and sel["radix_sort"].paper == "RS"


def test_stencil_naive_leaves_a_quarter_of_the_registers_unused():
    regs = kernel_resources("stencil_naive")["stencil_naive"].registers
    assert regs == 22  # ptxas under __maxnreg__(24) (the paper's Fermi compiler: 17)
    # by hand: 22 -> 24 (granule 4) x 1024 threads = 24576 per block; one block per SM
    # (48 warps // 32 = 1, 32768 // 24576 = 1): 8192 of 32768 unused = 25 %
    k = {"stencil_naive": {"warps_per_cta": 32, "regs_per_thread": regs,
                           "baseline_ctas_per_sm": 1, "warp_insts": 1}}
    assert unused_registers(k, 32768)["weighted"] == pytest.approx(8192 / 32768)
    o = block_occupancy(regs_per_block=24 * 1024, warps_per_block=32)
    assert (o.blocks, o.unused_regs, o.limiter) == (1, 8192, "regs+warps")
    # warp-level allocation adds min(48 - 32 warps, 8192 // (24 x 32)) = 10 warps
    assert o.spatial_partial_warps == 10
    # Table 5's ST at 17 registers (17408 per block): 15360 unused, 46.9 %
    st = block_occupancy(regs_per_block=17408, warps_per_block=32)
    assert st.unused_regs == 15360 and st.unused_frac == pytest.approx(0.46875)


def test_radix_sort_leaves_a_quarter_of_the_registers_unused():
    res = kernel_resources("radix_sort")["radix_sort_blocks"]
    assert res.registers == 24 and 4096 <= res.shared_bytes < 5120
    # by hand: 24 x 512 = 12288 per block; 32768 // 12288 = 2 blocks (warps allow 3, shared
    # memory 11): 24576 allocated, 8192 unused = 25 % (Table 5's RS at 23: 9216, 28.1 %)
    k = {"radix_sort_blocks": {"warps_per_cta": 16, "regs_per_thread": 24,
                               "baseline_ctas_per_sm": 2, "warp_insts": 3},
         "reorder_data": {"warps_per_cta": 16, "regs_per_thread": 16,
                          "baseline_ctas_per_sm": 3, "warp_insts": 1}}
    # reorder_data: 16 x 512 = 8192, 3 blocks by warps: 24576, 25 % too
    assert unused_registers(k, 32768)["weighted"] == pytest.approx(0.25)
    o = block_occupancy(regs_per_block=12288, warps_per_block=16, shmem_per_block=4160)
    assert (o.blocks, o.unused_regs, o.limiter) == (2, 8192, "regs")
    assert o.spatial_partial_warps == 10  # 8192 // 768
    rs = block_occupancy(regs_per_block=11776, warps_per_block=16, shmem_per_block=4096)
    assert rs.unused_regs == 9216 and rs.unused_frac == pytest.approx(0.28125)


def test_matrix_mul_at_24_registers_is_the_papers_mm():
    """B-R8's MM (Table 5, the §3.4 worked example): as shipped sm_80's ptxas gives
    ``matrix_mul`` 32 registers, 8192 per 256-thread block: 4 blocks fill the register file
    exactly, so temp+spatial has no fragment to use. Under ``__maxnreg__(24)`` (the full
    selection's input) it is the paper's MM: 6144 per block, 5 blocks, 2048 unused (6.25 %),
    a partial block of 2 warps."""
    from warpsim.bench import get_benchmark
    from warpsim.experiments.wm_runs import BENCH_FULL, with_maxnreg
    from warpsim.toolchain import compile_cuda, resource_usage

    mm = get_benchmark("matrix_mul")
    shipped = kernel_resources("matrix_mul")["matrix_mul"]
    assert shipped.registers == 32 and shipped.shared_bytes == 2048
    o = block_occupancy(regs_per_block=32 * 256, warps_per_block=8, shmem_per_block=2048)
    assert (o.blocks, o.unused_regs, o.spatial_partial_warps) == (4, 0, 0)
    sel = {s.name: s for s in BENCH_FULL}["matrix_mul"]
    assert (sel.paper, sel.maxnreg) == ("MM", 24)
    res = resource_usage(compile_cuda(with_maxnreg(mm, 24).source))["matrix_mul"]
    assert (res.registers, res.local_bytes, res.shared_bytes) == (24, 0, 2048)  # no spills
    o = block_occupancy(regs_per_block=24 * 256, warps_per_block=8, shmem_per_block=2048)
    assert (o.blocks, o.unused_regs, o.spatial_partial_warps) == (5, 2048, 2)
    assert o.unused_frac == pytest.approx(0.0625)
