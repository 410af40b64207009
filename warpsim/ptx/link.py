"""Linking the PTX of several translation units into one module (``nvcc -rdc=true``).

Follows: PTX ISA 9.x §11.6 (linking directives: ``.extern`` declares a symbol defined in
another module, ``.visible`` makes one visible to others, ``.weak`` may be defined by several
modules with one definition chosen) and nvlink's role in separate compilation.

``link_modules`` resolves every ``.extern`` function, kernel and variable to the one unit that
defines it; a symbol defined by more than one unit must be ``.weak`` (or, for variables,
identical), else the link fails with both units named. Declarations nobody defines stay
declarations (``vprintf``, the device runtime's functions: the functional model provides
them). File-local symbols of different units never meet: nvcc gives them unit-unique names
(``__nv_static_<hash>_...``).
"""

from __future__ import annotations

import dataclasses

from warpsim.errors import UnsupportedPTXError
from warpsim.ptx.ir import Function, Module, Variable

__all__ = ["link_modules"]


def _same(a: Variable, b: Variable) -> bool:
    return (a.space, a.type, a.size_bytes, a.init) == (b.space, b.type, b.size_bytes, b.init)


def link_modules(modules: list[Module], name: str = "<linked>") -> Module:
    """One module holding every unit's definitions, ``.extern`` declarations resolved."""
    if len(modules) == 1:
        return modules[0]
    functions: dict[str, Function] = {}
    variables: dict[str, Variable] = {}
    owner: dict[str, str] = {}
    for m in modules:
        for fname, fn in m.functions.items():
            have = functions.get(fname)
            if have is None or (not have.defined and fn.defined):
                functions[fname] = fn
                owner[fname] = m.file
            elif have.defined and fn.defined and "weak" not in (have.linkage, fn.linkage):
                raise UnsupportedPTXError(
                    f"{fname!r} is defined in two translation units ({owner[fname]} and "
                    f"{m.file})", file=m.file, hint="make one definition static or inline")
        for vname, var in m.variables.items():
            have_v = variables.get(vname)
            if have_v is None or (have_v.extern and not var.extern):
                variables[vname] = var
                owner["var " + vname] = m.file
            elif not have_v.extern and not var.extern and not _same(have_v, var):
                raise UnsupportedPTXError(
                    f"the variable {vname!r} is defined differently in two translation units "
                    f"({owner['var ' + vname]} and {m.file})", file=m.file)
    first = modules[0]
    return dataclasses.replace(
        first, functions=functions, variables=variables, file=name,
        version=max(m.version for m in modules),
        source="\n".join(m.source for m in modules))
