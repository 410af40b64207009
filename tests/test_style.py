"""Project-wide style rules that a test can check (STYLE.md §2.1)."""

from __future__ import annotations

import ast
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PKG = ROOT / "warpsim"

LAYERS = {
    "arch": 0, "errors": 0, "stats": 0, "_jit": 0, "_bundle": 0, "nvrtc_std": 0,
    "ptx": 1, "toolchain": 1, "toolcache": 1,
    "functional": 2, "timing": 2,
    "mechanisms": 3,
    "runtime": 4, "power": 4, "sampling": 4,
    "runner": 5, "experiments": 5, "bench": 5, "report": 5, "cli": 5, "cudart": 5,
    "__main__": 6,
}
"""Layer of each top-level name in the package (STYLE.md §2.1); a module may import only from
its own layer or lower ones."""


def _modules() -> list[Path]:
    return sorted(p for p in PKG.rglob("*.py"))


def _top(path: Path) -> str:
    rel = path.relative_to(PKG)
    return rel.parts[0].removesuffix(".py")


def test_every_module_is_at_most_600_lines():
    long = [f"{p.relative_to(ROOT)}: {n}" for p in _modules()
            if (n := len(p.read_text().splitlines())) > 600]
    assert not long, "modules over 600 lines (split them by sub-structure):\n" + "\n".join(long)


def test_no_grab_bag_module_names():
    bad = [p for p in _modules() if p.stem in {"utils", "helpers", "misc", "common"}]
    assert not bad


def test_imports_respect_layers():
    problems = []
    for path in _modules():
        top = _top(path)
        if top == "__init__":
            continue
        layer = LAYERS.get(top)
        assert layer is not None, f"{path}: top-level name {top!r} has no layer in LAYERS"
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            for name in names:
                parts = name.split(".")
                if parts[0] != "warpsim" or len(parts) < 2:
                    continue
                other = LAYERS.get(parts[1])
                if other is not None and other > layer:
                    problems.append(f"{path.relative_to(ROOT)}:{node.lineno} imports {name}")
    assert not problems, "imports from a higher layer:\n" + "\n".join(problems)


@pytest.mark.skipif(shutil.which("ruff") is None, reason="ruff is a dev dependency")
def test_ruff_clean():
    out = subprocess.run(["ruff", "check", "--quiet", str(PKG), str(ROOT / "tests")],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
