"""Text listing of an allocated PTX kernel for ``warpsim ptx``: blocks, registers, IPDOMs.

Follows: the PTXPlus listings of GPGPU-Sim (``-gpgpu_ptx_convert_to_ptxplus``) and
``cuobjdump -sass`` for the register spelling; ARCHITECTURE.md §4 (the allocator's count is
reported next to ptxas's).

Register spelling: ``R7`` a 32-bit register, ``R4.64`` the aligned pair R4:R5 holding a 64-bit
value (``R8.128`` a quad), ``P1`` a predicate (``!P1`` negated). A rematerialised value (see
``ptx/regalloc.py``) is written with a trailing ``~`` (``R3~``): it is recomputed into R3 next
to the instruction. Each line is ``index  opcode operands`` followed by the PTX as written;
within a block the lines follow ``Allocation.order`` (the order the registers are valid for:
the ptxas-like schedule of ``ptx/schedule.py``), so a register is never shown overwritten
while it still holds a value.
Block headers give ``[start, end)``, predecessors, successors (``EXIT`` for the virtual exit),
IPDOM and loop depth; conditional branches carry ``reconverge @ PC``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from warpsim.ptx.cfg import CFG, EXIT
from warpsim.ptx.ir import Function, Instruction, Module, Operand, OpKind
from warpsim.ptx.regalloc import Allocation

__all__ = ["format_instruction", "format_listing", "format_operand", "format_regalloc_table",
           "format_resources", "regalloc_table", "register_name"]


def register_name(fn: Function, allocation: Allocation, reg: int) -> str:
    """Physical spelling of virtual register ``reg`` (``R4``, ``R4.64``, ``P1``)."""
    pp = int(allocation.pred_phys[reg])
    if pp >= 0:
        return f"P{pp}"
    p = int(allocation.phys[reg])
    if p < 0:
        return fn.regs[reg].name  # never read or written: no register
    w = int(allocation.width[reg])
    name = f"R{p}" if w == 1 else f"R{p}.{32 * w}"
    return name + ("~" if allocation.remat[reg] else "")


def _imm(op: Operand) -> str:
    if op.fmt == "f32":
        return f"0f{op.value & 0xFFFFFFFF:08X}"
    if op.fmt == "f64":
        return f"0d{op.value & 0xFFFFFFFFFFFFFFFF:016X}"
    return str(op.value)


def format_operand(fn: Function, allocation: Allocation | None, op: Operand) -> str:
    """One operand with physical registers substituted (PTX names without an allocation)."""
    kind = op.kind
    if kind is OpKind.REG:
        name = (register_name(fn, allocation, op.reg) if allocation is not None
                else fn.regs[op.reg].name)
        return ("!" if op.neg else "") + name
    if kind is OpKind.IMM:
        return _imm(op)
    if kind is OpKind.SPECIAL or kind is OpKind.SYMBOL:
        return op.name
    if kind is OpKind.ADDRESS:
        if op.base is None:
            return f"[{op.value}]"
        base = format_operand(fn, allocation, op.base)
        if op.value:
            return f"[{base}{'+' if op.value > 0 else '-'}{abs(op.value)}]"
        return f"[{base}]"
    if kind is OpKind.VECTOR:
        return "{" + ", ".join(format_operand(fn, allocation, e) for e in op.elems) + "}"
    return "_"


def format_instruction(fn: Function, allocation: Allocation | None, inst: Instruction) -> str:
    """``[@P0 ]opcode operands`` with physical registers."""
    guard = ""
    if inst.guard >= 0:
        g = (register_name(fn, allocation, inst.guard) if allocation is not None
             else fn.regs[inst.guard].name)
        guard = f"@{'!' if inst.guard_neg else ''}{g} "
    fmt = [format_operand(fn, allocation, o) for o in inst.dsts]
    src = [format_operand(fn, allocation, o) for o in inst.srcs]
    if inst.opcode == "call":
        parts = []
        if fmt:
            parts.append("(" + ", ".join(fmt) + ")")
        parts.extend(src[:1])
        if len(src) > 1:
            parts.append("(" + ", ".join(src[1:]) + ")")
        ops = ", ".join(parts)
    else:
        dst = "|".join(fmt) if len(fmt) == 2 else ", ".join(fmt)
        ops = ", ".join(([dst] if dst else []) + src)
    return f"{guard}{_opcode(inst)} {ops}".rstrip()


def _opcode(inst: Instruction) -> str:
    """The dotted opcode as written, or rebuilt in PTX order when the spelling is unknown."""
    if inst.spelling:
        return inst.spelling
    parts = [inst.opcode]
    if inst.space and inst.space != "generic":
        parts.append(inst.space)
    parts.extend(inst.mods)
    if inst.vec > 1:
        parts.append(f"v{inst.vec}")
    parts.extend(inst.types)
    return ".".join(parts)


def _blocks(ids: Iterable[int]) -> str:
    out = " ".join("EXIT" if b == EXIT else f"B{b}" for b in ids)
    return out or "-"


def format_listing(module: Module, fn: Function, *, allocation: Allocation, cfg: CFG,
                   resources: Any | None = None, show_ptx: bool = True) -> str:
    """The full listing of one kernel: header, resource table, then blocks and instructions.

    ``resources`` is a ``toolchain.KernelResources`` (or None when ptxas is not available)."""
    lines = [f"// {'kernel' if fn.is_entry else 'function'} {fn.name}"
             + (f"  ({module.file or fn.file}:{fn.line})" if fn.line else ""),
             f"// {len(fn.instructions)} instructions, {len(cfg.blocks)} basic blocks, "
             f"{len(fn.regs)} virtual registers",
             "// R7: 32-bit register; R4.64: pair R4:R5; P1: predicate; R3~: recomputed into R3 "
             "at the use"]
    lines.extend("// " + row for row in format_resources(allocation, resources).splitlines())
    pos = list(range(len(fn.instructions)))  # listing position of each PTX index
    if allocation.order is not None:
        for p, i in enumerate(allocation.order.tolist()):
            pos[i] = p
        if pos != sorted(pos):
            lines.append("// instructions are listed in the order the registers were allocated "
                         "for (the ptxas-like schedule within each block); the first column "
                         "is the PTX index")
    lines.append("")
    at: dict[int, list[str]] = {}
    for name, idx in fn.labels.items():
        at.setdefault(idx, []).append(name)
    width = len(str(max(len(fn.instructions) - 1, 0)))
    body = [format_instruction(fn, allocation, inst) for inst in fn.instructions]
    pad = min(max((len(b) for b in body), default=0), 56)
    for blk in cfg.blocks:
        succs = list(blk.succs) + ([EXIT] if blk.exits else [])
        head = (f"B{blk.id}  [{blk.start}, {blk.end})  preds {_blocks(blk.preds)}  "
                f"succs {_blocks(succs)}  ipdom {_blocks([cfg.ipdom[blk.id]])}")
        if int(cfg.loop_depth[blk.id]):
            head += f"  loop depth {int(cfg.loop_depth[blk.id])}"
        if blk.virtual_exit:
            head += "  (no path to exit: virtual exit edge)"
        lines.append(head)
        for i in sorted(range(blk.start, blk.end), key=pos.__getitem__):
            for name in sorted(at.get(i, ())):  # labels only start blocks
                lines.append(f"{name}:")
            inst = fn.instructions[i]
            text = f"  {i:>{width}}  {body[i]:<{pad}}"
            notes = []
            rpc = int(cfg.reconvergence_pc[i])
            if rpc >= 0:
                target = "EXIT" if rpc >= len(fn.instructions) else f"B{int(cfg.block_of[rpc])}"
                notes.append(f"reconverge @ {rpc} ({target})")
            if show_ptx and inst.text:
                notes.append(inst.text.strip())
            if notes:
                text += "  // " + "; ".join(notes)
            lines.append(text.rstrip())
        lines.append("")
    for name in sorted(at.get(len(fn.instructions), ())):
        lines.append(f"{name}:")
    return "\n".join(lines).rstrip() + "\n"


def format_resources(allocation: Allocation | Iterable[tuple[Function, Allocation, Any]],
                     resources: Any | None = None) -> str:
    """Resource table: allocated registers beside ptxas's count and memory sizes.

    Given one ``Allocation`` (and its ``toolchain.KernelResources`` or None): a two-column
    table for that kernel. Given ``(function, allocation, resources)`` rows: one line per
    kernel. "registers/thread" is counted as ``ptxas -v`` counts
    (``Allocation.regs_per_thread``: highest register + 1, R1 reserved as the stack pointer,
    plus ptxas's two extra registers); "registers numbered" is what the listing uses
    (R0 .. R{n_regs - 1})."""
    if not isinstance(allocation, Allocation):
        return _resource_rows(list(allocation))

    def ptxas(field: str) -> str:
        return "-" if resources is None else str(getattr(resources, field))

    rows = [("resource", "warpsim", "ptxas"),
            ("registers/thread", str(allocation.regs_per_thread), ptxas("registers")),
            ("registers numbered R0..", str(allocation.n_regs), "-"),
            ("predicates", str(allocation.n_preds), "-"),
            ("coalesced copies", str(allocation.n_coalesced), "-"),
            ("rematerialised values", str(int(allocation.remat.sum())), "-"),
            ("shared bytes/CTA", "-", ptxas("shared_bytes")),
            ("local bytes/thread", "-", ptxas("local_bytes")),
            ("const bytes (bank 0)", "-", ptxas("const_bytes"))]
    if resources is not None and resources.registers:
        ratio = allocation.regs_per_thread / resources.registers
        rows.append(("ratio warpsim/ptxas", f"{ratio:.2f}", ""))
    w0 = max(len(r[0]) for r in rows)
    w1 = max(len(r[1]) for r in rows)
    return "\n".join(f"{a:<{w0}}  {b:>{w1}}  {c:>5}".rstrip() for a, b, c in rows)


def _resource_rows(rows: list[tuple[Function, Allocation, Any]]) -> str:
    """One line per kernel: instructions, registers (ptxas, warpsim, ratio), memory."""
    head = ("kernel", "instrs", "ptxas regs", "warpsim regs", "ratio", "preds", "shared B",
            "local B", "const B")
    table = [head]
    for fn, alloc, res in rows:
        def get(field: str, res: Any = res) -> str:
            return "-" if res is None else str(getattr(res, field))

        ratio = (f"{alloc.regs_per_thread / res.registers:.2f}"
                 if res is not None and res.registers else "-")
        table.append((fn.name, str(len(fn.instructions)), get("registers"),
                      str(alloc.regs_per_thread), ratio, str(alloc.n_preds),
                      get("shared_bytes"), get("local_bytes"), get("const_bytes")))
    widths = [max(len(r[k]) for r in table) for k in range(len(head))]
    return "\n".join("  ".join(c.ljust(widths[0]) if k == 0 else c.rjust(widths[k])
                               for k, c in enumerate(r)).rstrip() for r in table)


def regalloc_table(sources: Iterable[str | Path], *, arch: str = "sm_80",
                   remat: bool = True) -> list[dict[str, Any]]:
    """Per-kernel rows ``{file, kernel, ptxas, allocated, ratio}`` for the given ``.cu`` files:
    compile, inline ``.func`` calls, allocate, and compare with ``ptxas -v`` (docs/regalloc.md).
    """
    from warpsim.ptx.inline import inline_calls
    from warpsim.ptx.parser import parse_ptx
    from warpsim.ptx.regalloc import allocate_registers
    from warpsim.toolchain import compile_cuda, resource_usage

    rows: list[dict[str, Any]] = []
    for src in sources:
        compiled = compile_cuda(Path(src), arch=arch)
        usage: Mapping[str, Any] = resource_usage(compiled.ptx, arch=arch)
        module = parse_ptx(compiled.ptx, str(src))
        for name, fn in sorted(module.kernels.items()):
            flat = inline_calls(module, fn)
            alloc = allocate_registers(flat, remat=remat)
            ref = usage[name].registers if name in usage else 0
            rows.append({"file": Path(src).name, "kernel": name, "ptxas": ref,
                         "allocated": alloc.regs_per_thread,
                         "ratio": alloc.regs_per_thread / ref if ref else float("nan"),
                         "instructions": len(flat.instructions)})
    return rows


def format_regalloc_table(rows: list[dict[str, Any]]) -> str:
    """Markdown table of ``regalloc_table`` rows plus a summary line (docs/regalloc.md)."""
    out = ["| file | kernel | PTX instructions | ptxas registers | allocated | ratio |",
           "|---|---|---:|---:|---:|---:|"]
    for r in rows:
        out.append(f"| {r['file']} | `{r['kernel']}` | {r['instructions']} | {r['ptxas']} | "
                   f"{r['allocated']} | {r['ratio']:.2f} |")
    ratios = sorted(r["ratio"] for r in rows if r["ptxas"])
    if ratios:
        total = (sum(r["allocated"] for r in rows if r["ptxas"])
                 / sum(r["ptxas"] for r in rows if r["ptxas"]))
        within = sum(0.75 <= x <= 1.25 for x in ratios)
        out.append("")
        out.append(f"{len(ratios)} kernels: total allocated / total ptxas = {total:.2f}, "
                   f"median ratio {ratios[len(ratios) // 2]:.2f}, "
                   f"{within} of {len(ratios)} within 25%, "
                   f"range {ratios[0]:.2f} .. {ratios[-1]:.2f}.")
    return "\n".join(out)
