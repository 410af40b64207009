"""RFH (RegLess's comparison baseline, Gebhart et al. MICRO'11): the compiler's LRF/ORF/MRF
placement on a hand-written kernel, worked out by hand (``mechanisms/regless/rfh.py``)."""

from __future__ import annotations

import numpy as np

from warpsim.mechanisms.regless.rfh import KINDS, ORF_ENTRIES, plan_rfh
from warpsim.ptx.parser import parse_ptx

PTX = r"""
.version 7.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 out)
{
    .reg .b32 %r<6>; .reg .b64 %rd<5>;
    ld.param.u64 %rd1, [out];        // 0  rd1: read at 4 -> ORF
    mov.u32 %r1, %tid.x;             // 1  r1: read at 2, 3, 5 -> ORF
    add.u32 %r2, %r1, 1;             // 2  r2: read only by 3 -> LRF
    mul.lo.u32 %r3, %r2, %r1;        // 3  r3: read in the next strand -> MRF
    cvta.to.global.u64 %rd2, %rd1;   // 4  rd2: read at 6 -> ORF
    mul.wide.u32 %rd3, %r1, 4;       // 5  rd3: read only by 6 -> LRF
    add.s64 %rd4, %rd2, %rd3;        // 6  rd4: read by 7 (LRF) and at 9: MRF too
    ld.global.u32 %r4, [%rd4];       // 7  a long-latency result -> MRF
    add.u32 %r5, %r4, %r3;           // 8  first read of r4: a new strand; r4, r3 from MRF
    st.global.u32 [%rd4], %r5;       // 9  rd4 from the MRF, r5 from the LRF
    ret;
}
"""


def test_hand_worked_placement():
    fn = parse_ptx(PTX).functions["k"]
    plan = plan_rfh(fn)
    assert plan.n_strands == 2
    got = dict(zip(KINDS, plan.accesses(np.ones(len(fn.instructions), np.int64)).tolist(),
                   strict=True))
    assert got == {"mrf_reads": 3, "orf_reads": 5, "lrf_reads": 4,
                   "mrf_writes": 3, "orf_writes": 3, "lrf_writes": 4, "values": 9}
    # every operand read of the baseline is counted once, in one of the three files
    reads = sum(len({r for r in i.reads() if fn.regs[r].type != "pred"})
                for i in fn.instructions)
    assert got["mrf_reads"] + got["orf_reads"] + got["lrf_reads"] == reads == 12
    # dynamic counts scale with the warp instructions of each pc
    twice = plan.accesses(np.full(len(fn.instructions), 2, np.int64))
    assert twice.tolist() == [6, 10, 8, 6, 6, 8, 18]


def test_orf_capacity_limits_the_placement():
    # ORF_ENTRIES + 2 values all defined first and read last (each twice, so none is an LRF
    # candidate): only ORF_ENTRIES fit, the rest stay in the MRF
    n = ORF_ENTRIES + 2
    body = [f"mov.u32 %r{k}, {k};" for k in range(n)]
    body += [f"add.u32 %s{k}, %r{k}, %r{k};" for k in range(n)]
    body += [f"add.u32 %s{k}, %s{k}, %r{k};" for k in range(n)]
    ptx = (".version 7.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n"
           f".reg .b32 %r<{n}>; .reg .b32 %s<{n}>;\n" + "\n".join(body) + "\nret;\n}\n")
    fn = parse_ptx(ptx).functions["k"]
    got = dict(zip(KINDS, plan_rfh(fn).accesses(np.ones(len(fn.instructions),
                                                        np.int64)).tolist(), strict=True))
    # r_k lives from pc k to 20 + k with 2 reads: r0..r7 fill the ORF (every point of
    # 9..20 holds 8), r8 and r9 stay in the MRF; each first s_k (read once, at 20 + k, not
    # next) finds the ORF full; the second s_k is dead: an MRF write
    assert got == {"mrf_reads": 2 * 2 + n, "orf_reads": 8 * 2, "lrf_reads": 0,
                   "mrf_writes": 2 + 2 * n, "orf_writes": 8, "lrf_writes": 0, "values": 3 * n}
