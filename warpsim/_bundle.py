"""Function bundles: NamedTuples of jitted functions (the engine's ``Hooks`` and ``MemPorts``)
passed into jitted code that numba may cache on disk.

Numba types a jitted function passed as an argument by the dispatcher object itself, so a
cached cycle loop never matches in a new process (numba issue #2956) and every process
compiled it again (21-120 s). A bundle class registered here is typed instead by a
``FunctionBundleType`` whose name is a digest of what the functions are: their module and
qualified name, the source of the directory each is defined in and of the engine's own
packages. The same hooks in the same sources give the same type in every process (the loop is
loaded from numba's cache), any edit gives a new type (compiled again, never stale); functions
without a stable name (closures, ``exec``) carry their ``id`` unless they set
``__warpsim_key__`` (``mechanisms/compose.py`` names its combined hooks by their parts).
Models nothing: the compiled code is the same as with dispatcher-typed arguments.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from numba.core import types
from numba.core.extending import (
    NativeValue,
    infer_getattr,
    lower_getattr_generic,
    models,
    register_model,
    typeof_impl,
    unbox,
)
from numba.core.typing.templates import AttributeTemplate

__all__ = ["FunctionBundleType", "register_bundle", "sources_digest"]

_ENGINE_DIRS = ("timing", "mechanisms")
"""Packages (under ``warpsim/``) whose sources every bundle type's name covers: the cycle loop
inlines their code, so an edit there must not reuse a cached loop."""


class FunctionBundleType(types.Type):
    """Numba type of one bundle of jitted functions; equal across processes when the functions
    and the sources are."""

    def __init__(self, cls_name: str, digest: str, funcs: dict[str, Any] | None) -> None:
        self.funcs = funcs or {}
        self.cls_name = cls_name
        self.digest = digest
        super().__init__(name=f"{cls_name}[{digest}]")

    def __reduce__(self) -> Any:  # numba's cache index pickles signatures: by name only
        return (_stub, (self.cls_name, self.digest))


def _stub(cls_name: str, digest: str) -> FunctionBundleType:
    return FunctionBundleType(cls_name, digest, None)


register_model(FunctionBundleType)(models.OpaqueModel)


@unbox(FunctionBundleType)
def _unbox(typ: Any, obj: Any, c: Any) -> Any:  # the functions are resolved from the type
    return NativeValue(c.context.get_dummy_value())


@infer_getattr
class _BundleAttributes(AttributeTemplate):
    key = FunctionBundleType

    def generic_resolve(self, typ: Any, attr: str) -> Any:
        fn = typ.funcs.get(attr)
        return types.Dispatcher(fn) if fn is not None else None


@lower_getattr_generic(FunctionBundleType)
def _getattr(context: Any, builder: Any, typ: Any, value: Any, attr: str) -> Any:
    return context.get_dummy_value()


_DIR_DIGESTS: dict[str, str] = {}
_TYPES: dict[tuple[Any, ...], tuple[tuple[Any, ...], FunctionBundleType]] = {}


def _dir_digest(path: Path) -> str:
    """sha256 of the ``.py`` files of one directory (computed once per process)."""
    key = str(path)
    if key not in _DIR_DIGESTS:
        h = hashlib.sha256()
        for f in sorted(path.glob("*.py")):
            h.update(f.name.encode())
            h.update(f.read_bytes())
        _DIR_DIGESTS[key] = h.hexdigest()
    return _DIR_DIGESTS[key]


def _engine_digest() -> str:
    root = Path(__file__).resolve().parent
    return "".join(_dir_digest(root / d) for d in _ENGINE_DIRS)


def _function_key(fn: Any) -> str:
    """What a jitted function is, stably across processes where possible."""
    py = getattr(fn, "py_func", fn)
    key = getattr(py, "__warpsim_key__", None)
    if key is not None:
        return str(key)
    name = f"{py.__module__}.{py.__qualname__}"
    code = getattr(py, "__code__", None)
    src = Path(code.co_filename) if code is not None else None
    if "<locals>" in py.__qualname__ or src is None or not src.is_file():
        return f"{name}@{id(py)}"  # no stable identity: this process only
    return f"{name}:{_dir_digest(src.resolve().parent)}"


def sources_digest(fn: Any) -> str:
    """A digest of the sources a cached jitted function's machine code may contain: its own
    directory, plus the engine packages for code under ``warpsim/timing`` or
    ``warpsim/mechanisms`` (numba's cache checks only the function's own file, so an edit of
    a function it calls in another file would otherwise reuse stale code)."""
    code = getattr(fn, "__code__", None)
    src = Path(code.co_filename) if code is not None else None
    if src is None or not src.is_file():
        return ""
    own = _dir_digest(src.resolve().parent)
    module = getattr(fn, "__module__", "") or ""
    engine = module.startswith(("warpsim.timing", "warpsim.mechanisms"))
    return own + (_engine_digest() if engine else "")


def function_key(fn: Any) -> str:
    """The stable key of a jitted function (for ``__warpsim_key__`` of functions built from
    others)."""
    return _function_key(fn)


def _typeof_bundle(val: Any, c: Any) -> FunctionBundleType:
    ids = (type(val), *(id(f) for f in val))
    hit = _TYPES.get(ids)
    if hit is None:
        names = type(val)._fields
        keys = "\n".join(f"{n}={_function_key(f)}" for n, f in zip(names, val, strict=True))
        digest = hashlib.sha256((keys + _engine_digest()).encode()).hexdigest()[:24]
        typ = FunctionBundleType(type(val).__name__, digest, dict(zip(names, val, strict=True)))
        hit = (tuple(val), typ)  # keeps the functions alive: their ids stay theirs
        _TYPES[ids] = hit
    return hit[1]


def register_bundle(cls: type) -> type:
    """Type instances of the NamedTuple class ``cls`` (jitted functions as fields) as a
    ``FunctionBundleType``; returns ``cls`` (usable as a decorator)."""
    typeof_impl.register(cls)(_typeof_bundle)
    return cls
