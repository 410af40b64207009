"""The common behaviour of every configuration dataclass: type checks, dict round trip, hash.

Follows: STYLE.md §2.3. Every config class is a ``@dataclass(frozen=True, slots=True,
kw_only=True)`` that also derives from ``ConfigBase``; its ``__post_init__`` calls
``self._validate()``, which checks field types and then calls the class's own ``_check()``.
Errors are ``ConfigError`` carrying the dotted field path: a class whose position in
``GPUConfig`` is unique names it in ``_PATH`` (``"regfile"``); a class used in several places
(``PipeConfig``) reports paths relative to itself and ``from_dict`` / ``apply_overrides`` add
the prefix.
"""

from __future__ import annotations

import dataclasses
import difflib
import enum
import hashlib
import json
import types
import typing
from collections.abc import Mapping
from typing import Any, ClassVar, TypeVar

from warpsim.errors import ConfigError

__all__ = [
    "UNIT_SUFFIXES",
    "ConfigBase",
    "config_fields",
    "field_name_problems",
    "is_power_of_two",
    "parse_enum",
    "suggest",
]

UNIT_SUFFIXES = ("_cycles", "_ns", "_mhz", "_bytes", "_bits", "_pj", "_mw", "_frac",
                 "_entries", "_ways", "_mm")
"""Name endings a numeric config field may carry (STYLE.md §2.3); counts start with ``n_``."""

_T = TypeVar("_T", bound="ConfigBase")

_HINTS: dict[type, dict[str, Any]] = {}


def is_power_of_two(value: int) -> bool:
    """True for 1, 2, 4, 8, ..."""
    return isinstance(value, int) and value > 0 and value & (value - 1) == 0


def suggest(name: str, valid: typing.Iterable[str]) -> str:
    """A ``hint:`` text naming the closest valid names (difflib), or ``""``."""
    close = difflib.get_close_matches(name, list(valid), n=3, cutoff=0.5)
    return f"did you mean {' or '.join(close)}?" if close else ""


def field_name_problems(cls: type) -> list[str]:
    """Numeric fields of config class ``cls`` whose names carry no unit (STYLE.md §2.3).

    A mechanism's ``Config`` test can assert ``field_name_problems(Config) == []``.
    """
    problems = []
    for name, tp in config_fields(cls).items():
        numeric = tp in (int, float) or (_tuple_item(tp) in (int, float))
        if numeric and not (name.startswith("n_") or name.endswith(UNIT_SUFFIXES)
                            or f"_{name}" in UNIT_SUFFIXES):
            problems.append(f"{cls.__name__}.{name}")
    return problems


def parse_enum(enum_type: type[enum.Enum], value: Any, path: str) -> enum.Enum:
    """An enum member from itself, its lower-case value or its name (case-insensitive)."""
    if isinstance(value, enum_type):
        return value
    if isinstance(value, str):
        text = value.strip().lower()
        for member in enum_type:
            if text in (str(member.value).lower(), member.name.lower()):
                return member
    valid = [str(m.value) for m in enum_type]
    raise ConfigError(path, value, f"one of {', '.join(valid)}",
                      hint=suggest(str(value).lower(), valid))


def config_fields(cls_or_obj: Any) -> dict[str, Any]:
    """Field name -> resolved type of a config dataclass (cached)."""
    cls = cls_or_obj if isinstance(cls_or_obj, type) else type(cls_or_obj)
    hints = _HINTS.get(cls)
    if hints is None:
        resolved = typing.get_type_hints(cls)
        hints = {f.name: resolved[f.name] for f in dataclasses.fields(cls)}
        _HINTS[cls] = hints
    return hints


def _join(prefix: str, name: str) -> str:
    return f"{prefix}.{name}" if prefix else name


def _hint_of(err: ConfigError) -> str:
    for line in err.message.splitlines():
        if line.strip().startswith("hint:"):
            return line.strip()[len("hint:"):].strip()
    return ""


def _expected_type(tp: Any) -> str:
    if isinstance(tp, type):
        return tp.__name__
    return str(tp).replace("typing.", "")


class ConfigBase:
    """Mixin for the frozen configuration dataclasses (validation, dicts, hashing)."""

    __slots__ = ()
    _PATH: ClassVar[str] = ""
    """Dotted position of this class inside ``GPUConfig`` ("" when not unique)."""

    # -- validation -------------------------------------------------------------------------
    def _path(self, name: str) -> str:
        return _join(self._PATH, name)

    def _fail(self, name: str, expected: str, hint: str = "") -> typing.NoReturn:
        raise ConfigError(self._path(name), getattr(self, name, None), expected, hint=hint)

    def _fail_nested(self, child: str, name: str, expected: str) -> typing.NoReturn:
        value = getattr(getattr(self, child), name)
        raise ConfigError(self._path(f"{child}.{name}"), value, expected)

    def _validate(self) -> None:
        """Check every field's type, then the class's own rules (``_check``)."""
        for name, tp in config_fields(self).items():
            value = getattr(self, name)
            if not _type_ok(value, tp):
                self._fail(name, f"a value of type {_expected_type(tp)}")
        self._check()

    def _check(self) -> None:
        """Class-specific ranges and cross-field rules; overridden by subclasses."""

    def _at_least(self, name: str, minimum: int | float) -> None:
        if getattr(self, name) < minimum:
            self._fail(name, f">= {minimum}")

    def _pow2(self, name: str) -> None:
        if not is_power_of_two(getattr(self, name)):
            self._fail(name, "a power of two")

    def _frac(self, name: str) -> None:
        if not 0.0 <= getattr(self, name) <= 1.0:
            self._fail(name, "a fraction in [0, 1]")

    # -- dict round trip and hash ---------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-compatible dict: nested dicts, enum values, lists for tuples."""
        out: dict[str, Any] = {}
        for name, tp in config_fields(self).items():
            out[name] = _encode(getattr(self, name), tp)
        return out

    @classmethod
    def from_dict(cls: type[_T], data: Mapping[str, Any], *, _prefix: str = "") -> _T:
        """Build from ``to_dict()`` output; absent keys take the defaults.

        Raises
        ------
        ConfigError
            For an unknown key (with close matches) or an invalid value, naming the dotted path.
        """
        prefix = _prefix or cls._PATH
        if not isinstance(data, Mapping):
            raise ConfigError(prefix or cls.__name__, data, f"a mapping of {cls.__name__} fields")
        hints = config_fields(cls)
        kwargs: dict[str, Any] = {}
        for key, value in data.items():
            path = _join(prefix, str(key))
            if key not in hints:
                raise ConfigError(path, value, f"a field of {cls.__name__} "
                                  f"({', '.join(hints)})", hint=suggest(str(key), hints))
            kwargs[key] = _decode(value, hints[key], path)
        try:
            return cls(**kwargs)
        except ConfigError as err:
            if prefix and not str(err.field).startswith(prefix + "."):
                raise ConfigError(_join(prefix, err.field), err.value, err.expected,
                                  hint=_hint_of(err)) from None
            raise

    def config_hash(self) -> str:
        """sha256 hex digest of the canonical JSON of ``to_dict()`` (stable across runs)."""
        text = json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"),
                          allow_nan=False)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _is_config(tp: Any) -> bool:
    return isinstance(tp, type) and issubclass(tp, ConfigBase)


def _is_enum(tp: Any) -> bool:
    return isinstance(tp, type) and issubclass(tp, enum.Enum)


def _tuple_item(tp: Any) -> Any | None:
    if typing.get_origin(tp) is tuple:
        args = typing.get_args(tp)
        return args[0] if args else Any
    return None


def _type_ok(value: Any, tp: Any) -> bool:
    if tp is bool:
        return isinstance(value, bool)
    if tp is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if tp is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    if tp is str:
        return isinstance(value, str)
    item = _tuple_item(tp)
    if item is not None:
        return isinstance(value, tuple) and all(_type_ok(v, item) for v in value)
    if isinstance(tp, types.UnionType):
        return any(_type_ok(value, t) for t in typing.get_args(tp))
    if isinstance(tp, type):
        return isinstance(value, tp)
    return True


def _encode(value: Any, tp: Any) -> Any:
    if isinstance(value, ConfigBase):
        return value.to_dict()
    if isinstance(value, enum.Enum):
        return value.value
    if tp is float:
        return float(value)
    item = _tuple_item(tp)
    if item is not None:
        return [_encode(v, item) for v in value]
    return value


def _decode(value: Any, tp: Any, path: str) -> Any:
    if _is_config(tp):
        if isinstance(value, tp):
            return value
        return tp.from_dict(value, _prefix=path)
    if _is_enum(tp):
        return parse_enum(tp, value, path)
    item = _tuple_item(tp)
    if item is not None and isinstance(value, list | tuple):
        return tuple(_decode(v, item, path) for v in value)
    return value
