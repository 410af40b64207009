"""PTX declaration helpers: literals, parameter layout and variable initialisers.

Follows: PTX ISA 9.x §4.5 (constants: ``0f``/``0d`` hex floats, octal, binary, ``U`` suffix),
§5.1-§5.4 (state spaces, variable declarations, alignment, initialisers), and the CUDA ABI for
the kernel parameter buffer (each parameter at the next multiple of its alignment).
Assumptions: [A] a decimal float literal in an instruction is f64 (PTX semantics); in an
initialiser it is converted to the variable's element type. [A] an address initialiser
``generic(sym)+N`` stores ``N`` in the element's bytes and ``(offset, sym)`` in
``Variable.init_symbols``: the loader adds the symbol's address to the stored value.
Deviations: nested initialiser braces are flattened in order (a short inner list is not padded
to its row length).
"""

from __future__ import annotations

import struct

from warpsim.ptx.ir import FLOAT_TYPES, TYPE_BITS, Operand, OpKind, Param

__all__ = [
    "HANDLE_TYPES",
    "IntLiteralError",
    "encode_init",
    "imm_operand",
    "layout_params",
    "type_bytes",
]

HANDLE_TYPES = frozenset({"texref", "samplerref", "surfref"})
"""Opaque handle types: 8 bytes, aligned to 8."""


class IntLiteralError(ValueError):
    """A numeric literal PTX does not accept (the parser turns it into a PTXSyntaxError)."""


def type_bytes(type_: str) -> int:
    """Size in bytes of one element of a PTX type (a predicate counts as one byte)."""
    if type_ in HANDLE_TYPES:
        return 8
    return max(1, TYPE_BITS[type_] // 8)


def _f32_bits(x: float) -> int:
    try:
        return struct.unpack("<I", struct.pack("<f", x))[0]
    except OverflowError:
        return 0xFF800000 if x < 0 else 0x7F800000


def _f64_of_bits(bits: int) -> float:
    return struct.unpack("<d", struct.pack("<Q", bits))[0]


def _f32_of_bits(bits: int) -> float:
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def imm_operand(text: str, negative: bool = False) -> Operand:
    """The IMM operand of one numeric literal token (``-`` applied when ``negative``)."""
    head = text[:2]
    if head in ("0f", "0F"):
        bits = int(text[2:], 16)
        return Operand(OpKind.IMM, value=bits ^ (0x80000000 if negative else 0), fmt="f32")
    if head in ("0d", "0D"):
        bits = int(text[2:], 16)
        return Operand(OpKind.IMM, value=bits ^ ((1 << 63) if negative else 0), fmt="f64")
    body = text[:-1] if text[-1] == "U" else text
    if head in ("0x", "0X"):
        value = int(body[2:], 16)
    elif head in ("0b", "0B"):
        value = int(body[2:], 2)
    elif "." in body or "e" in body or "E" in body:
        x = float(body)
        bits = struct.unpack("<Q", struct.pack("<d", -x if negative else x))[0]
        return Operand(OpKind.IMM, value=bits, fmt="f64")
    elif len(body) > 1 and body[0] == "0":
        if not body.isdigit() or "8" in body or "9" in body:
            raise IntLiteralError("malformed octal literal")
        value = int(body, 8)
    else:
        value = int(body)
    return Operand(OpKind.IMM, value=-value if negative else value)


def layout_params(specs: list[tuple[str, str, int, int, str]]) -> list[Param]:
    """Lay out (name, type, count, align or 0, ptr_space) parameters as CUDA does."""
    params = []
    offset = 0
    for name, type_, count, align, ptr_space in specs:
        size = type_bytes(type_) * count
        al = align or type_bytes(type_)
        offset = (offset + al - 1) // al * al
        params.append(Param(name=name, type=type_, size_bytes=size, align=al, offset=offset,
                            count=count, ptr_space=ptr_space))
        offset += size
    return params


def _element_bytes(kind: str, value: int, type_: str, size: int) -> int:
    """Raw bits, as an int, of one initialiser element of a ``type_`` variable."""
    if type_ in FLOAT_TYPES and size in (2, 4, 8):
        if kind == "i":
            x = float(value)
        elif kind == "f32":
            if size == 4:
                return value
            x = _f32_of_bits(value)
        else:
            if size == 8:
                return value
            x = _f64_of_bits(value)
        if size == 8:
            return struct.unpack("<Q", struct.pack("<d", x))[0]
        if size == 4:
            return _f32_bits(x)
        if type_ == "bf16":
            b = _f32_bits(x)
            return ((b + 0x7FFF + ((b >> 16) & 1)) >> 16) & 0xFFFF
        try:
            return struct.unpack("<H", struct.pack("<e", x))[0]
        except OverflowError:
            return 0xFC00 if x < 0 else 0x7C00
    return value & ((1 << (8 * size)) - 1)


def encode_init(elems: list[tuple[str, int, str]], type_: str,
                n_bytes: int) -> tuple[bytes, tuple[tuple[int, str], ...]]:
    """Little-endian bytes (``n_bytes`` long) and address relocations of an initialiser.

    Each element is ``(kind, value, symbol)`` with kind ``"i"`` (integer), ``"f32"``/``"f64"``
    (IEEE bits) or ``"sym"`` (``value`` is the byte offset added to ``symbol``'s address).
    """
    size = type_bytes(type_)
    out = bytearray(n_bytes)
    relocs = []
    for k, (kind, value, symbol) in enumerate(elems):
        pos = k * size
        if kind == "sym":
            relocs.append((pos, symbol))
            bits = value & ((1 << (8 * size)) - 1)
        else:
            bits = _element_bytes(kind, value, type_, size)
        out[pos:pos + size] = bits.to_bytes(size, "little")
    return bytes(out), tuple(relocs)
