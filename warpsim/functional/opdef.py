"""The compiled form of one static PTX instruction: the `Op` object and the `Core` it wraps.

Follows: docs/dev-contracts.md "Functional model"; STYLE.md §2.4 (vectorised functional side).
A family module (`int_ops`, `bit_ops`, `float_ops`, ...) turns an `Instruction` into a `Core`:
a vectorised function over raw-bit numpy arrays of exactly the instruction's operand types, plus
the PTX type of every source and destination value. `semantics.build_op` wraps the core with the
register-width adaptation (truncation of wider source registers, extension into wider
destination registers, negated predicate sources) and returns an `Op`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import numpy as np

from warpsim.errors import UnsupportedPTXError
from warpsim.ptx.ir import Instruction

__all__ = [
    "CC",
    "F_OF",
    "I_OF",
    "U_OF",
    "Core",
    "Op",
    "dtype_of",
    "unsupported",
]

U_OF: dict[int, type[np.unsignedinteger[Any]]] = {
    8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64,
}
"""Raw-bit dtype of a register of each width."""
I_OF: dict[int, type[np.signedinteger[Any]]] = {
    8: np.int8, 16: np.int16, 32: np.int32, 64: np.int64,
}
"""Signed view of each width."""
F_OF: dict[int, type[np.floating[Any]]] = {32: np.float32, 64: np.float64}
"""Float view of each width."""

CC = "cc"
"""Pseudo type of the carry flag value (np.uint32 holding 0 or 1)."""

_BITS = {
    "pred": 1, "b16": 16, "u16": 16, "s16": 16, "f16": 16, "bf16": 16,
    "b32": 32, "u32": 32, "s32": 32, "f32": 32, "f16x2": 32, "bf16x2": 32,
    "b64": 64, "u64": 64, "s64": 64, "f64": 64, "b8": 8, "u8": 8, "s8": 8, CC: 32,
}


def dtype_of(ptx_type: str) -> type[np.generic]:
    """Raw-bit numpy dtype carrying a value of ``ptx_type`` (np.bool_ for predicates)."""
    if ptx_type == "pred":
        return np.bool_
    return U_OF[_BITS[ptx_type]]


class Core(NamedTuple):
    """A family module's vectorised semantics of one instruction."""

    fn: Callable[[Sequence[Any]], tuple[Any, ...]]
    """Takes one raw-bit value per source (exactly ``src_types``), returns one per dst."""
    src_types: tuple[str, ...]
    """PTX type of each source value, carry-in (``"cc"``) last when read."""
    dst_types: tuple[str, ...]
    """PTX type of each destination value, carry-out (``"cc"``) last when written."""
    reads_cc: bool = False
    writes_cc: bool = False


class Op:
    """One static instruction compiled for vectorised execution.

    ``evaluate(srcs)`` takes one numpy array (or numpy scalar for an immediate) per source
    value, raw bits of dtype ``src_dtypes[i]``, and returns a tuple of raw-bit arrays of dtype
    ``dst_dtypes[i]``. When every source is a scalar the results are numpy scalars (the
    executor broadcasts them)."""

    __slots__ = ("dst_dtypes", "dst_types", "evaluate", "n_dsts", "n_srcs", "name", "reads_cc",
                 "src_dtypes", "src_types", "writes_cc")

    def __init__(self, name: str, evaluate: Callable[[Sequence[Any]], tuple[Any, ...]],
                 src_dtypes: tuple[type[np.generic], ...],
                 dst_dtypes: tuple[type[np.generic], ...],
                 reads_cc: bool = False, writes_cc: bool = False,
                 src_types: tuple[str, ...] = (), dst_types: tuple[str, ...] = ()) -> None:
        self.name = name
        self.src_types = src_types
        """PTX type of each source value as the instruction reads it (``"cc"`` for the carry);
        pass it to ``semantics.immediate_bits`` to pre-convert an immediate."""
        self.dst_types = dst_types
        """PTX type of each destination value before register-width extension."""
        self.evaluate = evaluate
        self.src_dtypes = src_dtypes
        self.dst_dtypes = dst_dtypes
        self.n_srcs = len(src_dtypes)
        self.n_dsts = len(dst_dtypes)
        self.reads_cc = reads_cc
        self.writes_cc = writes_cc

    def __repr__(self) -> str:
        return f"Op({self.name}, srcs={self.n_srcs}, dsts={self.n_dsts})"


def unsupported(inst: Instruction, why: str = "", hint: str = "") -> UnsupportedPTXError:
    """The error for an instruction form warpsim does not execute exactly (to be raised)."""
    what = f"instruction {inst.full_opcode!r}"
    if why:
        what += f": {why}"
    return UnsupportedPTXError(
        what, line=inst.line or None, source_line=inst.text, src=inst.src,
        hint=hint or "rewrite the PTX to use a supported form (see docs/ptx-semantics.md)")
