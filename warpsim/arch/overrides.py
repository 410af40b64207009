"""Dotted overrides of a GPU configuration: ``regfile.n_banks=32``, ``l1d.size_bytes=32KiB``.

Follows: STYLE.md §2.3 (variants by ``dataclasses.replace`` or dotted overrides; unknown fields
are a ``ConfigError`` listing the valid ones). Values may be Python objects or strings; strings
are parsed by the target field's type: integers (``4``, ``0x10``, ``1_000``, sizes ``32KiB``,
``2MiB``, ``48KB`` = 48 x 1024), floats, booleans (``true``/``false``/``1``/``0``/``yes``/``no``
/``on``/``off``), enum values (``gto``) and comma lists for tuples (``4,13,4,5,145``).
"""

from __future__ import annotations

import re
import typing
from collections.abc import Iterable, Mapping
from typing import Any

from warpsim.arch.schema import ConfigBase, config_fields, parse_enum, suggest
from warpsim.errors import ConfigError

__all__ = [
    "apply_overrides",
    "config_diff",
    "field_paths",
    "flatten",
    "parse_override",
    "parse_value",
]

_C = typing.TypeVar("_C", bound=ConfigBase)

_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kmg])(?:i?b)?\s*$", re.IGNORECASE)
_SCALE = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30}
_TRUE = {"true", "1", "yes", "on"}
_FALSE = {"false", "0", "no", "off"}


def parse_override(text: str) -> tuple[str, str]:
    """Split ``"sm.n_schedulers=4"`` into ``("sm.n_schedulers", "4")``.

    Raises
    ------
    ConfigError
        When there is no ``=`` or the key is empty.
    """
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise ConfigError("override", text, "the form path.to.field=value",
                          hint="e.g. -o sm.n_schedulers=4")
    return key.strip(), value.strip()


def parse_value(text: str, tp: Any, path: str) -> Any:
    """Convert the string ``text`` to the field type ``tp`` (int, float, bool, enum, tuple)."""
    item = _tuple_item(tp)
    if item is not None:
        parts = [p for p in re.split(r"[,\s]+", text.strip().strip("()[]")) if p]
        return tuple(parse_value(p, item, path) for p in parts)
    if tp is bool:
        low = text.strip().lower()
        if low in _TRUE:
            return True
        if low in _FALSE:
            return False
        raise ConfigError(path, text, "a boolean (true/false, 1/0, yes/no, on/off)")
    if tp is int:
        return _parse_int(text, path)
    if tp is float:
        try:
            return float(text.strip())
        except ValueError:
            raise ConfigError(path, text, "a number") from None
    if tp is str:
        return text
    if isinstance(tp, type) and issubclass(tp, ConfigBase):
        raise ConfigError(path, text, f"a field of {tp.__name__}, not the whole group",
                          hint=f"set one of: {', '.join(config_fields(tp))}")
    return parse_enum(tp, text, path)


def _parse_int(text: str, path: str) -> int:
    raw = text.strip().replace("_", "")
    size = _SIZE.match(raw)
    if size:
        value = float(size.group(1)) * _SCALE[size.group(2).lower()]
        if value != int(value):
            raise ConfigError(path, text, "a whole number of bytes")
        return int(value)
    try:
        return int(raw, 0)
    except ValueError:
        raise ConfigError(path, text, "an integer (sizes may use KiB, MiB, GiB)") from None


def _tuple_item(tp: Any) -> Any | None:
    if typing.get_origin(tp) is tuple:
        args = typing.get_args(tp)
        return args[0] if args else str
    return None


def field_paths(cfg_type: type[ConfigBase], prefix: str = "") -> list[str]:
    """Every dotted leaf-field path of a config class, in declaration order."""
    out: list[str] = []
    for name, tp in config_fields(cfg_type).items():
        path = f"{prefix}.{name}" if prefix else name
        if isinstance(tp, type) and issubclass(tp, ConfigBase):
            out.extend(field_paths(tp, path))
        else:
            out.append(path)
    return out


def _resolve(cfg_type: type[ConfigBase], path: str, value: Any = None) -> Any:
    """The field type at ``path``, or a ConfigError naming the first unknown part."""
    tp: Any = cfg_type
    done: list[str] = []
    for part in path.split("."):
        if not (isinstance(tp, type) and issubclass(tp, ConfigBase)):
            raise ConfigError(path, value, f"no sub-field: {'.'.join(done)} is a value")
        hints = config_fields(tp)
        if part not in hints:
            where = ".".join(done) or "the top level"
            raise ConfigError(path, value, f"a known field; valid at {where}: "
                              f"{', '.join(hints)}",
                              hint=suggest(part, hints))
        tp = hints[part]
        done.append(part)
    return tp


def apply_overrides(cfg: _C, overrides: Mapping[str, Any] | Iterable[str]) -> _C:
    """A copy of ``cfg`` with dotted fields replaced, validated as a whole.

    Parameters
    ----------
    cfg
        Any configuration dataclass (normally a ``GPUConfig``).
    overrides
        A mapping ``{"sm.n_schedulers": 4, "l1d.size_bytes": "32KiB"}`` or an iterable of
        ``"path=value"`` strings (the CLI's ``-o`` arguments). String values are parsed by
        the field's type; other values are used as given.

    Raises
    ------
    ConfigError
        For an unknown field (listing the valid fields at that level with close matches), an
        unparsable value, or a value the configuration rejects (naming the dotted path).
    """
    if isinstance(overrides, Mapping):
        items = [(str(k), v) for k, v in overrides.items()]
    else:
        if isinstance(overrides, str):
            overrides = [overrides]
        items = [parse_override(text) for text in overrides]
    if not items:
        return cfg
    data = cfg.to_dict()
    cls = type(cfg)
    for path, value in items:
        tp = _resolve(cls, path, value)
        if isinstance(value, str) and tp is not str:
            value = parse_value(value, tp, path)
        elif isinstance(value, ConfigBase):
            value = value.to_dict()
        node = data
        parts = path.split(".")
        for part in parts[:-1]:
            node = node[part]
        node[parts[-1]] = _plain(value)
    return cls.from_dict(data)


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return list(value)
    return value


def flatten(cfg: ConfigBase) -> dict[str, Any]:
    """``{dotted path: value}`` for every leaf field (enums as their lower-case values)."""
    out: dict[str, Any] = {}

    def walk(node: Mapping[str, Any], prefix: str) -> None:
        for key, value in node.items():
            path = f"{prefix}.{key}" if prefix else key
            if isinstance(value, Mapping):
                walk(value, path)
            else:
                out[path] = tuple(value) if isinstance(value, list) else value

    walk(cfg.to_dict(), "")
    return out


def config_diff(a: ConfigBase, b: ConfigBase) -> dict[str, tuple[Any, Any]]:
    """``{dotted path: (value in a, value in b)}`` for every leaf field that differs."""
    fa, fb = flatten(a), flatten(b)
    keys = [*fa, *(k for k in fb if k not in fa)]
    return {k: (fa.get(k), fb.get(k)) for k in keys if fa.get(k) != fb.get(k)}
