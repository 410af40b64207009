"""``warpsim nvcc``: build a CUDA program for ``warpsim exec`` with no system CUDA toolkit.

Follows: nvcc's own command line (every argument is passed through unchanged). warpsim adds
``-cudart shared`` (unless the arguments choose ``-cudart``) and ``-L`` to a folder whose
``libcudart.so`` is warpsim's runtime library (``build.py``), so that ``-lcudart`` resolves
and the program asks for ``libcudart.so.13`` (``.12`` for an nvcc 12), which ``warpsim exec``
provides. nvcc is found as the toolchain finds it (``toolchain._find_nvcc``: ``$CUDA_HOME``,
``$PATH``, ``/usr/local/cuda``, then the ``nvidia-cuda-nvcc`` wheel). The wheel's nvcc finds
its headers (``cuda_runtime.h`` from ``nvidia-cuda-runtime``, ``crt/`` from
``nvidia-cuda-crt``) and ``cicc`` (``nvidia-nvvm``) through its ``nvcc.profile``; when the
nvcc's own ``include`` folder has no ``cuda_runtime.h`` the wheel's folder is added with
``-I``.
Assumptions: [A] the host compiler is ``g++`` on ``$PATH`` unless the arguments name one with
``-ccbin`` / ``--compiler-bindir`` or ``$NVCC_CCBIN`` is set (nvcc's own rules).
"""

from __future__ import annotations

import os
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
    if not (nvcc.resolve().parent.parent / "include" / "cuda_runtime.h").is_file():
        include = find_cuda_include()
        if include is None:
            raise WarpsimError("the CUDA runtime headers (cuda_runtime.h) were not found\n"
                               "  hint: pip install nvidia-cuda-runtime")
        cmd.append(f"-I{include}")
    if not _has_option(args, "-cudart", "--cudart"):
        cmd += ["-cudart", "shared"]
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
