"""Heterogeneous SMs: the GPU's SMs split into kinds with their own residency resources.

Follows: Xiang's dissertation §4.5 (the heterogeneous GPU-H: TLP-SMs with 16K registers next
to ILP-SMs with 8K; kernels steered to one kind), specs/xiang-simt-efficiency.md §3.5.
A kind is a consecutive range of SM indices (kind 0 first). What may differ per kind is what
decides residency: registers, resident threads (warp slots), CTA slots and shared memory; the
pipelines, schedulers and caches are the ``sm``/``regfile``/``pipelines`` sections' for every
SM. Mechanisms that differ per kind (the ILP chapter's bypass and scoreboard) read the SM's
kind from ``LaunchInfo.sm_kind``.

>>> from warpsim.arch import GTX480, apply_overrides
>>> cfg = apply_overrides(GTX480, {"sm_kinds.n_sms": "10,5", "sm_kinds.n_registers": "32768,16384"})
>>> [(k.first_sm, k.n_sms, k.cfg.sm.n_registers) for k in sm_kinds(cfg)]
[(0, 10, 32768), (10, 5, 16384)]
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from warpsim.arch.schema import ConfigBase

__all__ = ["SMKind", "SMKindsConfig", "sm_kinds"]

_PER_KIND = ("n_registers", "n_max_threads", "n_max_ctas", "shmem_size_bytes")


@dataclass(frozen=True, slots=True, kw_only=True)
class SMKindsConfig(ConfigBase):
    """SM kinds (empty ``n_sms``: every SM is alike, as the ``sm`` section says).

    Each per-kind tuple is empty (every kind takes the ``sm``/``shmem`` section's value) or has
    one value per kind. A kind may have fewer resources than the ``sm`` section, never more
    (``sm.n_max_threads`` and ``sm.n_max_ctas`` size the hardware tables)."""

    _PATH = "sm_kinds"

    n_sms: tuple[int, ...] = ()
    """SMs of each kind in SM-index order (kind 0 = SMs ``0 .. n_sms[0]-1``, ...); they sum
    to ``sm.n_sms``. Dissertation GPU-H: 20 TLP-SMs and 18 ILP-SMs."""
    n_registers: tuple[int, ...] = ()
    """32-bit registers per SM of each kind (``sm.n_registers``)."""
    n_max_threads: tuple[int, ...] = ()
    """Resident threads per SM of each kind, a multiple of the warp size (``sm.n_max_threads``);
    the warp slots above it are never used."""
    n_max_ctas: tuple[int, ...] = ()
    """Resident CTAs per SM of each kind (``sm.n_max_ctas``)."""
    shmem_size_bytes: tuple[int, ...] = ()
    """Shared memory per SM of each kind (``shmem.size_bytes``)."""

    def __post_init__(self) -> None:
        self._validate()

    def _check(self) -> None:
        k = len(self.n_sms)
        if any(n < 1 for n in self.n_sms):
            self._fail("n_sms", "SM counts >= 1")
        for name in _PER_KIND:
            values = getattr(self, name)
            if values and len(values) != k:
                self._fail(name, f"one value per kind ({k} kinds in sm_kinds.n_sms) or none",
                           hint="set sm_kinds.n_sms first, e.g. -o sm_kinds.n_sms=20,18")
            if any(v < (0 if name == "shmem_size_bytes" else 1) for v in values):
                self._fail(name, "values >= 1" if name != "shmem_size_bytes" else
                           "values >= 0")


@dataclass(frozen=True, slots=True)
class SMKind:
    """One kind: its SM range and the configuration its SMs have."""

    index: int
    """Position of the kind in ``sm_kinds.n_sms``."""
    first_sm: int
    """Index of the kind's first SM."""
    n_sms: int
    """SMs of the kind."""
    cfg: Any
    """The ``GPUConfig`` with this kind's resources in the ``sm``/``shmem`` sections."""

    @property
    def sms(self) -> range:
        """SM indices of the kind."""
        return range(self.first_sm, self.first_sm + self.n_sms)


def check_sm_kinds(cfg: Any) -> None:
    """Cross-field rules of ``sm_kinds`` against the ``sm``/``shmem`` sections (raises
    ``ConfigError`` naming the field)."""
    from warpsim.errors import ConfigError

    kinds = cfg.sm_kinds
    if not kinds.n_sms:
        for name in _PER_KIND:
            if getattr(kinds, name):
                raise ConfigError(f"sm_kinds.{name}", getattr(kinds, name),
                                  "empty while sm_kinds.n_sms is empty",
                                  hint="set sm_kinds.n_sms to the SMs of each kind")
        return
    if sum(kinds.n_sms) != cfg.sm.n_sms:
        raise ConfigError("sm_kinds.n_sms", kinds.n_sms,
                          f"SM counts summing to sm.n_sms = {cfg.sm.n_sms}")
    warp = cfg.sm.n_threads_per_warp
    for v in kinds.n_max_threads:
        if v % warp or v > cfg.sm.n_max_threads:
            raise ConfigError("sm_kinds.n_max_threads", kinds.n_max_threads,
                              f"multiples of the warp size {warp} and <= sm.n_max_threads = "
                              f"{cfg.sm.n_max_threads}")
    if any(v > cfg.sm.n_max_ctas for v in kinds.n_max_ctas):
        raise ConfigError("sm_kinds.n_max_ctas", kinds.n_max_ctas,
                          f"values <= sm.n_max_ctas = {cfg.sm.n_max_ctas}")
    per_bank = warp * cfg.regfile.n_banks
    if any(v % per_bank for v in kinds.n_registers):
        raise ConfigError("sm_kinds.n_registers", kinds.n_registers,
                          f"multiples of n_threads_per_warp x regfile.n_banks = {per_bank}")


def sm_kinds(cfg: Any) -> list[SMKind]:
    """The kinds of ``cfg``'s SMs (one kind with every SM when ``sm_kinds`` is empty)."""
    kinds = cfg.sm_kinds
    if not kinds.n_sms:
        return [SMKind(0, 0, cfg.sm.n_sms, cfg)]
    out = []
    first = 0
    for i, n in enumerate(kinds.n_sms):
        sm: dict[str, int] = {}
        for name in ("n_registers", "n_max_threads", "n_max_ctas"):
            if getattr(kinds, name):
                sm[name] = getattr(kinds, name)[i]
        if "n_max_threads" in sm:
            sm["n_max_threads_per_cta"] = min(cfg.sm.n_max_threads_per_cta, sm["n_max_threads"])
        if "n_registers" in sm:
            sm["n_max_regs_per_cta"] = min(cfg.sm.n_max_regs_per_cta, sm["n_registers"])
        shmem = cfg.shmem
        if kinds.shmem_size_bytes:
            size = kinds.shmem_size_bytes[i]
            shmem = dataclasses.replace(shmem, size_bytes=size,
                                        cta_limit_bytes=min(shmem.cta_limit_bytes, size))
        kind_cfg = dataclasses.replace(cfg, sm=dataclasses.replace(cfg.sm, **sm), shmem=shmem,
                                       sm_kinds=SMKindsConfig())
        out.append(SMKind(i, first, n, kind_cfg))
        first += n
    return out
