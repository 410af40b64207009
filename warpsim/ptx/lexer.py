"""PTX tokenizer: one regular expression over the whole text, comments and whitespace skipped.

Follows: PTX ISA 9.x §4 (syntax: comments, identifiers, constants). The parser
(``ptx/parser.py``) walks the parallel token arrays this module produces.

Token kinds (``Tokens.kinds``):

* ``W`` word: identifiers, directives (``.reg``), dotted opcodes (``ld.global.v4.f32``),
  registers (``%r1``), special registers (``%tid.x``), labels (``$L__BB0_3``), the sink ``_``;
  ``::`` is part of a word (``ld.shared::cta.u32``, ``L2::evict_last``);
* ``N`` numeric literal (``12``, ``0x1F``, ``017``, ``0b101``, ``3U``, ``0f3F800000``,
  ``0d3FF0000000000000``, ``1.5e3``);
* ``S`` string (``"nounroll"``); ``P`` one punctuation character; ``E`` end of text.

Line and column of a token are computed on demand from its offset (``Tokens.where``): the hot
path never counts lines character by character.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

from warpsim.errors import PTXSyntaxError

__all__ = ["Tokens", "tokenize"]

_SKIP = r"(?:\s+|//[^\n]*|/\*(?:[^*]|\*(?!/))*+\*/)*+"
_WORD = r"[.%$_A-Za-z][\w$]*(?:(?:\.|::)[\w$]+)*"
_NUM = (r"(?:0[fF][0-9a-fA-F]{8}|0[dD][0-9a-fA-F]{16}|0[xX][0-9a-fA-F]+U?|0[bB][01]+U?"
        r"|\d+\.\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?|\d+[eE][+-]?\d+|\d+U?)(?![\w.$])")
_BADNUM = r"\d[\w.$]*"
_STRING = r'"(?:[^"\\\n]|\\.)*"'
_PUNCT = r"[{}()\[\],;:+\-!@|<>=*]"
_TOKEN_RE = re.compile(
    _SKIP + f"(?:({_NUM})|({_WORD})|({_PUNCT})|({_STRING})|({_BADNUM})|(/\\*)|(\\S))")
_KIND = (None, "N", "W", "P", "S", "badnum", "comment", "bad")


@dataclass(slots=True)
class Tokens:
    """The token stream of one PTX text, as parallel lists."""

    text: str
    file: str
    kinds: list[str] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    starts: list[int] = field(default_factory=list)
    _line_starts: list[int] | None = None

    def line_starts(self) -> list[int]:
        """Offsets at which each line begins."""
        if self._line_starts is None:
            starts = [0]
            find = self.text.find
            pos = find("\n")
            while pos >= 0:
                starts.append(pos + 1)
                pos = find("\n", pos + 1)
            self._line_starts = starts
        return self._line_starts

    def where(self, offset: int) -> tuple[int, int, str]:
        """1-based (line, column) of a text offset and the text of that line."""
        starts = self.line_starts()
        idx = bisect.bisect_right(starts, offset) - 1
        begin = starts[idx]
        end = self.text.find("\n", begin)
        if end < 0:
            end = len(self.text)
        return idx + 1, offset - begin + 1, self.text[begin:end]

    def error(self, i: int, problem: str, hint: str = "") -> PTXSyntaxError:
        """A syntax error located at token ``i``."""
        i = min(i, len(self.starts) - 1)
        line, column, src = self.where(self.starts[i])
        token = self.texts[i] if self.kinds[i] != "E" else ""
        return PTXSyntaxError(problem, file=self.file, line=line, column=column, token=token,
                              source_line=src, hint=hint)


def tokenize(text: str, file: str = "<ptx>") -> Tokens:
    """Split PTX text into tokens; raise ``PTXSyntaxError`` on a character PTX never uses."""
    toks = Tokens(text=text, file=file)
    kinds = toks.kinds
    texts = toks.texts
    starts = toks.starts
    kappend = kinds.append
    tappend = texts.append
    sappend = starts.append
    kind_of = _KIND
    end = 0
    for m in _TOKEN_RE.finditer(text):
        k = m.lastindex
        if k is None:  # only trailing whitespace/comments matched
            end = m.end()
            break
        start = m.start(k)
        kind = kind_of[k]
        if len(kind) > 1:
            kappend("X")
            tappend(m.group(k))
            sappend(start)
            if kind == "badnum":
                raise toks.error(len(kinds) - 1, "malformed numeric literal")
            if kind == "comment":
                raise toks.error(len(kinds) - 1, "unterminated /* comment")
            raise toks.error(len(kinds) - 1, "unexpected character")
        kappend(kind)
        tappend(m.group(k))
        sappend(start)
        end = m.end()
    else:
        end = len(text)
    kappend("E")
    tappend("")
    sappend(min(end, len(text)))
    return toks
