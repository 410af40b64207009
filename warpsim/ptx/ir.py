"""Typed intermediate representation of a PTX module: modules, kernels, instructions, operands.

Follows: PTX ISA 9.x (instruction statement syntax, state spaces, types); ARCHITECTURE.md §1-§2.
The parser (`ptx/parser.py`) produces it; every later stage (CFG, liveness, register allocation,
the functional model, the timing engine's static tables) reads it.

Conventions
-----------
* An instruction's opcode is split into ``opcode`` (base, e.g. ``"add"``), ``types`` (every
  type suffix in order: ``("f32",)``; ``cvt.rn.f32.s32`` gives ``("f32", "s32")``), ``space``
  (``"global"``, ``"shared"``, ``"local"``, ``"const"``, ``"param"``, ``"generic"`` for
  memory instructions without one, ``""`` otherwise), ``vec`` (1, 2 or 4) and ``mods``: every
  other dot-suffix in source order (``("rn", "ftz")``, ``("lt",)`` for ``setp.lt``,
  ``("wide",)``, ``("sync", "down")`` for ``shfl.sync.down``, ``("to",)`` for ``cvta.to``).
* Virtual registers are numbered per kernel (``Kernel.regs[id]``); operands refer to them by id.
  Predicates are registers of type ``"pred"``.
* ``dsts`` are the operands written, ``srcs`` those read, both in PTX order. Stores, branches,
  barriers, ``red`` and ``ret`` have no ``dsts``; for ``st`` the address is ``srcs[0]``.
  ``setp`` with ``%p|%q`` has two dsts. ``atom`` has one dst then ``[addr], b[, c]``.
* ``call`` keeps its return operands in ``dsts`` (each a ``SYMBOL`` naming a ``.param``
  variable), the callee as ``srcs[0]`` (``SYMBOL``) and its arguments after it.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

__all__ = [
    "FLOAT_TYPES",
    "INT_TYPES",
    "SIGNED_TYPES",
    "SPECIAL_REGISTERS",
    "TYPE_BITS",
    "Function",
    "Instruction",
    "Module",
    "OpKind",
    "Operand",
    "Param",
    "RegDecl",
    "Variable",
]

TYPE_BITS: dict[str, int] = {
    "pred": 1,
    "b8": 8, "u8": 8, "s8": 8,
    "b16": 16, "u16": 16, "s16": 16, "f16": 16, "bf16": 16,
    "b32": 32, "u32": 32, "s32": 32, "f32": 32, "f16x2": 32, "bf16x2": 32, "tf32": 32,
    "b64": 64, "u64": 64, "s64": 64, "f64": 64,
    "b128": 128,
}
"""Width in bits of every PTX fundamental type."""

SIGNED_TYPES = frozenset({"s8", "s16", "s32", "s64"})
INT_TYPES = frozenset({"b8", "u8", "s8", "b16", "u16", "s16", "b32", "u32", "s32",
                       "b64", "u64", "s64"})
FLOAT_TYPES = frozenset({"f16", "bf16", "f32", "f64", "f16x2", "bf16x2", "tf32"})

SPECIAL_REGISTERS = frozenset({
    "%tid.x", "%tid.y", "%tid.z", "%ntid.x", "%ntid.y", "%ntid.z",
    "%ctaid.x", "%ctaid.y", "%ctaid.z", "%nctaid.x", "%nctaid.y", "%nctaid.z",
    "%laneid", "%warpid", "%nwarpid", "%smid", "%nsmid", "%gridid",
    "%lanemask_eq", "%lanemask_le", "%lanemask_lt", "%lanemask_ge", "%lanemask_gt",
    "%clock", "%clock64", "%clock_hi", "%globaltimer", "%globaltimer_lo", "%globaltimer_hi",
    "%dynamic_smem_size", "%total_smem_size", "%aggr_smem_size",
    "%reserved_smem_offset_begin", "%reserved_smem_offset_end", "%reserved_smem_offset_cap",
    "%reserved_smem_offset_0", "%reserved_smem_offset_1",
    "%tid", "%ntid", "%ctaid", "%nctaid",
})
"""Special registers accepted as source operands (``%envregN`` and ``%pmN`` are matched by
prefix in the parser)."""


class OpKind(enum.IntEnum):
    """What an operand is."""

    REG = 0
    """A virtual register (``reg`` is its id; ``neg`` for ``!%p``)."""
    IMM = 1
    """An immediate: ``value`` holds an int, or the raw bits of a float (``fmt``)."""
    SPECIAL = 2
    """A special register; ``name`` is its PTX spelling, e.g. ``%tid.x``."""
    SYMBOL = 3
    """A named entity: variable, parameter, label, function or texture (``name``)."""
    ADDRESS = 4
    """A memory address ``[base+offset]``: ``base`` is a REG/SYMBOL operand or None
    (absolute address); ``value`` is the byte offset."""
    VECTOR = 5
    """A brace-enclosed list ``{a, b, ...}``; ``elems`` holds the element operands
    (a SINK for ``_``)."""
    SINK = 6
    """The bit bucket ``_``."""


@dataclass(slots=True, frozen=True)
class Operand:
    """One instruction operand. Which fields matter depends on ``kind`` (see ``OpKind``)."""

    kind: OpKind
    reg: int = -1
    name: str = ""
    value: int = 0
    fmt: str = "i"
    """For IMM: ``"i"`` integer (``value`` is the Python int, may be negative),
    ``"f32"`` / ``"f64"`` (``value`` holds the IEEE bits of a ``0f``/``0d`` literal or of a
    decimal float literal, which PTX treats as f64)."""
    neg: bool = False
    base: Operand | None = None
    elems: tuple[Operand, ...] = ()

    @property
    def is_reg(self) -> bool:
        return self.kind is OpKind.REG

    def registers(self) -> tuple[int, ...]:
        """Ids of every virtual register this operand names (address bases, vector elements)."""
        if self.kind is OpKind.REG:
            return (self.reg,)
        if self.kind is OpKind.ADDRESS and self.base is not None:
            return self.base.registers()
        if self.kind is OpKind.VECTOR:
            return tuple(r for e in self.elems for r in e.registers())
        return ()


@dataclass(slots=True)
class Instruction:
    """One PTX instruction statement, as written (before register allocation)."""

    index: int
    """Position in its function's instruction list (the static PC, in instructions)."""
    opcode: str
    types: tuple[str, ...] = ()
    space: str = ""
    vec: int = 1
    mods: tuple[str, ...] = ()
    dsts: tuple[Operand, ...] = ()
    srcs: tuple[Operand, ...] = ()
    guard: int = -1
    """Register id of the guard predicate (``@%p``), -1 when unguarded."""
    guard_neg: bool = False
    """True for ``@!%p``."""
    line: int = 0
    """1-based line in the PTX text."""
    column: int = 0
    text: str = ""
    """The statement as written, for listings and error messages."""
    spelling: str = ""
    """The dotted opcode exactly as written (modifier order varies: ``ld.volatile.shared``)."""
    src: tuple[str, int] | None = field(default=None, compare=False)
    """(source file, line) of the last ``.loc`` before it (``-lineinfo`` builds), or None."""

    @property
    def full_opcode(self) -> str:
        """The dotted opcode as written in the PTX text, e.g. ``ld.global.v4.f32``."""
        if self.spelling:
            return self.spelling
        parts = [self.opcode]
        if self.space and self.space != "generic":
            parts.append(self.space)
        parts.extend(self.mods)
        if self.vec > 1:
            parts.append(f"v{self.vec}")
        parts.extend(self.types)
        return ".".join(parts)

    def has(self, mod: str) -> bool:
        """True when ``mod`` is one of the instruction's modifiers."""
        return mod in self.mods

    def reads(self) -> tuple[int, ...]:
        """Virtual register ids read (sources, address bases, guard)."""
        regs = [r for op in self.srcs for r in op.registers()]
        for op in self.dsts:  # address bases inside destination operands are reads too
            if op.kind is OpKind.ADDRESS:
                regs.extend(op.registers())
        if self.guard >= 0:
            regs.append(self.guard)
        return tuple(regs)

    def writes(self) -> tuple[int, ...]:
        """Virtual register ids written."""
        return tuple(r for op in self.dsts if op.kind is not OpKind.ADDRESS
                     for r in op.registers())


@dataclass(slots=True)
class RegDecl:
    """A virtual register declared with ``.reg``; ``%r<4>`` declares ``%r0`` .. ``%r3``."""

    id: int
    name: str
    type: str

    @property
    def bits(self) -> int:
        return TYPE_BITS[self.type]


@dataclass(slots=True)
class Variable:
    """A state-space variable: ``.global``, ``.const``, ``.shared``, ``.local``, ``.param``
    (inside a function body), ``.tex``/``.texref``/``.samplerref``/``.surfref``."""

    name: str
    space: str
    type: str
    """Element type (``b8`` for byte arrays; ``texref`` etc. for opaque handles)."""
    size_bytes: int
    """Total size; 0 for ``.extern`` arrays of unknown size (dynamic shared memory)."""
    align: int
    count: int = 1
    """Number of elements (product of the array dimensions; 1 for a scalar)."""
    init: bytes | None = None
    """Initial contents (little-endian, ``size_bytes`` long) when an initialiser is given.
    Initialisers naming other symbols (``generic(sym)``) are recorded in ``init_symbols``."""
    init_symbols: tuple[tuple[int, str], ...] = ()
    """(byte offset, symbol name) pairs for address-valued initialiser elements."""
    extern: bool = False
    visible: bool = False
    line: int = 0
    attributes: tuple[str, ...] = ()
    """``.attribute(...)`` names without the dot (``("managed",)`` for ``__managed__``)."""


@dataclass(slots=True)
class Param:
    """A kernel or function parameter; ``offset`` is its byte offset in the parameter buffer."""

    name: str
    type: str
    size_bytes: int
    align: int
    offset: int
    count: int = 1
    ptr_space: str = ""
    """For ``.ptr.global`` etc. annotations."""


@dataclass(slots=True)
class Function:
    """A kernel (``.entry``) or device function (``.func``) with its body."""

    name: str
    is_entry: bool
    params: list[Param] = field(default_factory=list)
    ret_params: list[Param] = field(default_factory=list)
    regs: list[RegDecl] = field(default_factory=list)
    reg_ids: dict[str, int] = field(default_factory=dict)
    instructions: list[Instruction] = field(default_factory=list)
    labels: dict[str, int] = field(default_factory=dict)
    """Label name -> index of the instruction that follows it (``len(instructions)`` for a
    label at the very end)."""
    variables: list[Variable] = field(default_factory=list)
    """Variables declared inside the body (``.local``, ``.shared``, ``.param`` for calls)."""
    directives: dict[str, tuple[int, ...]] = field(default_factory=dict)
    """Performance directives: ``maxntid``, ``reqntid``, ``minnctapersm``, ``maxnreg``..."""
    linkage: str = ""
    """``visible``, ``weak``, ``extern`` or ``""``."""
    file: str = ""
    line: int = 0
    defined: bool = True
    """False for a prototype (declaration without a body)."""
    call_prototypes: dict[str, tuple[int, int]] = field(default_factory=dict)
    """``.callprototype`` labels -> (results, parameters) of the calls they describe."""
    target_lists: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """``.branchtargets``/``.calltargets`` labels -> the labels or functions they list."""

    @property
    def param_bytes(self) -> int:
        """Size of the parameter buffer."""
        if not self.params:
            return 0
        last = max(self.params, key=lambda p: p.offset)
        return last.offset + last.size_bytes

    def reg(self, name: str) -> RegDecl:
        return self.regs[self.reg_ids[name]]


@dataclass(slots=True)
class Module:
    """A parsed PTX module."""

    version: tuple[int, int] = (0, 0)
    target: tuple[str, ...] = ()
    address_size: int = 64
    functions: dict[str, Function] = field(default_factory=dict)
    """Every ``.entry`` and ``.func``, by name."""
    variables: dict[str, Variable] = field(default_factory=dict)
    """Module-scope variables (``.global``, ``.const``, ``.shared``, textures), by name."""
    file: str = ""
    source: str = ""

    @property
    def kernels(self) -> dict[str, Function]:
        """The ``.entry`` functions."""
        return {n: f for n, f in self.functions.items() if f.is_entry}

    def kernel(self, name: str) -> Function:
        """Find a kernel by exact (mangled) name, or by the unmangled C++ name."""
        kernels = self.kernels
        if name in kernels:
            return kernels[name]
        matches = [k for k in kernels if _demangled_base(k) == name]
        if len(matches) == 1:
            return kernels[matches[0]]
        from warpsim.errors import LaunchError

        if matches:
            raise LaunchError(name, f"the name is ambiguous: {', '.join(sorted(matches))}",
                              hint="pass the mangled name")
        raise LaunchError(name, "no such kernel in the module",
                          hint=f"kernels: {', '.join(sorted(kernels)) or '(none)'}")


def _demangled_base(mangled: str) -> str:
    """The unqualified function name of an Itanium-mangled name (``_Z4vaddPfS_i`` -> vadd)."""
    if not mangled.startswith("_Z"):
        return mangled
    i = 2
    if i < len(mangled) and mangled[i] == "N":  # nested name: take the last component
        i += 1
        last = ""
        while i < len(mangled) and mangled[i].isdigit():
            j = i
            while j < len(mangled) and mangled[j].isdigit():
                j += 1
            n = int(mangled[i:j])
            last = mangled[j:j + n]
            i = j + n
        return last or mangled
    j = i
    while j < len(mangled) and mangled[j].isdigit():
        j += 1
    if j == i:
        return mangled
    n = int(mangled[i:j])
    return mangled[j:j + n]
