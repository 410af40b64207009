"""The CLI's text tables: `warpsim bench list` as aligned columns that never run together, and
the docs' `warpsim ...` command lines use options the CLI really has."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from warpsim.bench import list_benchmarks
from warpsim.cli import _parser, main

ROOT = Path(__file__).resolve().parents[1]


def test_bench_list_is_aligned_columns_holding_the_suites_rows(capsys):
    assert main(["bench", "list", "--no-registers"]) == 0
    header, *lines = capsys.readouterr().out.splitlines()
    assert header.split() == ["benchmark", "suite", "resembles", "kernel", "regs", "tpb",
                              "sizes"]
    at = {word: header.index(word) for word in header.split()}
    regs_end, tpb_end = at["regs"] + len("regs"), at["tpb"] + len("tpb")
    want = []  # the oracle: list_benchmarks' rows, one line per kernel
    for r in list_benchmarks(registers=False):
        for i, k in enumerate(r["kernels"]):
            want.append((r["name"], r["suite"], r["resembles"], k, "",
                         str(r["threads_per_block"][k]), ",".join(r["sizes"]))
                        if i == 0 else ("", "", "", k, "", str(r["threads_per_block"][k]), ""))
    got = [(line[:at["suite"]].strip(), line[at["suite"]:at["resembles"]].strip(),
            line[at["resembles"]:at["kernel"]].strip(), line[at["kernel"]:at["regs"]].strip(),
            line[at["regs"]:regs_end].strip(), line[regs_end:tpb_end].strip(),
            line[at["sizes"]:].strip()) for line in lines]
    assert got == want
    for line in lines:  # every column boundary is blank: nothing runs into its neighbour
        for start in (at["suite"], at["resembles"], at["kernel"], at["sizes"]):
            assert line[start - 2:start] in ("  ", " ", "")


def _options() -> dict[tuple[str, ...], set[str]]:
    """Option strings of each (sub-)command of the real parser."""
    table: dict[tuple[str, ...], set[str]] = {}

    def walk(parser: argparse.ArgumentParser, prefix: tuple[str, ...]) -> None:
        table[prefix] = {o for a in parser._actions for o in a.option_strings}
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    walk(sub, (*prefix, name))

    walk(_parser(), ())
    return table


def test_documented_command_lines_use_options_the_cli_has():
    table = _options()
    stale = []
    docs = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    for path in docs:
        for n, line in enumerate(path.read_text().splitlines(), 1):
            for command in re.split(r";|&&|\|", line):
                m = re.search(r"warpsim((?: [a-z][a-z0-9_-]*)+)([^`]*)", command)
                if m is None:
                    continue
                key: tuple[str, ...] = ()
                for word in m.group(1).split():
                    if (*key, word) not in table:
                        break
                    key = (*key, word)
                if key in ((), ("nvcc",)):  # nvcc's own options pass through
                    continue
                args = (" ".join(m.group(1).split()[len(key):]) + m.group(2)).split(" -- ")[0]
                for opt in re.findall(r"(?<![\w.=/-])(--?[A-Za-z][\w-]*)", args):
                    if opt not in table[key] | table[()]:
                        stale.append(f"{path.relative_to(ROOT)}:{n}: warpsim {' '.join(key)} "
                                     f"{opt}")
    assert not stale, "\n".join(stale)
