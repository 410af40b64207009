"""``warpsim locality BENCH``: the probability-based locality table (and surface) of a
benchmark's per-SM global-access stream at the L1 level.

Follows: Xiang's dissertation §5.2.1 and §5.3 (issue 25). The measure, the stream and the plot
are in ``warpsim.mechanisms.coarse_fetch`` (``locality.py``, ``streams.py``,
``surface_plot.py``); this module only runs the benchmark (functional model, traced) and prints.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from warpsim.errors import ConfigError
from warpsim.mechanisms.coarse_fetch.locality import (
    DEFAULT_NEIGHBOURHOODS,
    DEFAULT_WINDOWS,
    LocalitySurface,
    locality,
)
from warpsim.mechanisms.coarse_fetch.streams import GlobalStreams

__all__ = ["add_subcommand", "benchmark_locality", "benchmark_streams"]


def benchmark_streams(bench: str, size: str = "small", n_sms: int = 15,
                      params: dict[str, Any] | None = None) -> list[Any]:
    """Per-SM global line-address streams of one run of ``bench`` (functional model only)."""
    from warpsim.bench import run_benchmark
    from warpsim.runtime import Device

    col = GlobalStreams(n_sms)

    def observe(kernel: Any, cfg: Any, result: Any) -> None:
        if result.trace is not None:
            col.add(result.trace)
            result.trace.chunks.clear()

    dev = Device(trace=True)
    dev.add_launch_observer(observe)
    try:
        run_benchmark(bench, size=size, device=dev, params=params)
    finally:
        dev.close()
    return col.streams()


def benchmark_locality(bench: str, size: str = "small", *, n_sms: int = 15,
                       windows=DEFAULT_WINDOWS,
                       neighbourhoods=DEFAULT_NEIGHBOURHOODS) -> LocalitySurface:
    """The locality surface of ``bench`` (per-SM streams pooled); bad axes are refused before
    the benchmark runs."""
    locality([], windows, neighbourhoods)  # validates the axes (ConfigError)
    return locality(benchmark_streams(bench, size, n_sms), windows, neighbourhoods)


def _ints(text: str, name: str) -> tuple[int, ...]:
    try:
        vals = tuple(int(v) for v in text.split(",") if v.strip())
    except ValueError:
        raise ConfigError(f"locality.{name}", text, "comma-separated positive integers",
                          hint=f"e.g. --{name} 1,2,4,8") from None
    return vals


def _cmd_locality(args: argparse.Namespace) -> int:
    if args.sms < 1:
        raise ConfigError("locality.sms", args.sms, "a positive number of SMs")
    windows = _ints(args.windows, "windows") if args.windows else DEFAULT_WINDOWS
    hoods = (_ints(args.neighbourhoods, "neighbourhoods") if args.neighbourhoods
             else DEFAULT_NEIGHBOURHOODS)
    surf = benchmark_locality(args.bench, args.size, n_sms=args.sms, windows=windows,
                              neighbourhoods=hoods)
    if args.plot:
        from warpsim.mechanisms.coarse_fetch.surface_plot import plot_surface

        plot_surface(surf, args.plot, title=f"{args.bench} ({args.size})")
    if args.json:
        print(json.dumps({"bench": args.bench, "size": args.size, "n_sms": args.sms,
                          **surf.as_dict()}))
        return 0
    print(f"{args.bench} ({args.size}): {surf.n_accesses} global L1 accesses on {args.sms} "
          f"SMs; locality L(w, n), rows n = neighbourhood (bytes), columns w = window "
          f"(accesses)")
    print(surf.table())
    if args.plot:
        print(f"surface written to {args.plot}")
    return 0


def add_subcommand(sub: argparse._SubParsersAction) -> None:
    """Register ``warpsim locality``."""
    p = sub.add_parser("locality", help="probability-based locality of a benchmark's per-SM "
                                        "global L1 access stream (window x neighbourhood)")
    p.add_argument("bench", metavar="BENCH", help="benchmark name (`warpsim bench list`)")
    p.add_argument("--size", default="small", help="tiny, small or paper (default small)")
    p.add_argument("--windows", help="comma-separated windows in accesses (default 1,2,..,1024)")
    p.add_argument("--neighbourhoods",
                   help="comma-separated neighbourhoods in bytes (default 1,2,..,4096)")
    p.add_argument("--sms", type=int, default=15,
                   help="SMs the CTAs are spread over, round robin (default 15)")
    p.add_argument("--plot", metavar="FILE", help="also draw the surface to FILE (.png, .pdf)")
    p.add_argument("--json", action="store_true", help="print the table as JSON")
    p.set_defaults(func=_cmd_locality)
