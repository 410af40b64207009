"""build_op dispatch: rejected opcodes, operand counting, dtypes, scalars, no numpy warnings."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

try:
    from tests.functional.sem_builder import make, op_for
except ImportError:
    from sem_builder import make, op_for

from warpsim.errors import UnsupportedPTXError
from warpsim.functional.semantics import SUPPORTED_OPCODES, Op, build_op


@pytest.mark.parametrize("spell", ["ld.global.u32", "bra", "shfl.sync.down.b32",
                                   "cvta.to.global.u64",
                                   "vote.sync.ballot.b32", "atom.global.add.u32", "frobnicate.u32"])
def test_executor_opcodes_are_rejected_with_line_and_hint(spell: str) -> None:
    inst, fn = make(spell, ["b32"], ["b32"])
    with pytest.raises(UnsupportedPTXError) as ei:
        build_op(inst, fn)
    msg = str(ei.value)
    assert ei.value.line == 7 and spell in msg and "hint:" in msg


def test_operand_count_mismatch_is_rejected() -> None:
    with pytest.raises(UnsupportedPTXError, match="expected 1 destination and 2 source"):
        op_for("add.u32", ["b32"], ["b32"])


def test_op_metadata() -> None:
    op = op_for("setp.lt.and.f32", ["pred", "pred"], ["f32", "f32", "pred"])
    assert isinstance(op, Op)
    assert (op.n_srcs, op.n_dsts) == (3, 2)
    assert op.src_dtypes == (np.uint32, np.uint32, np.bool_)
    assert op.dst_dtypes == (np.bool_, np.bool_)
    assert not op.reads_cc and not op.writes_cc
    assert op.src_types == ("f32", "f32", "pred") and op.dst_types == ("pred", "pred")
    op = op_for("madc.hi.cc.u64", ["b64"], ["b64", "b64", "b64"])
    assert op.src_types == ("u64", "u64", "u64", "cc")
    assert op.src_dtypes[-1] is np.uint32 and op.dst_dtypes == (np.uint64, np.uint32)
    assert {"add", "cvt", "mov", "setp", "fma", "prmt", "ex2"} <= SUPPORTED_OPCODES


def test_all_scalar_sources_give_scalars_without_warnings() -> None:
    cases = [("add.u32", ["b32"], ["b32", "b32"], [np.uint32(0xFFFFFFFF), np.uint32(2)], 1),
             ("mul.lo.s64", ["b64"], ["b64", "b64"], [np.uint64(2**63), np.uint64(3)], 2**63),
             ("div.u32", ["b32"], ["b32", "b32"], [np.uint32(5), np.uint32(0)], 0xFFFFFFFF),
             ("shl.b32", ["b32"], ["b32", "b32"], [np.uint32(1), np.uint32(40)], 0),
             ("neg.s32", ["b32"], ["b32"], [np.uint32(0x80000000)], 0x80000000)]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for spell, d, s, vals, exp in cases:
            out = op_for(spell, d, s).evaluate(vals)
            assert int(np.asarray(out[0])) == exp, spell
        f = op_for("div.rn.f32", ["f32"], ["f32", "f32"])
        one, zero = np.float32(1).view(np.uint32), np.float32(0).view(np.uint32)
        assert int(np.asarray(f.evaluate([one, zero])[0])) == 0x7F800000
        f = op_for("fma.rz.f64", ["f64"], ["f64"] * 3)
        big = np.float64(1e308).view(np.uint64)
        r = np.asarray(f.evaluate([big, big, big])[0]).view(np.float64)
        assert r == np.finfo(np.float64).max


def test_large_arrays_are_vectorised() -> None:
    rng = np.random.default_rng(0)
    a = rng.integers(0, 2**32, 65536, dtype=np.uint64).astype(np.uint32)
    b = rng.integers(0, 2**32, 65536, dtype=np.uint64).astype(np.uint32)
    out = op_for("mul.hi.u32", ["b32"], ["b32", "b32"]).evaluate([a, b])[0]
    assert out.shape == (65536,) and out.dtype == np.uint32
    assert np.array_equal(out, ((a.astype(np.uint64) * b) >> np.uint64(32)).astype(np.uint32))
