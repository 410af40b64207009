"""``warpsim occupancy``: thread blocks per SM with and without Register Sharing.

Prints the baseline block count (GPGPU-Sim ``max_cta``) and the Register-Sharing count for a
threshold t with what limits each (issue #9; specs/register-sharing.md §2-§3.3, the paper's
Table 5). ``--json`` prints the fields of ``SharingOccupancy.as_dict`` plus the threshold.
"""

from __future__ import annotations

import argparse
import json
from fractions import Fraction
from typing import Any

from warpsim.mechanisms.register_sharing.occupancy import as_fraction, sharing_occupancy

__all__ = ["add_subcommand", "format_occupancy", "occupancy_report"]


def occupancy_report(config: str = "c2050", *, regs: int, threads: int, smem: int = 0,
                     threshold: Any = None, overrides: tuple[str, ...] = (),
                     gpgpusim_config: str | None = None) -> dict[str, Any]:
    """Baseline and shared occupancy as plain values. ``threshold=None`` takes the config's
    ``register_sharing.threshold_frac`` (0.1 when the section has none)."""
    from warpsim.arch import resolve_config

    cfg = resolve_config(config, gpgpusim_config=gpgpusim_config, overrides=list(overrides))
    if threshold is None:
        threshold = getattr(getattr(cfg, "register_sharing", None), "threshold_frac", 0.1)
    t = as_fraction(threshold, "--sharing-threshold")
    occ = sharing_occupancy(cfg, threads, regs, smem, t)
    warp = cfg.sm.n_threads_per_warp
    wpc = -(-threads // warp)
    out = {"config": cfg.name, "threads": threads, "regs_per_thread": regs,
           "smem_bytes": smem, "threshold": float(t), "threshold_fraction": str(t),
           "sharing_percent": float((1 - t) * 100), "warps_per_block": wpc,
           "baseline_warps": occ.baseline_blocks * wpc, "warps": occ.blocks * wpc,
           **occ.as_dict()}
    return out


def format_occupancy(rep: dict[str, Any]) -> str:
    """The human-readable report of ``occupancy_report``."""
    t = Fraction(rep["threshold_fraction"])
    lim = ", ".join(f"{k} {v}" for k, v in rep["resource_limits"].items())
    lines = [
        f"{rep['config']}: {rep['threads']} threads x {rep['regs_per_thread']} registers, "
        f"{rep['smem_bytes']} B shared memory per block (R_tb = {rep['regs_per_block']} "
        f"registers)",
        f"baseline: {rep['baseline_blocks']} blocks/SM ({rep['baseline_warps']} warps), "
        f"limited by {rep['baseline_limit']}; {rep['unused_registers']} of "
        f"{rep['registers_per_sm']} registers unused",
        f"  blocks allowed per resource: {lim}",
    ]
    head = f"sharing t = {t} ({rep['sharing_percent']:g}% sharing): {rep['blocks']} blocks/SM"
    if rep["sharing_mode"]:
        lines.append(f"{head} ({rep['warps']} warps) = {rep['shared_pairs']} shared pairs + "
                     f"{rep['unshared_blocks']} unshared blocks, limited by {rep['limit']}; "
                     f"u = {rep['unshared_regs_per_thread']} unshared registers per thread")
    else:
        lines.append(f"{head}, no extra block fits (limited by {rep['limit']}): all blocks "
                     f"unshared")
    return "\n".join(lines)


def _cmd_occupancy(args: argparse.Namespace) -> int:
    rep = occupancy_report(args.config, regs=args.regs, threads=args.threads, smem=args.smem,
                           threshold=args.sharing_threshold, overrides=tuple(args.override),
                           gpgpusim_config=args.gpgpusim_config)
    print(json.dumps(rep, indent=2) if args.json else format_occupancy(rep))
    return 0


def add_subcommand(sub: Any) -> None:
    """Register ``occupancy`` on the ``warpsim`` sub-parser set ``sub``."""
    p = sub.add_parser("occupancy", help="thread blocks per SM with and without Register "
                       "Sharing, and what limits them")
    p.add_argument("--config", default="c2050", help="GPU preset (default c2050)")
    p.add_argument("--gpgpusim-config", default=None, help="GPGPU-Sim option file")
    p.add_argument("-o", "--override", action="append", default=[], metavar="PATH=VALUE",
                   help="configuration override, e.g. sm.n_registers=65536")
    p.add_argument("--regs", type=int, required=True, help="registers per thread")
    p.add_argument("--threads", type=int, required=True, help="threads per block")
    p.add_argument("--smem", type=int, default=0, help="shared memory per block in bytes")
    p.add_argument("--sharing-threshold", default=None, metavar="T",
                   help="t in (0, 1] (0.1 = 90%% sharing; fractions such as 1/10 accepted); "
                        "default: register_sharing.threshold_frac of the config, else 0.1")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=_cmd_occupancy)
