"""Helpers of the tests/cudart tests: find nvcc, run `warpsim exec`, build fat binaries.

nvcc comes from the ``nvidia-cuda-nvcc`` wheel (a warpsim dependency) or a system toolkit.
"""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROGRAMS = Path(__file__).resolve().parent / "programs"


def cache_dir() -> Path:
    base = os.environ.get("WARPSIM_CACHE_DIR") or str(Path.home() / ".cache" / "warpsim")
    return Path(base)


def _wheel_toolkit() -> Path | None:
    try:
        import nvidia
    except ImportError:
        return None
    for root in nvidia.__path__:
        for tk in sorted(Path(root).glob("cu*"), reverse=True):
            if (tk / "bin" / "nvcc").is_file() and (tk / "nvvm" / "bin" / "cicc").is_file():
                return tk
    return None


def find_nvcc() -> tuple[Path, list[str]] | None:
    """(nvcc, extra link options): the PyPI toolkit first, then a system nvcc."""
    tk = _wheel_toolkit()
    if tk is not None:
        real = tk / "lib" / "libcudart.so.13"
        link = cache_dir() / "cudart-link"
        if real.is_file():  # the wheel ships libcudart.so.13 but not the libcudart.so link
            link.mkdir(parents=True, exist_ok=True)
            target = link / "libcudart.so"
            if not target.exists():
                try:
                    target.symlink_to(real)
                except FileExistsError:
                    pass
        else:  # link against warpsim's own library, which has the same name and versions
            from warpsim.cudart.build import shim_dir

            link = shim_dir()
        return tk / "bin" / "nvcc", [f"-L{link}"]
    for cand in (shutil.which("nvcc"), "/usr/local/cuda/bin/nvcc"):
        if cand and Path(cand).is_file():
            return Path(cand), []
    return None


def exec_env() -> dict[str, str]:
    """The environment for running ``warpsim`` as a subprocess of the tests."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), env.get("PYTHONPATH")) if p)
    env.pop("WARPSIM_CUDART_SOCKET", None)
    return env


def warpsim_exec(*args: str, timeout: int = 300) -> subprocess.CompletedProcess:
    """Run ``warpsim exec ARGS`` in a fresh interpreter; returns the finished process."""
    return subprocess.run([sys.executable, "-m", "warpsim.cli", "exec", *args],
                          capture_output=True, text=True, env=exec_env(), timeout=timeout)


def fatbin(entries: list[tuple[int, int, int, bytes, int]]) -> bytes:
    """A fat binary of (kind, sm, flags, payload, uncompressed size) entries, laid out as nvcc
    does: 16-byte container header, 64-byte entry headers, payloads padded to 8 bytes."""
    from warpsim.cudart.fatbin import FATBIN_MAGIC

    body = b""
    for kind, sm, flags, payload, raw in entries:
        padded = payload + b"\0" * (-len(payload) % 8)
        head = struct.pack("<HHIQIIIIQQQQ", kind, 0x0101, 64, len(padded), len(payload), 0, 0,
                           sm, 0, flags, 0, raw)
        body += head + padded
    return struct.pack("<IHHQ", FATBIN_MAGIC, 1, 16, len(body)) + body
