"""CUDA toolchain wrapper: CUDA C++ to PTX (NVRTC or nvcc) and ptxas resource usage, cached.

Follows: ARCHITECTURE.md §1 (data flow: .cu --NVRTC or nvcc--> PTX) and §4 (occupancy uses the
register count ptxas reports); STYLE.md §2.7 (a compile failure is a ``CompileError`` carrying the
compiler's own log and the user's file:line; a missing compiler names the pip package).

Backends, chosen by ``WARPSIM_CUDA_BACKEND`` (``auto`` by default, or ``nvrtc`` / ``nvcc``):
``nvrtc`` loads ``libnvrtc`` from the ``nvidia-cuda-nvrtc`` wheel through ctypes; ``nvcc`` runs
``nvcc -ptx`` from ``$CUDA_HOME``, ``$PATH``, ``/usr/local/cuda`` or the ``nvidia-cuda-nvcc``
wheel. ``auto`` prefers NVRTC. Both get ``--std=c++17`` and the default device optimisation
(nvcc's ``-O3``). ``resource_usage`` runs ``ptxas -v`` and parses its report.

Assumptions: [A] the ptxas of the release that produced the PTX (read from the PTX header) gives
the reference register counts; when it is absent the closest newer ptxas is used, then any.
[A] a cached result is valid while the source text, the files it includes with ``#include "..."``
(found next to it or in ``-I`` folders), options, arch, backend and compiler version are the same.

Deviations: ``.func`` device functions are reported by ``resource_usage`` only when asked
(``include_functions=True``), with ``registers = 0`` since ptxas folds them into their callers.
"""

from __future__ import annotations

import ctypes
import functools
import importlib.util
import logging
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from warpsim.errors import CompileError, ConfigError
from warpsim.nvrtc_std import HEADERS_DIR, headers_digest
from warpsim.toolcache import cache_dir, cache_key, cache_load, cache_store

__all__ = ["CompiledPTX", "KernelResources", "compile_cuda", "lower_ptx_target", "resource_usage",
           "toolchain_info"]

logger = logging.getLogger(__name__)

_NVRTC_PIP = "pip install nvidia-cuda-nvrtc"
_NVCC_PIP = "pip install nvidia-cuda-nvcc"
_BACKENDS = ("auto", "nvrtc", "nvcc")
_DEFAULT_OPTIONS = ("--std=c++17",)
# nvcc accepts __int128 on Linux by default; NVRTC only with this flag.
_NVRTC_OPTIONS = ("--device-int128",) if sys.platform.startswith("linux") else ()
_ARCH_RE = re.compile(r"^(sm|compute)_(\d{2,3})([af]?)$")


@dataclass(frozen=True, slots=True)
class CompiledPTX:
    """PTX produced from one CUDA source, with how it was produced."""

    ptx: str
    """PTX text (``.version``, ``.target``, ``.entry`` kernels)."""
    backend: str
    """``"nvrtc"`` or ``"nvcc"``."""
    arch: str
    """Target architecture the PTX was generated for, e.g. ``"sm_80"``."""
    source_file: str | None
    """The user's .cu path, or ``None`` when compiled from text."""
    log: str
    """The compiler's log (warnings); empty when it had nothing to say."""


@dataclass(frozen=True, slots=True)
class KernelResources:
    """Per-kernel resource usage reported by ``ptxas -v`` (bytes per thread or per CTA)."""

    name: str
    """Kernel name as in the PTX (mangled for C++ kernels)."""
    registers: int
    """32-bit registers per thread."""
    shared_bytes: int
    """Static shared memory per CTA (``extern __shared__`` excluded)."""
    local_bytes: int
    """Local memory per thread: stack frame including callees (cumulative stack size)."""
    const_bytes: int
    """Constant bank 0 bytes (kernel parameters and driver constants, ``cmem[0]``)."""
    barriers: int
    """Named barriers used."""
    spill_store_bytes: int
    """Bytes of register spill stores per thread."""
    spill_load_bytes: int
    """Bytes of register spill loads per thread."""
    is_entry: bool = True
    """``True`` for ``.entry`` kernels, ``False`` for ``.func`` device functions."""


def _nvidia_roots() -> list[Path]:
    """Folders of the ``nvidia`` namespace package (pip CUDA wheels), if installed."""
    try:
        spec = importlib.util.find_spec("nvidia")
    except (ImportError, ValueError):
        return []
    if spec is None or not spec.submodule_search_locations:
        return []
    return [Path(p) for p in spec.submodule_search_locations]


def _wheel_files(*patterns: str) -> list[Path]:
    found: list[Path] = []
    for root in _nvidia_roots():
        for pattern in patterns:
            found.extend(sorted(root.glob(pattern), reverse=True))  # cu13 before cu12
    return found


_SYSTEM_TOOLKIT = Path("/usr/local/cuda")
"""Where a system CUDA toolkit is looked for last (after ``$CUDA_HOME`` / ``$CUDA_PATH``)."""


def _toolkit_dirs() -> list[Path]:
    dirs = [Path(os.environ[v]) for v in ("CUDA_HOME", "CUDA_PATH") if os.environ.get(v)]
    dirs.append(_SYSTEM_TOOLKIT)
    return dirs


def _find_nvrtc() -> Path | None:
    """The NVRTC shared library: the pip wheel first, then a CUDA toolkit."""
    candidates = _wheel_files("*/lib/libnvrtc.so.*[0-9]", "cuda_nvrtc/lib/libnvrtc.so.*[0-9]",
                              "*/bin/nvrtc64_*.dll")
    candidates = [p for p in candidates if "builtins" not in p.name]
    for tk in _toolkit_dirs():
        candidates.extend(sorted((tk / "lib64").glob("libnvrtc.so*"), reverse=True))
    return next((p for p in candidates if p.is_file()), None)


def _find_nvcc() -> Path | None:
    """``nvcc``: a system CUDA toolkit first, then the ``nvidia-cuda-nvcc`` wheel."""
    candidates = [tk / "bin" / "nvcc" for tk in _toolkit_dirs()[:-1]]
    on_path = shutil.which("nvcc")
    if on_path:
        candidates.append(Path(on_path))
    candidates.append(_toolkit_dirs()[-1] / "bin" / "nvcc")
    candidates.extend(_wheel_files("*/bin/nvcc"))
    return next((p for p in candidates if p.is_file() and os.access(p, os.X_OK)), None)


def _find_ptxas() -> list[Path]:
    """Every distinct ``ptxas`` found: wheel, beside nvcc, toolkits, ``$PATH``."""
    candidates = _wheel_files("*/bin/ptxas")
    nvcc = _find_nvcc()
    if nvcc is not None:
        candidates.append(nvcc.parent / "ptxas")
    candidates.extend(tk / "bin" / "ptxas" for tk in _toolkit_dirs())
    on_path = shutil.which("ptxas")
    if on_path:
        candidates.append(Path(on_path))
    unique: dict[Path, Path] = {}
    for p in candidates:
        if p.is_file() and os.access(p, os.X_OK):
            unique.setdefault(p.resolve(), p)
    return list(unique.values())


@functools.lru_cache(maxsize=16)
def _tool_version(path: str) -> tuple[int, ...]:
    """Release of an NVIDIA tool (``--version``), e.g. ``(13, 5, 37)``; ``()`` if unknown."""
    try:
        out = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=60,
                             check=False).stdout
    except OSError:
        return ()
    m = re.search(r"V(\d+)\.(\d+)\.(\d+)", out) or re.search(r"release (\d+)\.(\d+)", out)
    return tuple(int(g) for g in m.groups()) if m else ()


class _Nvrtc:
    """ctypes binding of the few NVRTC entry points warpsim needs."""

    def __init__(self, path: Path) -> None:
        self.path = path
        lib = ctypes.CDLL(str(path))
        lib.nvrtcGetErrorString.restype = ctypes.c_char_p
        self._lib = lib
        major, minor = ctypes.c_int(), ctypes.c_int()
        self._check(lib.nvrtcVersion(ctypes.byref(major), ctypes.byref(minor)), "nvrtcVersion")
        self.version = (major.value, minor.value)
        count = ctypes.c_int()
        self._check(lib.nvrtcGetNumSupportedArchs(ctypes.byref(count)), "nvrtcGetNumSupportedArchs")
        archs = (ctypes.c_int * count.value)()
        self._check(lib.nvrtcGetSupportedArchs(archs), "nvrtcGetSupportedArchs")
        self.supported_archs = tuple(int(a) for a in archs)

    def _check(self, code: int, call: str) -> None:
        if code != 0:
            reason = self._lib.nvrtcGetErrorString(code).decode()
            raise CompileError(f"NVRTC call {call} failed: {reason}", log=reason)

    def _text(self, prog: ctypes.c_void_p, what: str) -> str:
        size = ctypes.c_size_t()
        self._check(getattr(self._lib, f"nvrtcGet{what}Size")(prog, ctypes.byref(size)), what)
        buf = ctypes.create_string_buffer(size.value)
        self._check(getattr(self._lib, f"nvrtcGet{what}")(prog, buf), what)
        return buf.value.decode(errors="replace")

    def compile(self, text: str, name: str, options: Sequence[str]) -> tuple[int, str, str]:
        """Compile; returns (nvrtcResult, PTX or "", log)."""
        lib, prog = self._lib, ctypes.c_void_p()
        self._check(lib.nvrtcCreateProgram(ctypes.byref(prog), text.encode(), name.encode(),
                                           0, None, None), "nvrtcCreateProgram")
        try:
            opts = [o.encode() for o in options]
            code = lib.nvrtcCompileProgram(prog, len(opts), (ctypes.c_char_p * len(opts))(*opts))
            log = self._text(prog, "ProgramLog") or (
                lib.nvrtcGetErrorString(code).decode() if code else "")
            return code, ("" if code else self._text(prog, "PTX")), log
        finally:
            lib.nvrtcDestroyProgram(ctypes.byref(prog))


@functools.lru_cache(maxsize=4)
def _load_nvrtc(path: str) -> _Nvrtc:
    try:
        return _Nvrtc(Path(path))
    except OSError as exc:
        raise CompileError(f"cannot load NVRTC library {path}: {exc}",
                           hint=f"reinstall it: {_NVRTC_PIP}") from exc


@functools.lru_cache(maxsize=4)
def _nvcc_archs(path: str) -> tuple[str, ...]:
    try:
        return tuple(word for flag in ("--list-gpu-arch", "--list-gpu-code") for word in
                     subprocess.run([path, flag], capture_output=True, text=True, timeout=60,
                                    check=False).stdout.split())
    except OSError:
        return ()


def _backend_choice(backend: str | None) -> str:
    choice = (backend or os.environ.get("WARPSIM_CUDA_BACKEND") or "auto").strip().lower()
    if choice not in _BACKENDS:
        raise ConfigError("WARPSIM_CUDA_BACKEND", choice, "one of " + ", ".join(_BACKENDS))
    if choice == "auto":
        if _find_nvrtc() is not None:
            return "nvrtc"
        if _find_nvcc() is not None:
            return "nvcc"
        raise CompileError(
            "no CUDA compiler found: neither NVRTC (nvidia-cuda-nvrtc wheel or a CUDA toolkit) "
            "nor nvcc (CUDA_HOME, PATH, /usr/local/cuda, nvidia-cuda-nvcc wheel)",
            hint=f"{_NVRTC_PIP} (or {_NVCC_PIP}, or set CUDA_HOME to a CUDA toolkit)")
    return choice


def _check_arch(arch: str) -> tuple[str, int]:
    m = _ARCH_RE.match(arch) if isinstance(arch, str) else None
    if m is None:
        raise ConfigError("arch", arch, "an architecture like 'sm_80' or 'compute_80'")
    return m.group(1), int(m.group(2))


_INCLUDE_RE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.MULTILINE)
_ERROR_RE = re.compile(r"^(?P<file>.+?)\((?P<line>\d+)\): (?:catastrophic |fatal )?error\b[^:]*:"
                       r"\s*(?P<msg>.*)$", re.MULTILINE)


def _local_headers(text: str, folders: Sequence[Path], depth: int = 0) -> list[tuple[str, str]]:
    """(name, content) of the quoted includes that resolve, recursively, for the cache key."""
    found: list[tuple[str, str]] = []
    if depth > 8:
        return found
    for inc in _INCLUDE_RE.findall(text):
        for folder in folders:
            p = folder / inc
            if p.is_file():
                body = p.read_text(errors="replace")
                found.append((str(p), body))
                found.extend(_local_headers(body, [p.parent, *folders], depth + 1))
                break
    return found


def _split_source(source: str | os.PathLike[str], name: str | None) -> tuple[str, Path | None,
                                                                             str]:
    """(source text, path or None, display name) from a text or a path argument."""
    path: Path | None = None
    if isinstance(source, os.PathLike):
        path = Path(source)
    elif isinstance(source, str) and "\n" not in source and source.rstrip().endswith(
            (".cu", ".cuh")):
        path = Path(source.strip())
    elif not isinstance(source, str):
        raise TypeError(f"source must be CUDA text or a path, not {type(source).__name__}")
    if path is None:
        return str(source), None, name or "<cuda-source>"
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise CompileError(f"cannot read CUDA source {path}: {exc.strerror}", file=str(path),
                           hint="check the path") from exc
    except UnicodeDecodeError:
        raise CompileError(f"{path} is not a CUDA source text file (it holds binary data)",
                           file=str(path), hint="give a .cu or .ptx file") from None
    return text, path, name or os.fspath(source)


def _raise_compile_error(log: str, display: str, backend: str) -> None:
    m = _ERROR_RE.search(log)
    if m:
        raise CompileError(f"CUDA compilation failed ({backend}): {m.group('msg').strip()}",
                           log=log, file=m.group("file"), line=int(m.group("line")))
    first = next((ln.strip() for ln in log.splitlines() if ln.strip()), "no log")
    raise CompileError(f"CUDA compilation failed ({backend}): {first}", log=log, file=display)


def _compile_nvrtc(text: str, display: str, arch: str, options: Sequence[str],
                   include_dirs: Sequence[Path]) -> tuple[str, str]:
    path = _find_nvrtc()
    if path is None:
        raise CompileError("NVRTC not found (WARPSIM_CUDA_BACKEND=nvrtc)", hint=_NVRTC_PIP)
    nvrtc = _load_nvrtc(str(path))
    _, number = _check_arch(arch)
    if number not in nvrtc.supported_archs:
        raise ConfigError("arch", arch, "one of NVRTC's targets: " + ", ".join(
            f"sm_{a}" for a in nvrtc.supported_archs))
    opts = [f"--gpu-architecture={arch}", *_DEFAULT_OPTIONS, *_NVRTC_OPTIONS, *options]
    opts += [f"-I{d}" for d in (*include_dirs, HEADERS_DIR)]  # warpsim's <stdint.h>... last
    code, ptx, log = nvrtc.compile(text, display, opts)
    if code != 0:
        _raise_compile_error(log, display, "nvrtc")
    return ptx, log


def _compile_nvcc(text: str, path: Path | None, display: str, arch: str,
                  options: Sequence[str]) -> tuple[str, str]:
    nvcc = _find_nvcc()
    if nvcc is None:
        raise CompileError("nvcc not found (WARPSIM_CUDA_BACKEND=nvcc)", hint=_NVCC_PIP)
    known = _nvcc_archs(str(nvcc))
    if known and arch not in known and f"sm_{_check_arch(arch)[1]}" not in known:
        raise ConfigError("arch", arch, "one of nvcc's targets: " + ", ".join(
            a for a in known if a.startswith("sm_")))
    with tempfile.TemporaryDirectory(prefix="warpsim-nvcc-") as tmp:
        src_arg = os.fspath(path) if path is not None else os.path.join(tmp, "source.cu")
        if path is None:
            Path(src_arg).write_text(text, encoding="utf-8")
        out = os.path.join(tmp, "out.ptx")
        cmd = [str(nvcc), "-ptx", f"-arch={arch}", *_DEFAULT_OPTIONS, *options, "-o", out,
               src_arg]
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600, check=False)
        except OSError as exc:
            raise CompileError(f"cannot run {nvcc}: {exc}", hint=_NVCC_PIP) from exc
        log = (proc.stderr + proc.stdout).replace(src_arg, display)
        if proc.returncode != 0 or not os.path.exists(out):
            _raise_compile_error(log, display, "nvcc")
        return Path(out).read_text(encoding="utf-8"), log


def _compiler_identity(backend: str) -> str:
    if backend == "nvrtc":
        path = _find_nvrtc()
        if path is None:
            raise CompileError("NVRTC not found (WARPSIM_CUDA_BACKEND=nvrtc)", hint=_NVRTC_PIP)
        return f"nvrtc {_load_nvrtc(str(path)).version} {path}"
    nvcc = _find_nvcc()
    if nvcc is None:
        raise CompileError("nvcc not found (WARPSIM_CUDA_BACKEND=nvcc)", hint=_NVCC_PIP)
    return f"nvcc {_tool_version(str(nvcc))} {nvcc}"


_LINE_INFO_OPTIONS = frozenset({"-lineinfo", "--generate-line-info", "-G", "--device-debug"})
"""Options that already give the PTX line (or debug) information."""


def compile_cuda(
    source: str | os.PathLike[str],
    *,
    arch: str = "sm_80",
    options: Sequence[str] = (),
    name: str | None = None,
    backend: str | None = None,
) -> CompiledPTX:
    """Compile CUDA C++ (text, or a path to a .cu file) to PTX, through the disk cache.

    Parameters
    ----------
    source
        CUDA C++ text, or a path (``os.PathLike``, or a one-line string ending in ``.cu``).
    arch
        Target, e.g. ``"sm_80"``; a malformed or unsupported one is a ``ConfigError``.
    options
        Extra compiler options, passed as given (``-DN=4``, ``-I...``); ``-lineinfo`` is
        added unless they ask for line or debug information already, so that errors name the
        CUDA source line (it adds ``.loc`` directives only, not code).
    name
        File name the compiler's messages use; defaults to the path as given.
    backend
        ``"nvrtc"``, ``"nvcc"`` or ``"auto"``; default ``$WARPSIM_CUDA_BACKEND`` or ``auto``.

    Raises
    ------
    CompileError
        The compiler rejected the source (``.file``, ``.line`` of the first error, ``.log``), or
        no compiler was found (the hint names the pip package).
    """
    _check_arch(arch)
    options = tuple(str(o) for o in options)
    if not set(options) & _LINE_INFO_OPTIONS:  # source lines for error messages; same code
        options = (*options, "-lineinfo")
    text, path, display = _split_source(source, name)
    chosen = _backend_choice(backend)
    include_dirs: list[Path] = []
    if path is not None:
        include_dirs.append(path.resolve().parent)
    user_dirs = [Path(o[2:]) for o in options if o.startswith("-I") and len(o) > 2]
    headers = _local_headers(text, [*include_dirs, *user_dirs])
    key = cache_key("ptx", text, headers, options, arch, chosen, _compiler_identity(chosen),
                     display, headers_digest() if chosen == "nvrtc" else "")
    hit = cache_load("ptx", key)
    source_file = os.fspath(path) if path is not None else None
    if hit is not None:
        return CompiledPTX(hit["ptx"], chosen, arch, source_file, hit["log"])
    if chosen == "nvrtc":
        wheel_inc = [p for p in _wheel_files("*/include") if (p / "cuda_runtime.h").is_file()]
        # CCCL (libcu++ <cuda/std/...>, CUB, Thrust; the nvidia-cuda-cccl wheel) sits in
        # include/cccl: cooperative_groups.h and cuda_pipeline.h need it
        cccl = [d / "cccl" for d in wheel_inc[:1] if (d / "cccl" / "cuda" / "std").is_dir()]
        ptx, log = _compile_nvrtc(text, display, arch, options,
                                  [*include_dirs, *wheel_inc[:1], *cccl])
        # NVRTC writes the name it was given joined to the current folder: keep it as given
        ptx = ptx.replace(f'"{os.path.join(os.getcwd(), display)}"', f'"{display}"')
    else:
        ptx, log = _compile_nvcc(text, path, display, arch, options)
    if "warning" in log:
        logger.warning("%s compiler warnings for %s:\n%s", chosen, display, log.rstrip())
    cache_store("ptx", key, {"ptx": ptx, "log": log})
    return CompiledPTX(ptx, chosen, arch, source_file, log)


def _ptxas_order(ptx: str) -> list[tuple[Path, tuple[int, ...]]]:
    """ptxas candidates, best first: same release as the PTX's producer, then newer, then older."""
    found: dict[tuple[int, ...], Path] = {}
    for p in _find_ptxas():
        found.setdefault(_tool_version(str(p)), p)  # one ptxas per release is enough
    m = re.search(r"release (\d+)\.(\d+)", ptx[:2000])
    producer = (int(m.group(1)), int(m.group(2))) if m else None

    def rank(item: tuple[Path, tuple[int, ...]]) -> tuple[int, tuple[int, ...]]:
        release = item[1][:2]
        if producer is None:
            return (1, tuple(-v for v in item[1]))
        if release == producer:
            return (0, ())
        if release > producer:
            return (1, item[1])  # the closest newer one first
        return (2, tuple(-v for v in item[1]))

    return sorted(((p, v) for v, p in found.items()), key=rank)


def _run_ptxas(ptxas: Path, ptx: str, arch: str) -> tuple[int, str]:
    with tempfile.TemporaryDirectory(prefix="warpsim-ptxas-") as tmp:
        src = os.path.join(tmp, "kernel.ptx")
        Path(src).write_text(ptx, encoding="utf-8")
        cmd = [str(ptxas), f"-arch={arch}", "-v", "-o", os.path.join(tmp, "kernel.cubin"), src]
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600, check=False)
        except OSError as exc:
            return -1, str(exc)
        return proc.returncode, (proc.stderr + proc.stdout).replace(src, "<ptx>")


_FRAME_FIELDS = {"frame": r"(\d+) bytes stack frame", "spill_store": r"(\d+) bytes spill stores",
                 "spill_load": r"(\d+) bytes spill loads"}
_USED_FIELDS = {"registers": r"Used (\d+) registers", "barriers": r"used (\d+) barriers",
                "cumulative": r"(\d+) bytes cumulative stack size", "lmem": r"(\d+) bytes lmem",
                "cmem0": r"(\d+) bytes cmem\[0\]"}


def _parse_ptxas(report: str, entries: set[str]) -> dict[str, KernelResources]:
    """Per-function resources from a ``ptxas -v`` report (CUDA 10 to 13 formats)."""
    fields: dict[str, dict[str, int]] = {}
    compiling: str | None = None  # the "Used ..." line belongs to the function being compiled
    props: str | None = None  # the "stack frame" line belongs to the last "properties for"

    def grab(patterns: dict[str, str], line: str) -> dict[str, int]:
        return {k: int(m.group(1)) for k, pat in patterns.items() if (m := re.search(pat, line))}

    for line in report.splitlines():
        if m := re.search(r"Compiling (?:entry )?function '([^']+)'", line):
            compiling = m.group(1)
            fields.setdefault(compiling, {})
        elif m := re.search(r"Function properties for (\S+)", line):
            props = m.group(1)
            fields.setdefault(props, {})
        elif "bytes stack frame" in line and props is not None:
            fields[props].update(grab(_FRAME_FIELDS, line))
        elif re.search(r"Used \d+ registers", line) and compiling is not None:
            fields[compiling].update(grab(_USED_FIELDS, line))
            smem = re.search(r"(\d+)(?:\+(\d+))? bytes smem", line)  # old "48+16 bytes smem"
            fields[compiling]["smem"] = sum(int(g) for g in smem.groups() if g) if smem else 0
    return {fn: KernelResources(
        name=fn,
        registers=rec.get("registers", 0),
        shared_bytes=rec.get("smem", 0),
        local_bytes=max(rec.get("cumulative", 0), rec.get("frame", 0), rec.get("lmem", 0)),
        const_bytes=rec.get("cmem0", 0),
        barriers=rec.get("barriers", 0),
        spill_store_bytes=rec.get("spill_store", 0),
        spill_load_bytes=rec.get("spill_load", 0),
        is_entry=fn in entries,
    ) for fn, rec in fields.items()}


_TARGET_RE = re.compile(r"^(\s*\.target\s+)sm_(\d+)[af]?\b", re.MULTILINE)


def lower_ptx_target(ptx: str, number: int) -> str:
    """``ptx`` with its ``.target sm_<m>`` lowered to ``sm_<number>`` when ``m > number``.

    ptxas assembles PTX for ``sm_XY`` only to targets ``>= XY``; GPGPU-Sim's
    ``-gpgpu_occupancy_sm_number`` asks ptxas for the registers of an older target than the
    PTX may name (warpsim compiles CUDA for sm_80). PTX using newer instructions then gets
    ptxas's error."""
    def lower(m: re.Match[str]) -> str:
        return m.group(0) if int(m.group(2)) <= number else f"{m.group(1)}sm_{number}"

    return _TARGET_RE.sub(lower, ptx, count=1)


def resource_usage(ptx: str | CompiledPTX, *, arch: str = "sm_80",
                   include_functions: bool = False) -> dict[str, KernelResources]:
    """Registers, shared/local/constant bytes and barriers per kernel, from ``ptxas -v``.

    ``include_functions`` adds the module's ``.func`` device functions (``is_entry=False``).
    Raises ``CompileError`` when no ptxas is found (hint: ``pip install nvidia-cuda-nvcc``) or
    when every ptxas rejects the PTX (its log attached)."""
    if isinstance(ptx, CompiledPTX):
        ptx = ptx.ptx
    _, number = _check_arch(arch)
    sass_arch = f"sm_{number}{_ARCH_RE.match(arch).group(3)}"  # type: ignore[union-attr]
    order = _ptxas_order(ptx)
    if not order:
        raise CompileError("ptxas not found (needed for resource usage)", hint=_NVCC_PIP)
    entries = set(re.findall(r"\.entry\s+([\w$.]+)", ptx))
    key = cache_key("ptxas", ptx, sass_arch, str(order[0][0]), order[0][1])
    hit = cache_load("resources", key)
    if hit is None:
        failures = []
        for ptxas, version in order:
            code, report = _run_ptxas(ptxas, ptx, sass_arch)
            if code == 0:
                break
            failures.append(f"{ptxas} (release {'.'.join(map(str, version))}):\n{report}")
            if code > 0 and not re.search(r"Unsupported \.version|not (supported|defined)", report):
                break  # a real PTX error: another ptxas would say the same
        else:
            code = 1
        if code != 0:
            too_old = "Unsupported .version" in failures[-1]
            raise CompileError(
                "ptxas rejected the PTX", log="\n".join(failures),
                hint=f"a ptxas at least as new as the PTX's compiler is needed: {_NVCC_PIP}"
                if too_old else "")
        hit = {"report": report}
        cache_store("resources", key, hit)
    usage = _parse_ptxas(hit["report"], entries)
    return {k: v for k, v in usage.items() if include_functions or v.is_entry}


def toolchain_info() -> dict[str, Any]:
    """What the toolchain would use: backend, versions and paths (for ``warpsim doctor``)."""
    info: dict[str, Any] = {"cache_dir": str(cache_dir()) if cache_dir() else None,
                            "backend_setting": os.environ.get("WARPSIM_CUDA_BACKEND", "auto")}
    info["backend"] = None
    try:
        info["backend"] = _backend_choice(None)
    except (CompileError, ConfigError) as exc:
        info["backend_error"] = exc.message
    info["nvrtc"] = None
    if (nvrtc_path := _find_nvrtc()) is not None:
        try:
            lib = _load_nvrtc(str(nvrtc_path))
            info["nvrtc"] = {"path": str(nvrtc_path), "version": ".".join(map(str, lib.version)),
                             "archs": [f"sm_{a}" for a in lib.supported_archs]}
        except CompileError as exc:
            info["nvrtc"] = {"path": str(nvrtc_path), "error": exc.message}
    nvcc = _find_nvcc()
    info["nvcc"] = None if nvcc is None else {
        "path": str(nvcc), "version": ".".join(map(str, _tool_version(str(nvcc))))}
    info["ptxas"] = [{"path": str(p), "version": ".".join(map(str, _tool_version(str(p))))}
                     for p in _find_ptxas()]
    return info
