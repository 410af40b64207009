"""Parsing of the indirect-control-flow declarations inside a function body.

Follows: PTX ISA 9.x §11.2 (``label: .callprototype (rets) _ (params);``,
``label: .calltargets f1, f2;``, ``label: .branchtargets L1, L2;``). The statement parser
(``statements.py``) calls ``target_declaration`` at such a label; ``ptx/indirect.py`` lowers
the calls and branches that name them.
"""

from __future__ import annotations

from typing import Any

from warpsim.ptx.ir import Function

__all__ = ["target_declaration"]


def target_declaration(p: Any, fn: Function, name: str, kind: str) -> None:
    """``name: .callprototype ...;`` (kept as its result and parameter counts in
    ``fn.call_prototypes``) or ``name: .branchtargets/.calltargets L1, L2, ...;`` (kept as the
    list in ``fn.target_lists``); ``p`` is the statement parser, at ``name``."""
    if name in fn.labels or name in fn.target_lists or name in fn.call_prototypes:
        raise p.err(f"label {name!r} is defined twice")
    p.i += 3
    texts = p.texts
    if kind == ".callprototype":
        rets = params = 0
        if texts[p.i] == "(":
            rets = _count_params(p)
        if texts[p.i] != "_":
            raise p.err("expected '_' naming the prototype's function")
        p.i += 1
        if texts[p.i] == "(":
            params = _count_params(p)
        while texts[p.i] in (".noreturn", ".abi_preserve"):
            p.i += 1
        fn.call_prototypes[name] = (rets, params)
    else:
        names: list[str] = []
        while p.kinds[p.i] == "W":
            names.append(texts[p.i])
            p.i += 1
            if texts[p.i] != ",":
                break
            p.i += 1
        if not names:
            raise p.err(f"{kind} needs at least one name")
        fn.target_lists[name] = tuple(names)
    p.expect(";", kind)


def _count_params(p: Any) -> int:
    """Skip a ``(.param ... _, ...)`` list and return how many parameters it names."""
    p.expect("(", ".callprototype")
    depth, n, seen = 1, 0, False
    while depth:
        tok, kind = p.texts[p.i], p.kinds[p.i]
        if kind == "E":
            raise p.err("missing ')' in a .callprototype")
        if tok in ("(", "["):
            depth += 1
        elif tok in (")", "]"):
            depth -= 1
        elif tok == "," and depth == 1:
            n += 1
        elif tok in (".param", ".reg"):
            seen = True
        p.i += 1
    return n + 1 if seen else 0
