"""``warpsim validate-sampling`` and the ``--sample`` option shared by the commands that time
launches (docs/sampling.md)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

__all__ = ["add_sample_option", "add_subcommand", "export_sample"]


def add_sample_option(parser: argparse.ArgumentParser) -> None:
    """``--sample [SPEC]`` (docs/sampling.md; the defaults without SPEC)."""
    parser.add_argument("--sample", nargs="?", const="on", default=None, metavar="SPEC",
                        help="sampled simulation: reuse measured launches and project long "
                             "launches from their first CTA waves (optional SPEC, e.g. "
                             "waves=4,max_waves=12,min_waves=16,reuse=on; docs/sampling.md)")


def export_sample(spec: str | None) -> None:
    """Check ``spec`` and put it in the environment (``WARPSIM_SAMPLE``), where every timed
    ``Device`` of this process and of the worker processes it starts finds it."""
    from warpsim.sampling.options import ENV_VAR, parse_sample

    if spec is not None:
        os.environ[ENV_VAR] = parse_sample(spec).spec()


def _cmd_validate(args: argparse.Namespace) -> int:
    from warpsim.bench import list_benchmarks
    from warpsim.runner.validate_sampling import as_json, format_markdown, format_table, validate
    from warpsim.sampling.options import parse_sample

    options = parse_sample(args.sample)
    names = args.benchmarks or [b["name"] for b in list_benchmarks(registers=False)]

    def progress(row: Any) -> None:
        if not args.quiet:
            print(f"{row.benchmark}: error {100 * row.error:+.2f} %, speed-up "
                  f"{row.speedup:.2f}x", file=sys.stderr, flush=True)

    rows = validate(names, size=args.size, config=args.config, overrides=tuple(args.override),
                    options=options, progress=progress)
    if args.json:
        print(json.dumps(as_json(rows), indent=1))
    elif args.markdown:
        print(format_markdown(rows))
    else:
        print(format_table(rows))
    return 0


def add_subcommand(sub: Any) -> None:
    """Add ``warpsim validate-sampling``."""
    p = sub.add_parser("validate-sampling",
                       help="run benchmarks full and sampled: per-benchmark cycle error and "
                            "speed-up, mean and max")
    p.add_argument("--size", default="small", help="tiny, small or paper (default small)")
    p.add_argument("--benchmarks", nargs="+", metavar="BENCH", default=None,
                   help="benchmark names (default: the whole suite)")
    p.add_argument("--config", default="gtx480", help="GPU preset (default gtx480)")
    p.add_argument("-o", "--override", action="append", default=[], metavar="FIELD=VALUE",
                   help="dotted configuration override, e.g. -o warped_compression.enabled=true "
                        "(repeatable): validate with a mechanism on")
    p.add_argument("--sample", default="on", metavar="SPEC",
                   help="the sampling options to validate (default: the defaults)")
    p.add_argument("--json", action="store_true", help="one JSON object: rows and summary")
    p.add_argument("--markdown", action="store_true", help="a Markdown table (for the docs)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress lines on stderr")
    p.set_defaults(func=_cmd_validate)
