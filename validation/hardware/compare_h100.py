#!/usr/bin/env python3
"""warpsim ``--config h100`` against a real H100 (Nsight Compute) on the 28 GPGPU-Sim
validation programs.

    python3 validation/hardware/compare_h100.py [--only NAME ...] [--config h100]
                                                [-o PATH=VALUE ...] [--markdown] [--json FILE|-]

Runs every program (built as ``validation/gpgpusim/vsuite.py`` builds it, the same compute_75
PTX the H100 JIT-compiled) under ``warpsim exec --config h100`` in this process and prints per
kernel launch, from ``reference/h100_ncu.json`` (``pack_ncu.py``):

* ``hw active``: ``sm__cycles_active.max``, the busiest SM's active cycles, against ``ws
  kernel``: warpsim's cycles less its launch latency (``kernel_launch_latency_cycles``, 3000 in
  the h100 preset: the time before the first CTA starts), and their ratio;
* ``hw elapsed`` (``gpc__cycles_elapsed.max``, ~3,100-3,300 cycles more than the active ones:
  the launch) against warpsim's total cycles;
* L2 and DRAM traffic side by side: DRAM bytes read/written (comparable), the L2's read and
  write requests (hardware: 32-byte sectors of ``lts__t_sectors_op_read/write``; warpsim: L2
  accesses, which are 128-byte lines in the unsectored h100 preset, so only the shape compares).

Then per kernel (a program's launches of one kernel summed, as ``compare.py`` does) the ratio
and the mean absolute error over kernels and over launches, and the worst kernels. All cycles
are SM cycles: ncu locks the clocks to base (~1580 MHz SM) by default, warpsim's h100 runs its
SMs at 1980 MHz with latencies calibrated there, so memory-bound kernels take fewer SM cycles on
the profiled GPU than at 1980 MHz; ``--reference reference/h100_ncu_boost.json`` compares with
the run at the GPU's own clocks (~1965 MHz) instead (README.md).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "gpgpusim"))
import vsuite  # noqa: E402

REFERENCE = HERE / "reference" / "h100_ncu.json"
WORST = 5


def _m(launch: dict[str, Any] | None, key: str) -> Any:
    return launch["metrics"].get(key) if launch else None


def compare_program(name: str, ref: dict[str, Any], config: str,
                    overrides: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    """One row per launch of program ``name``: hardware and warpsim cycles and traffic."""
    from warpsim.arch import resolve_config

    cfg = resolve_config(config, overrides=overrides)
    launch_lat = cfg.kernel_launch_latency_cycles
    line = cfg.l2.line_bytes
    status, runs = vsuite.run_warpsim(vsuite.build(name), config, overrides)
    rows = []
    hw_launches = ref["launches"]
    for i in range(max(len(hw_launches), len(runs))):
        hw = hw_launches[i] if i < len(hw_launches) else None
        ws = runs[i] if i < len(runs) else None
        st = ws["stats"] if ws else {}
        row: dict[str, Any] = {
            "program": name, "launch": i, "kernel": hw["kernel"] if hw else ws["kernel"],
            "grid": hw and hw["grid"], "block": hw and hw["block"],
            "hw_active": _m(hw, "sm__cycles_active.max"),
            "hw_elapsed": _m(hw, "gpc__cycles_elapsed.max"),
            "ws_total": ws and ws["cycles"],
            "ws_kernel": ws and ws["cycles"] - launch_lat,
            "warpsim_exit_status": status,
            "warpsim_wall_s": ws and ws["wall_s"],
            "hw_dram_rd_bytes": _m(hw, "dram__bytes_read.sum"),
            "ws_dram_rd_bytes": st.get("dram_read_bytes"),
            "hw_dram_wr_bytes": _m(hw, "dram__bytes_write.sum"),
            "ws_dram_wr_bytes": st.get("dram_write_bytes"),
            "hw_l2_rd_bytes": (_m(hw, "lts__t_sectors_op_read.sum") or 0) * 32 if hw else None,
            "ws_l2_rd_bytes": ((st.get("L2_total_cache_accesses", 0)
                                - st.get("L2_total_cache_writes", 0)) * line) if ws else None,
            "hw_l2_wr_bytes": (_m(hw, "lts__t_sectors_op_write.sum") or 0) * 32 if hw else None,
            "ws_l2_wr_bytes": st.get("L2_total_cache_writes", 0) * line if ws else None,
            "hw_warp_insts_sass": _m(hw, "smsp__inst_executed.sum"),
            "ws_warp_insts_ptx": st.get("gpgpu_n_tot_w_icount"),
        }
        if hw and ws and hw["kernel"] not in ws["kernel"]:
            row["kernel_mismatch"] = [hw["kernel"], ws["kernel"]]
        if row["hw_active"] and row["ws_kernel"] is not None:
            row["ratio"] = row["ws_kernel"] / row["hw_active"]
        if row["hw_elapsed"] and row["ws_total"] is not None:
            row["ratio_elapsed"] = row["ws_total"] / row["hw_elapsed"]
        rows.append(row)
    return rows


def per_kernel(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Active cycles summed over the launches of each (program, kernel)."""
    out = vsuite.sum_launches(rows, ("hw_active", "ws_kernel", "hw_elapsed", "ws_total"))
    for k in out:
        k["ratio"] = k["ws_kernel"] / k["hw_active"] if k["hw_active"] else None
        k["abs_error"] = abs(k["ratio"] - 1.0) if k["ratio"] is not None else None
        k["ratio_elapsed"] = k["ws_total"] / k["hw_elapsed"] if k["hw_elapsed"] else None
    return out


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    kernels = per_kernel(rows)
    errs = [k["abs_error"] for k in kernels if k["abs_error"] is not None]
    lerrs = [abs(r["ratio"] - 1.0) for r in rows if r.get("ratio") is not None]
    eerrs = [abs(k["ratio_elapsed"] - 1.0) for k in kernels if k["ratio_elapsed"] is not None]
    worst = sorted((k for k in kernels if k["abs_error"] is not None),
                   key=lambda k: -k["abs_error"])[:WORST]
    return {"kernels": kernels,
            "mean_abs_error_kernels": sum(errs) / len(errs) if errs else None,
            "mean_abs_error_launches": sum(lerrs) / len(lerrs) if lerrs else None,
            "mean_abs_error_elapsed_kernels": sum(eerrs) / len(eerrs) if eerrs else None,
            "worst": [(k["program"], round(k["ratio"], 2)) for k in worst]}


def _f(v: Any) -> str:
    if v is None:
        return "-"
    if isinstance(v, float):
        return f"{v:.2f}"
    return str(v)


def _kib(v: Any) -> str:
    return "-" if v is None else f"{v / 1024:.0f}"


def print_table(rows: list[dict[str, Any]], summ: dict[str, Any]) -> None:
    print(f"{'program':18s} {'#':>2s} {'hw active':>9s} {'ws kernel':>9s} {'ratio':>5s} "
          f"{'hw elaps':>8s} {'ws total':>8s} {'ratio':>5s}  {'DRAM rd KiB hw/ws':>17s} "
          f"{'DRAM wr KiB hw/ws':>17s} {'L2 rd KiB hw/ws':>15s} {'L2 wr KiB hw/ws':>15s}")
    for r in rows:
        print(f"{r['program']:18s} {r['launch']:2d} {_f(r['hw_active']):>9s} "
              f"{_f(r['ws_kernel']):>9s} {_f(r.get('ratio')):>5s} {_f(r['hw_elapsed']):>8s} "
              f"{_f(r['ws_total']):>8s} {_f(r.get('ratio_elapsed')):>5s}  "
              f"{_kib(r['hw_dram_rd_bytes']) + '/' + _kib(r['ws_dram_rd_bytes']):>17s} "
              f"{_kib(r['hw_dram_wr_bytes']) + '/' + _kib(r['ws_dram_wr_bytes']):>17s} "
              f"{_kib(r['hw_l2_rd_bytes']) + '/' + _kib(r['ws_l2_rd_bytes']):>15s} "
              f"{_kib(r['hw_l2_wr_bytes']) + '/' + _kib(r['ws_l2_wr_bytes']):>15s}"
              + ("  KERNEL MISMATCH" if "kernel_mismatch" in r else ""))
    print(f"\nmean absolute error of warpsim kernel cycles vs sm__cycles_active.max: "
          f"{summ['mean_abs_error_kernels']:.1%} over {len(summ['kernels'])} kernels, "
          f"{summ['mean_abs_error_launches']:.1%} over {len(rows)} launches; total vs "
          f"gpc__cycles_elapsed.max: {summ['mean_abs_error_elapsed_kernels']:.1%}")
    print("worst kernels (ratio): " + ", ".join(f"{p} {r}" for p, r in summ["worst"]))


def print_markdown(rows: list[dict[str, Any]], summ: dict[str, Any]) -> None:
    """The per-kernel table, with the traffic of the kernel's largest launch, for the README."""
    print("| program | launches | H100 active | warpsim | ratio | H100 elapsed | warpsim total "
          "| ratio | DRAM rd KiB hw / ws | DRAM wr KiB hw / ws | L2 rd KiB hw / ws |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for k in summ["kernels"]:
        mine = [r for r in rows if r["program"] == k["program"] and r["kernel"] == k["kernel"]]
        big = max(mine, key=lambda r: r["hw_active"] or 0)
        print(f"| {k['program']} | {k['launches']} | {k['hw_active']} | {k['ws_kernel']} | "
              f"{_f(k['ratio'])} | {k['hw_elapsed']} | {k['ws_total']} | "
              f"{_f(k['ratio_elapsed'])} | {_kib(big['hw_dram_rd_bytes'])} / "
              f"{_kib(big['ws_dram_rd_bytes'])} | {_kib(big['hw_dram_wr_bytes'])} / "
              f"{_kib(big['ws_dram_wr_bytes'])} | {_kib(big['hw_l2_rd_bytes'])} / "
              f"{_kib(big['ws_l2_rd_bytes'])} |")
    print(f"\nMean absolute error {summ['mean_abs_error_kernels']:.1%} over "
          f"{len(summ['kernels'])} kernels ({summ['mean_abs_error_launches']:.1%} over "
          f"{len(rows)} launches); total vs elapsed {summ['mean_abs_error_elapsed_kernels']:.1%}."
          " Worst: " + ", ".join(f"{p} {r}" for p, r in summ["worst"]) + ".")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", action="append", default=[], metavar="NAME")
    ap.add_argument("--config", default="h100")
    ap.add_argument("-o", "--set", action="append", default=[], metavar="PATH=VALUE",
                    help="configuration override (as warpsim exec -o)")
    ap.add_argument("--reference", type=Path, default=REFERENCE)
    ap.add_argument("--markdown", action="store_true", help="the per-kernel table as Markdown")
    ap.add_argument("--json", metavar="FILE", help="write rows and summary as JSON ('-': stdout)")
    args = ap.parse_args(argv)
    ref = json.loads(args.reference.read_text())
    names = args.only or sorted(set(ref["programs"]) & set(vsuite.programs()))
    missing = [n for n in names if n not in ref["programs"]]
    if missing:
        ap.error(f"no hardware data for: {', '.join(missing)}")
    rows = []
    for name in names:
        src = vsuite.KERNELS / f"{name}.cu"
        if ref["meta"]["sources_sha256"].get(src.name) != hashlib.sha256(
                src.read_bytes()).hexdigest():
            print(f"warning: {src.name} changed since the H100 was profiled", file=sys.stderr)
        rows += compare_program(name, ref["programs"][name], args.config, tuple(args.set))
    summ = summary(rows)
    if args.json and vsuite.write_json({"config": args.config, "overrides": args.set,
                                        "reference_meta": ref["meta"], "rows": rows,
                                        "summary": summ}, args.json):
        return 0
    if args.markdown:
        print_markdown(rows, summ)
    else:
        print_table(rows, summ)
    return 0


if __name__ == "__main__":
    sys.exit(main())
