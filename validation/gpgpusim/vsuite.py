"""The GPGPU-Sim validation set: its programs, how they are built, the stored reference data
and how warpsim runs them (shared by ``regen.py``, ``compare.py`` and
``tests/validation/test_gpgpusim_reference.py``).

Every program is ``kernels/<name>.cu`` (plus the headers it includes), built with
``nvcc -cudart shared -gencode arch=compute_75,code=compute_75`` through ``warpsim nvcc``'s
command line (the system toolkit when there is one, else the PyPI wheel) into warpsim's cache
folder, keyed by the sources, the nvcc and its options. GPGPU-Sim and warpsim run the same
binary: GPGPU-Sim through its ``libcudart.so.13`` on the library path (``regen.py``), warpsim
through ``warpsim exec --config gtx480`` (``run_warpsim``, in this process so the timing
engine is compiled once). Each GPGPU-Sim configuration has its reference file
(``reference/<config in lower case>.json``) and the warpsim preset compared with it
(``WARPSIM_PRESETS``).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
if str(HERE.parents[1]) not in sys.path:  # this checkout's warpsim, also when run as a script
    sys.path.insert(0, str(HERE.parents[1]))
KERNELS = HERE / "kernels"
REFERENCE = HERE / "reference" / "sm2_gtx480.json"
NVCC_OPTIONS = ("-cudart", "shared", "-gencode", "arch=compute_75,code=compute_75")
WARPSIM_CONFIG = "gtx480"
GPGPUSIM_CONFIG = "SM2_GTX480"
WARPSIM_PRESETS = {"SM2_GTX480": "gtx480", "SM7_QV100": "qv100"}
"""GPGPU-Sim stock configuration -> the warpsim preset that models it (compare.py's default)."""
OCCUPANCY_ARCH = {"SM2_GTX480": "sm_75", "SM7_QV100": "sm_75"}
"""GPGPU-Sim stock configuration -> the ptxas target its kernels' registers come from in our
GPGPU-Sim build (-gpgpu_occupancy_sm_number 20 and 70 raised to 75, ptxas 13's oldest; README
§1, §7.11); compare.py runs warpsim with ``sm.occupancy_arch`` set to it."""

# (label, GPGPU-Sim counter in the reference, warpsim counter or derived name): the statistics
# compare.py prints side by side. GPGPU-Sim counters are per launch (cumulative ones are stored
# as differences between consecutive launches, see regen.py).
KEY_STATS = (
    ("warp_insts", "gpgpu_n_tot_w_icount", "gpgpu_n_tot_w_icount"),
    ("l1d_acc", "L1D_total_cache_accesses", "L1D_total_cache_accesses"),
    ("l1d_miss", "L1D_total_cache_misses", "L1D_total_cache_misses"),
    ("l1d_rfail", "L1D_total_cache_reservation_fails", "L1D_total_cache_reservation_fails"),
    ("l2_acc", "L2_total_cache_accesses", "L2_total_cache_accesses"),
    ("l2_miss", "L2_total_cache_misses", "L2_total_cache_misses"),
    ("l2_rfail", "L2_total_cache_reservation_fails", "L2_total_cache_reservation_fails"),
    ("dram_rd", "dram_n_rd", "dram_reads"),
    ("dram_wr", "dram_n_wr", "dram_writes"),
    ("dram_util", "dram_bw_util", "dram_bw_util"),
    ("shmem_bkc", "gpgpu_n_shmem_bkconflict", "gpgpu_n_shmem_bkconflict"),
    ("mem_lat", "averagemflatency", "mem_avg_load_latency_cycles"),
)


def programs() -> list[str]:
    """The names of the validation programs (``kernels/*.cu``), sorted."""
    return sorted(p.stem for p in KERNELS.glob("*.cu"))


def sources(name: str) -> list[Path]:
    """``kernels/<name>.cu`` and the local headers it includes (recursively)."""
    out, todo = [], [KERNELS / f"{name}.cu"]
    while todo:
        path = todo.pop()
        if path in out:
            continue
        out.append(path)
        for inc in re.findall(r'^\s*#\s*include\s+"([^"]+)"', path.read_text(), re.M):
            todo.append(KERNELS / inc)
    return out


def source_sha256(name: str) -> str:
    """SHA-256 over the program's source and its local headers (in a fixed order)."""
    h = hashlib.sha256()
    for path in sorted(sources(name)):
        h.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def nvcc_command() -> list[str]:
    """``warpsim nvcc``'s nvcc command (without the file arguments). A toolkit at
    /usr/local/cuda is named through CUDA_HOME when that is unset: a ``nvcc`` on PATH can be a
    wrapper script whose folder has no CUDA headers (then warpsim would add the wheel's
    headers, of another CUDA release)."""
    from warpsim.cudart.nvcc import nvcc_command as _cmd

    if not os.environ.get("CUDA_HOME") and Path("/usr/local/cuda/bin/nvcc").is_file():
        os.environ["CUDA_HOME"] = "/usr/local/cuda"

    # warpsim nvcc adds -lineinfo (source lines in warpsim's messages); its ``.loc ...,
    # inlined_at`` lines are a PTX syntax GPGPU-Sim 4.2's parser rejects (the program then
    # crashes), and the reference binaries were built without it.
    return [t for t in _cmd(list(NVCC_OPTIONS)) if t != "-lineinfo"]


def nvcc_version(cmd: list[str] | None = None) -> str:
    exe = (cmd or nvcc_command())[0]
    out = subprocess.run([exe, "--version"], capture_output=True, text=True).stdout
    m = re.search(r"release ([\d.]+), (V[\d.]+)", out)
    return f"{m.group(1)} ({m.group(2)})" if m else out.strip().splitlines()[-1]


def build(name: str, cache: Path | None = None) -> Path:
    """The program ``name`` built (cached by sources + nvcc + options); returns its path."""
    from warpsim.toolcache import cache_dir

    cmd = nvcc_command()
    key = hashlib.sha256((source_sha256(name) + "\0" + "\0".join(cmd) + "\0" +
                          nvcc_version(cmd)).encode()).hexdigest()[:20]
    base = cache or (cache_dir() or Path(tempfile.gettempdir()) / "warpsim-cache")
    out = Path(base) / "gpgpusim-validation" / key / name
    if out.is_file():
        return out
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(f"{name}.tmp{os.getpid()}")
    proc = subprocess.run([*cmd, "-o", str(tmp), str(KERNELS / f"{name}.cu")],
                          capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        raise RuntimeError(f"nvcc failed for {name}.cu:\n{proc.stdout}\n{proc.stderr}")
    tmp.replace(out)
    return out


def reference_path(gpgpusim_config: str = GPGPUSIM_CONFIG) -> Path:
    """``reference/<config in lower case>.json`` (``reference/sm2_gtx480.json``)."""
    return REFERENCE.with_name(f"{gpgpusim_config.lower()}.json")


def load_reference(path: Path = REFERENCE) -> dict[str, Any]:
    return json.loads(path.read_text())


def run_warpsim(exe: Path, config: str = WARPSIM_CONFIG,
                overrides: tuple[str, ...] = (),
                gpgpusim_config: str | None = None) -> tuple[int, list[dict[str, Any]]]:
    """Run ``exe`` under ``warpsim exec --config CONFIG [--gpgpusim-config FILE] [-o
    path=value ...]`` in this process; returns (exit status, one record per launch: kernel,
    cycles and warpsim's statistics plus ``dram_bw_util``, the data bus's busy fraction as
    GPGPU-Sim defines bw_util)."""
    from warpsim.arch import resolve_config
    from warpsim.cudart.cli import run_program

    with tempfile.TemporaryDirectory(prefix="vsuite-") as tmp:
        stats = Path(tmp) / "stats.jsonl"
        devnull = os.open(os.devnull, os.O_WRONLY)
        saved = os.dup(1)
        os.dup2(devnull, 1)  # the program's own output (PASS/FAIL) would clutter tables
        try:
            status = run_program([str(exe)], config=config, overrides=tuple(overrides),
                                 stats=str(stats), gpgpusim_config=gpgpusim_config)
        finally:
            os.dup2(saved, 1)
            os.close(saved)
            os.close(devnull)
        records = [json.loads(line) for line in stats.read_text().splitlines() if line.strip()]
    cfg = resolve_config(config, gpgpusim_config=gpgpusim_config, overrides=overrides)
    ratio = cfg.clocks.dram_mhz / cfg.clocks.core_mhz
    out = []
    for rec in records:
        s = dict(rec["stats"])
        cyc = s.get("gpu_sim_cycle") or 0
        busy = s.get("dram_busy_cycles") or 0
        s["dram_bw_util"] = busy / (cyc * cfg.dram.n_channels * ratio) if cyc else None
        out.append({"kernel": rec["kernel"], "cycles": int(cyc), "stats": s,
                    "wall_s": rec.get("wall_s")})
    return status, out

def sum_launches(rows: list[dict[str, Any]], keys: tuple[str, ...]) -> list[dict[str, Any]]:
    """One row per (program, kernel), in first-seen order: ``launches`` and each of ``keys``
    summed over its launches (None counts as 0)."""
    out: dict[tuple[str, str], dict[str, Any]] = {}
    for r in rows:
        k = out.setdefault((r["program"], r["kernel"]), {
            "program": r["program"], "kernel": r["kernel"], "launches": 0,
            **{key: 0 for key in keys}})
        k["launches"] += 1
        for key in keys:
            k[key] += r[key] or 0
    return list(out.values())


def write_json(doc: dict[str, Any], dest: str) -> bool:
    """Write a comparison's JSON to ``dest`` (``-``: stdout); True when it went to stdout (the
    caller then prints nothing else)."""
    text = json.dumps(doc, indent=1)
    if dest == "-":
        print(text)
        return True
    Path(dest).write_text(text + "\n")
    return False
