"""The ``sweep``, ``results``, ``report`` and ``reproduce`` sub-commands of ``warpsim``.

Follows: ARCHITECTURE.md §6-§7. :func:`add_subcommands` adds them to the main parser of
``warpsim/cli.py``; each sets ``func`` to a handler ``(args) -> exit status`` and raises
``WarpsimError`` for user errors (the main CLI prints those and exits with 2). :func:`main`
runs them alone (``python -m warpsim.runner.cli sweep FILE``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from warpsim.errors import WarpsimError

__all__ = ["add_subcommands", "main"]


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is not a positive integer")
    return value


def _cmd_sweep(args: argparse.Namespace) -> int:
    from warpsim.runner.sweep import load_sweep, run_sweep

    spec = load_sweep(args.file)
    jobs = spec.jobs()
    out = Path(args.out) if args.out else Path("results") / spec.name
    if args.dry_run:
        for job in jobs:
            print(f"{job.job_id}  {job.benchmark:<24} {job.size:<6} {job.variant}")
        print(f"{len(jobs)} jobs -> {out}")
        return 0
    try:
        summary = run_sweep(spec, out, jobs=args.jobs, dask=args.dask, resume=args.resume,
                            retry_failed=args.retry_failed)
    except KeyboardInterrupt:
        print(f"\ninterrupted: the records written so far are kept in {out}; continue with "
              f"`warpsim sweep {args.file} --out {out} --resume`", file=sys.stderr)
        return 130
    ran = summary.ok + summary.failed
    print(f"sweep {spec.name}: {summary.total} jobs, {summary.skipped} already recorded, "
          f"{ran} run ({summary.ok} ok, {summary.failed} failed) in {summary.wall_s:.1f} s "
          f"-> {summary.out}")
    for job_id, error in summary.failures[:20]:
        print(f"  failed {job_id}: {error}", file=sys.stderr)
    if len(summary.failures) > 20:
        print(f"  ... and {len(summary.failures) - 20} more", file=sys.stderr)
    return 1 if summary.failed else 0


def _print_frame(df: Any, fmt: str) -> None:
    if fmt == "csv":
        sys.stdout.write(df.to_csv(index=False))
    elif fmt == "json":
        sys.stdout.write(df.to_json(orient="records", indent=1) + "\n")
    else:
        import pandas as pd

        with pd.option_context("display.max_rows", 500, "display.max_columns", 50,
                               "display.width", 200):
            print(df.to_string(index=False) if len(df) else "(no rows)")


def _cmd_results_query(args: argparse.Namespace) -> int:
    from warpsim.runner.store import query_results

    _check_dir(args.dir)
    _print_frame(query_results(args.dir, args.sql), args.format)
    return 0


def _cmd_results_summary(args: argparse.Namespace) -> int:
    from warpsim.runner.store import query_results

    _check_dir(args.dir)
    sql = ("SELECT variant, count(*) AS jobs, count(*) FILTER (WHERE status = 'ok') AS ok, "
           "count(*) FILTER (WHERE status <> 'ok') AS failed, round(sum(wall_s), 2) AS wall_s "
           "FROM results GROUP BY variant ORDER BY variant")
    _print_frame(query_results(args.dir, sql), args.format)
    return 0


def _cmd_results_compact(args: argparse.Namespace) -> int:
    from warpsim.runner.store import ResultStore

    _check_dir(args.dir)
    store = ResultStore(args.dir)
    n = len(store.files())
    path = store.compact()
    print(f"merged {n} record files into {path.name}" if path else "nothing to merge")
    return 0


def _check_dir(directory: str) -> None:
    from warpsim.runner.store import MANIFEST, ResultStore

    if not Path(directory).is_dir():
        raise WarpsimError(f"no result folder {directory}\n  hint: run `warpsim sweep FILE "
                           f"--out {directory}` first")
    if not ResultStore(directory).is_result_folder():
        raise WarpsimError(f"{directory} is not a result folder: it holds no {MANIFEST} and no "
                           "records-*.parquet files\n  hint: give the --out folder of a "
                           "`warpsim sweep` (default results/NAME)")


def _cmd_report(args: argparse.Namespace) -> int:
    from warpsim.report import make_report

    _check_dir(args.dir)
    formats = tuple(f for f in args.formats.split(",") if f)
    path = make_report(args.dir, args.out, baseline=args.baseline, formats=formats)
    print(f"report: {path}")
    return 0


def _show_experiment_progress() -> Any:
    """On a terminal (or with ``WARPSIM_PROGRESS=1``), the reproductions' INFO lines (each
    simulation they start, ``warpsim.experiments`` loggers) go to stderr with the time; the
    handler, or None."""
    import logging

    from warpsim.timing.progress import progress_wanted

    if not progress_wanted():
        return None
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(asctime)s %(message)s", "%H:%M:%S"))
    logger = logging.getLogger("warpsim.experiments")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    return handler


def _cmd_reproduce(args: argparse.Namespace) -> int:
    from warpsim.runner.reproduce import list_reproductions, reproduce, result_folder

    if args.list or not args.paper:
        entries = list_reproductions()
        if not entries:
            print("no reproductions registered yet (each mechanism issue registers its paper)")
        for entry in entries:
            print(f"{entry.name:<20} {entry.description}")
        return 0
    folder = result_folder(args.paper, args.quick, args.out)
    if getattr(args, "sample", None) is not None:
        from warpsim.runner.sampling_cli import export_sample

        export_sample(args.sample)  # every timed Device of the jobs (local workers too)
        print(f"reproduce {args.paper}: sampled simulation ({args.sample}; docs/sampling.md)",
              file=sys.stderr)
    _show_experiment_progress()
    try:
        result = reproduce(args.paper, quick=args.quick, out=args.out, jobs=args.jobs,
                           dask=args.dask)
    finally:  # also when it stopped half way: say where its records are
        if folder.exists():
            print(f"reproduce {args.paper}: results in {folder.resolve()}", file=sys.stderr)
    if getattr(args, "json", False):  # one JSON object on stdout, whatever the result is
        print(json.dumps({"result": str(result)} if isinstance(result, str | Path) or
                         result is None else result, default=str))
    elif result is not None:
        print(result if isinstance(result, str | Path) else json.dumps(result, default=str))
        if isinstance(result, dict) and result.get("residency"):
            from warpsim.runner.residency import format_residency_table

            print(format_residency_table(result["residency"], "\nresident warps per SM "
                                         "(baseline runs) vs the GPU's maximum:"))
    return 0


def add_subcommands(subparsers: Any) -> None:
    """Add ``sweep``, ``results`` (``query``, ``summary``), ``report`` and ``reproduce``."""
    p = subparsers.add_parser("sweep", help="run a sweep file (benchmarks x configurations x "
                                            "mechanisms) into a result folder")
    p.add_argument("file", help="sweep description (.yaml or .toml; see docs/runner.md)")
    p.add_argument("--jobs", "-j", type=_positive_int, default=None,
                   help="local worker processes (default: the core count)")
    p.add_argument("--dask", metavar="ADDRESS", default=None,
                   help="run on a Dask cluster, e.g. tcp://host:8786")
    p.add_argument("--out", "-o", default=None, help="result folder (default results/NAME)")
    p.add_argument("--resume", action="store_true",
                   help="continue a killed sweep: skip the jobs already recorded")
    p.add_argument("--retry-failed", action="store_true",
                   help="with --resume, run the failed jobs again")
    p.add_argument("--dry-run", action="store_true", help="list the jobs and exit")
    p.set_defaults(func=_cmd_sweep)

    p = subparsers.add_parser("results", help="query a result folder with DuckDB")
    sub = p.add_subparsers(dest="results_command", required=True)
    q = sub.add_parser("query", help='run SQL over the table `results`, e.g. "SELECT '
                                     'benchmark, gpu_sim_insn FROM results"')
    q.add_argument("dir", help="result folder")
    q.add_argument("sql", help="DuckDB SQL; tables: results (one per job), results_all")
    q.add_argument("--format", choices=("table", "csv", "json"), default="table")
    q.set_defaults(func=_cmd_results_query)
    q = sub.add_parser("summary", help="jobs, ok, failed and wall time per variant")
    q.add_argument("dir", help="result folder")
    q.add_argument("--format", choices=("table", "csv", "json"), default="table")
    q.set_defaults(func=_cmd_results_summary)
    q = sub.add_parser("compact", help="merge the record files into one (crash-safe)")
    q.add_argument("dir", help="result folder")
    q.set_defaults(func=_cmd_results_compact)

    p = subparsers.add_parser("report", help="figures and one HTML page of a result folder")
    p.add_argument("dir", help="result folder")
    p.add_argument("--out", "-o", default=None, help="output folder (default DIR/report)")
    p.add_argument("--baseline", default=None,
                   help="variant to normalise to (default: the sweep's first)")
    p.add_argument("--formats", default="png,svg", help="figure files (default png,svg)")
    p.set_defaults(func=_cmd_report)

    p = subparsers.add_parser("reproduce", help="run a registered paper experiment")
    p.add_argument("paper", nargs="?", help="registered name (see --list)")
    p.add_argument("--quick", action="store_true", help="small inputs: minutes on a laptop")
    p.add_argument("--list", action="store_true", help="list the registered reproductions")
    p.add_argument("--out", "-o", default=None, help="result folder")
    p.add_argument("--jobs", "-j", type=_positive_int, default=None)
    p.add_argument("--dask", metavar="ADDRESS", default=None)
    p.add_argument("--json", action="store_true",
                   help="print the reproduction's result (its summary) as one JSON object")
    from warpsim.runner.sampling_cli import add_sample_option

    add_sample_option(p)
    p.set_defaults(func=_cmd_reproduce)


def main(argv: list[str] | None = None) -> int:
    """Run one of these sub-commands without the rest of the ``warpsim`` CLI."""
    ap = argparse.ArgumentParser(prog="warpsim")
    ap.add_argument("--debug", action="store_true")
    add_subcommands(ap.add_subparsers(dest="command", required=True))
    args = ap.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except WarpsimError as err:
        if args.debug:
            raise
        print(f"error: {err.message}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
