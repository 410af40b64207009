"""The per-dispatch closure of an ALU instruction, generated for its operands.

Follows: ARCHITECTURE.md §3 and §9 (one Python dispatch per instruction; on narrow launches its
fixed cost is the whole cost: a lone warp pays it for 32 lanes or fewer). The closure reads the
sources (registers over the group's selection, immediates as they are), evaluates the
``semantics.Op`` and writes the destinations with ``simt_stack.write_dst``; the operand layout
is spelled out in the generated code (no per-dispatch loop over operand specs), and the common
write of one whole-batch register (no guard, a fresh array of the register's dtype not aliasing
a source) is inlined. Same reads, same evaluation, same writes as the generic loop.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from warpsim.functional.simt_stack import write_dst

__all__ = ["alu_closure"]


def alu_closure(specs: Sequence[tuple[Any, bool]], pairs: Sequence[tuple[int, int]],
                evaluate: Callable[[list[Any]], tuple[Any, ...]]) -> Callable[..., None]:
    """``run(bs, g, pred, exm)`` for sources ``specs`` ((register id, True) or (immediate,
    False)) and destinations ``pairs`` ((output index, register id))."""
    ns: dict[str, Any] = {"evaluate": evaluate, "write_dst": write_dst, "ndarray": np.ndarray}
    whole, part, regsrc = [], [], []
    for i, (s, is_reg) in enumerate(specs):
        if is_reg:
            whole.append(f"regs[{int(s)}]")
            part.append(f"regs[{int(s)}][sel]")
            regsrc.append(i)
        else:
            ns[f"c{i}"] = s
            whole.append(f"c{i}")
            part.append(f"c{i}")
    lines = ["def run(bs, g, pred, exm):", "    regs = bs.regs",
             "    if g.allb:", f"        vals = [{', '.join(whole)}]",
             "    else:", "        sel = g.sel", f"        vals = [{', '.join(part)}]",
             "    outs = evaluate(vals)"]
    if len(pairs) == 1:
        k, r = pairs[0]
        fresh = "".join(f" and out is not vals[{i}]" for i in regsrc)
        lines += [f"    out = outs[{k}]",
                  "    if pred is None and g.allb and type(out) is ndarray and out.base is None"
                  f" and out.ndim and out.dtype == regs[{r}].dtype{fresh}:",
                  f"        regs[{r}] = out",
                  "    else:",
                  f"        write_dst(regs, {r}, g, out, pred, vals)"]
    else:
        lines += [f"    write_dst(regs, {r}, g, outs[{k}], pred, vals)" for k, r in pairs]
        if not pairs:
            lines.append("    return None")
    exec(compile("\n".join(lines), "<alu dispatch>", "exec"), ns)
    return ns["run"]
