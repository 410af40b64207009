#!/usr/bin/env python3
"""Regenerate the GPGPU-Sim 4.2 reference numbers of the validation set.

    python3 validation/gpgpusim/regen.py [-j 2] [--only NAME ...] [--gpgpusim DIR]
                                         [--gpgpusim-config SM7_QV100]

Builds every program of ``kernels/`` (``vsuite.build``), runs it under GPGPU-Sim (built by
``build_gpgpusim.sh`` into ``--gpgpusim``, default ``$GPGPUSIM_SCRATCH`` or
``/work/scratch/gpgpusim``) in its own run folder under ``--work`` holding the stock
``configs/tested-cfgs/<--gpgpusim-config>`` files (default ``SM2_GTX480``; its ``gpgpusim.config``
and the interconnect file it names), parses the statistics GPGPU-Sim prints at the end of
every kernel and writes them to ``reference/<config in lower case>.json`` (e.g.
``reference/sm2_gtx480.json``; ``--only`` replaces just those programs' entries; the file is
rewritten after every program, so an interrupted run keeps what finished). The raw logs stay
in the run folders (``runs/<name>/`` for SM2_GTX480, ``runs-<config>/<name>/`` otherwise).

The one change to the stock configuration: its power-model lines, where it has them
(SM2_GTX480's ``-power_simulation_enabled 1`` and ``-gpuwattch_xml_file``, a GPGPU-Sim 3.x
option that 4.2 (AccelWattch) refuses), are replaced by ``-power_simulation_enabled 0``; the
power model does not affect timing. SM7_QV100 runs unchanged.

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
DEFAULT_CONFIG = "SM2_GTX480"
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


def config_dir(gpgpusim: Path, config: str) -> Path:
    """The stock ``configs/tested-cfgs/<config>`` folder of the GPGPU-Sim build."""
    return gpgpusim / "src" / "configs" / "tested-cfgs" / config


def icnt_file(cfg: Path) -> str | None:
    """The interconnect file the config names (``-inter_config_file``, uncommented), if any:
    SM7_QV100 uses GPGPU-Sim's built-in crossbar (``-network_mode 2``) and names none."""
    m = re.search(r"^\s*-inter_config_file\s+(\S+)", (cfg / "gpgpusim.config").read_text(), re.M)
    return m.group(1) if m else None


def run_one(name: str, gpgpusim: Path, work: Path, timeout: int,
            config: str = DEFAULT_CONFIG) -> dict[str, Any]:
    exe = vsuite.build(name)
    run = work / name
    shutil.rmtree(run, ignore_errors=True)
    run.mkdir(parents=True)
    cfg = config_dir(gpgpusim, config)
    (run / "gpgpusim.config").write_text(edited_config((cfg / "gpgpusim.config").read_text()))
    icnt = icnt_file(cfg)
    if icnt:
        shutil.copy(cfg / icnt, run)
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


def meta(gpgpusim: Path, config: str = DEFAULT_CONFIG) -> dict[str, Any]:
    cfg = config_dir(gpgpusim, config)
    text = (cfg / "gpgpusim.config").read_text()
    rel = f"configs/tested-cfgs/{config}"
    out: dict[str, Any] = {
        "simulator": "GPGPU-Sim 4.2.0",
        "gpgpusim_commit": GPGPUSIM_COMMIT,
        "patches": "validation/gpgpusim/build_gpgpusim.sh (CUDA 13 compatibility only)",
        "config": f"{rel}/gpgpusim.config",
        "config_sha256": hashlib.sha256(text.encode()).hexdigest(),
    }
    icnt = icnt_file(cfg)
    if icnt:
        out["interconnect"] = f"{rel}/{icnt}"
        out["interconnect_sha256"] = hashlib.sha256((cfg / icnt).read_bytes()).hexdigest()
    edits = []
    if re.search(r"^\s*-power_simulation_enabled\s+1", text, re.M):
        edits.append("-power_simulation_enabled 1 -> 0")
    if re.search(r"^\s*-gpuwattch_xml_file", text, re.M):
        edits.append("-gpuwattch_xml_file line removed (unknown to GPGPU-Sim 4.2)")
    out.update({
        "config_edits": edits,
        "config_as_run_sha256": hashlib.sha256(edited_config(text).encode()).hexdigest(),
        "nvcc": vsuite.nvcc_version(),
        "nvcc_options": " ".join(vsuite.NVCC_OPTIONS),
        "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "per_launch_note": "cumulative GPGPU-Sim counters are stored as per-launch differences "
                           "(regen.py docstring)",
    })
    return out


def reference_path(config: str) -> Path:
    """``reference/<config in lower case>.json`` (``reference/sm2_gtx480.json``)."""
    return vsuite.REFERENCE.with_name(f"{config.lower()}.json")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--only", action="append", default=[], metavar="NAME")
    ap.add_argument("--gpgpusim", type=Path,
                    default=Path(os.environ.get("GPGPUSIM_SCRATCH", "/work/scratch/gpgpusim")))
    ap.add_argument("--gpgpusim-config", default=DEFAULT_CONFIG, metavar="NAME",
                    help="a configs/tested-cfgs folder (default SM2_GTX480; e.g. SM7_QV100)")
    ap.add_argument("--work", type=Path, default=None,
                    help="run folders (default: GPGPUSIM/runs, GPGPUSIM/runs-<config> for "
                         "other configs)")
    ap.add_argument("--timeout", type=int, default=3600, help="seconds per program")
    ap.add_argument("--out", type=Path, default=None,
                    help="default reference/<config in lower case>.json")
    args = ap.parse_args(argv)
    names = vsuite.programs()
    unknown = sorted(set(args.only) - set(names))
    if unknown:
        ap.error(f"unknown program(s): {', '.join(unknown)}")
    todo = args.only or names
    if not (args.gpgpusim / "env.sh").is_file():
        ap.error(f"no GPGPU-Sim build at {args.gpgpusim} (run build_gpgpusim.sh)")
    config = args.gpgpusim_config
    if not (config_dir(args.gpgpusim, config) / "gpgpusim.config").is_file():
        ap.error(f"no stock configuration {config} in {args.gpgpusim}/src/configs/tested-cfgs")
    out_path = args.out or reference_path(config)
    work = args.work or args.gpgpusim / (
        "runs" if config == DEFAULT_CONFIG else f"runs-{config.lower()}")
    for name in todo:  # build first, sequentially (nvcc is the heavy part)
        vsuite.build(name)
    doc: dict[str, Any] = {"meta": {}, "programs": {}}
    if args.only and out_path.is_file():
        doc = json.loads(out_path.read_text())
    doc["meta"] = meta(args.gpgpusim, config)
    results: dict[str, dict[str, Any]] = {}
    with cf.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futs = {pool.submit(run_one, n, args.gpgpusim, work, args.timeout, config): n
                for n in todo}
        for fut in cf.as_completed(futs):  # write after every program (keeps partial runs)
            results[futs[fut]] = fut.result()
            doc["programs"].update(results)
            doc["programs"] = {k: doc["programs"][k] for k in sorted(doc["programs"])
                               if k in names}
            out_path.parent.mkdir(parents=True, exist_ok=True)
            out_path.write_text(json.dumps(doc, indent=1, sort_keys=False) + "\n")
    bad = [n for n, e in results.items() if e["verdict"] != "PASS" or e["exit_status"] != 0]
    print(f"wrote {out_path}" + (f"; not passing: {', '.join(bad)}" if bad else ""))
    return 1 if bad else 0

if __name__ == "__main__":
    sys.exit(main())
