"""The ``warpsim`` command line.

Every sub-command catches ``WarpsimError``, prints its message and exits with status 2; a
traceback is shown only with ``--debug`` (STYLE.md §2.7). Any other exception is a bug and keeps
its traceback.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any

import numpy as np

from warpsim.errors import WarpsimError
from warpsim.runner.kernel_stats import SUMMARY_ROWS, format_launches

__all__ = ["main"]


def _load_module(path: str, arch: str):
    """Parse a .ptx file, or compile a .cu file to PTX first; returns (module, ptx text)."""
    from warpsim.ptx.parser import parse_ptx

    p = Path(path)
    if not p.exists():
        raise WarpsimError(f"no such file: {path}")
    if p.suffix == ".ptx":
        try:
            text = p.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise WarpsimError(f"{path} is not a PTX text file (it holds binary data)\n"
                               "  hint: give a .ptx or .cu file") from None
        except OSError as exc:
            raise WarpsimError(f"cannot read {path}: {exc.strerror or exc}") from None
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

    result = run_perf(functional=not args.timing_only, timing=not args.functional_only,
                      repeat=args.repeat)
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
    if result.get("timing_benchmarks"):
        lines += ["", f"{'timed (gtx480)':<16}{'launches':>9}{'cycles':>11}{'warp inst':>12}"
                      f"{'timing s':>10}{'warp inst/s':>13}"]
        for b in result["timing_benchmarks"]:
            lines.append(f"{b['name']:<16}{b['launches']:>9}{b['cycles']:>11}"
                         f"{b['warp_instructions']:>12}{b['timing_wall_s']:>10.2f}"
                         f"{b['timing_warp_inst_per_s']:>13.3e}")
    func = result.get("functional_thread_inst_per_s")
    timing = result.get("timing_warp_inst_per_s")
    lines += [
        "",
        "functional_thread_inst_per_s  " + (f"{func:.3e} (median)" if func else "n/a"),
        "timing_warp_inst_per_s        " + (f"{timing:.3e} (median)" if timing else "n/a"),
    ]
    if result.get("numba_compile_s") is not None:
        lines.append(f"numba_compile_s               {result['numba_compile_s']:.1f}")
    lines.append(f"peak_rss_mb                   {result['peak_rss_mb']:.0f}")
    return "\n".join(lines)


def _cmd_bench_list(args: argparse.Namespace) -> int:
    from warpsim.bench import list_benchmarks

    rows = list_benchmarks(registers=not args.no_registers)
    if args.json:
        print(json.dumps(rows, indent=2, default=str))
        return 0
    table = []
    for r in rows:
        for i, k in enumerate(r["kernels"]):
            first = i == 0  # the benchmark's own columns on its first kernel's line only
            table.append((r["name"] if first else "", r["suite"] if first else "",
                          r["resembles"] if first else "", k,
                          str(r["registers"].get(k, "")),
                          str(r["threads_per_block"].get(k, "")),
                          ",".join(r["sizes"]) if first else ""))
    header = ("benchmark", "suite", "resembles", "kernel", "regs", "tpb", "sizes")
    for line in _columns(header, table, right=(4, 5)):
        print(line)
    return 0


def _columns(header: tuple[str, ...], rows: list[tuple[str, ...]],
             right: tuple[int, ...] = ()) -> list[str]:
    """Lines of an aligned text table: each column as wide as its widest cell, two spaces
    between columns (never running together), the columns in ``right`` right-aligned."""
    widths = [max(len(row[c]) for row in (header, *rows)) for c in range(len(header))]
    lines = []
    for row in (header, *rows):
        cells = [cell.rjust(w) if c in right else cell.ljust(w)
                 for c, (cell, w) in enumerate(zip(row, widths, strict=True))]
        lines.append("  ".join(cells).rstrip())
    return lines


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


def _number(value: Any) -> int | float | None:
    """A counter as a JSON number: ints stay ints, NaN/inf (an undefined ratio) become None."""
    if isinstance(value, (bool, np.bool_)):
        return int(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    v = float(value)
    return v if math.isfinite(v) else None


def _run_one(name: str, args: argparse.Namespace, cfg: Any) -> dict[str, Any]:
    """Run benchmark ``name`` on a timed Device of ``cfg``; returns the ``warpsim run`` record."""
    import warpsim
    from warpsim.bench import run_benchmark

    gpu = warpsim.Device(config=cfg, sample=args.sample)
    launches: list[dict[str, Any]] = []
    status = sys.stderr.isatty() and not args.quiet

    def observe(kernel: Any, launch_cfg: Any, result: Any) -> None:
        t = result.timing
        launches.append({"kernel": kernel.name, "cycles": int(t.cycles),
                         "warp_insts": int(result.stats["gpgpu_n_tot_w_icount"]),
                         "timing_wall_s": float(t.wall_s),
                         "numba_compile_s": float(t.numba_compile_s),
                         "ctas_per_sm": int(t.occupancy.get("ctas_per_sm", 0)),
                         "grid": list(launch_cfg.grid), "block": list(launch_cfg.block),
                         "stats": {k: _number(v) for k, v in result.stats.items()}})
        if status:
            done = sum(x["cycles"] for x in launches)
            print(f"\r\x1b[K{name}: launch {len(launches)} ({kernel.name}), {done} cycles",
                  end="", file=sys.stderr, flush=True)

    gpu.add_launch_observer(observe)
    if status:
        print(f"{name}: running ({args.size}, {cfg.name})", end="", file=sys.stderr, flush=True)
    result = run_benchmark(name, size=args.size, device=gpu)
    if status:
        print("\r\x1b[K", end="", file=sys.stderr, flush=True)
    stats = {k: _number(v) for k, v in gpu.stats.items()}
    compile_s = sum(x["numba_compile_s"] for x in launches)
    timing_s = sum(x["timing_wall_s"] for x in launches)
    wall_s = max(result.total_seconds - compile_s, 1e-9)
    warp_insts = float(stats.get("gpgpu_n_tot_w_icount") or 0)
    occupancy: dict[str, int] = {}
    for x in launches:
        occupancy.setdefault(x["kernel"], x["ctas_per_sm"])
    record: dict[str, Any] = {
        "benchmark": result.name, "config": cfg.name, "overrides": list(args.override),
        "gpgpusim_config": args.gpgpusim_config, "size": result.size,
        "verified": result.verified, "mismatches": list(result.mismatches),
        "launches": result.n_launches, "stats": stats, "ctas_per_sm": occupancy,
        "wall_s": round(wall_s, 4), "warp_inst_per_s": warp_insts / wall_s,
        "timing_wall_s": round(timing_s, 4),
        "timing_warp_inst_per_s": warp_insts / timing_s if timing_s > 0 else None,
        "numba_compile_s": round(compile_s, 3), "ptx_compile_s": round(result.compile_seconds, 3),
        "per_launch": launches,
    }
    if gpu.sampler is not None:  # sampled: say so, with the projected share and its error
        record.update(sampled=bool(stats.get("sampled")),
                      sample_projected_fraction=stats.get("sample_projected_fraction"),
                      sample_error_est=stats.get("sample_error_est"))
    if args.energy or args.json:
        from warpsim.power import energy_for_gpu

        bd = energy_for_gpu(gpu.stats, gpu.gpu_config)
        record["energy"] = bd.to_dict()
        record["_breakdown"] = bd
    gpu.close()
    return record


def _format_run(record: dict[str, Any]) -> str:
    """The text summary of one ``warpsim run`` record, GPGPU-Sim style (``name = value``)."""
    s = record["stats"]
    status = "verified" if record["verified"] else "FAILED verification"
    lines = [f"{record['benchmark']} ({record['size']}) on {record['config']}: {status}, "
             f"{record['launches']} launches"]
    lines += [f"  {line}" for line in record["mismatches"]]
    for key, fmt in SUMMARY_ROWS:
        value = s.get(key)
        text = "n/a" if value is None else format(value, fmt)
        lines.append(f"{key:<32} = {text}")
    if "sampled" in record:
        lines.append(f"{'sampled':<32} = {'yes' if record['sampled'] else 'no'} (projected "
                     f"{100 * (record['sample_projected_fraction'] or 0):.1f} % of the cycles, "
                     f"estimated error {100 * (record['sample_error_est'] or 0):.2f} %)")
    occ = ", ".join(f"{k} {v}" for k, v in record["ctas_per_sm"].items())
    lines.append(f"{'ctas_per_sm':<32} = {occ}")
    lines.append(f"{'wall_s':<32} = {record['wall_s']:.3f} (numba compile "
                 f"{record['numba_compile_s']:.1f} s excluded)")
    lines.append(f"{'warp_inst_per_s':<32} = {record['warp_inst_per_s']:.4g} (functional + "
                 f"timing; timing alone {record['timing_warp_inst_per_s'] or 0:.4g})")
    return "\n".join(lines)


def _cmd_run(args: argparse.Namespace) -> int:
    from warpsim.arch import resolve_config
    from warpsim.bench import get_benchmark

    for name in args.benchmarks:  # every name is checked before anything runs
        get_benchmark(name)
    cfg = resolve_config(args.config, gpgpusim_config=args.gpgpusim_config,
                         overrides=args.override)
    if args.sample is not None:  # a bad spec fails before anything runs
        from warpsim.sampling import parse_sample

        args.sample = parse_sample(args.sample)
    failed = 0
    for i, name in enumerate(args.benchmarks):
        record = _run_one(name, args, cfg)
        breakdown = record.pop("_breakdown", None)
        failed += not record["verified"]
        if args.json:
            print(json.dumps(record, indent=None if len(args.benchmarks) > 1 else 2),
                  flush=True)
            continue
        if i:
            print()
        if args.per_kernel:
            print(format_launches(record["per_launch"]))
            print()
        print(_format_run(record))
        if args.energy and breakdown is not None:
            from warpsim.power import format_energy_table

            print()
            print(format_energy_table(breakdown))
    return 1 if failed else 0


def _cmd_doctor(args: argparse.Namespace) -> int:
    from warpsim.toolchain import toolchain_info

    print(json.dumps(toolchain_info(), indent=2, default=str))
    return 0


def _cmd_nvcc(args: argparse.Namespace) -> int:
    from warpsim.cudart.nvcc import run_nvcc

    return run_nvcc(list(args.nvcc_args))


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
    p.add_argument("--functional-only", action="store_true", help="skip the timing half")
    p.add_argument("--timing-only", action="store_true", help="skip the functional half")
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

    p = sub.add_parser("run", help="run benchmarks on the timing model: cycles, IPC, caches, "
                                   "register banks, energy")
    p.add_argument("benchmarks", nargs="+", metavar="BENCH",
                   help="benchmark name(s) (`warpsim bench list`); several run one after "
                        "another in one process (the timing engine compiles once)")
    p.add_argument("--config", default="gtx480", help="GPU preset (default gtx480)")
    p.add_argument("--gpgpusim-config", metavar="FILE",
                   help="a gpgpusim.config applied over --config")
    p.add_argument("-o", "--override", action="append", default=[], metavar="FIELD=VALUE",
                   help="dotted configuration override, e.g. -o regfile.n_banks=32 "
                        "(repeatable)")
    p.add_argument("--size", default="small", help="tiny, small or paper (default small)")
    p.add_argument("--json", action="store_true",
                   help="print one JSON record per benchmark (energy included)")
    p.add_argument("--energy", action="store_true", help="also print the energy breakdown")
    p.add_argument("--per-kernel", action="store_true",
                   help="also print each launch's statistics (GPGPU-Sim's per-kernel dump: "
                        "kernel_name, kernel_launch_uid, gpu_sim_cycle, ...)")
    p.add_argument("-q", "--quiet", action="store_true", help="no status line on stderr")
    from warpsim.runner.sampling_cli import add_sample_option

    add_sample_option(p)
    p.set_defaults(func=_cmd_run)

    p = sub.add_parser("doctor", help="show which CUDA toolchain warpsim found")
    p.set_defaults(func=_cmd_doctor)

    p = sub.add_parser("nvcc", help="build a CUDA program for `warpsim exec` with nvcc (the "
                                    "nvidia-cuda-nvcc wheel when no CUDA toolkit is installed)",
                       description="Runs nvcc with ARGS unchanged, adding -cudart shared, "
                                   "-lineinfo and "
                                   "warpsim's libcudart to link against, e.g. warpsim nvcc "
                                   "-arch=sm_80 -o app app.cu && warpsim exec -- ./app")
    p.add_argument("nvcc_args", nargs=argparse.REMAINDER, metavar="ARGS",
                   help="nvcc's arguments")
    p.set_defaults(func=_cmd_nvcc)

    from warpsim.runner.cli import add_subcommands

    add_subcommands(sub)
    from warpsim.report.rf_share_cli import add_subcommand as add_energy_share

    add_energy_share(sub)
    from warpsim.cudart.cli import add_subcommand as add_exec

    add_exec(sub)
    from warpsim.experiments.occupancy_cli import add_subcommand as add_occupancy

    add_occupancy(sub)
    from warpsim.mechanisms.regless.regions_cli import add_subcommand as add_regions

    add_regions(sub)
    from warpsim.experiments.locality_cli import add_subcommand as add_locality

    add_locality(sub)
    from warpsim.runner.sampling_cli import add_subcommand as add_validate_sampling

    add_validate_sampling(sub)
    return ap


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``warpsim`` console script."""
    argv = list(sys.argv[1:] if argv is None else argv)
    debug = argv[:1] == ["--debug"]
    if argv[debug:debug + 1] == ["nvcc"] and argv[debug + 1:debug + 2] not in (["-h"],
                                                                             ["--help"]):
        # nvcc's options (-o, -arch=...) are passed on verbatim, never parsed by argparse
        args = argparse.Namespace(func=_cmd_nvcc, nvcc_args=argv[debug + 1:], debug=debug)
    else:
        args = _parser().parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except WarpsimError as err:
        if args.debug:
            raise
        print(f"error: {err.message}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # Ctrl-C: stop quietly, the shell's status for SIGINT
        if args.debug:
            raise
        print("\nwarpsim: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
