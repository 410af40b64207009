"""Counters that depend on the kernel's control flow and on the shared-memory banking, through
``warpsim.Device``: ``simt_divergent_branches`` and ``gpgpu_n_shmem_bkconflict``.

Oracles: counted by hand from the PTX below (which lanes take each branch; which bank each
lane's shared word falls into for 16 and 32 banks).
"""

from __future__ import annotations

import numpy as np

import warpsim

HDR = ".version 7.0\n.target sm_75\n.address_size 64\n"

BRANCHES = HDR + r"""
.visible .entry branches(.param .u64 out)
{
    .reg .pred %p<4>; .reg .b32 %r<8>; .reg .b64 %rd<4>;
    mov.u32 %r1, %tid.x;
    setp.lt.u32 %p1, %r1, 4096;
    @%p1 bra ALL;              // every lane takes it: not divergent
    mov.u32 %r1, 0;
ALL:
    and.b32 %r2, %r1, 1;
    setp.eq.u32 %p2, %r2, 0;
    @%p2 bra EVEN;             // even lanes jump, odd lanes fall through: divergent
    add.u32 %r3, %r1, 1;
    bra.uni JOIN;              // odd lanes only, all of them jump: not divergent
EVEN:
    add.u32 %r3, %r1, 2;
JOIN:
    and.b32 %r4, %r1, 3;       // lane t loops (t & 3) + 1 times
    mov.u32 %r5, 0;
LOOP:
    add.u32 %r5, %r5, 1;
    setp.le.u32 %p3, %r5, %r4;
    @%p3 bra LOOP;             // iterations 1-3 lose lanes (divergent), the 4th loses all
    add.u32 %r6, %r3, %r5;
    ld.param.u64 %rd1, [out];
    cvta.to.global.u64 %rd2, %rd1;
    mul.wide.u32 %rd3, %r1, 4;
    add.s64 %rd2, %rd2, %rd3;
    st.global.u32 [%rd2], %r6;
    ret;
}
"""


def _run_branches(n_warps: int) -> dict:
    gpu = warpsim.Device(config="gtx480", overrides=["sm.n_sms=1"])
    k = gpu.load_ptx(BRANCHES).get_kernel("branches")
    out = gpu.device_array(32 * n_warps, np.uint32)
    k[1, 32 * n_warps](out)
    t = np.arange(32 * n_warps)
    expect = np.where(t % 2 == 0, t + 2, t + 1) + (t % 4) + 1
    assert np.array_equal(out.copy_to_host(), expect)
    return gpu.last_launch.stats


def test_divergent_branches_are_counted_per_warp_by_hand():
    for n_warps in (1, 3):
        s = _run_branches(n_warps)
        # per warp: ALL (1), EVEN (1), JOIN (1, odd lanes), LOOP (4) = 7 branches;
        # divergent: EVEN (1) + LOOP iterations 1, 2, 3 (lanes with t & 3 = 0, 1, 2 leave) = 4
        assert s["simt_branches"] == 7 * n_warps
        assert s["simt_divergent_branches"] == 4 * n_warps


STRIDE2 = HDR + r"""
.visible .entry stride2(.param .u64 out)
{
    .reg .b32 %r<4>; .reg .b64 %rd<4>;
    .shared .align 4 .b8 sm[256];
    mov.u32 %r1, %tid.x;
    shl.b32 %r2, %r1, 3;         // lane t writes the word at byte 8t (word 2t)
    st.shared.u32 [%r2], %r1;
    ret;
}
"""


def _bank_extra(banks: int) -> int:
    gpu = warpsim.Device(config="gtx480", overrides=["sm.n_sms=1", f"shmem.n_banks={banks}"])
    k = gpu.load_ptx(STRIDE2).get_kernel("stride2")
    k[1, 32](gpu.device_array(1, np.uint32))
    return gpu.last_launch.stats["gpgpu_n_shmem_bkconflict"]


def test_shmem_bank_count_sets_the_conflict_degree():
    # words 0, 2, ..., 62: 32 banks -> 16 even banks x 2 words (degree 2, 1 extra pass);
    # 16 banks -> 8 even banks x 4 words (degree 4, 3 extra passes)
    assert _bank_extra(32) == 1
    assert _bank_extra(16) == 3
