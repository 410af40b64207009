"""Inlining of ``.func`` calls: renaming, parameter mapping, ``ret`` rewriting, recursion."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from warpsim.errors import UnsupportedPTXError
from warpsim.ptx.cfg import build_cfg
from warpsim.ptx.inline import inline_calls
from warpsim.ptx.ir import Function, Module, OpKind, Param, Variable

_spec = importlib.util.spec_from_file_location("_ptx_asm_inl",
                                               Path(__file__).with_name("test_cfg.py"))
_mod = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_mod)
asm = _mod.asm


def _func(name: str, src: str, n_params: int, has_ret: bool) -> Function:
    fn = asm(src, name=name)
    fn.is_entry = False
    fn.params = [Param(f"{name}_param_{k}", "b32", 4, 4, 4 * k) for k in range(n_params)]
    if has_ret:
        fn.ret_params = [Param(f"{name}_retval0", "b32", 4, 4, 0)]
    return fn


def _module(*fns: Function) -> Module:
    return Module(functions={f.name: f for f in fns})


ADD1 = _func("add1", """
    ld.param.b32 %r1, [add1_param_0]
    add.s32 %r2, %r1, 1
    st.param.b32 [add1_retval0], %r2
    ret
""", 1, True)


def _caller(src: str) -> Function:
    fn = asm(src, name="kern")
    fn.variables = [Variable("param0", "param", "b32", 4, 4),
                    Variable("retval0", "param", "b32", 4, 4)]
    return fn


def _text(fn: Function) -> list[str]:
    """A readable rendering of the IR, independent of the code under test."""
    out = []
    inv = {}
    for name, idx in fn.labels.items():
        inv.setdefault(idx, []).append(name)

    def op(o) -> str:
        if o.kind is OpKind.REG:
            return fn.regs[o.reg].name
        if o.kind is OpKind.IMM:
            return str(o.value)
        if o.kind is OpKind.ADDRESS:
            return f"[{op(o.base)}]"
        return o.name

    for i, inst in enumerate(fn.instructions):
        assert inst.index == i
        g = ""
        if inst.guard >= 0:
            g = f"@{'!' if inst.guard_neg else ''}{fn.regs[inst.guard].name} "
        lab = "".join(f"{n}: " for n in sorted(inv.get(i, ())))
        out.append(lab + g + inst.opcode + " " + ", ".join(op(o) for o in
                                                           (*inst.dsts, *inst.srcs)))
    return out


def test_call_is_replaced_by_renamed_body():
    kern = _caller("""
        ld.global.u32 %r1, [%rd1]
        st.param.b32 [param0], %r1
        call (retval0), add1, (param0)
        ld.param.b32 %r2, [retval0]
        st.global.u32 [%rd1], %r2
        ret
    """)
    out = inline_calls(_module(ADD1, kern), kern)
    assert _text(out) == [
        "ld %r1, [%rd1]",
        "st [param0], %r1",
        "ld %r1_i1, [param0]",
        "add %r2_i1, %r1_i1, 1",
        "st [retval0], %r2_i1",
        "bra $L__ret_i1",
        "$L__ret_i1: ld %r2, [retval0]",
        "st [%rd1], %r2",
        "ret ",
    ]
    assert len(out.regs) == len(kern.regs) + 2
    assert out.reg_ids["%r1_i1"] == len(kern.regs)
    assert len(kern.instructions) == 6  # the caller is not modified
    assert build_cfg(out).blocks  # a well-formed body


def test_labels_after_the_call_site_are_shifted():
    kern = _caller("""
        @%p1 bra END
        call (retval0), add1, (param0)
    END: ret
    """)
    out = inline_calls(_module(ADD1, kern), kern)
    assert out.labels["END"] == 5
    assert out.instructions[out.labels["END"]].opcode == "ret"


def test_two_call_sites_get_distinct_names():
    kern = _caller("""
        call (retval0), add1, (param0)
        call (retval0), add1, (param0)
    """)
    out = inline_calls(_module(ADD1, kern), kern)
    names = [r.name for r in out.regs]
    assert "%r1_i1" in names and "%r1_i2" in names
    assert len(set(names)) == len(names)
    assert {"$L__ret_i1", "$L__ret_i2"} <= set(out.labels)


def test_callee_labels_branches_and_guarded_ret():
    absv = _func("absv", """
        ld.param.b32 %r1, [absv_param_0]
        setp.ge.s32 %p1, %r1, 0
        @%p1 bra POS
        neg.s32 %r1, %r1
    POS: st.param.b32 [absv_retval0], %r1
        @%p1 ret
        ret
    """, 1, True)
    kern = _caller("call (retval0), absv, (param0)")
    out = inline_calls(_module(absv, kern), kern)
    text = _text(out)
    assert text[2] == "@%p1_i1 bra POS_i1"
    assert text[4] == "POS_i1: st [retval0], %r1_i1"
    assert text[5] == "@%p1_i1 bra $L__ret_i1"
    assert out.labels["$L__ret_i1"] == len(out.instructions)
    assert build_cfg(out).reconvergence_pc[2] == 4


def test_nested_calls_are_inlined_recursively():
    outer = _func("outer", """
        ld.param.b32 %r1, [outer_param_0]
        st.param.b32 [inner_arg], %r1
        call (inner_ret), add1, (inner_arg)
        ld.param.b32 %r2, [inner_ret]
        st.param.b32 [outer_retval0], %r2
        ret
    """, 1, True)
    outer.variables = [Variable("inner_arg", "param", "b32", 4, 4),
                       Variable("inner_ret", "param", "b32", 4, 4)]
    kern = _caller("call (retval0), outer, (param0)")
    out = inline_calls(_module(ADD1, outer, kern), kern)
    assert not any(i.opcode == "call" for i in out.instructions)
    var_names = {v.name for v in out.variables}
    assert {"inner_arg_i2", "inner_ret_i2"} <= var_names
    text = _text(out)
    assert "st [inner_arg_i2], %r1_i2" in text
    assert "ld %r1_i1_i2, [inner_arg_i2]" in text


def test_guarded_call_branches_around_the_body():
    kern = _caller("@%p1 call (retval0), add1, (param0)")
    out = inline_calls(_module(ADD1, kern), kern)
    first = out.instructions[0]
    assert first.opcode == "bra" and first.guard_neg
    assert first.srcs[0].name == "$L__ret_i1"


def test_calls_to_prototypes_are_kept():
    proto = Function(name="vprintf", is_entry=False, defined=False)
    kern = _caller("call (retval0), vprintf, (param0)")
    out = inline_calls(_module(proto, kern), kern)
    assert [i.opcode for i in out.instructions] == ["call"]
    assert out is not kern and out.instructions is not kern.instructions


def _traps(fn: Function) -> list[str]:
    return [i.text for i in fn.instructions if i.opcode == "trap"]


def test_direct_recursion_is_made_explicit():
    rec = _func("rec", "call (rec_retval0), rec, (rec_param_0)\nret", 1, True)
    kern = _caller("call (retval0), rec, (param0)")
    out = inline_calls(_module(rec, kern), kern)
    assert not any(i.opcode == "call" for i in out.instructions)
    assert len(_traps(out)) == 1 and "recursion of 'rec' deeper than" in _traps(out)[0]
    # the inlined body's entry label follows the two-instruction prologue (depth, frame)
    entry = out.labels["$L__rec_entry_rec_i1"]
    assert [i.opcode for i in out.instructions[:entry]] == ["mov", "mov"]


def test_mutual_recursion_is_made_explicit_at_the_cycle_entry():
    a = _func("fa", "call (fa_retval0), fb, (fa_param_0)\nret", 1, True)
    b = _func("fb", "call (fb_retval0), fa, (fb_param_0)\nret", 1, True)
    kern = _caller("call (retval0), fa, (param0)")
    out = inline_calls(_module(a, b, kern), kern)
    assert not any(i.opcode == "call" for i in out.instructions)
    assert ["fa" in t for t in _traps(out)] == [True]


def test_a_cycle_reached_from_two_sides_is_inlined_in_both():
    # the kernel calls fa and fb: fb's body (memoised inside fa's cycle) still calls fa, so
    # a second inlining pass makes that copy explicit too
    a = _func("fa", "call (fa_retval0), fb, (fa_param_0)\nret", 1, True)
    b = _func("fb", "call (fb_retval0), fa, (fb_param_0)\nret", 1, True)
    kern = _caller("call (retval0), fa, (param0)\ncall (retval0), fb, (param0)")
    out = inline_calls(_module(a, b, kern), kern)
    assert not any(i.opcode == "call" for i in out.instructions)
    assert len(_traps(out)) == 2
    names = [v.name for v in out.variables]
    assert len(names) == len(set(names))


def test_recursive_call_with_wrong_arity_is_refused():
    rec = _func("rec", "call (rec_retval0), rec\nret", 1, True)
    kern = _caller("call (retval0), rec, (param0)")
    with pytest.raises(UnsupportedPTXError, match="with 0 arguments; the function takes 1"):
        inline_calls(_module(rec, kern), kern)


def test_pow_callee_is_inlined_from_real_ptx(corpus_ptx):
    """nvcc emits ``__internal_accurate_pow`` as a ``.func`` called from ``double_ops``."""
    from warpsim.ptx.parser import parse_ptx

    module = parse_ptx(corpus_ptx("double_math"), "double_math.ptx")
    kern = module.kernel("double_ops")
    callee = module.functions["__internal_accurate_pow"]
    assert any(i.opcode == "call" for i in kern.instructions)
    out = inline_calls(module, kern)
    assert not any(i.opcode == "call" for i in out.instructions)
    n_calls = sum(i.opcode == "call" for i in kern.instructions)
    body = len(callee.instructions)
    assert len(out.instructions) == len(kern.instructions) - n_calls + n_calls * body
    assert len(out.regs) == len(kern.regs) + n_calls * len(callee.regs)
    # every symbol the inlined body names is the caller's: its params, variables or labels
    known = ({p.name for p in out.params} | {v.name for v in out.variables} | set(out.labels)
             | set(module.variables))
    for inst in out.instructions:
        for op in (*inst.dsts, *inst.srcs):
            base = op.base if op.kind is OpKind.ADDRESS else op
            if base is not None and base.kind is OpKind.SYMBOL:
                assert base.name in known, (inst.index, base.name)
    for name, idx in out.labels.items():
        assert 0 <= idx <= len(out.instructions), name
    cfg = build_cfg(out)
    assert all(b.n_instructions > 0 for b in cfg.blocks)


def test_static_body_variables_are_shared_by_all_inline_sites():
    f = _func("bump", """
        ld.shared.u32 %r1, [counter]
        add.s32 %r1, %r1, 1
        st.shared.u32 [counter], %r1
        st.local.u32 [scratch], %r1
        ret
    """, 0, False)
    f.variables = [Variable("counter", "shared", "b32", 4, 4),
                   Variable("scratch", "local", "b32", 4, 4)]
    kern = _caller("call (retval0), bump, (param0)\ncall (retval0), bump, (param0)")
    out = inline_calls(_module(f, kern), kern)
    names = [v.name for v in out.variables]
    assert names.count("counter") == 1
    assert {"scratch_i1", "scratch_i2"} <= set(names)
    text = _text(out)
    assert text[0] == "ld %r1_i1, [counter]"
    assert text[5] == "$L__ret_i1: ld %r1_i2, [counter]"
