"""``warpsim energy-share``: the register file's share of GPU energy per benchmark.

Follows: docs/energy-model.md §8 (the table it prints) and issue #6's acceptance criterion.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

__all__ = ["add_subcommand"]


def _cmd_energy_share(args: argparse.Namespace) -> int:
    from warpsim.power import get_energy_table
    from warpsim.power.rf_share import format_rf_share_table
    from warpsim.report.rf_share import (
        load_records,
        rf_share_from_records,
        rf_share_table,
        save_records,
    )

    table = get_energy_table(args.table) if args.table else None
    if args.from_file:
        records = load_records(args.from_file)
        if args.benchmarks:
            keep = set(args.benchmarks)
            records = [r for r in records if r["benchmark"] in keep]
        rows, summary, failed = rf_share_from_records(records, table=table)
    else:
        status = sys.stderr.isatty() and not args.quiet

        def progress(rec: dict[str, Any]) -> None:
            if status:
                state = rec.get("error", f"{rec['wall_s']:.1f} s")
                print(f"{rec['benchmark']}: {state}", file=sys.stderr, flush=True)

        rows, summary, records = rf_share_table(args.benchmarks or None, size=args.size,
                                                config=args.config, table=table,
                                                progress=progress)
        failed = [r for r in records if "error" in r]
        if args.save:
            save_records(records, args.save)
    if args.json:
        print(json.dumps({"rows": rows, "summary": summary,
                          "failed": [{"benchmark": r["benchmark"], "error": r["error"]}
                                     for r in failed]}, indent=2))
    else:
        print(format_rf_share_table(rows, summary))
        for rec in failed:
            print(f"not run: {rec['benchmark']} ({rec['error']})")
    return 1 if failed or not all(r["verified"] for r in rows) else 0


def add_subcommand(sub: Any) -> None:
    """Register ``energy-share`` on the ``warpsim`` sub-parser set ``sub``."""
    p = sub.add_parser("energy-share", help="register-file share of GPU energy per benchmark "
                                            "(docs/energy-model.md §8)")
    p.add_argument("benchmarks", nargs="*", metavar="BENCH",
                   help="benchmark names (default: the whole suite)")
    p.add_argument("--size", default="small", help="tiny, small or paper (default small)")
    p.add_argument("--config", default="gtx480", help="GPU preset (default gtx480)")
    p.add_argument("--table", help="energy table (default: the preset's, gtx480_gpuwattch)")
    p.add_argument("--json", action="store_true", help="print rows and summary as JSON")
    p.add_argument("--save", metavar="FILE", help="also write the raw records (JSON lines)")
    p.add_argument("--from", dest="from_file", metavar="FILE",
                   help="re-evaluate records saved with --save instead of simulating")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")
    p.set_defaults(func=_cmd_energy_share)
