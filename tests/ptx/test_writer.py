"""PTX writer: parse(write(parse(x))) == parse(x) up to positions, and ptxas accepts the output."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ptx_samples import (
    CUDA_KERNELS,
    HAND_PTX,
    PTXAS,
    corpus_names,
    first_difference,
    ir_key,
    mutate,
    nvcc_ptx,
    ptxas_errors,
)

from warpsim.errors import WarpsimError
from warpsim.ptx.ir import Function, Instruction, Module, Operand, OpKind, RegDecl, Variable
from warpsim.ptx.parser import parse_ptx
from warpsim.ptx.writer import write_ptx

HEADER = ".version 9.0\n.target sm_80\n.address_size 64\n"


def _round_trip(text: str) -> tuple[Module, str]:
    first = parse_ptx(text, "orig.ptx")
    written = write_ptx(first)
    second = parse_ptx(written, "written.ptx")
    a, b = ir_key(first), ir_key(second)
    assert a == b, first_difference(a, b)
    return first, written


def test_hand_written_ptx_round_trips() -> None:
    _round_trip(HAND_PTX)


@pytest.mark.skipif(PTXAS is None, reason="ptxas is not installed")
def test_hand_written_ptx_and_its_rewrite_assemble() -> None:
    assert ptxas_errors(HAND_PTX) == ""
    assert ptxas_errors(write_ptx(parse_ptx(HAND_PTX))) == ""


def test_registers_written_as_ranges() -> None:
    ptx = (HEADER + ".entry k()\n{\n.reg .b32 %r<12>;\n.reg .pred p, %p<2>;\n"
           ".reg .b64 %rd1;\nmov.u32 %r11, 1;\nret;\n}\n")
    _, text = _round_trip(ptx)
    assert "\t.reg .b32 \t%r<12>;" in text
    assert "\t.reg .pred \tp;" in text and "\t.reg .pred \t%p<2>;" in text
    assert "\t.reg .b64 \t%rd1;" in text


def test_variables_written_with_initialisers() -> None:
    ptx = (HEADER + ".visible .global .align 4 .u32 g[2][2] = {{1, 2}, {3, 4}};\n"
           ".const .align 4 .f32 c[2] = {0f3F800000, 2.0};\n"
           ".global .align 8 .u64 p[2] = {generic(g), generic(g)+8};\n"
           ".extern .shared .align 16 .b8 dyn[];\n.global .texref t;\n.tex .u64 old;\n")
    m, text = _round_trip(ptx)
    assert ".visible .global .align 4 .u32 g[4] = {1, 2, 3, 4};" in text
    assert ".const .align 4 .f32 c[2] = {0f3F800000, 0f40000000};" in text
    assert ".global .align 8 .u64 p[2] = {generic(g), generic(g)+8};" in text
    assert ".extern .shared .align 16 .b8 dyn[];" in text
    assert ".global .texref t;" in text and ".tex .u64 old;" in text
    assert m.variables["p"].init_symbols == ((0, "g"), (8, "g"))


def test_operands_written_back() -> None:
    ptx = (HEADER + ".global .texref t;\n.global .samplerref s;\n.entry k(.param .u64 a)\n{\n"
           ".reg .pred %p<3>;\n.reg .b32 %r<6>;\n.reg .f32 %f<5>;\n.reg .b64 %rd<3>;\n"
           "ld.param.u64 %rd1, [a];\nld.global.u32 %r1, [%rd1+-4];\n"
           "setp.lt.s32 %p1|%p2, %r1, 0xFFFFFFFF;\n@!%p1 bra $L;\n"
           "tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [t, s, {%f1, %f2}];\n"
           "mov.b64 {%r1, _}, %rd1;\nnot.pred %p0, !%p2;\n$L:\nret;\n}\n")
    _, text = _round_trip(ptx)
    assert "\tld.global.u32 %r1, [%rd1+-4];" in text
    assert "\tsetp.lt.s32 %p1|%p2, %r1, 4294967295;" in text
    assert "\t@!%p1 bra $L;" in text
    assert "\ttex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [t, s, {%f1, %f2}];" in text
    assert "\tmov.b64 {%r1, _}, %rd1;" in text and "\tnot.pred %p0, !%p2;" in text
    assert "$L:\n\tret;" in text


def test_calls_written_back() -> None:
    ptx = (HEADER + ".func (.param .b32 r) f(.param .b32 x)\n{\nret;\n}\n.func g()\n{\nret;\n}\n"
           ".entry k()\n{\n{\n.param .b32 p0;\n.param .b32 r0;\n"
           "call.uni (r0), f, (p0);\n}\ncall g;\n}\n")
    _, text = _round_trip(ptx)
    assert "\tcall.uni (r0), f, (p0);" in text and "\tcall g;" in text


def test_ir_built_by_hand_writes_from_parts() -> None:
    fn = Function(name="k", is_entry=True, regs=[RegDecl(0, "%r0", "b32"),
                                                 RegDecl(1, "%r1", "b32")],
                  reg_ids={"%r0": 0, "%r1": 1})
    fn.instructions = [
        Instruction(0, "add", types=("s32",), dsts=(Operand(OpKind.REG, reg=0),),
                    srcs=(Operand(OpKind.REG, reg=1), Operand(OpKind.IMM, value=3))),
        Instruction(1, "st", types=("u32",), space="shared",
                    srcs=(Operand(OpKind.ADDRESS, base=Operand(OpKind.SYMBOL, name="buf")),
                          Operand(OpKind.REG, reg=0))),
        Instruction(2, "ret"),
    ]
    m = Module(version=(9, 0), target=("sm_80",), functions={"k": fn},
               variables={"buf": Variable("buf", "shared", "u32", 16, 4, count=4)})
    text = write_ptx(m)
    assert "\tadd.s32 %r0, %r1, 3;" in text and "\tst.shared.u32 [buf], %r0;" in text
    back = parse_ptx(text).functions["k"]
    assert [i.full_opcode for i in back.instructions] == ["add.s32", "st.shared.u32", "ret"]
    assert back.instructions[1].srcs == fn.instructions[1].srcs


def test_nvcc_kernels_round_trip() -> None:
    _, text = _round_trip(nvcc_ptx(CUDA_KERNELS))
    if PTXAS is not None:
        assert ptxas_errors(text) == ""


def test_writer_is_idempotent_on_its_own_output() -> None:
    _, once = _round_trip(nvcc_ptx(CUDA_KERNELS))
    assert write_ptx(parse_ptx(once)) == once


def test_sm90_cluster_and_barrier_ptx_round_trips() -> None:
    src = r"""
#include <cooperative_groups.h>
#include <cuda/barrier>
namespace cg = cooperative_groups;
__global__ void __cluster_dims__(2, 1, 1) clus(int* o) {
  cg::cluster_group c = cg::this_cluster();
  __shared__ int s[32];
  s[threadIdx.x % 32] = threadIdx.x;
  c.sync();
  int* rs = c.map_shared_rank(s, (c.block_rank() + 1) % 2);
  o[blockIdx.x * blockDim.x + threadIdx.x] = rs[threadIdx.x % 32];
}
__global__ void bar_k(int* o) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  auto t = bar.arrive();
  bar.wait(std::move(t));
  o[threadIdx.x] = 1;
}
"""
    _, text = _round_trip(nvcc_ptx(src, arch="sm_90a"))
    if PTXAS is not None:
        assert ptxas_errors(text, arch="sm_90a") == ""


@pytest.mark.parametrize("name", corpus_names())
def test_corpus_kernels_round_trip(name: str, corpus_ptx) -> None:
    _, text = _round_trip(corpus_ptx(name))
    if PTXAS is not None:
        assert ptxas_errors(text) == ""


@settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 3))
def test_mutated_ptx_that_parses_round_trips(seed: int, n: int) -> None:
    text = mutate(HAND_PTX, random.Random(seed), n)
    try:
        parse_ptx(text)
    except WarpsimError:
        return
    _round_trip(text)


def test_large_generated_kernel_round_trips() -> None:
    rng = random.Random(7)
    body = []
    for k in range(10_000):
        a, b, c = rng.randrange(64), rng.randrange(64), rng.randrange(8)
        body.append([f"add.s32 %r{a}, %r{b}, {k};", f"ld.shared.f32 %f{a}, [%r{b}+{4 * k}];",
                     f"setp.gt.f32 %p{c}|%p{7 - c}, %f{a}, 0f3F800000;",
                     f"@!%p{c} bra $L{k // 100};", f"$L{k // 100}:" if k % 100 == 99 else
                     f"mov.b64 {{%r{a}, _}}, %rd{c};"][k % 5])
    body.extend(f"$L{j}:" for j in range(100) if f"$L{j}:" not in body)
    ptx = (HEADER + ".entry big()\n{\n.reg .pred %p<8>;\n.reg .b32 %r<64>;\n"
           ".reg .f32 %f<64>;\n.reg .b64 %rd<8>;\n" + "\n".join(body) + "\nret;\n}\n")
    first = parse_ptx(ptx)  # speed is for ``warpsim perf``, never a clock limit in a test
    second = parse_ptx(write_ptx(first))
    assert len(first.functions["big"].instructions) > 8_000
    assert ir_key(first) == ir_key(second)
