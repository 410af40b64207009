#!/usr/bin/env python3
"""Regenerate the GPGPU-Sim 4.2 reference numbers of the validation set.

    python3 validation/gpgpusim/regen.py [-j 2] [--only NAME ...] [--gpgpusim DIR]

Builds every program of ``kernels/`` (``vsuite.build``), runs it under GPGPU-Sim (built by
``build_gpgpusim.sh`` into ``--gpgpusim``, default ``$GPGPUSIM_SCRATCH`` or
``/work/scratch/gpgpusim``) in its own run folder under ``--work`` holding the stock
``configs/tested-cfgs/SM2_GTX480`` files, parses the statistics GPGPU-Sim prints at the end of
every kernel and writes them to ``reference/sm2_gtx480.json`` (``--only`` replaces just those
programs' entries). The raw logs stay in the run folders.

The one change to the stock configuration: its power-model lines (``-power_simulation_enabled
1`` and ``-gpuwattch_xml_file``, a GPGPU-Sim 3.x option that 4.2 (AccelWattch) refuses) are
replaced by ``-power_simulation_enabled 0``; the power model does not affect timing.

GPGPU-Sim prints most counters as totals since the program started (cache, DRAM and
instruction counters); those are stored per launch as the difference from the previous
launch's totals. Per-launch values (``gpu_sim_cycle``, ``gpu_sim_insn``) and averages or
ratios (names with rate/util/avg/max/latency/ipc/...) are stored as printed; the averages are
cumulative over the program's launches where GPGPU-Sim accumulates them (``averagemflatency``).
Derived per launch: ``dram_n_rd``, ``dram_n_wr`` (writes + L2 write-backs), ``dram_n_act`` summed
over the memory partitions, and ``dram_bw_util``, the data-bus busy fraction (GPGPU-Sim's
``bwutil``: busy DRAM cycles / DRAM cycles, averaged over the partitions).
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import datetime as dt
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import vsuite

GPGPUSIM_COMMIT = "a4ce3feac901c97a4b4601f679e43cf3589c79de"
CONFIG_DIR = "configs/tested-cfgs/SM2_GTX480"
CONFIG_FILES = ("gpgpusim.config", "config_fermi_islip.icnt")
_SCALAR = re.compile(r"^\s*([A-Za-z_][\w\[\]]*)\s*=\s*"
                     r"([-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)\s*%?\s*$")
_DRAM = re.compile(r"n_cmd=(\d+) .*n_act=(\d+) .*n_rd=(\d+) .*n_write=(\d+) n_wr_bk=(\d+)")
_UTIL = re.compile(r"^util_bw = (\d+)")
_DROP = ("maximum", "minimum", "gpu_total_sim_rate")  # histogram captions, host speed
_NOT_COUNT = re.compile(r"rate|util|avg|average|max|lat|ipc|BW|occupancy|parallism|locality|"
                        r"Parallism|skew|_eff|^gpu_tot_|^gpu_sim_|kernel_launch_uid")


def edited_config(text: str) -> str:
    """The stock gpgpusim.config with the power model switched off (see the module doc)."""
    out = []
    for line in text.splitlines():
        if line.strip().startswith("-gpuwattch_xml_file"):
            continue
        if line.strip().startswith("-power_simulation_enabled"):
            line = "-power_simulation_enabled 0"
        out.append(line)
    return "\n".join(out) + "\n"


def parse_log(log: str) -> list[dict[str, Any]]:
    """One dict per kernel launch: kernel name and the raw (partly cumulative) counters."""
    blocks = re.split(r"^kernel_name = ", log, flags=re.M)[1:]
    launches = []
    for block in blocks:
        lines = block.splitlines()
        stats: dict[str, float] = {}
        dram = [0, 0, 0, 0, 0]  # n_cmd (max), n_act, n_rd, n_write, n_wr_bk (sums)
        util_bw, parts, in_part = 0, 0, False
        for line in lines[1:]:
            if line.startswith("Memory Partition"):
                in_part = True
                continue
            if line.startswith("L2_cache_bank["):
                in_part = False
            if line.startswith("GPGPU-Sim: *** exit") or "kernel_name" in line:
                break
            if in_part:
                m = _DRAM.search(line)
                if m:
                    v = [int(x) for x in m.groups()]
                    sums = [a + b for a, b in zip(dram[1:], v[1:], strict=True)]
                    dram = [max(dram[0], v[0]), *sums]
                    parts += 1
                m = _UTIL.match(line)
                if m:
                    util_bw += int(m.group(1))
                continue
            m = _SCALAR.match(line)
            if m and m.group(1) not in stats:
                num = float(m.group(2))
                stats[m.group(1)] = int(num) if num.is_integer() and "." not in m.group(2) else num
        stats.update(dram_n_cmd=dram[0], dram_n_act=dram[1], dram_n_rd=dram[2],
                     dram_n_write=dram[3], dram_n_wr_bk=dram[4], dram_util_bw=util_bw,
                     dram_partitions=parts)
        launches.append({"kernel": lines[0].strip(), "raw": stats})
    return launches


def keep(key: str, val: Any) -> bool:
    """Whether a counter goes into the reference file (zero breakdown cells do not)."""
    return key not in _DROP and not ("[" in key and val == 0)


def per_launch(launches: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Turn cumulative counters into per-launch differences; add the derived DRAM values."""
    out, prev = [], {}
    for i, launch in enumerate(launches):
        raw, stats = launch["raw"], {}
        for key, val in raw.items():
            cumulative = isinstance(val, int) and key != "dram_partitions" and (
                key.startswith("dram_") or not _NOT_COUNT.search(key))
            stats[key] = val - prev.get(key, 0) if cumulative else val
        parts = raw["dram_partitions"] or 1
        stats["dram_n_wr"] = stats["dram_n_write"] + stats["dram_n_wr_bk"]
        stats["dram_bw_util"] = (stats["dram_util_bw"] / (stats["dram_n_cmd"] * parts)
                                 if stats["dram_n_cmd"] else 0.0)
        stats = {k: v for k, v in stats.items() if keep(k, v)}
        prev = raw
        out.append({"launch": i, "kernel": launch["kernel"], "cycles": stats["gpu_sim_cycle"],
                    "stats": stats})
    return out


def run_one(name: str, gpgpusim: Path, work: Path, timeout: int) -> dict[str, Any]:
    exe = vsuite.build(name)
    run = work / name
    shutil.rmtree(run, ignore_errors=True)
    run.mkdir(parents=True)
    cfg = gpgpusim / "src" / CONFIG_DIR
    (run / "gpgpusim.config").write_text(edited_config((cfg / "gpgpusim.config").read_text()))
    shutil.copy(cfg / "config_fermi_islip.icnt", run)
    shutil.copy(exe, run / name)
    script = (f"set +u; source {gpgpusim / 'env.sh'} >/dev/null 2>&1; cd {run}; "
              f"exec ./{name}")
    t0 = time.time()
    with open(run / "gpgpusim.log", "w") as log:
        try:
            proc = subprocess.run(["bash", "-c", script], stdout=log, stderr=subprocess.STDOUT,
                                  timeout=timeout)
            status = proc.returncode
        except subprocess.TimeoutExpired:
            status = -9
    wall = time.time() - t0
    text = (run / "gpgpusim.log").read_text(errors="replace")
    verdict = re.search(rf"^{name}: (PASS|FAIL)", text, re.M)
    entry = {"source_sha256": vsuite.source_sha256(name), "exit_status": status,
             "verdict": verdict.group(1) if verdict else "NONE", "wall_s": round(wall, 1),
             "launches": per_launch(parse_log(text))}
    print(f"{name:20s} {entry['verdict']:5s} exit {status:3d} {len(entry['launches']):2d} "
          f"launch(es) {sum(la['cycles'] for la in entry['launches']):9d} cycles "
          f"{wall:7.1f} s", flush=True)
    return entry


def meta(gpgpusim: Path) -> dict[str, Any]:
    cfg = gpgpusim / "src" / CONFIG_DIR
    sha = {f: hashlib.sha256((cfg / f).read_bytes()).hexdigest() for f in CONFIG_FILES}
    return {
        "simulator": "GPGPU-Sim 4.2.0",
        "gpgpusim_commit": GPGPUSIM_COMMIT,
        "patches": "validation/gpgpusim/build_gpgpusim.sh (CUDA 13 compatibility only)",
        "config": f"{CONFIG_DIR}/gpgpusim.config",
        "config_sha256": sha["gpgpusim.config"],
        "interconnect": f"{CONFIG_DIR}/config_fermi_islip.icnt",
        "interconnect_sha256": sha["config_fermi_islip.icnt"],
        "config_edits": ["-power_simulation_enabled 1 -> 0",
                         "-gpuwattch_xml_file line removed (unknown to GPGPU-Sim 4.2)"],
        "config_as_run_sha256": hashlib.sha256(
            edited_config((cfg / "gpgpusim.config").read_text()).encode()).hexdigest(),
        "nvcc": vsuite.nvcc_version(),
        "nvcc_options": " ".join(vsuite.NVCC_OPTIONS),
        "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "per_launch_note": "cumulative GPGPU-Sim counters are stored as per-launch differences "
                           "(regen.py docstring)",
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--only", action="append", default=[], metavar="NAME")
    ap.add_argument("--gpgpusim", type=Path,
                    default=Path(os.environ.get("GPGPUSIM_SCRATCH", "/work/scratch/gpgpusim")))
    ap.add_argument("--work", type=Path, default=None,
                    help="run folders (default: GPGPUSIM/runs)")
    ap.add_argument("--timeout", type=int, default=3600, help="seconds per program")
    ap.add_argument("--out", type=Path, default=vsuite.REFERENCE)
    args = ap.parse_args(argv)
    names = vsuite.programs()
    unknown = sorted(set(args.only) - set(names))
    if unknown:
        ap.error(f"unknown program(s): {', '.join(unknown)}")
    todo = args.only or names
    if not (args.gpgpusim / "env.sh").is_file():
        ap.error(f"no GPGPU-Sim build at {args.gpgpusim} (run build_gpgpusim.sh)")
    work = args.work or args.gpgpusim / "runs"
    for name in todo:  # build first, sequentially (nvcc is the heavy part)
        vsuite.build(name)
    with cf.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futs = {n: pool.submit(run_one, n, args.gpgpusim, work, args.timeout) for n in todo}
        results = {n: f.result() for n, f in futs.items()}
    doc = {"meta": {}, "programs": {}}
    if args.only and args.out.is_file():
        doc = json.loads(args.out.read_text())
    doc["meta"] = meta(args.gpgpusim)
    doc["programs"].update(results)
    doc["programs"] = {k: doc["programs"][k] for k in sorted(doc["programs"]) if k in names}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(doc, indent=1, sort_keys=False) + "\n")
    bad = [n for n, e in results.items() if e["verdict"] != "PASS" or e["exit_status"] != 0]
    print(f"wrote {args.out}" + (f"; not passing: {', '.join(bad)}" if bad else ""))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
