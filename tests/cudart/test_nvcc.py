"""``warpsim nvcc`` builds a CUDA program with only the pip wheels (no system CUDA toolkit),
and ``warpsim exec`` runs it; the expected output is the hand-written ``<name>.expected``."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from cudart_programs import PROGRAMS, warpsim_exec


def _hide_system_toolkit(monkeypatch, tmp_path: Path) -> None:
    """A machine with no system CUDA: no nvcc on PATH, no CUDA_HOME, no /usr/local/cuda."""
    import warpsim.toolchain as toolchain

    keep = [d for d in os.environ.get("PATH", "").split(os.pathsep)
            if d and not (Path(d) / "nvcc").exists() and "/cuda" not in d]
    monkeypatch.setenv("PATH", os.pathsep.join(keep))
    for var in ("CUDA_HOME", "CUDA_PATH", "NVCC_CCBIN"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setattr(toolchain, "_SYSTEM_TOOLKIT", tmp_path / "no-cuda")


def _wheel_root() -> Path:
    import nvidia

    return Path(next(iter(nvidia.__path__))).resolve()


def test_build_with_the_wheel_then_exec(monkeypatch, tmp_path, capsys):
    if shutil.which("g++") is None:
        pytest.skip("nvcc needs a host C++ compiler (g++)")
    from warpsim.cli import main
    from warpsim.toolchain import _find_nvcc

    _hide_system_toolkit(monkeypatch, tmp_path)
    nvcc = _find_nvcc()
    assert nvcc is not None and nvcc.resolve().is_relative_to(_wheel_root()), nvcc
    app = tmp_path / "memory"
    status = main(["nvcc", "-arch=sm_80", "-o", str(app), str(PROGRAMS / "memory.cu")])
    assert status == 0, capsys.readouterr().err
    needed = subprocess.run(["readelf", "-d", str(app)], capture_output=True, text=True).stdout \
        if shutil.which("readelf") else "[libcudart.so.13]"
    assert "[libcudart.so.13]" in needed  # linked shared, against the 13 runtime's name
    proc = warpsim_exec("--", str(app))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout == (PROGRAMS / "memory.expected").read_text(), proc.stderr


def test_missing_host_compiler_is_a_clear_error(monkeypatch, tmp_path, capsys):
    from warpsim.cli import main

    _hide_system_toolkit(monkeypatch, tmp_path)
    monkeypatch.setenv("PATH", str(tmp_path))  # nothing there: no g++
    status = main(["nvcc", "-arch=sm_80", "-o", str(tmp_path / "app"),
                   str(PROGRAMS / "memory.cu")])
    err = capsys.readouterr().err
    assert status == 2
    assert "error: nvcc needs a host C++ compiler and g++ was not found on PATH" in err
    assert "Traceback" not in err
    assert not (tmp_path / "app").exists()


def test_nvcc_options_are_not_parsed_by_warpsim(monkeypatch, tmp_path, capsys):
    """`-o`, `-arch=` and `--version` go to nvcc verbatim (nvcc prints its release)."""
    from warpsim.cli import main

    _hide_system_toolkit(monkeypatch, tmp_path)
    status = main(["nvcc", "--version"])
    assert status == 0
    from warpsim.cudart.nvcc import nvcc_command

    assert nvcc_command(["-arch=sm_80", "-o", "x", "x.cu"])[1:3] == ["-cudart", "shared"]
    # the user's -cudart choice is kept; a compile-only run links nothing (no -L); line
    # information is added unless the user asks for it or for debug information
    assert nvcc_command(["--cudart=none", "-c", "x.cu"])[1:] == ["-lineinfo", "--cudart=none",
                                                                 "-c", "x.cu"]
    assert nvcc_command(["--cudart=none", "-G", "-c", "x.cu"])[1:] == ["--cudart=none", "-G",
                                                                       "-c", "x.cu"]
