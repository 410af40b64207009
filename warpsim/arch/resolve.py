"""Building the run's GPU configuration from a preset or gpgpusim.config plus overrides.

Follows: STYLE.md §2.3 (variants by dotted overrides); the CLI's ``--gpu NAME``,
``--gpgpusim-config FILE`` and ``-o path=value`` options map onto ``resolve_config``'s arguments.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from warpsim.arch.config import GPUConfig
from warpsim.arch.gpgpusim_config import read_gpgpusim_config
from warpsim.arch.overrides import apply_overrides
from warpsim.arch.presets import get_preset

__all__ = ["resolve_config"]


def resolve_config(gpu: str | GPUConfig = "gtx480", *,
                   gpgpusim_config: str | Path | None = None,
                   overrides: Mapping[str, Any] | Iterable[str] = ()) -> GPUConfig:
    """The configuration of a run: preset (or config), then a gpgpusim.config, then overrides.

    Parameters
    ----------
    gpu
        A preset name (``"gtx480"``) or a ``GPUConfig``; the base of everything else.
    gpgpusim_config
        Optional GPGPU-Sim option file applied over ``gpu`` (its unmapped options are logged).
    overrides
        Dotted overrides applied last (``["sm.n_schedulers=4"]`` or a mapping).

    Raises
    ------
    ConfigError
        For an unknown preset, option value, field or an invalid result.
    """
    cfg = get_preset(gpu) if isinstance(gpu, str) else gpu
    if gpgpusim_config is not None:
        cfg, _unmapped = read_gpgpusim_config(Path(gpgpusim_config), base=cfg)
    return apply_overrides(cfg, overrides)
