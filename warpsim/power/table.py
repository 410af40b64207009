"""Energy-table types: per-event energies keyed by counter, static powers by component.

Follows: STYLE.md §2.6 (tables keyed by counter name, ``_pj`` per event, ``_mw`` static
power, a source string per entry) and §2.3 (frozen dataclasses, units in names);
reference/energy-and-configs.md §1.3 (P_total = dynamic + idle-SM + constant + static).

An ``EnergyTable`` is data only; ``warpsim.power.model.energy`` evaluates it over a counter
dict. Entries may charge one counter to several components (a register granule read charges
the SRAM bank and its wire separately when a source splits them).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from warpsim.errors import ConfigError

__all__ = [
    "CHIP_COMPONENTS",
    "COMPONENTS",
    "EnergyEntry",
    "EnergyTable",
    "StaticEntry",
    "StaticScope",
    "make_entries",
]

COMPONENTS: tuple[str, ...] = (
    "register_file",      # GPUWattch RFP: banks, crossbar, arbiter, collectors, non-RF operands
    "operand_collector",  # collector-side energy a table keeps outside its RF (paper tables)
    "alu_int",            # integer pipeline (GPUWattch SP_ACC, AccelWattch INT_ACC)
    "alu_fp",             # FP32 pipeline (FPU_ACC / FP_ACC)
    "alu_dp",             # FP64 pipeline (DP_ACC)
    "sfu",                # special-function unit (SFU_ACC / FP_EXP...)
    "tensor",             # tensor cores (TENSOR_ACC)
    "fetch_decode",       # I-cache, fetch, decode, instruction buffer (ICP + IBP, TOT_INST)
    "scheduler",          # warp scheduler / issue (SCHEDP, FP_INT)
    "l1d",                # L1 data cache (DCP)
    "shared_memory",      # shared memory (SHRDP)
    "constant_cache",     # constant cache (CCP)
    "texture_cache",      # texture cache / unit (TCP, TEX_ACC)
    "interconnect",       # SM <-> L2 network (NOCP)
    "l2",                 # L2 slices (L2CP)
    "dram",               # DRAM and its controller (DRAMP, MCP)
    "static",             # leakage of active SMs (AccelWattch STATICP)
    "idle_sm",            # power of SMs with no resident CTA (IDLE_COREP)
    "constant",           # chip constant power (GPUWattch CONST_DYNAMICN, AccelWattch CONSTP)
)
"""Baseline energy components, in report order; active mechanisms add one component each,
named by the mechanism's ``NAME``."""

CHIP_COMPONENTS: tuple[str, ...] = ("interconnect", "l2", "dram", "constant")
"""Components outside the SMs; the rest (and every mechanism's) make up "SM energy" (WIR spec
§8 item 26: GPUWattch per-SM components plus the mechanism's overheads)."""


class StaticScope(enum.Enum):
    """What a static power is multiplied by (besides its power)."""

    CHIP = "chip"
    """The whole chip, for the whole run: ``P x T``."""
    SM = "sm"
    """Every SM, for the whole run: ``P x n_sms x T``."""
    ACTIVE_SM = "active_sm"
    """SMs while they hold a CTA: ``(P + (lanes - 1) x P_lane) x active SM-cycles / f``."""
    IDLE_SM = "idle_sm"
    """SMs while they hold no CTA: ``P x idle SM-cycles / f``."""
    RF_BANK = "rf_bank"
    """Each physical register bank while not gated: ``P x ungated bank-cycles / f``."""


@dataclass(frozen=True, slots=True, kw_only=True)
class EnergyEntry:
    """One dynamic event: ``count(counter) x energy_pj`` joules x 1e-12, charged to a component.

    ``energy_pj`` is per unit of the counter (per thread instruction, per granule, per byte...).
    """

    counter: str
    """Counter name (``stats.REGISTRY`` or ``power.counters.POWER_REGISTRY``)."""
    component: str
    """One of ``COMPONENTS``."""
    energy_pj: float
    """Energy per counter unit in pJ."""
    source: str
    """Where the number comes from (paper table, tool run, derivation with arithmetic)."""

    def __post_init__(self) -> None:
        _check_component(self.component, f"entry {self.counter}")
        if not self.energy_pj >= 0:
            raise ConfigError(f"entry {self.counter}.energy_pj", self.energy_pj, "a value >= 0")
        if not self.source.strip():
            raise ConfigError(f"entry {self.counter}.source", self.source, "a non-empty source")


@dataclass(frozen=True, slots=True, kw_only=True)
class StaticEntry:
    """One static power, charged to a component for the time its ``scope`` says."""

    component: str
    """One of ``COMPONENTS``."""
    scope: StaticScope
    """What the power is multiplied by."""
    power_mw: float
    """Static power in mW (per SM, per bank or per chip, as ``scope`` says)."""
    source: str
    """Where the number comes from."""
    lane_power_mw: float = 0.0
    """ACTIVE_SM only: extra mW per active lane beyond the first (AccelWattch addlane[cat])."""

    def __post_init__(self) -> None:
        _check_component(self.component, f"static {self.component}")
        if not isinstance(self.scope, StaticScope):
            raise ConfigError(f"static {self.component}.scope", self.scope,
                              f"one of {[s.value for s in StaticScope]}")
        if not (self.power_mw >= 0 and self.lane_power_mw >= 0):
            raise ConfigError(f"static {self.component}.power_mw", self.power_mw,
                              "power_mw >= 0 and lane_power_mw >= 0")
        if self.lane_power_mw and self.scope is not StaticScope.ACTIVE_SM:
            raise ConfigError(f"static {self.component}.lane_power_mw", self.lane_power_mw,
                              "0 unless scope is active_sm")
        if not self.source.strip():
            raise ConfigError(f"static {self.component}.source", self.source,
                              "a non-empty source")


def _check_component(component: str, where: str) -> None:
    if component not in COMPONENTS:
        raise ConfigError(f"{where}.component", component, f"one of {', '.join(COMPONENTS)}")


@dataclass(frozen=True, slots=True, kw_only=True)
class EnergyTable:
    """A preset: dynamic entries, static entries, and the register-bank size leakage refers to.

    Variants for sweeps: ``table.scaled("register_file", 2.5)`` or
    ``table.with_entries(...)`` (replace all entries of the given counters).
    """

    name: str
    """Short lower-case key (``gtx480_gpuwattch``)."""
    source: str
    """The method and sources of the table as a whole."""
    dynamic: tuple[EnergyEntry, ...]
    """Per-event energies."""
    static: tuple[StaticEntry, ...]
    """Static powers."""
    regfile_bank_bytes: int = 4096
    """Bytes of one physical register bank that an ``RF_BANK`` static power refers to (a
    CACTI 4 KB x 128-bit bank; Warped-Compression Table 3)."""
    regfile_gated_leak_frac: float = 0.0
    """Leakage of a gated bank as a fraction of an ungated one (Warped-Compression spec §5.6:
    0 [A])."""

    def __post_init__(self) -> None:
        if not self.name or self.name != self.name.strip().lower():
            raise ConfigError("table.name", self.name, "a non-empty lower-case name")
        if self.regfile_bank_bytes <= 0:
            raise ConfigError("table.regfile_bank_bytes", self.regfile_bank_bytes, "> 0")
        if not 0.0 <= self.regfile_gated_leak_frac <= 1.0:
            raise ConfigError("table.regfile_gated_leak_frac", self.regfile_gated_leak_frac,
                              "a fraction in [0, 1]")
        seen: set[tuple[str, str]] = set()
        for entry in self.dynamic:
            key = (entry.counter, entry.component)
            if key in seen:
                raise ConfigError(f"table {self.name}: entry", key,
                                  "one entry per (counter, component)")
            seen.add(key)

    @property
    def counters(self) -> tuple[str, ...]:
        """Counter names the table charges, in entry order without repeats."""
        return tuple(dict.fromkeys(e.counter for e in self.dynamic))

    def energy_pj(self, counter: str) -> float:
        """Total pJ one unit of ``counter`` costs over all components (0 when uncharged)."""
        return sum(e.energy_pj for e in self.dynamic if e.counter == counter)

    def entries_of(self, component: str) -> tuple[EnergyEntry, ...]:
        """The dynamic entries charged to ``component``."""
        return tuple(e for e in self.dynamic if e.component == component)

    def scaled(self, component: str, factor: float, *, static: bool = True,
               name: str | None = None) -> EnergyTable:
        """A copy with every energy (and, with ``static``, power) of ``component`` x factor."""
        _check_component(component, "scaled")
        dyn = tuple(replace(e, energy_pj=e.energy_pj * factor,
                            source=f"{e.source}; x{factor:g} (sweep)")
                    if e.component == component else e for e in self.dynamic)
        sta = tuple(replace(s, power_mw=s.power_mw * factor,
                            lane_power_mw=s.lane_power_mw * factor,
                            source=f"{s.source}; x{factor:g} (sweep)")
                    if static and s.component == component else s for s in self.static)
        return replace(self, dynamic=dyn, static=sta,
                       name=name or f"{self.name}_{component}_x{factor:g}")

    def with_entries(self, entries: Iterable[EnergyEntry], *,
                     static: Iterable[StaticEntry] | None = None,
                     drop_counters: Iterable[str] = (),
                     drop_entries: Iterable[tuple[str, str]] = (),
                     replace_static_of: Iterable[str] = (), name: str | None = None,
                     **fields: object) -> EnergyTable:
        """A copy whose entries for the counters in ``entries`` are replaced by ``entries``.

        Entries of ``drop_counters`` and the ``(counter, component)`` pairs of
        ``drop_entries`` are removed too. ``static`` entries are appended after removing the
        static entries of the components in ``replace_static_of``; other keyword arguments
        replace table fields.
        """
        new = tuple(entries)
        counters = {e.counter for e in new} | set(drop_counters)
        pairs = set(drop_entries)
        dyn = tuple(e for e in self.dynamic if e.counter not in counters
                    and (e.counter, e.component) not in pairs) + new
        drop = set(replace_static_of)
        sta = tuple(s for s in self.static if s.component not in drop) + tuple(static or ())
        return replace(self, dynamic=dyn, static=sta, name=name or self.name,
                       **fields)  # type: ignore[arg-type]

    def describe(self) -> list[dict[str, object]]:
        """Every entry as a plain dict (for docs and result records)."""
        rows: list[dict[str, object]] = [
            {"kind": "dynamic", "counter": e.counter, "component": e.component,
             "energy_pj": e.energy_pj, "source": e.source} for e in self.dynamic]
        rows += [{"kind": "static", "component": s.component, "scope": s.scope.value,
                  "power_mw": s.power_mw, "lane_power_mw": s.lane_power_mw,
                  "source": s.source} for s in self.static]
        return rows


def make_entries(component: str, source: str,
                 values: Mapping[str, float]) -> tuple[EnergyEntry, ...]:
    """Entries of one component and source from ``{counter: energy_pj}`` (a table builder)."""
    return tuple(EnergyEntry(counter=c, component=component, energy_pj=v, source=source)
                 for c, v in values.items())
