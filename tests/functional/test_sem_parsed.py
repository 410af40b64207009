"""Integration: every ALU instruction of a parsed nvcc-style kernel compiles and evaluates."""

from __future__ import annotations

import numpy as np

from warpsim.functional.semantics import SUPPORTED_OPCODES, build_op, immediate_bits
from warpsim.ptx import parser
from warpsim.ptx.ir import OpKind

PTX = """
.version 9.0
.target sm_80
.address_size 64

.visible .entry k(.param .u64 p)
{
    .reg .pred %p<4>;
    .reg .b16 %rs<4>;
    .reg .b32 %r<16>;
    .reg .f32 %f<8>;
    .reg .b64 %rd<8>;
    .reg .f64 %fd<4>;

    add.s32 %r1, %r2, -1;
    mad.lo.cc.u32 %r3, %r1, %r2, %r4;
    madc.hi.u32 %r5, %r1, %r2, 7;
    mul.wide.u32 %rd1, %r1, 4;
    cvt.u16.u32 %rs1, %r1;
    cvt.u32.u16 %r6, %rs1;
    cvt.rn.f32.s32 %f1, %r6;
    fma.rn.f32 %f2, %f1, 0f3F000000, 0f40000000;
    setp.lt.and.f32 %p1|%p2, %f2, %f1, %p3;
    selp.b32 %r7, %r1, 0, %p1;
    mov.b64 {%r8, %r9}, %rd1;
    mov.b64 %rd2, {%r9, %r8};
    prmt.b32 %r10, %r8, %r9, 0x3340;
    cvt.rzi.s32.f64 %r11, %fd1;
    fma.rn.f64 %fd2, %fd1, 0d3FB999999999999A, %fd1;
    ex2.approx.ftz.f32 %f3, %f2;
    shl.b64 %rd3, %rd1, 3;
    and.pred %p3, %p1, %p2;
    ret;
}
"""


def test_parsed_alu_instructions_build_and_evaluate() -> None:
    module = parser.parse_ptx(PTX, "k.ptx")
    fn = module.functions["k"]
    rng = np.random.default_rng(0)
    n = 0
    for inst in fn.instructions:
        if inst.opcode not in SUPPORTED_OPCODES:
            continue
        op = build_op(inst, fn)
        flat = [e for s in inst.srcs for e in (s.elems if s.kind is OpKind.VECTOR else (s,))]
        args = []
        for i, dt in enumerate(op.src_dtypes):
            if op.src_types[i] == "cc":
                args.append(np.ones(64, np.uint32))
            elif flat[i].kind is OpKind.IMM:
                args.append(immediate_bits(flat[i], op.src_types[i]))
            elif dt is np.bool_:
                args.append(rng.random(64) < 0.5)
            else:
                args.append(rng.integers(0, 2**16, 64).astype(dt))
        out = op.evaluate(args)
        assert len(out) == op.n_dsts
        assert all(np.asarray(o).dtype == dt for o, dt in zip(out, op.dst_dtypes, strict=True))
        n += 1
    assert n == 18
