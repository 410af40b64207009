"""Configuration fields that no model reads yet: each may hold one value only, else refused.

Follows: STYLE.md §2.3 (a field is never accepted and then ignored). Each rule names a dotted
field, the one value the timing/functional/power code behaves as (a constant, or another
field of the same group), and why. ``GPUConfig`` checks every rule when it is built and raises
``ConfigError`` for any other value; the gpgpusim.config reader drops such values and lists
them in its note. ``tests/arch/test_field_readers.py`` checks that every field has a reader
or a rule here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["REFUSED", "Refusal", "refused_value"]


@dataclass(frozen=True, slots=True)
class Refusal:
    """One field that may hold a single value."""

    path: str
    """Dotted field path (``l1d.sector_bytes``)."""
    accepted: Callable[[Mapping[str, Any]], Any]
    """The accepted value, given the field's group as a dict (``GPUConfig.to_dict()`` form)."""
    expected: str
    """The field the accepted value comes from (``l1d.line_bytes``), "" for a constant."""
    reason: str
    """Why nothing else is accepted."""


def _const(value: Any) -> Callable[[Mapping[str, Any]], Any]:
    return lambda group: value


def _sibling(name: str) -> Callable[[Mapping[str, Any]], Any]:
    return lambda group: group[name]


_NO_ICACHE = "no instruction-cache model: fetch always hits"
_L1I_DEFAULTS = {"size_bytes": 2048, "line_bytes": 128, "ways": 4, "sector_bytes": 128,
                 "replacement": "lru", "write_policy": "read_only", "alloc_policy": "on_fill",
                 "write_alloc_policy": "no_write_allocate", "set_index": "linear",
                 "mshr_entries": 2, "n_mshr_max_merge": 32, "miss_queue_entries": 4,
                 "hit_latency_cycles": 1, "n_banks": 1}

REFUSED: tuple[Refusal, ...] = (
    *(Refusal(f"l1i.{name}", _const(value), "", _NO_ICACHE)
      for name, value in _L1I_DEFAULTS.items()),
    *(Refusal(f"{cache}.sector_bytes", _sibling("line_bytes"), f"{cache}.line_bytes",
              "sectored caches are not modelled: lines are filled and kept valid whole "
              "- docs/memory-model.md")
      for cache in ("l1c", "l1t")),
    *(Refusal(f"{cache}.n_banks", _const(1), "",
              "no cache data-array bank conflicts are modelled")
      for cache in ("l1d", "l1c", "l1t", "l2")),
    Refusal("l1d.unified_l1d_shmem_bytes", _const(0), "",
            "no unified L1D/shared-memory carve-out: l1d.size_bytes and shmem.size_bytes "
            "are used as given"),
    Refusal("sm.n_sms_per_cluster", _const(1), "",
            "every SM has its own interconnect port and ejection buffer (no SM clusters)"),
    *(Refusal(f"pipelines.{pipe}.n_oc_ex_slots", _sibling("n_units"),
              f"pipelines.{pipe}.n_units",
              "a collector dispatches straight into a free unit: one OC_EX slot per unit")
      for pipe in ("int32", "fp32", "fp64", "sfu", "ldst", "tensor")),
    *(Refusal(f"pipelines.{pipe}.{name}", _const(()), "",
              f"{pipe} instructions take the unit's scalar latency/initiation, as GPGPU-Sim "
              "has one value for this class (div/rem on the SFU take their type's DIV entry)")
      for pipe in ("sfu", "ldst", "tensor")
      for name in ("op_latency_cycles", "op_initiation_interval_cycles")),
    Refusal("icnt.n_vcs", _const(1), "",
            "the crossbar has no virtual channels"),
    Refusal("icnt.n_input_speedup", _const(1), "",
            "the crossbar moves one flit per input port per interconnect cycle"),
    Refusal("icnt.n_subnets", _const(2), "",
            "the interconnect is one request and one reply network"),
)
"""Every field that may hold one value only (docs/configuration.md lists them)."""


def refused_value(rule: Refusal, root: Mapping[str, Any]) -> tuple[Any, Any] | None:
    """``(value, accepted)`` when the field of ``rule`` in ``root`` (a ``GPUConfig.to_dict()``)
    holds another value than the accepted one, else None."""
    *groups, name = rule.path.split(".")
    node: Mapping[str, Any] = root
    for g in groups:
        node = node[g]
    value, accepted = node[name], rule.accepted(node)
    if isinstance(value, list):
        value = tuple(value)
    if isinstance(accepted, list):
        accepted = tuple(accepted)
    return None if value == accepted else (value, accepted)
