"""The PTX opcode table: base opcodes, their legal modifiers, and how a dotted opcode splits.

Follows: PTX ISA 9.x §9.7 (instruction set: every base opcode and its qualifiers); the split into
``opcode`` / ``types`` / ``space`` / ``vec`` / ``mods`` is the one ``ptx/ir.py`` defines.
Assumptions: [A] the table lists every base opcode of PTX 9.x; tensor-core, bulk-copy, cluster
and video instructions accept any modifier word (``None`` in ``OPCODES``): their qualifier
grammar is large and warpsim's functional model rejects them later anyway.
Deviations: only the set of modifiers is checked, not their combination or order (ptxas
checks those); the per-opcode type lists are not checked beyond "is a PTX type".
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from warpsim.ptx.ir import TYPE_BITS

__all__ = [
    "EXTRA_TYPES",
    "MEMORY_OPCODES",
    "NO_DST_OPCODES",
    "OPCODES",
    "SPACES",
    "SPACE_OPCODES",
    "VEC_OPCODES",
    "OpcodeSplit",
    "split_opcode",
]

EXTRA_TYPES = frozenset({
    "b1", "s4", "u4", "e4m3", "e5m2", "e4m3x2", "e5m2x2", "e2m1", "e2m1x2", "e2m3", "e3m2",
    "e2m3x2", "e3m2x2", "ue8m0", "ue8m0x2", "e4m3x4", "e5m2x4", "e2m1x4", "s2f6x2",
    "f16x4", "bf16x4", "f32x2", "u16x2", "s16x2",
})
"""Type suffixes beyond ``ir.TYPE_BITS`` (sub-byte and 8-bit float formats of mma/cvt)."""

_TYPES = frozenset(TYPE_BITS) | EXTRA_TYPES

SPACES = {
    "global": "global", "shared": "shared", "shared::cta": "shared",
    "shared::cluster": "shared::cluster", "local": "local", "const": "const",
    "param": "param", "param::entry": "param", "param::func": "param",
}
"""State-space suffix -> ``Instruction.space`` (``shared::cta`` is plain ``shared``)."""

_VEC = {"v2": 2, "v4": 4, "v8": 8}

_RND = ("rn", "rz", "rm", "rp")
_RNDI = ("rni", "rzi", "rmi", "rpi")
_CMP = ("eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs",
        "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan")
_BOOL = ("and", "or", "xor")
_SCOPE = ("cta", "cluster", "gpu", "sys")
_SEM = ("relaxed", "acquire", "release", "acq_rel", "sc", "volatile", "weak", "mmio")
_EVICT = ("L1::evict_normal", "L1::evict_unchanged", "L1::evict_first", "L1::evict_last",
          "L1::no_allocate", "L2::evict_normal", "L2::evict_first", "L2::evict_last",
          "L2::cache_hint", "L2::64B", "L2::128B", "L2::256B")
_ATOM = ("and", "or", "xor", "cas", "exch", "add", "inc", "dec", "min", "max", "noftz",
         "L2::cache_hint")
_TEXGEOM = ("1d", "2d", "3d", "a1d", "a2d", "cube", "acube", "2dms", "a2dms")
_SURF = ("b", "p", "trap", "clamp", "zero", "ca", "cg", "cs", "cv", "wb", "wt")
_QUERY = ("width", "height", "depth", "channel_data_type", "channel_order",
          "normalized_coords", "filter_mode", "addr_mode_0", "addr_mode_1", "addr_mode_2",
          "array_size", "num_mipmap_levels", "num_samples", "force_unnormalized_coords",
          "memory_layout", "level")


def _m(*groups: tuple[str, ...] | str) -> frozenset[str]:
    out: set[str] = set()
    for g in groups:
        out.update((g,) if isinstance(g, str) else g)
    return frozenset(out)


_FLOAT_ARITH = _m(_RND, "ftz", "sat")
_APPROX = _m("approx", "ftz")

OPCODES: dict[str, frozenset[str] | None] = {
    # integer and floating-point arithmetic
    "add": _m(_FLOAT_ARITH, "cc", "relu"), "sub": _m(_FLOAT_ARITH, "cc", "relu"),
    "addc": _m("cc"), "subc": _m("cc"),
    "mul": _m(_FLOAT_ARITH, "hi", "lo", "wide"),
    "mad": _m(_FLOAT_ARITH, "hi", "lo", "wide", "cc"), "madc": _m("hi", "lo", "cc"),
    "mul24": _m("hi", "lo"), "mad24": _m("hi", "lo", "sat"), "sad": _m(),
    "div": _m(_RND, "approx", "full", "ftz"), "rem": _m(),
    "abs": _m("ftz", "relu"), "neg": _m("ftz", "relu"),
    "min": _m("ftz", "NaN", "xorsign", "abs", "relu"),
    "max": _m("ftz", "NaN", "xorsign", "abs", "relu"),
    "popc": _m(), "clz": _m(), "bfind": _m("shiftamt"), "fns": _m(), "brev": _m(),
    "bfe": _m(), "bfi": _m(), "szext": _m("clamp", "wrap"), "bmsk": _m("clamp", "wrap"),
    "dp4a": _m(), "dp2a": _m("lo", "hi"),
    "copysign": _m(), "testp": _m("finite", "infinite", "number", "notanumber", "normal",
                                  "subnormal"),
    "fma": _m(_FLOAT_ARITH, "relu", "oob", "sat"),
    "rcp": _m(_RND, "approx", "ftz"), "sqrt": _m(_RND, "approx", "ftz"),
    "rsqrt": _APPROX, "sin": _APPROX, "cos": _APPROX, "lg2": _APPROX, "ex2": _APPROX,
    "tanh": _APPROX,
    # comparison and selection
    "set": _m(_CMP, _BOOL, "ftz"), "setp": _m(_CMP, _BOOL, "ftz"), "selp": _m(),
    "slct": _m("ftz"),
    # logic and shift
    "and": _m(), "or": _m(), "xor": _m(), "not": _m(), "cnot": _m(), "lop3": _m(_BOOL),
    "shf": _m("l", "r", "clamp", "wrap"), "shl": _m(), "shr": _m(),
    # data movement and conversion
    "mov": _m(), "shfl": _m("sync", "up", "down", "bfly", "idx"),
    "prmt": _m("f4e", "b4e", "rc8", "ecl", "ecr", "rc16"),
    "ld": _m("ca", "cg", "cs", "lu", "cv", "nc", "unified", _SEM, _SCOPE, _EVICT),
    "ldu": _m(), "st": _m("wb", "cg", "cs", "wt", _SEM, _SCOPE, _EVICT, "async", "bulk",
                          "mbarrier::complete_tx::bytes"),
    "prefetch": _m("L1", "L2", "L2::evict_last", "L2::evict_normal", "tensormap"),
    "prefetchu": _m("L1"), "isspacep": _m(), "cvta": _m("to"),
    "cvt": _m(_RND, _RNDI, "ftz", "sat", "relu", "satfinite", "rna", "rs", "pack"),
    # textures and surfaces
    "tex": _m(_TEXGEOM, "base", "level", "grad"),
    "tld4": _m("r", "g", "b", "a", "2d", "a2d", "cube", "acube"),
    "txq": _m(_QUERY), "suq": _m(_QUERY), "istypep": _m("texref", "samplerref", "surfref"),
    "suld": _m(_SURF, _TEXGEOM), "sust": _m(_SURF, _TEXGEOM),
    "sured": _m(_SURF, _TEXGEOM, "add", "min", "max", "and", "or"),
    # control flow
    "bra": _m("uni"), "brx": _m("idx", "uni"), "call": _m("uni"), "ret": _m("uni"),
    "exit": _m(), "trap": _m(), "brkpt": _m(), "nanosleep": _m(), "pmevent": _m("mask"),
    # synchronisation and communication
    "bar": _m("sync", "arrive", "red", "popc", "and", "or", "warp", "cta", "aligned"),
    "barrier": _m("sync", "arrive", "red", "popc", "and", "or", "cta", "aligned", "cluster",
                  "wait", "relaxed", "release", "acquire"),
    "membar": _m("cta", "gl", "sys", "proxy", "alias"),
    "atom": _m(_ATOM, _SEM, _SCOPE),
    "red": _m(_ATOM, _SEM, _SCOPE, "async", "mbarrier::complete_tx::bytes"),
    "vote": _m("sync", "all", "any", "uni", "ballot"), "match": _m("sync", "any", "all"),
    "redux": _m("sync", "add", "min", "max", "and", "or", "xor", "abs", "NaN"),
    "activemask": _m(), "elect": _m("sync"),
    "griddepcontrol": _m("launch_dependents", "wait"),
    "setmaxnreg": _m("inc", "dec", "sync", "aligned"),
    "getctarank": _m(), "mapa": _m(), "alloca": _m(), "stacksave": _m(),
    "stackrestore": _m(),
    # permissive families: tensor cores, async/bulk copies, clusters, video, misc
    "fence": None, "mbarrier": None, "cp": None, "mma": None, "wmma": None, "wgmma": None,
    "ldmatrix": None, "stmatrix": None, "movmatrix": None, "tcgen05": None, "multimem": None,
    "tensormap": None, "clusterlaunchcontrol": None, "createpolicy": None, "discard": None,
    "applypriority": None, "vadd": None, "vsub": None, "vabsdiff": None, "vmin": None,
    "vmax": None, "vshl": None, "vshr": None, "vmad": None, "vset": None, "vadd2": None,
    "vsub2": None, "vavrg2": None, "vabsdiff2": None, "vmin2": None, "vmax2": None,
    "vset2": None, "vadd4": None, "vsub4": None, "vavrg4": None, "vabsdiff4": None,
    "vmin4": None, "vmax4": None, "vset4": None,
}
"""Base opcode -> legal modifier words (``None``: any modifier accepted)."""

SPACE_OPCODES = frozenset({"ld", "ldu", "st", "atom", "red", "prefetch", "prefetchu", "cvta",
                           "isspacep", "cp", "mbarrier", "fence", "mapa", "multimem",
                           "getctarank", "alloca", "ldmatrix", "stmatrix", "wmma",
                           "tensormap", "discard", "applypriority", "clusterlaunchcontrol",
                           "tcgen05", "barrier", "membar"})
"""Opcodes whose state-space suffix goes into ``Instruction.space``."""

MEMORY_OPCODES = frozenset({"ld", "ldu", "st", "atom", "red", "prefetch", "prefetchu"})
"""Memory instructions: without a state-space suffix their ``space`` is ``"generic"``."""

VEC_OPCODES = frozenset({"ld", "ldu", "st", "atom", "red", "tex", "tld4", "suld", "sust",
                         "mov", "multimem", "cp", "ldmatrix", "stmatrix", "tcgen05",
                         "mbarrier", "wmma", "mma", "wgmma"})
"""Opcodes that take a ``.v2``/``.v4``/``.v8`` suffix."""

NO_DST_OPCODES = frozenset({"st", "bra", "brx", "red", "ret", "exit", "trap", "brkpt",
                            "prefetch", "prefetchu", "membar", "fence", "nanosleep",
                            "pmevent", "sust", "sured", "griddepcontrol", "setmaxnreg",
                            "stackrestore", "discard", "applypriority", "stmatrix"})
"""Opcodes whose operands are all read (``bar``/``barrier`` without ``.red`` too)."""


class OpcodeSplit(NamedTuple):
    """A dotted opcode split per ``ir.Instruction``; ``bad`` names an illegal suffix."""

    opcode: str
    types: tuple[str, ...]
    space: str
    vec: int
    mods: tuple[str, ...]
    bad: str
    """Empty when valid; else ``"opcode"`` (unknown base) or the offending suffix."""


@lru_cache(maxsize=4096)
def split_opcode(spelling: str) -> OpcodeSplit:
    """Split ``ld.global.nc.v2.f64`` into opcode, types, space, vec and modifiers."""
    parts = spelling.split(".")
    base = parts[0]
    legal = OPCODES.get(base, frozenset())
    if base not in OPCODES:
        return OpcodeSplit(base, (), "", 1, (), "opcode")
    types: list[str] = []
    mods: list[str] = []
    space = ""
    vec = 1
    takes_space = base in SPACE_OPCODES
    takes_vec = base in VEC_OPCODES
    bad = ""
    for part in parts[1:]:
        if part in _TYPES:
            types.append(part)
        elif takes_space and not space and part in SPACES:
            space = SPACES[part]
        elif takes_vec and vec == 1 and part in _VEC:
            vec = _VEC[part]
        elif legal is None or part in legal or (takes_space and part in SPACES):
            mods.append(part)
        elif not bad:
            bad = part or "."
    if not space and base in MEMORY_OPCODES:
        space = "generic"
    return OpcodeSplit(base, tuple(types), space, vec, tuple(mods), bad)
