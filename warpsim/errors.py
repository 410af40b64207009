"""The warpsim exception hierarchy: every user-facing failure is one of these.

Follows: STYLE.md §2.7. A message says what happened on its first line, then where, then a
``hint:`` line when there is a fix. Context is also kept as attributes so that the runner can
store it in a result record (``err.context``).
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "BarrierDeadlockError",
    "CompileError",
    "ConfigError",
    "InternalError",
    "LaunchError",
    "MemoryAccessError",
    "PTXSyntaxError",
    "UnsupportedPTXError",
    "WarpsimError",
]


def _compose(what: str, where: str = "", hint: str = "") -> str:
    lines = [what]
    if where:
        lines.append(f"  at {where}")
    if hint:
        lines.append(f"  hint: {hint}")
    return "\n".join(lines)


class WarpsimError(Exception):
    """Base class of every error warpsim raises on purpose."""

    def __init__(self, message: str, **context: Any) -> None:
        super().__init__(message)
        self.message = message
        self.context: dict[str, Any] = context
        for key, value in context.items():
            setattr(self, key, value)


def _location(file: str | None, line: int | None, column: int | None = None) -> str:
    where = file or "<ptx>"
    if line is not None:
        where += f":{line}"
        if column is not None:
            where += f":{column}"
    return where


class PTXSyntaxError(WarpsimError):
    """Malformed PTX text (file, line, column, offending token)."""

    def __init__(
        self,
        problem: str,
        *,
        file: str | None = None,
        line: int | None = None,
        column: int | None = None,
        token: str = "",
        source_line: str = "",
        hint: str = "",
    ) -> None:
        what = f"PTX syntax error: {problem}" + (f" (at {token!r})" if token else "")
        where = _location(file, line, column)
        if source_line:
            where += f"\n    {source_line.rstrip()}"
            if column is not None and column >= 1:
                where += "\n    " + " " * (column - 1) + "^"
        super().__init__(
            _compose(what, where, hint),
            file=file, line=line, column=column, token=token,
        )


class UnsupportedPTXError(WarpsimError):
    """PTX that is valid but not implemented by warpsim (opcode, modifier, directive)."""

    def __init__(
        self,
        what: str,
        *,
        file: str | None = None,
        line: int | None = None,
        kernel: str = "",
        source_line: str = "",
        hint: str = "",
        src: tuple[str, int] | None = None,
    ) -> None:
        where = _location(file, line)
        if src is not None:  # the CUDA source line (-lineinfo), then the PTX line
            where = f"{src[0]}:{src[1]} (PTX {'line ' + str(line) if line else where})"
        if kernel:
            where += f" (kernel {kernel})"
        if source_line:
            where += f"\n    {source_line.strip()}"
        super().__init__(
            _compose(f"unsupported PTX: {what}", where, hint),
            file=file, line=line, kernel=kernel, what=what, src=src,
        )


class CompileError(WarpsimError):
    """The CUDA compiler rejected the source, or no compiler could be found."""

    def __init__(self, what: str, *, log: str = "", file: str | None = None,
                 line: int | None = None, hint: str = "") -> None:
        where = _location(file, line) if file or line else ""
        text = _compose(what, where, hint)
        if log:
            text += "\n" + log.rstrip()
        super().__init__(text, log=log, file=file, line=line)


class ConfigError(WarpsimError):
    """An impossible or unknown configuration value (field path, value, expected)."""

    def __init__(self, field: str, value: Any, expected: str, hint: str = "") -> None:
        super().__init__(
            _compose(f"bad configuration value {field} = {value!r}: expected {expected}",
                     hint=hint),
            field=field, value=value, expected=expected,
        )


class LaunchError(WarpsimError):
    """A kernel launch that cannot run as asked (bad grid, arguments, resources)."""

    def __init__(self, kernel: str, problem: str, hint: str = "") -> None:
        super().__init__(
            _compose(f"cannot launch kernel {kernel}: {problem}", hint=hint),
            kernel=kernel, problem=problem,
        )


class DeviceTrapError(LaunchError):
    """A thread executed ``trap`` (``__trap()``, a grid sync outside a cooperative launch, a
    call through a pointer to no function): the launch stops, as on a GPU
    (``cudaErrorLaunchFailure``)."""


class MemoryAccessError(WarpsimError):
    """An out-of-bounds or misaligned access by a simulated thread."""

    def __init__(
        self,
        problem: str,
        *,
        kernel: str,
        line: int | None,
        thread: tuple[int, int, int],
        block: tuple[int, int, int],
        address: int,
        space: str,
        bounds: str = "",
        file: str | None = None,
        source_line: str = "",
        src: tuple[str, int] | None = None,
    ) -> None:
        what = f"{problem} in {space} memory at address {address:#x}"
        if bounds:
            what += f" ({bounds})"
        at = _location(file, line)
        if src is not None:  # the CUDA source line (-lineinfo), then the PTX line
            at = f"{src[0]}:{src[1]} (PTX {'line ' + str(line) if line else at})"
        where = f"kernel {kernel}, {at}, thread {thread}, block {block}"
        if source_line:
            where += f"\n    {source_line.strip()}"
        super().__init__(
            _compose(what, where),
            kernel=kernel, line=line, thread=thread, block=block, address=address,
            space=space, bounds=bounds, problem=problem, src=src,
        )


class BarrierDeadlockError(WarpsimError):
    """A CTA barrier that some of the CTA's threads can never reach."""

    def __init__(self, kernel: str, block: tuple[int, int, int], detail: str) -> None:
        super().__init__(
            _compose(f"barrier deadlock in kernel {kernel}", f"block {block}: {detail}",
                     "every thread of a CTA must reach the same bar.sync; check for a "
                     "barrier inside divergent control flow or an early return"),
            kernel=kernel, block=block, detail=detail,
        )


class InternalError(WarpsimError):
    """A broken invariant inside warpsim: a warpsim bug, please report it."""
