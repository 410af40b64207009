"""A CUDA runtime library backed by warpsim: run unmodified CUDA programs on the simulator.

Follows: GPGPU-Sim's libcudart replacement (issue #10). ``build.py`` compiles the C library
(``shim.c``) that programs load as ``libcudart.so.13`` / ``.so.12``; it forwards each call
over a socket to ``server.py``, where ``context.py`` and ``resources.py`` carry it out on a
``warpsim.Device``; ``fatbin.py`` extracts the PTX nvcc embedded; ``cli.py`` is
``warpsim exec``. See docs/cuda-runtime.md.
"""

from __future__ import annotations

__all__ = ["run_program", "shim_dir"]


def __getattr__(name: str):  # PEP 562: keep ``import warpsim.cudart`` cheap
    if name == "run_program":
        from warpsim.cudart.cli import run_program

        return run_program
    if name == "shim_dir":
        from warpsim.cudart.build import shim_dir

        return shim_dir
    raise AttributeError(f"module 'warpsim.cudart' has no attribute {name!r}")
