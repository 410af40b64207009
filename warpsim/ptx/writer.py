"""PTX writer: ``ptx.ir.Module`` -> PTX text that ``parse_ptx`` reads back to the same IR.

Follows: PTX ISA 9.x §4-§5, §10-§11 (the syntax ``ptx/parser.py`` reads); ``ptx/ir.py``.
Output layout: header; a prototype of every ``.func`` (so that initialisers and calls may name
any function); module variables in declaration order; then every function with a body. Inside a
body all ``.reg`` and variable declarations come first (registers grouped back into ``%r<N>``
ranges where ids and names allow), then labels and instructions.
Deviations: comments, debug directives, pragmas, scopes, ``.ptr`` alignments, hex/octal spelling
of integers and initialiser brace nesting are not reproduced; none of them is in the IR.
"""

from __future__ import annotations

import struct

from warpsim.ptx.decls import HANDLE_TYPES, type_bytes
from warpsim.ptx.ir import (
    FLOAT_TYPES,
    SIGNED_TYPES,
    Function,
    Instruction,
    Module,
    Operand,
    OpKind,
    Param,
    RegDecl,
    Variable,
)

__all__ = ["write_ptx"]

_TEX_FAMILY = frozenset({"tex", "tld4", "suld", "sust", "sured", "txq", "suq"})
_PERF_ORDER = ("maxntid", "reqntid", "minnctapersm", "maxnctapersm", "maxnreg")
_BEFORE_SPACE = frozenset({"to", "volatile", "relaxed", "acquire", "release", "acq_rel", "weak",
                           "mmio", "sc", "cta", "cluster", "gpu", "sys"})


def write_ptx(module: Module) -> str:
    """PTX text for ``module``: ``parse_ptx(write_ptx(m))`` equals ``m`` up to positions."""
    out = ["//", "// Written by warpsim (ptx/writer.py)", "//", ""]
    major, minor = module.version
    out.append(f".version {major}.{minor}")
    if module.target:
        out.append(f".target {', '.join(module.target)}")
    out.append(f".address_size {module.address_size}")
    out.append("")
    for fn in module.functions.values():
        if not fn.is_entry:
            out.append(_header(fn) + "\n;")
    for var in module.variables.values():
        out.append(_variable(var, module))
    out.append("")
    files: dict[str, int] = {}  # source file -> .file index, in order of first use
    for fn in module.functions.values():
        for inst in fn.instructions:
            if inst.src is not None:
                files.setdefault(inst.src[0], len(files) + 1)
    for fn in module.functions.values():
        if fn.defined:
            out.append(_function(fn, module, files))
        elif fn.is_entry:
            out.append(_header(fn) + "\n;")
    out.extend(f'.file {n} "{name}"' for name, n in files.items())
    return "\n".join(out) + "\n"


def _params(params: list[Param]) -> str:
    items = []
    for p in params:
        text = ".param"
        if p.align != type_bytes(p.type):
            text += f" .align {p.align}"
        text += f" .{p.type}"
        if p.ptr_space:
            space = "" if p.ptr_space == "generic" else f".{p.ptr_space}"
            text += f" .ptr{space}.align 1"
        text += f" {p.name}"
        if p.count != 1:
            text += f"[{p.count}]"
        items.append("\t" + text)
    return "(\n" + ",\n".join(items) + "\n)" if items else "()"


def _header(fn: Function) -> str:
    linkage = f".{fn.linkage} " if fn.linkage else ""
    if fn.is_entry:
        text = f"{linkage}.entry {fn.name}{_params(fn.params)}"
    else:
        rets = f" {_params(fn.ret_params)}" if fn.ret_params else ""
        text = f"{linkage}.func{rets} {fn.name}{_params(fn.params)}"
    for name in (*_PERF_ORDER, *sorted(set(fn.directives) - set(_PERF_ORDER))):
        if name in fn.directives:
            values = ", ".join(str(v) for v in fn.directives[name])
            text += f"\n.{name}" + (f" {values}" if values else "")
    return text


def _float_text(bits: int, type_: str, size: int) -> str:
    if size == 4:
        return f"0f{bits:08X}"
    if size == 8:
        return f"0d{bits:016X}"
    if type_ == "bf16":
        x = struct.unpack("<f", struct.pack("<I", bits << 16))[0]
    else:
        x = struct.unpack("<e", struct.pack("<H", bits))[0]
    return f"0d{struct.unpack('<Q', struct.pack('<d', x))[0]:016X}"


def _initialiser(var: Variable, module: Module) -> str:
    size = type_bytes(var.type)
    data = var.init or b""
    relocs = dict(var.init_symbols)
    signed = var.type in SIGNED_TYPES
    values = []
    for pos in range(0, len(data), size):
        chunk = data[pos:pos + size]
        if pos in relocs:
            sym = relocs[pos]
            text = sym if sym in module.functions else f"generic({sym})"
            offset = int.from_bytes(chunk, "little", signed=True)
            values.append(text + (f"+{offset}" if offset > 0 else f"{offset}" if offset else ""))
        elif var.type in FLOAT_TYPES:
            values.append(_float_text(int.from_bytes(chunk, "little"), var.type, size))
        else:
            values.append(str(int.from_bytes(chunk, "little", signed=signed)))
    if var.count == 1 and len(values) == 1:
        return values[0]
    return "{" + ", ".join(values) + "}"


def _variable(var: Variable, module: Module) -> str:
    parts = []
    if var.extern:
        parts.append(".extern")
    elif var.visible:
        parts.append(".visible")
    parts.append(f".{var.space}")
    if var.attributes:
        parts.append(".attribute(" + ", ".join(f".{a}" for a in var.attributes) + ")")
    if var.type not in HANDLE_TYPES and var.space != "tex":
        parts.append(f".align {var.align}")
    parts.append(f".{var.type}")
    name = var.name
    if var.count == 0:
        name += "[]"
    elif var.count != 1:
        name += f"[{var.count}]"
    parts.append(name)
    text = " ".join(parts)
    if var.init is not None:
        text += " = " + _initialiser(var, module)
    return text + ";"


def _reg_decls(regs: list[RegDecl]) -> list[str]:
    """``.reg`` lines, merging runs ``p0, p1, ... pN-1`` of one type into ``p<N>``."""
    out = []
    i = 0
    while i < len(regs):
        r = regs[i]
        stem = r.name.rstrip("0123456789")
        if stem != r.name and r.name[len(stem):] == "0" and "$" not in r.name:
            n = 1
            while (i + n < len(regs) and regs[i + n].type == r.type
                   and regs[i + n].name == f"{stem}{n}"):
                n += 1
            out.append(f"\t.reg .{r.type} \t{stem}<{n}>;")
            i += n
        else:
            out.append(f"\t.reg .{r.type} \t{r.name};")
            i += 1
    return out


def _operand(op: Operand, fn: Function) -> str:
    kind = op.kind
    if kind is OpKind.REG:
        return ("!" if op.neg else "") + fn.regs[op.reg].name
    if kind is OpKind.IMM:
        if op.fmt == "f32":
            return f"0f{op.value:08X}"
        if op.fmt == "f64":
            return f"0d{op.value:016X}"
        return str(op.value) if op.value < 1 << 63 else f"0x{op.value:X}U"
    if kind in (OpKind.SPECIAL, OpKind.SYMBOL):
        return op.name
    if kind is OpKind.SINK:
        return "_"
    if kind is OpKind.VECTOR:
        return "{" + ", ".join(_operand(e, fn) for e in op.elems) + "}"
    base = "" if op.base is None else _operand(op.base, fn)
    if base and op.value:
        return f"[{base}+{op.value}]"
    return f"[{base or op.value}]"


def _instruction(inst: Instruction, fn: Function) -> str:
    text = "\t"
    if inst.guard >= 0:
        text += f"@{'!' if inst.guard_neg else ''}{fn.regs[inst.guard].name} "
    text += inst.spelling or _spelling(inst)
    dsts = [_operand(o, fn) for o in inst.dsts]
    srcs = [_operand(o, fn) for o in inst.srcs]
    if inst.opcode == "call":
        items = []
        if dsts:
            items.append("(" + ", ".join(dsts) + ")")
        items.append(srcs[0])
        rest = srcs[1:]
        proto = ""
        if inst.srcs[0].kind is OpKind.REG and rest:
            proto = rest.pop()
        if rest or proto:
            items.append("(" + ", ".join(rest) + ")")
        if proto:
            items.append(proto)
        return f"{text} {', '.join(items)};"
    if inst.opcode in _TEX_FAMILY:
        srcs = _bracket_extras(inst, srcs)
    items = ["|".join(dsts)] if dsts else []
    items.extend(srcs)
    return f"{text} {', '.join(items)};" if items else f"{text};"


def _spelling(inst: Instruction) -> str:
    """A dotted opcode for an instruction built without ``spelling`` (PTX suffix order)."""
    first = [m for m in inst.mods if m in _BEFORE_SPACE]
    rest = [m for m in inst.mods if m not in _BEFORE_SPACE]
    space = [inst.space] if inst.space not in ("", "generic") else []
    vec = [f"v{inst.vec}"] if inst.vec > 1 else []
    return ".".join((inst.opcode, *first, *space, *rest, *vec, *inst.types))


def _bracket_extras(inst: Instruction, srcs: list[str]) -> list[str]:
    """Move the operands written inside ``[tex, ..., {coords}]`` back into the brackets."""
    for k, op in enumerate(inst.srcs):
        if op.kind is OpKind.ADDRESS:
            v = next((j for j in range(k + 1, len(inst.srcs))
                      if inst.srcs[j].kind is OpKind.VECTOR), -1)
            if v < 0:
                return srcs
            inner = ", ".join([srcs[k][1:-1], *srcs[k + 1:v + 1]])
            return [*srcs[:k], f"[{inner}]", *srcs[v + 1:]]
    return srcs


def _function(fn: Function, module: Module, files: dict[str, int]) -> str:
    lines = [_header(fn), "{"]
    lines.extend(_reg_decls(fn.regs))
    for var in fn.variables:
        lines.append("\t" + _variable(var, module))
    lines.append("")
    by_index: dict[int, list[str]] = {}
    for name, index in fn.labels.items():
        by_index.setdefault(index, []).append(name)
    loc = None
    for inst in fn.instructions:
        for name in by_index.get(inst.index, ()):
            lines.append(f"{name}:")
        if inst.src is not None and inst.src != loc:  # the source line (.loc persists)
            loc = inst.src
            lines.append(f"\t.loc {files[loc[0]]} {loc[1]} 0")
        lines.append(_instruction(inst, fn))
    for name in by_index.get(len(fn.instructions), ()):
        lines.append(f"{name}:")
    lines.append("}")
    return "\n".join(lines) + "\n"
