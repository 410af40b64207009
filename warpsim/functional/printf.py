"""Device-side ``printf``: the ``vprintf`` built-in that nvcc's ``printf`` calls compile to.

Follows: CUDA C++ Programming Guide, "Formatted Output" (``printf`` prototype, format
``%[flags][width][.precision][size]type`` with flags ``#`` ``' '`` ``0`` ``+`` ``-``, width
``*``/digits, sizes ``h`` ``l`` ``ll``, types ``%cdiouxXpeEfgGaAs``; at most 32 arguments, later
conversions are printed as written; the return value is the number of arguments parsed, -1
for a null format string); the PTX nvcc emits: ``call.uni (retval), vprintf, (fmt, args)``,
``fmt`` a generic pointer to the format string, ``args`` a generic pointer to a local buffer
holding the arguments under C varargs rules (each aligned to its size; integers promoted to 32
or 64 bits, ``float`` to ``double``); the text is formatted by the host C library (glibc
conventions: ``%p`` prints ``0x...`` or ``(nil)``, a null ``%s`` prints ``(null)``).
Assumptions:
  [A] Each argument's size comes from its conversion, as in CUDA's host-side formatter:
      8 bytes for ``l``/``ll``/``j``/``z``/``t`` integers, floating conversions, ``%s`` and
      ``%p``; 4 bytes otherwise (``*`` widths and precisions included).
  [A] The threads of one executed ``vprintf`` print in increasing global thread id (CTA
      linear index, then thread linear index); separate executions print in execution order.
Deviations: output goes to the launch result (``LaunchResult.printf_output``) without
CUDA's fixed-size FIFO, so nothing is ever dropped; a conversion CUDA passes through to the
host (``%n``, ``%C``, an unknown letter) raises ``UnsupportedPTXError``.
"""

from __future__ import annotations

import re
import struct
from typing import Any

import numpy as np

from warpsim.errors import UnsupportedPTXError
from warpsim.functional.memory import LOCAL_WINDOW, PARAM_WINDOW, SHARED_WINDOW
from warpsim.ptx.ir import Instruction, OpKind

__all__ = [
    "PRINTF_MAX_ARGS",
    "FormatError",
    "build_vprintf",
    "call_param_slots",
    "format_printf",
    "parse_format",
    "read_string",
]

PRINTF_MAX_ARGS = 32
"""Arguments a device ``printf`` accepts besides the format (Programming Guide)."""

_SPEC = re.compile(rb"%([-+ #0]*)(\*|\d+)?(?:\.(\*|\d*))?(hh|h|ll|l|j|z|t|L|q)?(.?)")
_INT = frozenset(b"diouxXc")
_FLOAT = frozenset(b"eEfFgGaA")
_WIDE = frozenset({b"l", b"ll", b"j", b"z", b"t", b"q"})


class FormatError(ValueError):
    """A conversion the device printf cannot format (turned into UnsupportedPTXError)."""


def parse_format(fmt: bytes) -> tuple[list[Any], list[tuple[int, int]], int, int]:
    """Split a format into literal bytes and conversions.

    Returns (pieces, arguments, buffer bytes, arguments parsed): ``pieces`` are ``bytes`` or
    ``(flags, width, precision, size, conv, spec bytes, width arg, precision arg, value arg)``
    with argument indices into ``arguments``, a list of ``(offset, size)`` in the buffer."""
    pieces: list[Any] = []
    args: list[tuple[int, int]] = []
    off = 0
    pos = 0

    def take(size: int) -> int:
        nonlocal off
        if len(args) >= PRINTF_MAX_ARGS:
            return -1
        off = -(-off // size) * size
        args.append((off, size))
        off += size
        return len(args) - 1

    while True:
        k = fmt.find(b"%", pos)
        if k < 0:
            pieces.append(fmt[pos:])
            break
        pieces.append(fmt[pos:k])
        m = _SPEC.match(fmt, k)
        if m is None:  # cannot happen: the pattern matches any "%"
            raise FormatError("malformed conversion")
        flags, width, prec, size, conv = m.groups()
        pos = m.end()
        if conv == b"%" and not (flags or width or prec is not None or size):
            pieces.append(b"%")
            continue
        if not conv or conv[0] not in _INT | _FLOAT | frozenset(b"sp"):
            raise FormatError(f"conversion {m.group(0).decode('latin-1')!r} is not supported")
        full = len(args) >= PRINTF_MAX_ARGS
        w_arg = take(4) if width == b"*" else -2
        p_arg = take(4) if prec == b"*" else -2
        wide = conv[0] in _FLOAT or conv in (b"s", b"p") or size in _WIDE
        v_arg = take(8 if wide else 4)
        if full or v_arg < 0:  # past the 32nd argument: printed as written
            pieces.append(m.group(0))
            continue
        pieces.append((flags.decode(), width, prec, size or b"", conv.decode(), m.group(0),
                       w_arg, p_arg, v_arg))
    return pieces, args, off, len(args)


def _pad(body: str, width: int, left: bool) -> str:
    return body.ljust(width) if left else body.rjust(width)


def _int_text(value: int, conv: str, flags: str, width: int, prec: int | None,
              signed: bool) -> str:
    """C integer formatting (sign, ``#`` prefixes, precision as minimum digits)."""
    neg = signed and value < 0
    mag = -value if neg else value
    base = {"o": 8, "x": 16, "X": 16}.get(conv, 10)
    digits = "" if prec == 0 and mag == 0 else (
        format(mag, {8: "o", 16: "x", 10: "d"}[base]))
    if conv == "X":
        digits = digits.upper()
    if prec is not None and len(digits) < prec:
        digits = "0" * (prec - len(digits)) + digits
    prefix = "-" if neg else ("+" if "+" in flags else " " if " " in flags else "") \
        if signed else ""
    if "#" in flags:
        if conv == "o" and not digits.startswith("0"):
            digits = "0" + digits
        elif conv in "xX" and mag:
            prefix = "0" + conv
    if "0" in flags and "-" not in flags and prec is None:
        digits = digits.rjust(width - len(prefix), "0")
    return _pad(prefix + digits, width, "-" in flags)


def _hex_float(x: float, upper: bool, flags: str, prec: int | None) -> str:
    """``%a``: glibc's hexadecimal floating-point form."""
    neg = x < 0 or (x == 0 and struct.pack("<d", x)[7] & 0x80)
    text = float.hex(abs(x))  # 0x1.8000000000000p+0
    mant, exp = text[2:].split("p")
    lead, frac = mant.split(".")
    if prec is None:
        frac = frac.rstrip("0")
    elif prec < len(frac):
        bits = int(lead + frac, 16)
        shift = 4 * (len(frac) - prec)
        q, r = divmod(bits, 1 << shift)
        half = 1 << (shift - 1)
        q += 1 if r > half or (r == half and q & 1) else 0
        s = format(q, "x").rjust(prec + 1, "0")
        lead, frac = s[:-prec] if prec else s, s[-prec:] if prec else ""
    else:
        frac = frac.ljust(prec, "0")
    body = "0x" + lead + ("." + frac if frac or "#" in flags else "") + "p" + exp
    return ("-" if neg else "+" if "+" in flags else " " if " " in flags else "") + (
        body.upper() if upper else body)


def _float_text(x: float, conv: str, flags: str, width: int, prec: int | None) -> str:
    """C floating-point formatting (Python's ``%`` except inf/nan and ``%a``)."""
    if x != x or x in (float("inf"), float("-inf")):
        neg = struct.pack("<d", x)[7] & 0x80
        word = "nan" if x != x else "inf"
        sign = "-" if neg else "+" if "+" in flags else " " if " " in flags else ""
        return _pad(sign + (word.upper() if conv.isupper() else word), width, "-" in flags)
    if conv in "aA":
        body = _hex_float(x, conv == "A", flags, prec)
        if "0" in flags and "-" not in flags:
            sign = body[0] if body[0] in "+- " else ""
            rest = body[len(sign):]
            return sign + rest[:2] + rest[2:].rjust(width - len(sign) - 2, "0")
        return _pad(body, width, "-" in flags)
    spec = "%" + flags + (str(width) if width else "") + \
        ("" if prec is None else f".{prec}") + conv
    return spec % x


def format_printf(fmt: bytes, buf: bytes, parsed: tuple[Any, ...] | None = None,
                  strings: Any = None) -> bytes:
    """Format ``fmt`` with the argument buffer ``buf`` as the device printf does.

    ``strings(address) -> bytes`` reads a ``%s`` argument (a NUL-terminated device string)."""
    pieces, args, _, _ = parsed if parsed is not None else parse_format(fmt)
    out: list[bytes] = []
    for p in pieces:
        if isinstance(p, bytes):
            out.append(p)
            continue
        flags, width_s, prec_s, size, conv, _spec, w_arg, p_arg, v_arg = p
        width = 0
        if w_arg >= 0:
            o, _ = args[w_arg]
            width = int.from_bytes(buf[o:o + 4], "little", signed=True)
            if width < 0:
                flags, width = flags + "-", -width
        elif width_s:
            width = int(width_s)
        prec: int | None = None
        if p_arg >= 0:
            o, _ = args[p_arg]
            prec = int.from_bytes(buf[o:o + 4], "little", signed=True)
            prec = None if prec < 0 else prec
        elif prec_s is not None:
            prec = int(prec_s or b"0")
        o, n = args[v_arg]
        raw = buf[o:o + n]
        if conv in "eEfFgGaA":
            text = _float_text(struct.unpack("<d", raw)[0], conv, flags, width, prec)
        elif conv == "s":
            addr = int.from_bytes(raw, "little")
            if addr == 0:
                s = b"(null)" if prec is None or prec >= 6 else b""
            else:
                s = strings(addr) if strings is not None else b""
            if prec is not None:
                s = s[:prec]
            out.append(s.rjust(width) if "-" not in flags else s.ljust(width))
            continue
        elif conv == "c":
            ch = bytes([raw[0]])
            out.append(ch.rjust(width) if "-" not in flags else ch.ljust(width))
            continue
        elif conv == "p":
            addr = int.from_bytes(raw, "little")
            text = _pad("(nil)", width, "-" in flags) if addr == 0 else \
                _int_text(addr, "x", flags + "#", width, prec, False)
        else:
            bits = {b"hh": 8, b"h": 16}.get(size, 8 * n)
            value = int.from_bytes(raw, "little") & ((1 << bits) - 1)
            signed = conv in "di"
            if signed and value >> (bits - 1):
                value -= 1 << bits
            text = _int_text(value, conv, flags, width, prec, signed)
        out.append(text.encode("latin-1"))
    return b"".join(out)


# ---- the built-in ------------------------------------------------------------------------


def _region(bs: Any, t: int, addr: int) -> tuple[np.ndarray, int, int, str]:
    """(byte buffer, start index, end index) of the memory a thread reaches at generic
    ``addr``, and the space's name; raises MemoryAccessError outside every region."""
    from warpsim.functional.memops import access_fault

    if addr < SHARED_WINDOW:
        hit = bs.memory.allocation_of(addr)
        if hit is not None:
            start, size = hit
            base = bs.memory.base
            return bs.memory.buffer, addr - base, start + size - base, "global"
        where = bs.memory.describe_nearest(addr)
        raise access_fault(bs, np.array([t]), np.array([addr], np.uint64), 0, 1, "global",
                           where)
    for base, name in ((SHARED_WINDOW, "shared"), (LOCAL_WINDOW, "local"),
                       (PARAM_WINDOW, "param")):
        rel = addr - base
        if name == "shared":
            buf, lo, limit = bs.shared, (t // bs.cta_threads) * bs.shared_bytes, \
                bs.shared_bytes
        elif name == "local":
            buf, lo, limit = bs.local, t * bs.local_bytes, bs.local_bytes
        else:
            buf, lo, limit = bs.params, 0, bs.params.size
        if 0 <= rel < limit:
            return buf, lo + rel, lo + limit, name
    raise access_fault(bs, np.array([t]), np.array([addr], np.uint64), 0, 1, "generic",
                       "outside the global, shared, local and parameter windows")


def _read(bs: Any, t: int, addr: int, n: int) -> bytes:
    """``n`` bytes a thread reads at generic ``addr``."""
    from warpsim.functional.memops import access_fault

    buf, lo, hi, name = _region(bs, t, addr)
    if lo + n > hi:
        raise access_fault(bs, np.array([t]), np.array([addr], np.uint64), 0, 1, name,
                           f"printf reads {n} argument bytes past the end of the {name} "
                           "region")
    return buf[lo:lo + n].tobytes()


def read_string(bs: Any, t: int, addr: int) -> bytes:
    """The NUL-terminated string thread ``t`` sees at generic ``addr`` (ends at its region's
    end at most)."""
    buf, lo, hi, _ = _region(bs, t, addr)
    chunk = buf[lo:hi]
    z = np.flatnonzero(chunk == 0)
    return chunk[:z[0] if z.size else chunk.size].tobytes()


def call_param_slots(inst: Instruction, ctx: Any, name: str, *, n_params: int, n_rets: int,
                     hint: str) -> tuple[list[int], list[int]]:
    """Local-memory offsets of the call-scope ``.param`` arguments and results of a call to
    the built-in ``name`` (``n_params`` arguments, at most ``n_rets`` results)."""
    params = list(inst.srcs[1:])
    rets = list(inst.dsts)
    slots = []
    for op in [*params, *rets]:
        info = ctx.symbols.get(op.name) if op.kind is OpKind.SYMBOL else None
        if info is None or info.space != "param_local":
            raise ctx.error(inst, f"{name} operand that is not a call-scope .param variable")
        slots.append(info.address)
    if len(params) != n_params or len(rets) > n_rets:
        raise ctx.error(inst, f"{name} with {len(params)} arguments and {len(rets)} results",
                        hint=hint)
    return slots[:n_params], slots[n_params:]


def build_vprintf(inst: Instruction, ctx: Any) -> Any:
    """The closure of ``call (ret), vprintf, (fmt, args)``: formats each executing thread's
    output into ``batch.printf_chunks`` and writes the return value."""
    from warpsim.functional.ldst import lanes_of

    (fmt_off, arg_off), rets = call_param_slots(
        inst, ctx, "vprintf", n_params=2, n_rets=1,
        hint="vprintf takes (format, argument buffer) and returns an int")
    ret_off = rets[0] if rets else -1
    cache: dict[bytes, tuple[Any, ...]] = {}

    def run(bs: Any, g: Any, pred: Any, exm: Any) -> None:
        _, tidx, _, _ = lanes_of(g, pred)
        tidx = np.sort(np.asarray(tidx, np.int64))
        local, lb = bs.local, bs.local_bytes
        lanes = np.arange(8)
        fmts = local[(tidx * lb + fmt_off)[:, None] + lanes].view("<u8")[:, 0]
        argp = local[(tidx * lb + arg_off)[:, None] + lanes].view("<u8")[:, 0]
        rvals = np.empty(tidx.size, np.int32)
        for i, t in enumerate(tidx.tolist()):
            fa = int(fmts[i])
            if fa == 0:
                rvals[i] = -1
                continue
            fmt = read_string(bs, t, fa)
            parsed = cache.get(fmt)
            if parsed is None:
                try:
                    parsed = parse_format(fmt)
                except FormatError as err:
                    raise UnsupportedPTXError(
                        f"printf format {fmt.decode('latin-1')!r}: {err}", file=bs.prog.file,
                        line=inst.line or None, kernel=bs.prog.name, source_line=inst.text,
                        hint="use the conversions %d %i %u %o %x %X %c %s %p %e %f %g %a "
                             "with flags, width, precision and h/l/ll sizes") from None
                cache[fmt] = parsed
            n = parsed[2]
            buf = _read(bs, t, int(argp[i]), n) if n else b""
            bs.printf_chunks.append(format_printf(
                fmt, buf, parsed, lambda a, t=t: read_string(bs, t, a)))
            rvals[i] = parsed[3]
        if ret_off >= 0:
            idx = (tidx * lb + ret_off)[:, None] + np.arange(4)
            local[idx] = rvals.view(np.uint8).reshape(-1, 4)
    return run
