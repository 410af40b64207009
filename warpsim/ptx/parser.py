"""PTX parser: PTX ISA 9.x text (as nvcc/NVRTC 13 emit it) -> ``ptx.ir.Module``.

Follows: PTX ISA 9.x §4 (syntax), §5 (state spaces, declarations, parameters), §10-§11
(directives); ``ptx/ir.py`` conventions; reference/ptx-and-benchmarks.md §7 Tier 1 and 2.

Operand shapes beyond ``ir.py``'s conventions:

* ``%p|%q`` (setp, shfl.sync, elect, match): two destinations, in that order.
* ``[base+off]``: ADDRESS with ``base`` a REG or SYMBOL operand (None for ``[0x100]``) and
  ``value`` the offset; ``[%rd1+-4]`` and ``[%rd1-4]`` give -4.
* Texture and surface addresses ``[tex, {x, y}]`` / ``[tex, sampler, {x, y}]``: an ADDRESS
  (``base`` the handle: SYMBOL or REG, offset 0) followed in ``srcs`` by each operand written
  inside the brackets (the optional sampler, then the coordinate VECTOR). The operands inside
  the brackets always end with the first VECTOR after the ADDRESS; for ``tex`` and ``tld4`` the
  ADDRESS is ``srcs[0]``, for ``sust``/``sured`` too (they have no destination).
* ``call (r0, r1), f, (a, b)``: ``dsts`` = the return SYMBOLs, ``srcs`` = (SYMBOL f, a, b).
* Otherwise the first operand (both, for ``%p|%q``) is the destination, except that there is
  none when the first operand is not a register, vector or ``_`` (``st [a], b``, ``red``,
  ``cp.async [d], [s], 16``, ``cp.async.wait_group 0``), for the opcodes in
  ``opcodes.NO_DST_OPCODES``, and for ``bar``/``barrier`` without ``.red``.

Scopes: a ``{ }`` block may redeclare a register or ``.param`` name (nvcc does so in call
sequences and inline-asm blocks). A name redeclared with the same type once the earlier
declaration is out of scope reuses the earlier register/variable; a name that shadows a visible
one, or comes back with another type, becomes a new register/variable named ``name$N``
(``$`` is legal in PTX identifiers), so every function keeps one flat, unique name table and the
writer can emit all declarations at the top of the body.

Assumptions: [A] ``.pragma``, ``.section`` and ``@@DWARF`` are ignored; ``.file``/``.loc`` only give
instructions their source line (``Instruction.src``).
[A] ``.callprototype``/``.branchtargets`` (indirect calls and branches), vector registers
(``.reg .v4``) and ``.reg`` parameters raise ``UnsupportedPTXError``.
"""

from __future__ import annotations

from warpsim.ptx import decls
from warpsim.ptx.ir import TYPE_BITS, Function, Module, Param, Variable
from warpsim.ptx.statements import Body, StatementParser

__all__ = ["parse_ptx"]

_LINKAGE = {".visible": "visible", ".weak": "weak", ".extern": "extern", ".common": "weak"}
_VAR_SPACES = {".global": "global", ".const": "const", ".shared": "shared", ".local": "local",
               ".param": "param", ".tex": "tex"}
_PERF = frozenset({".maxntid", ".reqntid", ".minnctapersm", ".maxnctapersm", ".maxnreg",
                   ".noreturn", ".reqnctapercluster", ".maxclusterrank", ".explicitcluster",
                   ".blocksareclusters", ".abi_preserve", ".abi_preserve_control"})
_PTR_SPACES = frozenset({"global", "shared", "const", "local"})
_MAX_INIT_BYTES = 1 << 28


def parse_ptx(text: str, file: str = "<ptx>") -> Module:
    """Parse PTX text into a ``Module``; malformed input raises a ``WarpsimError`` subclass."""
    return _Parser(text, file).parse()


class _Parser(StatementParser):
    """Module-level directives, declarations, functions and their parameters."""

    def parse(self) -> Module:
        m = self.module
        texts, kinds = self.texts, self.kinds
        while kinds[self.i] != "E":
            tok = texts[self.i]
            if tok == ".version":
                self.i += 1
                major, _, minor = texts[self.i].partition(".")
                if (kinds[self.i] != "N" or not major.isdigit() or not minor.isdigit()
                        or len(major) + len(minor) > 8):
                    raise self.err("expected a version number like 9.0")
                m.version = (int(major), int(minor))
                self.i += 1
            elif tok == ".target":
                self.i += 1
                targets = [self.word("a target name")]
                while texts[self.i] == ",":
                    self.i += 1
                    targets.append(self.word("a target name"))
                # the debug sections are not kept, so neither is the "debug" target flag
                m.target = tuple(t for t in targets if t != "debug")
            elif tok == ".address_size":
                self.i += 1
                m.address_size = self.integer("address size")
                if m.address_size not in (32, 64):
                    raise self.err("address size must be 32 or 64", self.i - 1)
            elif tok in (".file", ".loc"):
                self.source_directive()
            elif tok == ".section":
                self.skip_braces()
            elif tok == ".pragma":
                self.skip_past(";")
            elif tok == "@" and texts[self.i + 1] == "@":
                self.skip_line()
            elif kinds[self.i] == "W" and (tok in _LINKAGE or tok in _VAR_SPACES
                                           or tok in (".entry", ".func")
                                           or tok[1:] in decls.HANDLE_TYPES):
                self.declaration()
            elif tok == ".alias":
                raise self.unsupported("the .alias directive", self.i)
            else:
                raise self.err("expected a directive (.version, .target, .entry, .func, "
                               "a variable...)")
        for body in self.checks:
            self.check_symbols(body)
        for name, i in self.uses_global:
            if name not in m.variables and name not in m.functions:
                raise self.err(f"undefined symbol {name!r} in an initialiser", i)
        names = self.file_names
        for fn in m.functions.values():
            for inst in fn.instructions:
                if inst.src is not None:  # (file index, line) -> (path, line)
                    f, ln = inst.src
                    inst.src = (names[f], ln) if f in names else None  # type: ignore[index]
        return m

    def declaration(self) -> None:
        texts = self.texts
        linkage = ""
        while texts[self.i] in _LINKAGE:
            linkage = _LINKAGE[texts[self.i]]
            self.i += 1
        if texts[self.i] in (".entry", ".func"):
            self.function(linkage)
            return
        for var in self.variables(linkage, None):
            old = self.module.variables.get(var.name)
            if old is not None and not old.extern and not var.extern:
                raise self.err(f"variable {var.name!r} is declared twice", self.i - 1)
            if old is None or old.extern:
                self.module.variables[var.name] = var

    # ----------------------------------------------------------------- variables
    def variables(self, linkage: str, body: Body | None) -> list[Variable]:
        """``[.space] [.align N] [.vN] .type name[dims] [= init] {, name...};``"""
        texts, kinds = self.texts, self.kinds
        first = self.i
        line = self.where(self.starts[first])[0]
        space = _VAR_SPACES.get(texts[self.i], "")
        if space:
            self.i += 1
        align = 0
        vec = 1
        type_ = ""
        attributes: list[str] = []
        while kinds[self.i] == "W" and texts[self.i].startswith("."):
            tok = texts[self.i]
            self.i += 1
            if tok == ".attribute":
                attributes.extend(self.attribute_list())
            elif tok == ".align":
                align = self.integer("alignment")
                if align <= 0 or align & (align - 1):
                    raise self.err("alignment must be a power of two", self.i - 1)
            elif tok in (".v2", ".v4", ".v8"):
                vec = int(tok[2:])
            elif tok[1:] in TYPE_BITS or tok[1:] in decls.HANDLE_TYPES:
                type_ = tok[1:]
            elif tok.startswith(".ptr"):
                continue
            else:
                raise self.err("unexpected qualifier in a variable declaration", self.i - 1)
        if not type_:
            raise self.err("expected the variable's type (.b8, .u32, .f32, .texref...)")
        if not space:
            space = "global" if type_ in decls.HANDLE_TYPES else ""
            if not space:
                raise self.err("expected a state space (.global, .shared...)", first)
        elem = decls.type_bytes(type_)
        out = []
        while True:
            name = self.word("a variable name")
            if name.startswith("%") and space != "param":
                raise self.err("variable names must not start with '%'", self.i - 1)
            count = vec
            unsized = False
            while texts[self.i] == "[":
                self.i += 1
                if texts[self.i] == "]":
                    unsized = True
                else:
                    count *= self.integer("array size")
                self.expect("]", "an array size")
            if count < 0 or count * elem > 1 << 34:
                raise self.err("array size out of range", self.i - 1)
            init = None
            relocs: tuple[tuple[int, str], ...] = ()
            if texts[self.i] == "=" and type_ in decls.HANDLE_TYPES:
                self.i += 1  # texture/sampler field settings: not modelled, skipped
                if texts[self.i] == "{":
                    self.skip_braces()
            elif texts[self.i] == "=":
                self.i += 1
                elems = self.initialiser()
                if unsized:
                    count = max(len(elems), 1) * (count or 1)
                    unsized = False
                if len(elems) > count:
                    raise self.err("more initialisers than array elements", self.i - 1)
                if count * elem > _MAX_INIT_BYTES:
                    raise self.unsupported("initialised variables over 256 MiB", first)
                init, relocs = decls.encode_init(elems, type_, count * elem)
            if unsized:
                count = 0
            var = Variable(name=name, space=space, type=type_, size_bytes=count * elem,
                           align=align or elem * vec, count=count, init=init,
                           init_symbols=relocs, extern=linkage == "extern",
                           visible=linkage in ("visible", "weak"), line=line,
                           attributes=tuple(attributes))
            out.append(var)
            if texts[self.i] != ",":
                break
            self.i += 1
        self.expect(";", "a variable declaration")
        if body is not None:
            for var in out:
                self.declare_var(body, var)
        return out

    def attribute_list(self) -> list[str]:
        """``( .managed )`` or ``( .unified(uuid1, uuid2) )`` after ``.attribute``: the
        names (§5.4.8; a ``.unified`` UUID pair is skipped)."""
        self.expect("(", "'(' after .attribute")
        names = []
        while True:
            tok = self.texts[self.i]
            if not tok.startswith(".") or tok not in (".managed", ".unified"):
                raise self.err("expected a variable attribute (.managed, .unified)")
            names.append(tok[1:])
            self.i += 1
            if self.texts[self.i] == "(":
                self.skip_past(")")
            if self.texts[self.i] != ",":
                break
            self.i += 1
        self.expect(")", "')' closing .attribute")
        return names

    def initialiser(self, depth: int = 0) -> list[tuple[str, int, str]]:
        """Flattened initialiser elements: ``(kind, value, symbol)``, see ``decls``."""
        texts, kinds = self.texts, self.kinds
        if texts[self.i] == "{":
            if depth > 16:
                raise self.err("initialiser braces nested too deeply")
            self.i += 1
            out: list[tuple[str, int, str]] = []
            if texts[self.i] != "}":
                while True:
                    out.extend(self.initialiser(depth + 1))
                    if texts[self.i] != ",":
                        break
                    self.i += 1
            self.expect("}", "an initialiser")
            return out
        neg = texts[self.i] == "-" and kinds[self.i] == "P"
        if neg:
            self.i += 1
        if kinds[self.i] == "N":
            if kinds[self.i + 1] == "P" and texts[self.i + 1] == "(":
                raise self.unsupported("masked address initialisers like 0xFF(generic(x))",
                                       self.i)
            op = self.imm(self.i, neg)
            self.i += 1
            return [(op.fmt, op.value, "")]
        if kinds[self.i] == "W" and texts[self.i] == "generic" and texts[self.i + 1] == "(":
            self.i += 2
            sym_i = self.i
            sym = self.word("a symbol")
            self.expect(")", "generic( )")
        elif kinds[self.i] == "W" and texts[self.i][0] not in ".%" and not neg:
            sym_i = self.i
            sym = self.word("a symbol")
        else:
            raise self.err("expected an initialiser value")
        offset = 0
        if texts[self.i] in ("+", "-") and kinds[self.i] == "P":
            sign = texts[self.i]
            self.i += 1
            offset = self.integer("an address offset") * (-1 if sign == "-" else 1)
        self.uses_global.append((sym, sym_i))
        return [("sym", offset, sym)]

    # ----------------------------------------------------------------- functions
    def function(self, linkage: str) -> None:
        """``.entry name (params) directives { body }`` / ``.func (rets) name (params) ...``"""
        texts, kinds = self.texts, self.kinds
        decl_i = self.i
        is_entry = texts[self.i] == ".entry"
        self.i += 1
        rets = []
        if not is_entry and texts[self.i] == "(":
            rets = self.params()
        name_i = self.i
        name = self.word("a function name")
        if name[0] in ".%":
            raise self.err("expected a function name", name_i)
        self.fn_name = name
        params = self.params() if texts[self.i] == "(" else []
        directives: dict[str, tuple[int, ...]] = {}
        while texts[self.i] in _PERF or texts[self.i] == ".pragma":
            tok = texts[self.i]
            if tok == ".pragma":
                self.skip_past(";")
                continue
            self.i += 1
            values = []
            if kinds[self.i] == "N":
                values.append(self.integer(tok))
                while texts[self.i] == ",":
                    self.i += 1
                    values.append(self.integer(tok))
            directives[tok[1:]] = tuple(values)
        line = self.where(self.starts[decl_i])[0]
        fn = Function(name=name, is_entry=is_entry, params=params, ret_params=rets,
                      directives=directives, linkage=linkage, file=self.file, line=line)
        if texts[self.i] == ";":
            fn.defined = False
            self.i += 1
        elif texts[self.i] == "{":
            self.i += 1
            self.checks.append(self.body(fn))
        else:
            raise self.err(f"expected '{{' or ';' after the header of {name!r}")
        old = self.module.functions.get(name)
        if old is None or (fn.defined and not old.defined):
            self.module.functions[name] = fn
        elif fn.defined:
            raise self.err(f"function {name!r} is defined twice", name_i)
        self.fn_name = ""

    def params(self) -> list[Param]:
        """``( .param [.align N] .type [.ptr.space.align N] name[N], ... )``"""
        texts, kinds = self.texts, self.kinds
        self.expect("(", "a parameter list")
        specs: list[tuple[str, str, int, int, str]] = []
        while texts[self.i] != ")":
            if texts[self.i] == ".reg":
                raise self.unsupported(".reg parameters (use .param)", self.i)
            if texts[self.i] != ".param":
                raise self.err("expected '.param' or ')'")
            self.i += 1
            align = 0
            type_ = ""
            ptr = ""
            while kinds[self.i] == "W" and texts[self.i].startswith("."):
                tok = texts[self.i]
                self.i += 1
                if tok == ".align" and ptr:
                    self.integer("pointer alignment")  # of the pointee: not modelled
                elif tok == ".align":
                    align = self.integer("alignment")
                    if align <= 0 or align & (align - 1):
                        raise self.err("alignment must be a power of two", self.i - 1)
                elif tok.startswith(".ptr") or (ptr and tok[1:] in _PTR_SPACES):
                    parts = tok.split(".")[1:]
                    ptr = ptr or "generic"
                    for part in parts:
                        if part in _PTR_SPACES:
                            ptr = part
                    if parts[-1] == "align":
                        self.integer("pointer alignment")
                elif tok[1:] in TYPE_BITS or tok[1:] in decls.HANDLE_TYPES:
                    type_ = tok[1:]
                else:
                    raise self.err("unexpected qualifier in a parameter", self.i - 1)
            if not type_:
                raise self.err("expected the parameter's type")
            name = self.word("a parameter name")
            count = 1
            while texts[self.i] == "[":
                self.i += 1
                count *= self.integer("array size")
                self.expect("]", "a parameter array size")
            if not 0 < count < 1 << 20:
                raise self.err("parameter array size out of range", self.i - 2)
            specs.append((name, type_, count, align, ptr))
            if texts[self.i] != ",":
                break
            self.i += 1
        self.expect(")", "a parameter list")
        return decls.layout_params(specs)

    def check_symbols(self, body: Body) -> None:
        """Every label a branch names exists; every symbol names something declared."""
        fn = body.fn
        for name, i in body.targets:
            if name not in fn.labels:
                raise self.err(f"undefined label {name!r} in function {fn.name!r}", i)
        known = set(fn.labels)
        known.update(p.name for p in fn.params)
        known.update(p.name for p in fn.ret_params)
        known.update(v.name for v in fn.variables)
        known.update(fn.call_prototypes)
        known.update(fn.target_lists)
        m = self.module
        for names in fn.target_lists.values():
            for name in names:
                if name not in fn.labels and name not in m.functions:
                    raise self.err(f"undefined target {name!r} in function {fn.name!r}")
        for name, i in body.uses:
            if name not in known and name not in m.variables and name not in m.functions:
                raise self.err(f"undefined symbol {name!r} in function {fn.name!r}", i)
