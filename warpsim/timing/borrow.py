"""Unmanaged views of the engine's state arrays for the duration of one cycle-loop call.

Numba reference-counts every array through its meminfo: each time a state tuple is bound to a
new variable (an argument of an inlined unit, a callee's argument) every array in it is
increfed and later decrefed, an atomic read-modify-write each. Measured with ``perf``, those
atomics took about half of the cycle loop's time. ``borrowed(x)`` returns the same tuple (or
array) with every array's meminfo and parent set to NULL, so numba's incref/decref become a
null check: the caller of the cycle loop keeps the real arrays alive until it returns.
Models nothing: values, shapes and types are unchanged, so statistics are bit-identical.
Under ``NUMBA_DISABLE_JIT=1`` it is the identity.
"""

from __future__ import annotations

from typing import Any

from numba.core import cgutils, config, types
from numba.extending import intrinsic

__all__ = ["borrowed"]


def _borrow_value(context: Any, builder: Any, ty: Any, val: Any) -> Any:
    """The value ``val`` of type ``ty`` with every array inside it unmanaged."""
    if isinstance(ty, types.Array):
        src = context.make_array(ty)(context, builder, value=val)
        dst = context.make_array(ty)(context, builder)
        for name in ("data", "shape", "strides", "itemsize", "nitems"):
            setattr(dst, name, getattr(src, name))
        dst.meminfo = cgutils.get_null_value(dst.meminfo.type)
        dst.parent = cgutils.get_null_value(dst.parent.type)
        return dst._getvalue()
    if isinstance(ty, types.BaseTuple):
        out = val
        for i, t in enumerate(ty):
            item = _borrow_value(context, builder, t, builder.extract_value(val, i))
            out = builder.insert_value(out, item, i)
        return out
    context.nrt.incref(builder, ty, val)  # the result is a new reference to anything else
    return val


@intrinsic
def _borrowed(typingctx: Any, x: Any) -> Any:  # pragma: no cover - jit
    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        return _borrow_value(context, builder, sig.args[0], args[0])

    return x(x), codegen


def _identity(x: Any) -> Any:
    return x


borrowed = _identity if config.DISABLE_JIT else _borrowed
"""``borrowed(x)``: ``x`` (an array or a possibly nested tuple holding arrays) with unmanaged
arrays; only for use inside the jitted cycle loop, on arguments its caller keeps alive."""
