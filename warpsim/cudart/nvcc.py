"""``warpsim nvcc``: build a CUDA program for ``warpsim exec`` with no system CUDA toolkit.

Follows: nvcc's own command line (every argument is passed through unchanged). warpsim adds
``-cudart shared`` (unless the arguments choose ``-cudart``), ``-lineinfo`` (unless they ask
for line or debug information: warpsim's error messages then name CUDA source lines) and
``-L`` to a folder whose
``libcudart.so`` is warpsim's runtime library (``build.py``), so that ``-lcudart`` resolves
and the program asks for ``libcudart.so.13`` (``.12`` for an nvcc 12), which ``warpsim exec``
provides. nvcc is found as the toolchain finds it (``toolchain._find_nvcc``: ``$CUDA_HOME``,
``$PATH``, ``/usr/local/cuda``, then the ``nvidia-cuda-nvcc`` wheel). The wheel's nvcc finds
its headers (``cuda_runtime.h`` from ``nvidia-cuda-runtime``, ``crt/`` from
``nvidia-cuda-crt``) and ``cicc`` (``nvidia-nvvm``) through its ``nvcc.profile``; when none of
the folders nvcc searches by itself (``nvcc -dryrun``) has ``cuda_runtime.h`` the wheel's folder
is added with ``-I`` (never otherwise: a 13.5 ``cuda_runtime.h`` before a 13.0 nvcc's own makes
Thrust/CUB refuse to compile, "CUDA compiler and CUDA toolkit headers are incompatible").
Assumptions: [A] the host compiler is ``g++`` on ``$PATH`` unless the arguments name one with
``-ccbin`` / ``--compiler-bindir`` or ``$NVCC_CCBIN`` is set (nvcc's own rules).
"""

from __future__ import annotations

import functools
import itertools
import os
import shlex
import shutil
import subprocess
from pathlib import Path

from warpsim.errors import WarpsimError

__all__ = ["nvcc_command", "run_nvcc"]

_NO_LINK = ("-c", "--compile", "-ptx", "--ptx", "-cubin", "--cubin", "-fatbin", "--fatbin",
            "-E", "--preprocess", "-M", "--generate-dependencies", "-optix-ir", "--optix-ir",
            "-lib", "--lib", "--version", "-V", "-h", "--help", "-dryrun", "--dryrun",
            "--list-gpu-arch", "--list-gpu-code", "-dc", "--device-c")


def _has_option(args: list[str], *names: str) -> bool:
    return any(a in names or any(a.startswith(n + "=") for n in names) for a in args)


def _link_dir(major: int) -> Path:
    """A folder whose ``libcudart.so`` is warpsim's library for an nvcc of release ``major``."""
    from warpsim.cudart.build import shim_dir

    shim = shim_dir()
    if major != 12:
        return shim  # its libcudart.so is libcudart.so.13
    folder = shim / "link12"
    if not (folder / "libcudart.so").exists():
        folder.mkdir(exist_ok=True)
        try:
            (folder / "libcudart.so").symlink_to("../libcudart.so.12")
        except FileExistsError:  # another process made it
            pass
    return folder


@functools.lru_cache(maxsize=8)
def _own_includes(nvcc: str) -> tuple[Path, ...]:
    """The folders nvcc searches by itself (``-I`` and ``-isystem`` of its ``nvcc.profile``,
    as ``nvcc -dryrun`` reports them): right for a toolkit's nvcc, a symlink to it, or a
    wrapper script (``/usr/local/bin/nvcc`` running ``/usr/local/cuda-13.0/bin/nvcc``)."""
    try:
        proc = subprocess.run([nvcc, "-dryrun", "-x", "cu", "-E", os.devnull],
                              capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        proc = None
    found: list[Path] = []
    for line in (proc.stderr + proc.stdout).splitlines() if proc is not None else ():
        if line.startswith(("#$ INCLUDES=", "#$ SYSTEM_INCLUDES=")):
            words = shlex.split(line.split("=", 1)[1])
            found += [Path(w[2:]) for w in words if w.startswith("-I") and len(w) > 2]
            found += [Path(b) for a, b in itertools.pairwise(words) if a == "-isystem"]
    if not found:  # no dry run: the toolkit folder above nvcc's own folder
        found.append(Path(nvcc).resolve().parent.parent / "include")
    return tuple(found)


def nvcc_command(args: list[str]) -> list[str]:
    """The nvcc command line ``warpsim nvcc ARGS`` runs (builds warpsim's library if needed).

    Raises ``WarpsimError`` when nvcc, the host compiler or the CUDA headers are missing."""
    from warpsim.cudart.build import find_cuda_include
    from warpsim.toolchain import _find_nvcc, _tool_version

    nvcc = _find_nvcc()
    if nvcc is None:
        raise WarpsimError("nvcc not found (CUDA_HOME, PATH, /usr/local/cuda, or the "
                           "nvidia-cuda-nvcc wheel)\n  hint: pip install nvidia-cuda-nvcc")
    if not (_has_option(args, "-ccbin", "--compiler-bindir") or os.environ.get("NVCC_CCBIN")):
        if shutil.which("g++") is None:
            raise WarpsimError("nvcc needs a host C++ compiler and g++ was not found on PATH\n"
                               "  hint: install it (apt-get install g++), or name one with "
                               "-ccbin PATH")
    cmd = [str(nvcc)]
    if not any((d / "cuda_runtime.h").is_file() for d in _own_includes(str(nvcc))):
        include = find_cuda_include()
        if include is None:
            raise WarpsimError("the CUDA runtime headers (cuda_runtime.h) were not found\n"
                               "  hint: pip install nvidia-cuda-runtime")
        cmd.append(f"-I{include}")
    if not _has_option(args, "-cudart", "--cudart"):
        cmd += ["-cudart", "shared"]
    if not _has_option(args, "-lineinfo", "--generate-line-info", "-G", "--device-debug"):
        cmd.append("-lineinfo")  # source lines in warpsim's messages (no code change)
    if not _has_option(args, *_NO_LINK):
        version = _tool_version(str(nvcc))
        cmd.append(f"-L{_link_dir(version[0] if version else 13)}")
    return cmd + list(args)


def run_nvcc(args: list[str]) -> int:
    """Run nvcc as ``warpsim nvcc ARGS`` does; returns nvcc's exit status."""
    if not args:
        raise WarpsimError("no nvcc arguments given\n  hint: warpsim nvcc -arch=sm_80 -o app "
                           "app.cu && warpsim exec -- ./app")
    cmd = nvcc_command(args)
    try:
        return subprocess.run(cmd).returncode
    except OSError as err:
        raise WarpsimError(f"cannot run {cmd[0]}: {err.strerror}") from None
