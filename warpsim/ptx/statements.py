"""PTX statement parser: token helpers, function bodies, instructions and their operands.

Follows: PTX ISA 9.x §4.3-§4.4 (statements, labels, guards), §6 (instruction operands:
registers, immediates, addresses, vectors, labels), §5.3-§5.4 (scoped ``.reg``/``.param``);
``ptx/ir.py`` conventions. ``ptx/parser.py`` documents the operand shapes and the scope rule
this module implements, and adds the module-level directives on top of ``StatementParser``.
"""

from __future__ import annotations

import difflib
import re

from warpsim.errors import PTXSyntaxError, UnsupportedPTXError
from warpsim.ptx import decls
from warpsim.ptx.call_targets import target_declaration
from warpsim.ptx.ir import (
    SPECIAL_REGISTERS,
    TYPE_BITS,
    Function,
    Instruction,
    Module,
    Operand,
    OpKind,
    RegDecl,
    Variable,
)
from warpsim.ptx.lexer import tokenize
from warpsim.ptx.opcodes import NO_DST_OPCODES, OPCODES, split_opcode

__all__ = ["Body", "StatementParser"]

_SPECIAL_PREFIXES = ("%envreg", "%pm", "%clusterid", "%nclusterid", "%cluster_",
                     "%is_explicit_cluster", "%current_graph_exec", "%globaltimer")
_TEX_FAMILY = frozenset({"tex", "tld4", "suld", "sust", "sured", "txq", "suq"})
_MAX_REGS = 1 << 20
_SINK = Operand(OpKind.SINK)
_WARP_SZ = Operand(OpKind.IMM, value=32)
"""``WARP_SZ``, PTX's predefined identifier for the warp size (PTX ISA §4.4, the table of
predefined identifiers): warpsim's warps have 32 threads, so it reads as the immediate 32."""
_NO_DST_BAR = frozenset({"bar", "barrier"})
_DST_KINDS = frozenset({OpKind.REG, OpKind.VECTOR, OpKind.SINK})
"""A first operand of another kind (address, immediate, label...) is read, not written."""


def _is_special(name: str) -> bool:
    return name in SPECIAL_REGISTERS or name.startswith(_SPECIAL_PREFIXES)


def _same_var(a: Variable, b: Variable) -> bool:
    return (a.space, a.type, a.size_bytes, a.align, a.count, a.init) == (
        b.space, b.type, b.size_bytes, b.align, b.count, b.init)


class Body:
    """Per-function parse state: visible names per scope, operand caches, pending checks."""

    __slots__ = (
        "fn",
        "neg_ops",
        "reg_ops",
        "regs",
        "sym_ops",
        "targets",
        "undo",
        "uses",
        "vars",
    )

    def __init__(self, fn: Function) -> None:
        self.fn = fn
        self.regs: dict[str, int] = {}
        self.vars: dict[str, str] = {}
        self.undo: list[list[tuple[dict, str, object]]] = []
        self.reg_ops: dict[int, Operand] = {}
        self.neg_ops: dict[int, Operand] = {}
        self.sym_ops: dict[str, Operand] = {}
        self.uses: list[tuple[str, int]] = []
        self.targets: list[tuple[str, int]] = []

    def bind(self, table: dict, name: str, value: object) -> None:
        """Make ``name`` visible in the current scope (restored when the scope closes)."""
        if self.undo:
            self.undo[-1].append((table, name, table.get(name)))
        table[name] = value


_SOURCE_DIRECTIVE = re.compile(r'\.(loc|file)\s+(\d+)\s+(?:(\d+)|"([^"]*)")')
"""``.loc F L ...`` (groups 2, 3) or ``.file F "path" ...`` (groups 2, 4)."""


class StatementParser:
    """Token helpers and the parser of function bodies (instructions, operands)."""

    def __init__(self, text: str, file: str) -> None:
        self.t = tokenize(text, file)
        self.kinds = self.t.kinds
        self.texts = self.t.texts
        self.starts = self.t.starts
        self.text = text
        self.file = file
        self.i = 0
        self.module = Module(file=file, source=text)
        self.line_pos = 0
        self.line_no = 1
        self.checks: list[Body] = []
        self.uses_global: list[tuple[str, int]] = []
        self.fn_name = ""
        self.imm_cache: dict[str, Operand] = {}
        self.loc: tuple[int, int] | None = None
        """(``.file`` index, line) of the last ``.loc`` in the current body."""
        self.file_names: dict[int, str] = {}
        """``.file`` index -> path (the directives may follow the functions)."""

    # ----------------------------------------------------------------- errors and tokens
    def err(self, problem: str, i: int | None = None, hint: str = "") -> PTXSyntaxError:
        return self.t.error(self.i if i is None else i, problem, hint)

    def unsupported(self, what: str, i: int, hint: str = "") -> UnsupportedPTXError:
        line, column, src = self.t.where(self.starts[i])
        token = self.texts[i]
        err = UnsupportedPTXError(f"{what} (column {column}, token {token!r})", file=self.file,
                                  line=line, kernel=self.fn_name, source_line=src, hint=hint)
        err.column = column
        err.token = token
        err.context.update(column=column, token=token)
        return err

    def expect(self, tok: str, what: str = "") -> None:
        if self.texts[self.i] != tok or self.kinds[self.i] in "SE":
            if tok == ";" and self.i > 0:
                j = self.i - 1
                end = self.starts[j] + len(self.texts[j])
                line, column, src = self.t.where(end)
                raise PTXSyntaxError(f"missing ';' after {what or 'statement'}",
                                     file=self.file, line=line, column=column,
                                     token=self.texts[self.i], source_line=src)
            raise self.err(f"expected {tok!r}" + (f" in {what}" if what else ""))
        self.i += 1

    def word(self, what: str) -> str:
        if self.kinds[self.i] != "W":
            raise self.err(f"expected {what}")
        self.i += 1
        return self.texts[self.i - 1]

    def integer(self, what: str) -> int:
        neg = self.texts[self.i] == "-" and self.kinds[self.i] == "P"
        if neg:
            self.i += 1
        if self.kinds[self.i] != "N":
            raise self.err(f"expected an integer ({what})")
        op = self.imm(self.i, neg)
        if op.fmt != "i":
            raise self.err(f"expected an integer ({what})")
        self.i += 1
        return op.value

    def imm(self, i: int, neg: bool = False) -> Operand:
        try:
            return decls.imm_operand(self.texts[i], neg)
        except (ValueError, OverflowError) as exc:
            raise self.err(f"bad numeric literal: {exc}", i) from None

    def skip_line(self) -> None:
        end = self.text.find("\n", self.starts[self.i])
        end = len(self.text) if end < 0 else end
        starts, kinds = self.starts, self.kinds
        while kinds[self.i] != "E" and starts[self.i] < end:
            self.i += 1

    def skip_past(self, tok: str) -> None:
        while self.texts[self.i] != tok:
            if self.kinds[self.i] == "E":
                raise self.err(f"expected {tok!r} before the end of the text")
            self.i += 1
        self.i += 1

    def skip_braces(self) -> None:
        depth = 0
        while True:
            tok, kind = self.texts[self.i], self.kinds[self.i]
            if kind == "E":
                raise self.err("unbalanced '{' before the end of the text")
            self.i += 1
            if kind == "P" and tok == "{":
                depth += 1
            elif kind == "P" and tok == "}":
                depth -= 1
                if depth == 0:
                    return

    def where(self, pos: int) -> tuple[int, int]:
        """Line and column of a text offset at or after the last one asked for."""
        if pos >= self.line_pos:
            self.line_no += self.text.count("\n", self.line_pos, pos)
        else:
            self.line_no = self.text.count("\n", 0, pos) + 1
        self.line_pos = pos
        return self.line_no, pos - self.text.rfind("\n", 0, pos)

    def variables(self, linkage: str, body: Body | None) -> list[Variable]:
        """Parse a variable declaration (implemented by ``parser._Parser``)."""
        raise NotImplementedError

    # ----------------------------------------------------------------- function bodies
    def body(self, fn: Function) -> Body:
        """Parse a function body; the opening ``{`` is already consumed."""
        b = Body(fn)
        self.loc = None
        texts, kinds = self.texts, self.kinds
        labels = fn.labels
        while True:
            tok, kind = texts[self.i], kinds[self.i]
            if kind == "W":
                if tok[0] == ".":
                    self.body_directive(b, tok)
                elif texts[self.i + 1] == ":" and kinds[self.i + 1] == "P":
                    nxt = texts[self.i + 2]
                    if nxt in (".callprototype", ".branchtargets", ".calltargets"):
                        target_declaration(self, fn, tok, nxt)
                        continue
                    if tok in labels:
                        raise self.err(f"label {tok!r} is defined twice")
                    if tok[0] == "%":
                        raise self.err("a label must not start with '%'")
                    labels[tok] = len(fn.instructions)
                    self.i += 2
                else:
                    self.instruction(b)
            elif kind == "P" and tok == "@":
                if texts[self.i + 1] == "@":
                    self.skip_line()
                else:
                    self.instruction(b)
            elif kind == "P" and tok == "{":
                b.undo.append([])
                self.i += 1
            elif kind == "P" and tok == "}":
                self.i += 1
                if not b.undo:
                    return b
                for table, name, old in reversed(b.undo.pop()):
                    if old is None:
                        del table[name]
                    else:
                        table[name] = old
            elif kind == "E":
                raise self.err(f"missing '}}' at the end of function {fn.name!r}")
            else:
                raise self.err("expected an instruction, a label or a declaration")

    def body_directive(self, b: Body, tok: str) -> None:
        if tok == ".reg":
            self.reg_decl(b)
        elif tok in (".local", ".shared", ".param", ".const", ".global"):
            self.variables("", b)
        elif tok == ".pragma":
            self.skip_past(";")
        elif tok in (".loc", ".file"):
            self.source_directive()
        else:
            raise self.err("unknown directive inside a function body")

    def source_directive(self) -> None:
        """``.file N "path"`` / ``.loc N line col``: remembered for the source lines of
        instructions (resolved when the module is parsed), then skipped."""
        end = self.text.find("\n", self.starts[self.i])
        line = self.text[self.starts[self.i]:len(self.text) if end < 0 else end]
        m = _SOURCE_DIRECTIVE.match(line)
        if m and m.group(1) == "loc":
            self.loc = (int(m.group(2)), int(m.group(3)))
        elif m and m.group(4) is not None:
            self.file_names[int(m.group(2))] = m.group(4)
        self.skip_line()

    def declare_var(self, body: Body, var: Variable) -> None:
        """Add a body-scope variable, renaming it when it shadows a visible name."""
        fn = body.fn
        same = [v for v in fn.variables if v.name == var.name]
        visible = var.name in body.vars or any(p.name == var.name for p in fn.params)
        if same and not visible and _same_var(same[0], var):
            body.bind(body.vars, var.name, var.name)
            return
        if same or visible:
            names = {v.name for v in fn.variables}
            k = 1
            while f"{var.name}${k}" in names:
                k += 1
            body.bind(body.vars, var.name, f"{var.name}${k}")
            var.name = f"{var.name}${k}"
        else:
            body.bind(body.vars, var.name, var.name)
        fn.variables.append(var)

    def reg_decl(self, b: Body) -> None:
        """``.reg .type %r<N>, name, ...;``"""
        texts = self.texts
        self.i += 1
        tok = texts[self.i]
        if tok in (".v2", ".v4", ".v8"):
            raise self.unsupported("vector registers (.reg .v2/.v4)", self.i)
        if not tok.startswith(".") or tok[1:] not in TYPE_BITS:
            raise self.err("expected a register type (.pred, .b32, .f32...)")
        type_ = tok[1:]
        self.i += 1
        while True:
            name_i = self.i
            name = self.word("a register name")
            if name[0] == "." or name == "_":
                raise self.err("expected a register name", name_i)
            if texts[self.i] == "<":
                self.i += 1
                n = self.integer("register count")
                if not 0 <= n <= _MAX_REGS:
                    raise self.err("register count out of range", self.i - 1)
                self.expect(">", "a register range")
                for k in range(n):
                    self.declare_reg(b, f"{name}{k}", type_, name_i)
            else:
                self.declare_reg(b, name, type_, name_i)
            if texts[self.i] != ",":
                break
            self.i += 1
        self.expect(";", "a .reg declaration")

    def declare_reg(self, b: Body, name: str, type_: str, tok_i: int) -> None:
        fn = b.fn
        rid = fn.reg_ids.get(name)
        if rid is not None:
            if name in b.regs:
                if not b.undo or any(e[1] == name for e in b.undo[-1] if e[0] is b.regs):
                    raise self.err(f"register {name!r} is declared twice", tok_i)
            elif fn.regs[rid].type == type_:
                b.bind(b.regs, name, rid)
                return
            k = 1
            while f"{name}${k}" in fn.reg_ids:
                k += 1
            unique = f"{name}${k}"
        else:
            unique = name
        rid = len(fn.regs)
        fn.regs.append(RegDecl(rid, unique, type_))
        fn.reg_ids[unique] = rid
        b.bind(b.regs, name, rid)

    # ----------------------------------------------------------------- instructions
    def instruction(self, b: Body) -> None:
        texts, kinds = self.texts, self.kinds
        fn = b.fn
        start = self.i
        guard = -1
        guard_neg = False
        if texts[start] == "@":
            self.i += 1
            if texts[self.i] == "!":
                guard_neg = True
                self.i += 1
            gi = self.i
            guard = b.regs.get(texts[gi], -1) if kinds[gi] == "W" else -1
            if guard < 0:
                if kinds[gi] == "W" and texts[gi].startswith("%"):
                    raise self.err(f"undeclared register {texts[gi]!r} in a guard", gi)
                raise self.err("expected a predicate register after '@'", gi)
            if fn.regs[guard].type != "pred":
                raise self.err(f"guard {texts[gi]!r} is not a .pred register", gi)
            self.i += 1
        op_i = self.i
        spelling = texts[op_i]
        if kinds[op_i] != "W" or spelling[0] in ".%$":
            raise self.err("expected an opcode", op_i)
        sp = split_opcode(spelling)
        if sp.bad:
            self.bad_opcode(sp.opcode, sp.bad, op_i)
        self.i += 1
        op = sp.opcode
        ops: list[Operand] = []
        pair = False
        if op == "call":
            dsts, srcs = self.call_operands(b)
        else:
            if texts[self.i] != ";":
                while True:
                    self.operand(b, ops, op)
                    if texts[self.i] == "|" and kinds[self.i] == "P":
                        if len(ops) != 1:
                            raise self.err("'|' only joins the first two destinations")
                        self.i += 1
                        self.operand(b, ops, op)
                        pair = True
                    if texts[self.i] != "," or kinds[self.i] != "P":
                        break
                    self.i += 1
            if not ops:
                dsts, srcs = (), ()
            elif (op in NO_DST_OPCODES or ops[0].kind not in _DST_KINDS or ops[0].neg
                  or (op in _NO_DST_BAR and "red" not in sp.mods)):
                dsts, srcs = (), tuple(ops)
            else:
                n = 2 if pair else 1
                dsts, srcs = tuple(ops[:n]), tuple(ops[n:])
            if op == "bra":
                if len(srcs) != 1 or srcs[0].kind is not OpKind.SYMBOL:
                    raise self.err("bra takes one label operand", op_i + 1)
                b.targets.append((srcs[0].name, op_i + 1))
        self.expect(";", f"'{spelling}'")
        pos = self.starts[start]
        line, column = self.where(pos)
        text = self.text[pos:self.starts[self.i - 1] + 1]
        if "\n" in text:
            text = " ".join(text.split())
        fn.instructions.append(Instruction(
            index=len(fn.instructions), opcode=op, types=sp.types, space=sp.space,
            vec=sp.vec, mods=sp.mods, dsts=dsts, srcs=srcs, guard=guard, guard_neg=guard_neg,
            line=line, column=column, text=text, spelling=spelling,
            src=self.loc))  # type: ignore[arg-type]  # (file index, line) until resolved

    def bad_opcode(self, opcode: str, bad: str, i: int) -> None:
        if bad == "opcode":
            close = difflib.get_close_matches(opcode, list(OPCODES), n=3)
            hint = f"did you mean {', '.join(close)}?" if close else ""
            raise self.unsupported(f"unknown opcode {opcode!r}", i, hint)
        legal = OPCODES[opcode] or ()
        raise self.unsupported(f"modifier '.{bad}' is not valid for '{opcode}'", i,
                               f"valid modifiers: {', '.join(sorted(legal)) or '(none)'}")

    def call_operands(self, b: Body) -> tuple[tuple[Operand, ...], tuple[Operand, ...]]:
        """``[(ret, ...),] callee[, (arg, ...)][, prototype]``."""
        texts = self.texts
        dsts: list[Operand] = []
        if texts[self.i] == "(":
            self.operand_list(b, dsts)
            self.expect(",", "a call")
        srcs: list[Operand] = []
        self.operand(b, srcs, "call")
        if srcs[0].kind not in (OpKind.SYMBOL, OpKind.REG):
            raise self.err("expected the called function", self.i - 1)
        if texts[self.i] == ",":
            self.i += 1
            if texts[self.i] == "(":
                self.operand_list(b, srcs)
                if texts[self.i] == ",":
                    self.i += 1
                    self.operand(b, srcs, "call")
            else:
                self.operand(b, srcs, "call")
        return tuple(dsts), tuple(srcs)

    def operand_list(self, b: Body, out: list[Operand]) -> None:
        self.expect("(", "a call")
        if self.texts[self.i] != ")":
            while True:
                self.operand(b, out, "call")
                if self.texts[self.i] != ",":
                    break
                self.i += 1
        self.expect(")", "a call")

    def operand(self, b: Body, ops: list[Operand], op: str) -> None:
        """Parse one operand at ``self.i`` and append it (an address may add extras)."""
        i = self.i
        tok, kind = self.texts[i], self.kinds[i]
        if kind == "W":
            self.i = i + 1
            rid = b.regs.get(tok)
            if rid is not None:
                o = b.reg_ops.get(rid)
                if o is None:
                    o = b.reg_ops[rid] = Operand(OpKind.REG, reg=rid)
                ops.append(o)
            elif tok[0] == "%":
                if not _is_special(tok):
                    raise self.err(f"undeclared register {tok!r}", i,
                                   "declare it with .reg in the function")
                ops.append(Operand(OpKind.SPECIAL, name=tok))
            elif tok == "_":
                ops.append(_SINK)
            elif tok[0] == ".":
                raise self.err("expected an operand", i)
            elif tok == "WARP_SZ" and tok not in b.vars and tok not in self.module.variables:
                ops.append(_WARP_SZ)  # PTX's predefined run-time constant: the warp size
            else:
                ops.append(self.symbol(b, tok, i))
        elif kind == "N":
            self.i = i + 1
            o = self.imm_cache.get(tok)
            if o is None:
                o = self.imm_cache[tok] = self.imm(i)
            ops.append(o)
        elif kind == "P" and tok == "-" and self.kinds[i + 1] == "N":
            self.i = i + 2
            ops.append(self.imm(i + 1, True))
        elif kind == "P" and tok == "!":
            rid = b.regs.get(self.texts[i + 1], -1) if self.kinds[i + 1] == "W" else -1
            if rid < 0 or b.fn.regs[rid].type != "pred":
                raise self.err("'!' must be followed by a predicate register", i + 1)
            o = b.neg_ops.get(rid)
            if o is None:
                o = b.neg_ops[rid] = Operand(OpKind.REG, reg=rid, neg=True)
            ops.append(o)
            self.i = i + 2
        elif kind == "P" and tok == "[":
            self.address(b, ops, op)
        elif kind == "P" and tok == "{":
            self.i = i + 1
            elems: list[Operand] = []
            while True:
                if self.texts[self.i] in ("[", "{") or self.texts[self.i] == "!":
                    raise self.err("expected a register, immediate or '_' in a vector")
                self.operand(b, elems, op)
                if self.texts[self.i] != ",":
                    break
                self.i += 1
            self.expect("}", "a vector operand")
            ops.append(Operand(OpKind.VECTOR, elems=tuple(elems)))
        else:
            raise self.err("expected an operand", i)

    def symbol(self, b: Body, tok: str, i: int) -> Operand:
        name = b.vars.get(tok, tok)
        b.uses.append((name, i))
        o = b.sym_ops.get(name)
        if o is None:
            o = b.sym_ops[name] = Operand(OpKind.SYMBOL, name=name)
        return o

    def address(self, b: Body, ops: list[Operand], op: str) -> None:
        """``[reg]``, ``[reg+imm]``, ``[sym+imm]``, ``[imm]``, ``[tex, {coords}]``."""
        texts, kinds = self.texts, self.kinds
        self.i += 1
        base: Operand | None = None
        value = 0
        if kinds[self.i] == "W":
            inner: list[Operand] = []
            self.operand(b, inner, op)
            base = inner[0]
            if base.kind not in (OpKind.REG, OpKind.SYMBOL):
                raise self.err("an address base must be a register or a symbol", self.i - 1)
            if texts[self.i] in ("+", "-") and kinds[self.i] == "P":
                sign = -1 if texts[self.i] == "-" else 1
                self.i += 1
                value = sign * self.integer("address offset")
        else:
            value = self.integer("address")
        extras: list[Operand] = []
        if texts[self.i] == "," and op in _TEX_FAMILY:
            while texts[self.i] == ",":
                self.i += 1
                self.operand(b, extras, op)
        self.expect("]", "an address")
        ops.append(Operand(OpKind.ADDRESS, base=base, value=value))
        ops.extend(extras)
