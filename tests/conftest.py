"""Fixtures shared by all of warpsim's tests.

- ``_toolchain_cache`` (session, autouse): points ``WARPSIM_CACHE_DIR`` at a temporary folder for
  the whole session, so tests never read or write ``~/.cache/warpsim``; yields that folder.
- ``corpus_ptx`` (session): ``corpus_ptx("vector_add")`` returns the PTX text of
  ``tests/kernels/vector_add.cu`` for sm_80, compiled with the default backend once per session.
  Skips the calling test when no CUDA compiler is installed.
- ``corpus_resources`` (session): ``corpus_resources("vector_add")`` returns that file's
  ``{kernel name: KernelResources}`` from ``ptxas -v`` (skips when ptxas is missing).

The corpus itself (``tests/kernels/*.cu``) documents each kernel's signature and meaning in the
comment at the top of its file. It is compiled like nvcc's default device code (``-O3``,
``--fmad=true``): ``a * b + c`` in a kernel may be one fused ``fma``, which a numpy reference must
reproduce (or allow one rounding of difference).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from warpsim.errors import CompileError
from warpsim.toolchain import KernelResources, compile_cuda, resource_usage

KERNELS_DIR = Path(__file__).parent / "kernels"
"""Folder of the project's own CUDA test kernels."""


@pytest.fixture(scope="session", autouse=True)
def _toolchain_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    folder = tmp_path_factory.mktemp("warpsim-cache")
    patch = pytest.MonkeyPatch()
    patch.setenv("WARPSIM_CACHE_DIR", str(folder))
    yield folder
    patch.undo()


def _skip_if_missing(exc: CompileError) -> None:
    if "pip install" in exc.message:  # no compiler / ptxas on this machine
        pytest.skip(f"CUDA toolchain missing: {exc.message.splitlines()[0]}")


@pytest.fixture(scope="session")
def corpus_ptx(_toolchain_cache: Path) -> Callable[[str], str]:
    compiled: dict[str, str] = {}

    def get(name: str) -> str:
        if name not in compiled:
            try:
                compiled[name] = compile_cuda(KERNELS_DIR / f"{name}.cu", arch="sm_80").ptx
            except CompileError as exc:
                _skip_if_missing(exc)
                raise
        return compiled[name]

    return get


@pytest.fixture(scope="session")
def corpus_resources(
    corpus_ptx: Callable[[str], str],
) -> Callable[[str], dict[str, KernelResources]]:
    usage: dict[str, dict[str, KernelResources]] = {}

    def get(name: str) -> dict[str, KernelResources]:
        if name not in usage:
            try:
                usage[name] = resource_usage(corpus_ptx(name), arch="sm_80")
            except CompileError as exc:
                _skip_if_missing(exc)
                raise
        return usage[name]

    return get
