"""Options of sampled simulation (``Device(sample=...)``, ``--sample SPEC``).

Follows: issue 17 ("Sampled simulation"); the two levels of recent GPU-sampling work
(kernel-level: launches with the same kernel, shape and functional profile reuse a measured
launch, as in PKA/Sieve; intra-kernel: the first CTA waves in detail, the rest projected from the
steady wave rate, as in TBPoint-style wave sampling). docs/sampling.md describes the method.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, fields
from typing import Any

from warpsim.errors import ConfigError

__all__ = ["ENV_VAR", "SampleOptions", "parse_sample", "resolve_sample"]

ENV_VAR = "WARPSIM_SAMPLE"
"""Environment variable holding a ``--sample`` spec: the default of ``Device(sample=None)``
for timed devices (so sweep and reproduction workers, local processes, inherit the switch)."""


@dataclass(frozen=True, slots=True)
class SampleOptions:
    """What sampled simulation does (every field changes behaviour)."""

    reuse: bool = True
    """Kernel-level: a launch of the same kernel, grid, block and dynamic shared memory whose
    functional profile (per-PC warp-instruction counts, memory lines touched) matches an earlier
    measured launch within ``tolerance`` reuses its statistics instead of being replayed."""
    tolerance: float = 0.02
    """Largest relative profile distance (L1 distance of the per-PC warp-instruction counts over
    their sum; relative difference of the lines touched) for a reuse, and largest relative
    difference of the cycles per warp instruction of the class's last two measured launches
    (reuse starts once two measured launches agree)."""
    waves: int = 6
    """Intra-kernel: CTA waves replayed in detail at least (at least 4). The replay pauses as
    each wave after the first starts (plus one CTA per SM, the engine's look-ahead); once the
    rate of the intervals between pauses (the first third left out) is known within
    ``stability``,
    the rest of the launch is projected at that rate."""
    max_waves: int = 12
    """Intra-kernel: CTA waves replayed at most; a launch still unsteady then is projected
    anyway, with the rates' difference in its error estimate (at least ``waves``)."""
    stability: float = 0.03
    """Relative standard error of the steady wave rate (cycles per warp instruction) at which
    the replay stops and projects."""
    min_waves: int = 16
    """Intra-kernel: only launches of at least this many CTA waves are sampled; shorter ones are
    replayed in full (more than ``max_waves``)."""
    intra: bool = True
    """Sample inside launches (False: only kernel-level reuse)."""

    def __post_init__(self) -> None:
        for name in ("reuse", "intra"):
            if not isinstance(getattr(self, name), bool):
                raise ConfigError(f"sample.{name}", getattr(self, name), "true or false")
        tol = self.tolerance
        if isinstance(tol, bool) or not isinstance(tol, (int, float)) or not 0 <= tol < 1:
            raise ConfigError("sample.tolerance", tol, "a number in [0, 1)",
                              hint="e.g. tolerance=0.02 (2 %)")
        for name, low in (("waves", 4), ("max_waves", self.waves),
                          ("min_waves", self.max_waves + 1)):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or v < low:
                raise ConfigError(f"sample.{name}", v, f"an integer >= {low}", hint=(
                    "waves >= 4, max_waves >= waves and min_waves > max_waves: a launch is "
                    "sampled only when it has more waves than the sample may replay"))
        st = self.stability
        if isinstance(st, bool) or not isinstance(st, (int, float)) or not 0 < st < 1:
            raise ConfigError("sample.stability", st, "a number in (0, 1)",
                              hint="e.g. stability=0.03 (3 %)")
        if not (self.reuse or self.intra):
            raise ConfigError("sample", "reuse=false,intra=false", "at least one of reuse and "
                              "intra", hint="leave sampling off instead (no --sample)")

    def spec(self) -> str:
        """The ``--sample`` spec of these options (``parse_sample(o.spec()) == o``)."""
        return ",".join(f"{f.name}={_fmt(getattr(self, f.name))}" for f in fields(self))


def _fmt(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


_BOOLS = {"true": True, "1": True, "on": True, "yes": True,
          "false": False, "0": False, "off": False, "no": False}


def parse_sample(spec: str) -> SampleOptions:
    """``SampleOptions`` from a spec: ``""``/``"on"``/``"default"`` for the defaults, or
    ``key=value`` pairs separated by commas (``waves=4,max_waves=12,min_waves=16,reuse=off``).
    Unknown keys and bad values are a ``ConfigError``."""
    text = spec.strip()
    if text.lower() in ("", "on", "true", "default", "1"):
        return SampleOptions()
    known = {f.name: f for f in fields(SampleOptions)}
    kwargs: dict[str, Any] = {}
    for item in text.split(","):
        key, sep, raw = item.partition("=")
        key, raw = key.strip(), raw.strip()
        if not sep or key not in known:
            raise ConfigError("sample", item, f"key=value with a key among {sorted(known)}",
                              hint="e.g. --sample waves=4,max_waves=8,min_waves=10")
        if key in ("reuse", "intra"):
            if raw.lower() not in _BOOLS:
                raise ConfigError(f"sample.{key}", raw, "true or false")
            kwargs[key] = _BOOLS[raw.lower()]
        elif key in ("tolerance", "stability"):
            try:
                kwargs[key] = float(raw)
            except ValueError:
                raise ConfigError(f"sample.{key}", raw, "a number below 1") from None
        else:
            try:
                kwargs[key] = int(raw)
            except ValueError:
                raise ConfigError(f"sample.{key}", raw, "an integer") from None
    return SampleOptions(**kwargs)


def resolve_sample(sample: Any) -> SampleOptions | None:
    """What ``Device(sample=...)`` accepts: None (the ``WARPSIM_SAMPLE`` environment variable,
    else off), False (off), True (defaults), a spec string or a ``SampleOptions``."""
    if sample is None:
        env = os.environ.get(ENV_VAR)
        return None if env is None or env.strip().lower() in ("", "off", "false", "0") \
            else parse_sample(env)
    if sample is False:
        return None
    if sample is True:
        return SampleOptions()
    if isinstance(sample, SampleOptions):
        return sample
    if isinstance(sample, str):
        return parse_sample(sample)
    raise ConfigError("Device.sample", sample, "None, a bool, a spec string or SampleOptions",
                      hint="e.g. Device(config='gtx480', sample=True)")
