"""The energy model: joules by component from a counter dict, an energy table and the run time.

Follows: STYLE.md §2.6 (a pure function of counters; mechanism energy only through ``ENERGY``
pairs and ``_pj`` / ``_mw`` config fields) and §2.2; reference/energy-and-configs.md §1.3
(P_total = dynamic components + idle-SM power + constant power + static power).

Equations (docs/energy-model.md §2), with T = cycles / (clock_mhz x 1e6) seconds:

    E_dyn[c]    = sum over entries e of component c: count(e.counter) x e.energy_pj x 1e-12
    E_chip      = P x T
    E_sm        = P x n_sms x T
    E_active_sm = (P + (lanes - 1) x P_lane) x active_sm_cycles / f,
                  lanes = gpu_sim_insn / gpgpu_n_tot_w_icount (1 when no instruction ran)
    E_idle_sm   = P x (n_sms x cycles - active_sm_cycles) / f
    E_rf_bank   = P x (n_sms x n_rf_banks x cycles - (1 - g) x regfile_gated_bank_cycles) / f
    E_mech[m]   = sum over (counter, field) in m.ENERGY: count x cfg.field x 1e-12
                  + sum of m's _mw fields x 1e-3 x n_sms x T

(P in W after the mW -> W factor 1e-3; g = the table's ``regfile_gated_leak_frac``.)
Absent counters count as zero, except the power counters that ``power_counts`` derives.
"""

from __future__ import annotations

import dataclasses
import numbers
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from warpsim.errors import ConfigError, InternalError
from warpsim.power.counters import power_counts
from warpsim.power.presets import table_for_gpu
from warpsim.power.table import CHIP_COMPONENTS, COMPONENTS, EnergyTable, StaticScope

__all__ = [
    "EnergyBreakdown",
    "MechanismEnergy",
    "energy",
    "energy_for_gpu",
    "mechanism_energy",
    "saving_frac",
]

_PJ = 1e-12
_MW = 1e-3


@dataclass(frozen=True, slots=True, kw_only=True)
class MechanismEnergy:
    """Energy of one mechanism's added structures."""

    name: str
    """The mechanism's ``NAME`` (its component in the breakdown)."""
    dynamic_j: float
    """Sum of its ``ENERGY`` pairs."""
    static_j: float
    """Its ``_mw`` fields x time."""

    @property
    def total_j(self) -> float:
        """Dynamic + static joules."""
        return self.dynamic_j + self.static_j


def _frozen(mapping: Mapping[str, float]) -> Mapping[str, float]:
    return MappingProxyType(dict(mapping))


@dataclass(frozen=True, slots=True, kw_only=True)
class EnergyBreakdown:
    """Joules by component (dynamic and static) of one launch or run, with its duration."""

    table: str
    """Name of the energy table used."""
    seconds: float
    """Simulated time: cycles / clock."""
    dynamic_by_component_j: Mapping[str, float]
    """Dynamic joules per component (every baseline component, zeros included, then one per
    mechanism)."""
    static_by_component_j: Mapping[str, float]
    """Static joules per component (same keys)."""
    by_counter_j: Mapping[str, float] = field(default_factory=dict)
    """Dynamic joules per counter (summed over the components it is charged to)."""

    @property
    def components(self) -> tuple[str, ...]:
        """Component names in report order."""
        return tuple(self.dynamic_by_component_j)

    @property
    def by_component_j(self) -> dict[str, float]:
        """Dynamic + static joules per component."""
        return {c: self.dynamic_by_component_j[c] + self.static_by_component_j[c]
                for c in self.components}

    @property
    def dynamic_j(self) -> float:
        """All dynamic joules."""
        return sum(self.dynamic_by_component_j.values())

    @property
    def static_j(self) -> float:
        """All static joules (leakage, idle SMs, constant power)."""
        return sum(self.static_by_component_j.values())

    @property
    def total_j(self) -> float:
        """Dynamic + static joules."""
        return self.dynamic_j + self.static_j

    @property
    def sm_j(self) -> float:
        """Energy of the SMs: every component but ``CHIP_COMPONENTS`` (mechanisms included)."""
        return sum(j for c, j in self.by_component_j.items() if c not in CHIP_COMPONENTS)

    @property
    def avg_power_w(self) -> float:
        """Total joules / seconds (NaN for a zero-length run)."""
        return self.total_j / self.seconds if self.seconds > 0 else float("nan")

    def share(self, component: str, *, dynamic_only: bool = False) -> float:
        """``component``'s fraction of total (or, with ``dynamic_only``, dynamic) energy."""
        if component not in self.dynamic_by_component_j:
            raise ConfigError("component", component, f"one of {', '.join(self.components)}")
        if dynamic_only:
            den = self.dynamic_j
            return self.dynamic_by_component_j[component] / den if den else float("nan")
        den = self.total_j
        return self.by_component_j[component] / den if den else float("nan")

    def to_dict(self) -> dict[str, Any]:
        """The JSON record's ``energy`` field: totals, ``by_component`` and the split."""
        return {
            "table": self.table,
            "seconds": self.seconds,
            "total_j": self.total_j,
            "dynamic_j": self.dynamic_j,
            "static_j": self.static_j,
            "avg_power_w": self.avg_power_w,
            "by_component": self.by_component_j,
            "dynamic_by_component": dict(self.dynamic_by_component_j),
            "static_by_component": dict(self.static_by_component_j),
            "by_counter": dict(self.by_counter_j),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> EnergyBreakdown:
        """Inverse of ``to_dict`` (totals are recomputed from the components)."""
        return cls(table=str(data["table"]), seconds=float(data["seconds"]),
                   dynamic_by_component_j=_frozen(data["dynamic_by_component"]),
                   static_by_component_j=_frozen(data["static_by_component"]),
                   by_counter_j=_frozen(data.get("by_counter", {})))


def saving_frac(base: EnergyBreakdown, new: EnergyBreakdown, *, part: str = "total",
                component: str | None = None) -> float:
    """``1 - new / base`` of one part of the energy: the papers' "saves X% of ..." numbers.

    ``part`` is ``"total"`` (GPU energy), ``"dynamic"``, ``"static"`` or ``"sm"`` (SM energy);
    with ``component`` the part is taken of that component only (``part`` "total", "dynamic"
    or "static"). E.g. Warped-Compression's "25% of register file energy" is
    ``saving_frac(base, wc, component="register_file")``.
    """
    def pick(b: EnergyBreakdown) -> float:
        if component is not None:
            if component not in b.dynamic_by_component_j:
                return 0.0
            d, s = b.dynamic_by_component_j[component], b.static_by_component_j[component]
            return {"total": d + s, "dynamic": d, "static": s}[_check_part(part, False)]
        return {"total": b.total_j, "dynamic": b.dynamic_j, "static": b.static_j,
                "sm": b.sm_j}[_check_part(part, True)]

    if component is not None and component not in (*base.components, *new.components):
        raise ConfigError("component", component, f"one of {', '.join(base.components)}")
    den = pick(base)
    return 1.0 - pick(new) / den if den else float("nan")


def _check_part(part: str, allow_sm: bool) -> str:
    valid = ("total", "dynamic", "static", "sm") if allow_sm else ("total", "dynamic", "static")
    if part not in valid:
        raise ConfigError("part", part, f"one of {', '.join(valid)}")
    return part


# -- mechanisms ----------------------------------------------------------------------------------

def _mech_static_fields(mech: Any, cfg: Any) -> list[tuple[str, float]]:
    """(``_mw`` field, multiplier) pairs: the optional ``STATIC`` pairs, else every _mw field."""
    pairs = getattr(mech, "STATIC", None)
    if pairs is not None:
        out = []
        for mw_field, n_field in pairs:
            mult = 1.0 if n_field is None else float(getattr(cfg, n_field))
            out.append((mw_field, mult))
        return out
    return [(f.name, 1.0) for f in dataclasses.fields(cfg) if f.name.endswith("_mw")]


def mechanism_energy(mech: Any, cfg: Any, stats: Mapping[str, float], seconds: float, *,
                     n_sms: int = 1) -> MechanismEnergy:
    """Energy of a mechanism's structures, from its ``ENERGY`` pairs and ``_mw`` config fields.

    ``mech`` is any object with ``NAME`` and ``ENERGY = ((counter, field_pj), ...)`` (a
    mechanism module); ``cfg`` its config dataclass. Each ``_mw`` field is the static power of
    that structure in one SM (an optional ``mech.STATIC = ((field_mw, n_field or None), ...)``
    names the fields instead, each times the config's count ``n_field``), charged for
    ``seconds`` on each of ``n_sms`` SMs. Counters absent from ``stats`` count as zero.

    Raises
    ------
    InternalError
        When an ``ENERGY`` field does not end in ``_pj`` or is not a field of ``cfg``, or a
        static field does not end in ``_mw``.
    """
    name = str(mech.NAME)
    names = {f.name for f in dataclasses.fields(cfg)}
    dyn_pj = 0.0
    for counter, pj_field in mech.ENERGY:
        if not pj_field.endswith("_pj") or pj_field not in names:
            raise InternalError(f"mechanism {name}: ENERGY field {pj_field!r} must be a "
                                f"{type(cfg).__name__} field ending in _pj")
        dyn_pj += float(stats.get(counter, 0)) * float(getattr(cfg, pj_field))
    static_mw = 0.0
    for mw_field, mult in _mech_static_fields(mech, cfg):
        if not mw_field.endswith("_mw") or mw_field not in names:
            raise InternalError(f"mechanism {name}: static field {mw_field!r} must be a "
                                f"{type(cfg).__name__} field ending in _mw")
        static_mw += float(getattr(cfg, mw_field)) * mult
    return MechanismEnergy(name=name, dynamic_j=dyn_pj * _PJ,
                           static_j=static_mw * _MW * n_sms * seconds)


# -- the model -----------------------------------------------------------------------------------

def _check_args(cycles: float, clock_mhz: float, n_sms: int) -> None:
    if not cycles >= 0:
        raise ConfigError("cycles", cycles, "a cycle count >= 0")
    if not clock_mhz > 0:
        raise ConfigError("clock_mhz", clock_mhz, "a clock > 0 MHz")
    if not (isinstance(n_sms, numbers.Integral) and n_sms >= 1):
        raise ConfigError("n_sms", n_sms, "an integer >= 1")


def _avg_lanes(stats: Mapping[str, float]) -> float:
    warp = float(stats.get("gpgpu_n_tot_w_icount", 0))
    return float(stats.get("gpu_sim_insn", 0)) / warp if warp else 1.0


def energy(stats: Mapping[str, float], table: EnergyTable, *, cycles: float, clock_mhz: float,
           n_sms: int, active_sm_cycles: float | None = None,
           n_rf_banks_per_sm: int | None = None, granules_per_bank_access: float = 8.0,
           mechanisms: Iterable[tuple[Any, Any]] = ()) -> EnergyBreakdown:
    """Energy of one launch (or run) by component: a pure function of counters and table.

    Parameters
    ----------
    stats
        Flat ``name -> value`` counters (``stats.export``), mechanism counters included.
    table
        The per-event energies and static powers (``warpsim.power.ENERGY_TABLES``).
    cycles
        Core cycles of the launch (``gpu_sim_cycle``).
    clock_mhz
        Core clock that converts cycles to seconds.
    n_sms
        SMs on the chip.
    active_sm_cycles
        SM-cycles with a resident CTA, summed over SMs; default ``stats["sm_active_cycles"]``
        when present, else every SM active for every cycle.
    n_rf_banks_per_sm
        Physical register banks of ``table.regfile_bank_bytes`` per SM; needed only when the
        table has ``RF_BANK`` static entries (``energy_for_gpu`` computes it).
    granules_per_bank_access
        128-bit granules per ``regfile_bank_reads`` access, for deriving absent granule
        counters (``regfile.bank_width_bits / 128``).
    mechanisms
        ``(mechanism module, its config)`` pairs of the active mechanisms.

    Raises
    ------
    ConfigError
        For a negative cycle count, a non-positive clock, inconsistent active SM-cycles, or a
        missing ``n_rf_banks_per_sm``.
    """
    _check_args(cycles, clock_mhz, n_sms)
    counts = power_counts(stats, granules_per_bank_access=granules_per_bank_access)
    seconds = cycles / (clock_mhz * 1e6)
    sm_cycles = n_sms * cycles
    active = float(stats.get("sm_active_cycles", sm_cycles)) if active_sm_cycles is None \
        else float(active_sm_cycles)
    if not 0 <= active <= sm_cycles:
        raise ConfigError("active_sm_cycles", active, f"0 .. n_sms x cycles = {sm_cycles:g}")

    dyn = dict.fromkeys(COMPONENTS, 0.0)
    sta = dict.fromkeys(COMPONENTS, 0.0)
    by_counter: dict[str, float] = {}
    for entry in table.dynamic:
        joules = counts.get(entry.counter, 0.0) * entry.energy_pj * _PJ
        dyn[entry.component] += joules
        by_counter[entry.counter] = by_counter.get(entry.counter, 0.0) + joules

    f_hz = clock_mhz * 1e6
    for s in table.static:
        watts = s.power_mw * _MW
        if s.scope is StaticScope.CHIP:
            joules = watts * seconds
        elif s.scope is StaticScope.SM:
            joules = watts * n_sms * seconds
        elif s.scope is StaticScope.ACTIVE_SM:
            lanes = _avg_lanes(counts)
            joules = (watts + (lanes - 1) * s.lane_power_mw * _MW) * active / f_hz
        elif s.scope is StaticScope.IDLE_SM:
            joules = watts * (sm_cycles - active) / f_hz
        else:  # RF_BANK
            if n_rf_banks_per_sm is None:
                raise ConfigError("n_rf_banks_per_sm", None, "the physical register banks per "
                                  f"SM (table {table.name} charges bank leakage)",
                                  hint="use energy_for_gpu(stats, gpu, table), which computes "
                                       "it from the GPU config")
            gated = counts.get("regfile_gated_bank_cycles", 0.0)
            bank_cycles = n_sms * n_rf_banks_per_sm * cycles
            if not 0 <= gated <= bank_cycles:
                raise ConfigError("regfile_gated_bank_cycles", gated,
                                  f"0 .. n_sms x n_rf_banks_per_sm x cycles = {bank_cycles:g}")
            leaking = bank_cycles - (1.0 - table.regfile_gated_leak_frac) * gated
            joules = watts * leaking / f_hz
        sta[s.component] += joules

    for mech, cfg in mechanisms:
        m = mechanism_energy(mech, cfg, counts, seconds, n_sms=n_sms)
        if m.name in dyn:
            raise InternalError(f"mechanism name {m.name!r} collides with a component")
        dyn[m.name], sta[m.name] = m.dynamic_j, m.static_j

    return EnergyBreakdown(table=table.name, seconds=seconds,
                           dynamic_by_component_j=_frozen(dyn),
                           static_by_component_j=_frozen(sta),
                           by_counter_j=_frozen(by_counter))


def energy_for_gpu(stats: Mapping[str, float], gpu: Any, table: EnergyTable | None = None, *,
                   clock_mhz: float | None = None,
                   mechanisms: Sequence[tuple[Any, Any]] | None = None) -> EnergyBreakdown:
    """``energy`` with cycles, clock, SM count and register banks taken from a ``GPUConfig``.

    ``table`` defaults to ``table_for_gpu(gpu.name)``; ``clock_mhz`` to ``gpu.clocks.core_mhz``
    (Warped-Compression reproductions pass 1400, spec §6.4). Cycles are
    ``stats["gpu_sim_cycle"]``. ``mechanisms`` defaults to the mechanisms ``gpu`` enables
    (``mechanisms.registry.energy_mechanisms``): their units are charged too.
    """
    if mechanisms is None:
        from warpsim.mechanisms.registry import energy_mechanisms

        mechanisms = energy_mechanisms(gpu)
    if table is None:
        table = table_for_gpu(gpu.name)
    rf_bytes = gpu.sm.n_registers * 4
    n_banks = -(-rf_bytes // table.regfile_bank_bytes)  # a partial bank still leaks
    return energy(stats, table, cycles=float(stats.get("gpu_sim_cycle", 0)),
                  clock_mhz=gpu.clocks.core_mhz if clock_mhz is None else clock_mhz,
                  n_sms=gpu.sm.n_sms, n_rf_banks_per_sm=n_banks,
                  granules_per_bank_access=gpu.regfile.bank_width_bits / 128,
                  mechanisms=mechanisms)
