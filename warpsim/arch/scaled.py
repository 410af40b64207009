"""A GPU scaled down to a few SMs for quick reproductions (issue 17, "``--quick`` reproductions
that mean something").

Follows: issue 17. A paper's GPU is cut to ``n_sms / k`` SMs and ``dram.n_channels / k`` memory
channels for one integer ``k`` that divides both (by default their greatest common divisor: the
smallest GPU with exactly the paper's SMs per channel). Only those two counts change:

- ``sm.n_sms``: fewer SMs, so a small input fills every SM with the paper's occupancy;
- ``dram.n_channels``: the memory channels, and with them the L2 slices
  (``l2.n_slices_per_channel`` per channel, unchanged), scale alike, so each SM keeps its share
  of DRAM bandwidth, of L2 capacity and of L2 slice ports (the crossbar's ports carry
  ``icnt.flit_bytes`` each, per SM and per slice, so interconnect bandwidth per SM is kept
  too).

Everything per SM (warps, CTAs, registers, shared memory, L1s, schedulers, pipelines), every
latency and every clock stays the paper's. What does change, and is stated with each quick
result: fewer SMs share one L2 (lines one SM fetches serve fewer others), addresses interleave
over fewer channels, and a CTA's global position in the grid meets fewer concurrent CTAs.
"""

from __future__ import annotations

import math
from typing import Any

from warpsim.errors import ConfigError

__all__ = ["scaled_overrides"]


def scaled_overrides(cfg: Any, factor: int | None = None) -> dict[str, int]:
    """The dotted overrides that scale ``cfg`` (a ``GPUConfig``) down by ``factor``.

    Parameters
    ----------
    cfg
        The full GPU (a resolved ``GPUConfig``).
    factor
        Divisor of both ``sm.n_sms`` and ``dram.n_channels``; None takes their greatest common
        divisor (gtx480: 15 SMs / 6 channels -> 5 / 2; c2050: 14 / 6 -> 7 / 3).

    Raises
    ------
    ConfigError
        When ``factor`` does not divide both counts or leaves a cluster split, or the GPU has
        SM kinds (a heterogeneous mix has no single way to scale).
    """
    n_sms, n_ch = int(cfg.sm.n_sms), int(cfg.dram.n_channels)
    k = math.gcd(n_sms, n_ch) if factor is None else int(factor)
    if k < 1 or n_sms % k or n_ch % k:
        raise ConfigError("scale factor", factor, f"a positive divisor of both sm.n_sms = "
                          f"{n_sms} and dram.n_channels = {n_ch}")
    if (n_sms // k) % int(cfg.sm.n_sms_per_cluster):
        raise ConfigError("scale factor", k, f"one that keeps whole clusters of "
                          f"sm.n_sms_per_cluster = {cfg.sm.n_sms_per_cluster}")
    kinds = getattr(cfg, "sm_kinds", None)
    if kinds is not None and tuple(getattr(kinds, "n_sms", ()) or ()):
        raise ConfigError("sm_kinds.n_sms", kinds.n_sms, "no SM kinds on a scaled GPU",
                          hint="scale each kind's SM count by hand")
    return {"sm.n_sms": n_sms // k, "dram.n_channels": n_ch // k}
