"""The ``warpsim`` command line.

Every sub-command catches ``WarpsimError``, prints its message and exits with status 2; a
traceback is shown only with ``--debug`` (STYLE.md §2.7). Any other exception is a bug and keeps
its traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from warpsim.errors import WarpsimError

__all__ = ["main"]


def _load_module(path: str, arch: str):
    """Parse a .ptx file, or compile a .cu file to PTX first; returns (module, ptx text)."""
    from warpsim.ptx.parser import parse_ptx

    p = Path(path)
    if not p.exists():
        raise WarpsimError(f"no such file: {path}")
    if p.suffix == ".ptx":
        text = p.read_text()
    else:
        from warpsim.toolchain import compile_cuda

        text = compile_cuda(p, arch=arch).ptx
    return parse_ptx(text, file=str(p)), text


def _cmd_ptx(args: argparse.Namespace) -> int:
    from warpsim.ptx.cfg import build_cfg
    from warpsim.ptx.inline import inline_calls
    from warpsim.ptx.listing import format_listing, format_resources
    from warpsim.ptx.regalloc import allocate_registers

    module, text = _load_module(args.file, args.arch)
    resources = {}
    if not args.no_ptxas:
        from warpsim.toolchain import resource_usage

        try:
            resources = resource_usage(text, arch=args.arch)
        except WarpsimError as err:  # ptxas missing: still list the kernel, say why
            print(f"warning: no ptxas resource usage: {err.message.splitlines()[0]}",
                  file=sys.stderr)
    names = [args.kernel] if args.kernel else list(module.kernels)
    rows = []
    for name in names:
        fn = module.kernel(name)
        fn = inline_calls(module, fn)
        cfg = build_cfg(fn)
        alloc = allocate_registers(fn)
        res = resources.get(fn.name)
        if not args.summary:
            print(format_listing(module, fn, allocation=alloc, cfg=cfg, resources=res))
            print()
        rows.append((fn, alloc, res))
    print(format_resources(rows))
    return 0


def _cmd_perf(args: argparse.Namespace) -> int:
    from warpsim.runner.perf import run_perf

    result = run_perf(functional=True, timing=False, repeat=args.repeat)
    if args.json:
        print(json.dumps(result, indent=2, default=str))
    else:
        print(_format_perf(result))
    return 0


def _format_perf(result: dict) -> str:
    """The perf record as a table: one row per benchmark, then the medians."""
    lines = [f"{'benchmark':<12}{'kind':<16}{'threads':>10}{'thread inst':>14}"
             f"{'wall s':>9}{'thread inst/s':>15}{'warp inst/s':>13}"]
    for b in result.get("benchmarks", []):
        lines.append(f"{b['name']:<12}{b['kind']:<16}{b['threads']:>10}"
                     f"{b['thread_instructions']:>14.3e}{b['wall_s']:>9.2f}"
                     f"{b['thread_inst_per_s']:>15.3e}{b['warp_inst_per_s']:>13.3e}")
    timing = result.get("timing_warp_inst_per_s")
    lines += [
        "",
        f"functional_thread_inst_per_s  {result['functional_thread_inst_per_s']:.3e} (median)",
        "timing_warp_inst_per_s        "
        + (f"{timing:.3e} (median)" if timing else "n/a (no timing engine yet)"),
        f"peak_rss_mb                   {result['peak_rss_mb']:.0f}",
    ]
    return "\n".join(lines)


def _cmd_bench_list(args: argparse.Namespace) -> int:
    from warpsim.bench import list_benchmarks

    rows = list_benchmarks(registers=not args.no_registers)
    if args.json:
        print(json.dumps(rows, indent=2, default=str))
        return 0
    print(f"{'benchmark':<22}{'suite':<10}{'resembles':<30}{'kernel':<34}{'regs':>5}"
          f"{'tpb':>6}  sizes")
    for r in rows:
        for i, k in enumerate(r["kernels"]):
            head = (f"{r['name']:<22}{r['suite']:<10}{r['resembles'][:29]:<30}" if i == 0
                    else " " * 62)
            regs = r["registers"].get(k, "")
            tpb = r["threads_per_block"].get(k, "")
            sizes = ",".join(r["sizes"]) if i == 0 else ""
            print(f"{head}{k[:33]:<34}{regs!s:>5}{tpb!s:>6}  {sizes}")
    return 0


def _cmd_bench_run(args: argparse.Namespace) -> int:
    from warpsim.bench import run_benchmark

    result = run_benchmark(args.name, size=args.size)
    record = {
        "benchmark": result.name, "size": result.size, "verified": result.verified,
        "launches": result.n_launches, "wall_s": round(result.total_seconds, 4),
        "compile_s": round(result.compile_seconds, 4), "mismatches": list(result.mismatches),
    }
    if args.json:
        print(json.dumps(record, indent=2))
    else:
        status = "verified" if result.verified else "FAILED verification"
        print(f"{result.name} ({result.size}): {status}, {result.n_launches} launches, "
              f"{result.total_seconds:.2f} s")
        for line in result.mismatches:
            print(f"  {line}")
    return 0 if result.verified else 1


def _cmd_doctor(args: argparse.Namespace) -> int:
    from warpsim.toolchain import toolchain_info

    print(json.dumps(toolchain_info(), indent=2, default=str))
    return 0


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="warpsim",
        description="warpsim: a GPU microarchitecture simulator for register-file and "
                    "SIMT-efficiency research")
    ap.add_argument("--debug", action="store_true", help="show Python tracebacks on errors")
    sub = ap.add_subparsers(dest="command", required=True)

    p = sub.add_parser("ptx", help="list a kernel with physical registers, blocks, "
                                   "reconvergence points and resources")
    p.add_argument("file", help="a .cu or .ptx file")
    p.add_argument("--kernel", help="kernel name (mangled or C++ name); default: all")
    p.add_argument("--arch", default="sm_80", help="target architecture (default sm_80)")
    p.add_argument("--summary", action="store_true", help="only the resource table")
    p.add_argument("--no-ptxas", action="store_true", help="skip ptxas resource usage")
    p.set_defaults(func=_cmd_ptx)

    p = sub.add_parser("perf", help="the project's speed benchmark (fixed inputs)")
    p.add_argument("--json", action="store_true", help="print one JSON record")
    p.add_argument("--repeat", type=int, default=3, help="runs per benchmark (median)")
    p.set_defaults(func=_cmd_perf)

    p = sub.add_parser("bench", help="the project's benchmark suite")
    bsub = p.add_subparsers(dest="bench_command", required=True)
    q = bsub.add_parser("list", help="benchmarks, kernels, registers per thread, block shapes")
    q.add_argument("--json", action="store_true")
    q.add_argument("--no-registers", action="store_true", help="skip ptxas (faster)")
    q.set_defaults(func=_cmd_bench_list)
    q = bsub.add_parser("run", help="run one benchmark and verify it against numpy")
    q.add_argument("name")
    q.add_argument("--size", default="small", help="tiny, small or paper (default small)")
    q.add_argument("--json", action="store_true")
    q.set_defaults(func=_cmd_bench_run)

    p = sub.add_parser("doctor", help="show which CUDA toolchain warpsim found")
    p.set_defaults(func=_cmd_doctor)

    from warpsim.runner.cli import add_subcommands

    add_subcommands(sub)
    return ap


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``warpsim`` console script."""
    args = _parser().parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except WarpsimError as err:
        if args.debug:
            raise
        print(f"error: {err.message}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
