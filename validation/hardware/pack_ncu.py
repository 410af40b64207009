#!/usr/bin/env python3
"""Turn the tarball of ``run_vsuite_ncu.sh`` (Nsight Compute on the 28 GPGPU-Sim validation
programs) into the small JSON stored as ``validation/hardware/reference/<chip>_ncu.json``.

    python3 validation/hardware/pack_ncu.py vsuite_ncu.tar.gz \
        validation/hardware/reference/h100_ncu.json

Per program: the plain run's verdict (PASS/FAIL line) and exit status, and per kernel launch
(in launch order): kernel name, grid, block, registers per thread, shared memory per block and
the profiled metrics (``METRICS``; ncu's ``--csv --page raw --print-units base`` numbers, whose
thousands separators are removed here). Metadata: GPU, SM count, L2 size, clock rates (the
driver's attribute, and the SM clock ncu ran at: it locks base clocks), driver, ncu and nvcc
versions, nvcc options, date, and the SHA-256 of every kernel source the programs were built
from. Needs the standard library only.
"""

from __future__ import annotations

import csv
import io
import json
import re
import sys
import tarfile
from pathlib import Path
from typing import Any

METRICS = (
    "gpc__cycles_elapsed.max", "sm__cycles_elapsed.max", "sm__cycles_active.avg",
    "sm__cycles_active.max", "gpu__time_duration.sum", "smsp__inst_executed.sum",
    "smsp__thread_inst_executed.sum", "sm__warps_launched.sum", "sm__ctas_launched.sum",
    "sm__ctas_launched.max", "sm__warps_active.avg.pct_of_peak_sustained_active",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_sector_hit_rate.pct",
    "lts__t_sectors_op_read.sum", "lts__t_sectors_op_write.sum", "lts__t_sector_hit_rate.pct",
    "dram__bytes_read.sum", "dram__bytes_write.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum", "launch__waves_per_multiprocessor",
)
"""The per-launch numbers kept (the run script's --metrics, plus two launch statistics)."""
UNITS = {"gpu__time_duration.sum": "ns", "dram__bytes_read.sum": "byte",
         "dram__bytes_write.sum": "byte"}
"""Units that are not cycles/counts/percent, as ncu's unit row gives them."""


def number(text: str) -> int | float | str:
    """ncu's CSV cell as a number: "113,578" -> 113578, "1,586,060,606.06" -> 1586060606.06."""
    t = text.strip().replace(",", "")
    if re.fullmatch(r"-?\d+", t):
        return int(t)
    try:
        return float(t)
    except ValueError:
        return text.strip()


def kernel_name(signature: str) -> str:
    """The kernel's identifier: "void occ_chase<1>(const int *, int *, int)" -> "occ_chase"
    (which the mangled name warpsim reports, _Z9occ_chaseILi1EEvPKiPii, contains)."""
    head = signature.split("(")[0].strip()
    return head.removeprefix("void ").split("<")[0].strip()


def dims(text: str) -> list[int]:
    """"(256, 1, 1)" -> [256, 1, 1]."""
    return [int(v) for v in re.findall(r"\d+", text)]


def read_tree(src: Path) -> dict[str, str]:
    """Text files of the tarball (or unpacked folder), by path below its ``vsuite/`` folder."""
    out: dict[str, str] = {}
    if src.is_dir():
        for p in src.rglob("*"):
            if p.is_file():
                out[str(p.relative_to(src))] = p.read_text(errors="replace")
        return out
    with tarfile.open(src) as tar:
        for m in tar.getmembers():
            f = tar.extractfile(m) if m.isfile() else None
            if f is not None:
                out[m.name.split("/", 1)[1] if "/" in m.name else m.name] = (
                    f.read().decode(errors="replace"))
    return out


def parse_csv(text: str) -> list[dict[str, Any]]:
    """The launches of one ncu ``--csv --page raw`` log (its first data row holds units)."""
    rows = list(csv.reader(io.StringIO("".join(
        line for line in text.splitlines(True) if not line.startswith("==")))))
    if not rows:
        return []
    head, launches = rows[0], []
    for row in rows[1:]:
        rec = dict(zip(head, row, strict=True))
        if not rec.get("ID", "").strip():
            continue  # the units row
        launches.append({
            "kernel": kernel_name(rec["Kernel Name"]),
            "signature": rec["Kernel Name"],
            "grid": dims(rec["Grid Size"]), "block": dims(rec["Block Size"]),
            "registers_per_thread": number(rec["launch__registers_per_thread"]),
            "shared_mem_per_block": number(rec["launch__shared_mem_per_block"]),
            "sm_clock_hz": number(rec["sm__cycles_elapsed.avg.per_second"]),
            "metrics": {m: number(rec[m]) for m in METRICS if m in rec},
            "_device": {k: rec.get(k, "") for k in (
                "device__attribute_display_name", "device__attribute_multiprocessor_count",
                "device__attribute_l2_cache_size", "device__attribute_clock_rate", "CC")},
        })
    return launches


def kv(text: str) -> dict[str, str]:
    return dict(line.split("=", 1) for line in text.splitlines() if "=" in line)


def pack(src: Path) -> dict[str, Any]:
    files = read_tree(src)
    env = kv(files.get("meta/env.txt", ""))
    status = list(csv.DictReader(io.StringIO(files.get("status.tsv", "")), delimiter="\t"))
    sources = dict(reversed(line.split(None, 1)) for line in
                   files.get("meta/sources.sha256", "").splitlines() if line.strip())
    smi = list(csv.reader(io.StringIO(files.get("meta/smi.csv", ""))))
    smi_rec = ({h.strip(): v.strip() for h, v in zip(smi[0], smi[1], strict=True)}
               if len(smi) > 1 else {})
    programs: dict[str, Any] = {}
    device: dict[str, str] = {}
    clocks: list[float] = []
    for st in status:
        name = st["program"]
        launches = parse_csv(files.get(f"csv/{name}.csv", ""))
        for launch in launches:
            device = launch.pop("_device")
            clocks.append(float(launch["sm_clock_hz"]))
        programs[name] = {"verdict": st["verdict"], "plain_exit_status": number(st["plain_rc"]),
                          "ncu_exit_status": number(st["ncu_rc"]), "launches": launches}
    meta = {
        "gpu": device.get("device__attribute_display_name") or smi_rec.get("name"),
        "compute_capability": device.get("CC"),
        "sm_count": number(device.get("device__attribute_multiprocessor_count", "")),
        "l2_bytes": number(device.get("device__attribute_l2_cache_size", "")),
        "clock_rate_attribute_khz": number(device.get("device__attribute_clock_rate", "")),
        "sm_clock_mhz_under_ncu": round(sum(clocks) / len(clocks) / 1e6, 1) if clocks else None,
        "driver": smi_rec.get("driver_version"),
        "ncu": next((line.strip() for line in files.get("meta/ncu_version.txt", "").splitlines()
                     if line.startswith("Version")), None),
        "nvcc": next((line.strip() for line in files.get("meta/nvcc_version.txt", "").splitlines()
                      if "release" in line), None),
        "nvcc_flags": env.get("nvcc_flags"),
        "date_utc": env.get("date_utc"),
        "ncu_options": "--csv --page raw --print-units base --clock-control "
                       f"{env.get('clock_control', 'base')} --cache-control "
                       f"{env.get('cache_control', 'all')}",
        "command": "bash validation/hardware/run_vsuite_ncu.sh OUTDIR (device tool: run)",
        "units": "cycles are SM cycles; " + ", ".join(f"{k} in {v}" for k, v in UNITS.items())
                 + "; *.pct in percent; sectors are 32 bytes",
        "sources_sha256": {k.removeprefix("./"): v for k, v in sorted(sources.items())},
    }
    return {"meta": meta, "programs": dict(sorted(programs.items()))}


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    doc = pack(Path(argv[1]))
    out = Path(argv[2])
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(doc, indent=1) + "\n")
    n = sum(len(p["launches"]) for p in doc["programs"].values())
    print(f"wrote {out}: {len(doc['programs'])} programs, {n} launches, "
          f"{out.stat().st_size / 1024:.0f} KiB")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
