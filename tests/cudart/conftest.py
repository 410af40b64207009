"""Fixtures of the tests/cudart tests: the CUDA test programs, built with nvcc once.

Programs are built with ``nvcc -cudart shared -arch=sm_80`` and cached under
``$WARPSIM_CACHE_DIR/cudart-programs/<hash>/`` keyed by the source and the compiler, so a
second run builds nothing; without nvcc the tests that need a program are skipped.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from cudart_programs import PROGRAMS, cache_dir, find_nvcc


@pytest.fixture(scope="session")
def nvcc() -> tuple[Path, list[str]]:
    found = find_nvcc()
    if found is None:
        pytest.skip("no nvcc: neither the nvidia-cuda-nvcc wheel nor a system CUDA toolkit")
    if shutil.which("gcc") is None and shutil.which("g++") is None:
        pytest.skip("nvcc needs a host C++ compiler (g++)")
    return found


@pytest.fixture(scope="session")
def build(nvcc):
    """``build("memory", *nvcc_options)`` -> path of tests/cudart/programs/memory.cu built
    with ``nvcc -cudart shared -arch=sm_80`` (cached)."""
    exe, extra = nvcc

    def _build(name: str, *options: str) -> Path:
        src = PROGRAMS / f"{name}.cu"
        key = hashlib.sha256(src.read_bytes() + str(exe).encode() +
                             " ".join((*extra, *options)).encode()).hexdigest()[:20]
        out = cache_dir() / "cudart-programs" / key / name
        if out.is_file():
            return out
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp = out.with_suffix(f".tmp{os.getpid()}")
        cmd = [str(exe), "-cudart", "shared", "-arch=sm_80", *extra, *options, "-o", str(tmp),
               str(src)]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        if proc.returncode != 0:
            pytest.fail(f"nvcc failed for {name}.cu:\n{proc.stdout}\n{proc.stderr}")
        tmp.replace(out)
        return out

    return _build
