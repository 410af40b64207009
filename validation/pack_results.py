"""Turn the raw output of ``validation/run_on_device.sh`` into the JSON stored under
``validation/results/<device>/``.

    python3 validation/pack_results.py validation_h200.tar.gz validation/results/h200
    python3 validation/pack_results.py validation_h100.tar.gz validation/results/h100

Input: the tarball (or the unpacked ``h200/`` folder) with ``out/*.bin`` (the programs' WSVAL001
files, format in ``kernels/vcommon.h``), ``meta/`` (nvcc and nvidia-smi output), ``status.tsv``,
``sass/`` (cuobjdump of the timing programs) and ``run.log``.

Output:
  run_info.json      device, driver, nvcc, clocks, date, per-program build/run status
  <program>.json     one per functional program: every array it wrote (raw little-endian
                     bytes, zlib + base64), the SHA-256 of the kernel source it was built from
  ptx/<program>.ptx  the PTX nvcc made of it on the device (what the GPU ran, before ptxas)
  timing.json        clock64 latencies and throughputs, derived per op, with the raw records
                     and the SASS opcode counts of each timed window
Needs numpy only.
"""

from __future__ import annotations

import base64
import csv
import hashlib
import io
import json
import re
import sys
import tarfile
import zlib
from collections import Counter
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
TIMING = ("lat_alu", "lat_mem", "throughput")
MAGIC = b"WSVAL001"


def read_wsval(data: bytes) -> dict[str, object]:
    """Records of a WSVAL001 file: name -> numpy array (or str for "str" records)."""
    if data[:8] != MAGIC:
        raise ValueError("not a WSVAL001 file")
    out: dict[str, object] = {}
    pos = 8
    while pos < len(data):
        name = data[pos:pos + 48].split(b"\0", 1)[0].decode()
        dtype = data[pos + 48:pos + 56].split(b"\0", 1)[0].decode()
        count = int(np.frombuffer(data, "<u8", 1, pos + 56)[0])
        pos += 64
        if dtype == "str":
            out[name] = data[pos:pos + count].decode(errors="replace")
            pos += count
        else:
            dt = np.dtype(dtype)
            out[name] = np.frombuffer(data, dt, count, pos).copy()
            pos += count * dt.itemsize
    return out


def _command(tag: str) -> str:
    """How the raw data of results/<tag>/ was made (the device tool's machine kind by chip)."""
    kind = {"h200": "nvidia-h200", "h100": "nvidia-h100-x1"}.get(tag, tag)
    prefix = "" if tag == "h200" else f"VALIDATION_TAG={tag} "
    return f"{prefix}bash validation/run_on_device.sh (device tool: run, {kind})"


def encode_array(a: np.ndarray) -> dict[str, object]:
    raw = np.ascontiguousarray(a).tobytes()
    return {"dtype": a.dtype.str, "count": int(a.size),
            "zlib_base64": base64.b64encode(zlib.compress(raw, 9)).decode()}


def load_tree(src: Path) -> dict[str, bytes]:
    """path (relative to the h200/ folder) -> bytes."""
    files: dict[str, bytes] = {}
    if src.is_dir():
        for p in src.rglob("*"):
            if p.is_file():
                files[str(p.relative_to(src))] = p.read_bytes()
        return files
    with tarfile.open(src) as tar:
        for m in tar.getmembers():
            if m.isfile():
                rel = m.name.split("/", 1)[1] if "/" in m.name else m.name
                f = tar.extractfile(m)
                if f is not None:
                    files[rel] = f.read()
    return files


def smi_csv(text: str) -> dict[str, str]:
    rows = list(csv.reader(io.StringIO(text)))
    if len(rows) < 2:
        return {}
    return {k.strip(): v.strip() for k, v in zip(rows[0], rows[1], strict=False)}


def sass_functions(text: str) -> dict[str, list[str]]:
    """Function name -> list of instruction texts (predicate guards dropped)."""
    funcs: dict[str, list[str]] = {}
    for m in re.finditer(r"Function : (\S+)\n(.*?)(?=\n\s*Function :|\Z)", text, re.S):
        insts = re.findall(r"/\*[0-9a-f]{4}\*/\s+(?:@!?U?P\w+\s+)?([A-Z][^;]*);", m.group(2))
        funcs[m.group(1)] = [i.strip() for i in insts]
    return funcs


def timed_window(insts: list[str]) -> Counter:
    """Opcode counts between the first two SR_CLOCKLO reads (NOPs excluded)."""
    marks = [k for k, i in enumerate(insts) if "SR_CLOCKLO" in i]
    if len(marks) < 2:
        return Counter()
    body = insts[marks[0] + 1:marks[1]]
    return Counter(i.split()[0].split(".")[0] for i in body if not i.startswith("NOP"))


def stats(v: np.ndarray) -> dict[str, float]:
    v = v.astype(np.float64)
    return {"median": float(np.median(v)), "p10": float(np.percentile(v, 10)),
            "p90": float(np.percentile(v, 90)), "min": float(v.min()), "max": float(v.max()),
            "mean": float(v.mean())}


def scalar(rec: dict[str, object], name: str) -> int:
    return int(np.asarray(rec[name]).reshape(-1)[0])


def lat_alu_summary(rec: dict[str, object], sass: dict[str, list[str]]) -> dict[str, object]:
    chain = scalar(rec, "chain")
    ops: dict[str, object] = {}
    kernel_of = {"cvt_f2f_rzi": "lat_cvt_f2f", "cvt_i2f_f2i_pair": "lat_cvt_i2f_f2i",
                 "shfl_idx": "lat_shfl", "imad_hi": "lat_imadhi"}
    for name, val in rec.items():
        if name in ("device", "chain", "clock_overhead", "clock_rate_cycles_ns"):
            continue
        total = int(np.asarray(val).reshape(-1)[0])
        kern = kernel_of.get(name, "lat_" + name)
        window = timed_window(sass.get(kern, []))
        n_inst = sum(window.values())
        entry: dict[str, object] = {"total_cycles": total, "ptx_ops": chain,
                                    "cycles_per_ptx_op": round(total / chain, 3),
                                    "sass_window": dict(window.most_common())}
        if n_inst:
            entry["sass_instructions"] = n_inst
            entry["cycles_per_sass_instruction"] = round(total / n_inst, 3)
        ops[name] = entry
    cr = np.asarray(rec["clock_rate_cycles_ns"])
    return {"chain": chain, "clock_overhead_cycles": scalar(rec, "clock_overhead"),
            "sm_clock_mhz_measured": round(float(cr[0]) / float(cr[1]) * 1e3, 1),
            "ops": ops}


def lat_mem_summary(rec: dict[str, object]) -> dict[str, object]:
    bulk: dict[str, object] = {}
    for name, val in rec.items():
        if name.startswith("bulk_"):
            v = np.asarray(val)
            cycles, ns, steps = int(v[0]), int(v[1]), int(v[3])
            e: dict[str, object] = {"total_cycles": cycles, "loads": steps,
                                    "cycles_per_load": round(cycles / steps, 2)}
            if ns > 0:
                e["ns_per_load"] = round(ns / steps, 2)
                e["sm_clock_mhz"] = round(cycles / ns * 1e3, 1)
            bulk[name[5:]] = e
    step = {name[5:]: stats(np.asarray(val)) for name, val in rec.items()
            if name.startswith("step_")}
    out: dict[str, object] = {"bulk": bulk, "per_load": step}
    if "l1_ca" in step and "l1_ca" in bulk:
        overhead = step["l1_ca"]["median"] - bulk["l1_ca"]["cycles_per_load"]  # type: ignore[index]
        out["per_load_overhead_cycles"] = round(overhead, 2)
        out["per_load_corrected_median"] = {k: round(v["median"] - overhead, 1)
                                            for k, v in step.items()}
    return out


# the machine instruction each throughput kernel is about
TP_SASS = {"ffma": "FFMA", "fadd": "FADD", "fmul": "FMUL", "dfma": "DFMA", "imad": "IMAD",
           "iadd": "IADD3", "lop3": "LOP3", "popc": "POPC", "mufu_ex2": "MUFU",
           "mufu_rsqrt": "MUFU", "shfl_bfly": "SHFL"}
TP_PTX_PER_OUTER = 8 * 32  # ILP x ITER in throughput.cu


def throughput_summary(rec: dict[str, object], sass: dict[str, list[str]]) -> dict[str, object]:
    ops: dict[str, object] = {}
    for name, val in rec.items():
        if name == "device":
            continue
        v = np.asarray(val)
        span, n = int(v[0]), int(v[1])
        entry: dict[str, object] = {
            "span_cycles": span, "thread_ops": n,
            "thread_ops_per_cycle_per_sm": round(n / span, 2),
            "warp_ptx_ops_per_cycle_per_sm": round(n / span / 32, 3)}
        kern = "tp_" + name.replace("_bfly", "")
        window = timed_window(sass.get(kern, []))
        main_op = TP_SASS.get(name)
        if window and main_op:
            ratio = window.get(main_op, 0) / TP_PTX_PER_OUTER
            entry["sass_window"] = dict(window.most_common())
            entry["sass_per_ptx_op"] = round(ratio, 4)
            entry["warp_sass_instructions_per_cycle_per_sm"] = round(n * ratio / span / 32, 3)
        ops[name] = entry
    return {"config": "1 block x 1024 threads on one SM, 8 independent chains per thread, "
                      "32 x 16 steps", "ops": ops}


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print(__doc__)
        return 2
    src, dest = Path(argv[1]), Path(argv[2])
    dest.mkdir(parents=True, exist_ok=True)
    files = load_tree(src)
    text = {k: v.decode(errors="replace") for k, v in files.items()
            if k.startswith(("meta/", "sass/")) or k in ("status.tsv", "run.log")}
    env = dict(line.split("=", 1) for line in text.get("meta/env.txt", "").splitlines()
               if "=" in line)
    status = list(csv.DictReader(io.StringIO(text.get("status.tsv", "")), delimiter="\t"))
    smi = smi_csv(text.get("meta/smi_before.csv", ""))
    nvcc = text.get("meta/nvcc_version.txt", "").strip().splitlines()
    # SHA-256 of each kernel source as built (recorded by the run script), else of the file now
    sums = [line.split() for line in text.get("meta/sources.sha256", "").splitlines()]
    built_sha = {Path(f[1]).name: f[0] for f in sums if len(f) == 2}

    def source_sha(prog: str) -> str | None:
        if f"{prog}.cu" in built_sha:
            return built_sha[f"{prog}.cu"]
        path = HERE / "kernels" / f"{prog}.cu"
        return hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else None

    device_line = ""
    written = []
    timing: dict[str, object] = {}
    for rel, data in sorted(files.items()):
        if not (rel.startswith("out/") and rel.endswith(".bin")):
            continue
        prog = Path(rel).stem
        try:
            rec = read_wsval(data)
        except (ValueError, IndexError) as exc:
            print(f"skipping {rel}: {exc} ({len(data)} bytes)")
            continue
        device_line = str(rec.get("device", device_line))
        if prog in TIMING:
            sass = sass_functions(text.get(f"sass/{prog}.sass", ""))
            raw = {k: np.asarray(v).tolist() for k, v in rec.items() if k != "device"}
            if prog == "lat_alu":
                timing[prog] = {"summary": lat_alu_summary(rec, sass), "raw": raw}
            elif prog == "lat_mem":
                timing[prog] = {"summary": lat_mem_summary(rec),
                                "raw": {k: v for k, v in raw.items() if k.startswith("bulk_")},
                                "per_load_cycles": {k: v for k, v in raw.items()
                                                    if k.startswith("step_")}}
            else:
                timing[prog] = {"summary": throughput_summary(rec, sass), "raw": raw}
            continue
        ptx = files.get(f"ptx/{prog}.ptx")
        if ptx is not None:
            (dest / "ptx").mkdir(exist_ok=True)
            (dest / "ptx" / f"{prog}.ptx").write_bytes(ptx)
        doc = {"program": prog, "source": f"validation/kernels/{prog}.cu",
               "source_sha256": source_sha(prog),
               "ptx": f"ptx/{prog}.ptx" if ptx is not None else None,
               "ptx_sha256": hashlib.sha256(ptx).hexdigest() if ptx is not None else None,
               "device": rec.get("device"), "date_utc": env.get("date_utc"),
               "arrays": {k: encode_array(np.asarray(v)) for k, v in rec.items()
                          if k != "device"}}
        (dest / f"{prog}.json").write_text(json.dumps(doc, indent=1) + "\n")
        written.append(prog)
    if timing:
        timing["sources_sha256"] = {p: source_sha(p) for p in TIMING}
        (dest / "timing.json").write_text(json.dumps(timing, indent=1) + "\n")
    clocks_after = smi_csv(text.get("meta/smi_clocks_after.csv", ""))
    info = {"gpu": smi.get("name"), "driver": smi.get("driver_version"),
            "compute_cap": smi.get("compute_cap"), "memory_total": smi.get("memory.total [MiB]"),
            "clocks_before": {k: v for k, v in smi.items() if k.startswith("clocks")},
            "clocks_sm_after": clocks_after.get("clocks.current.sm [MHz]",
                                                clocks_after.get("clocks.sm [MHz]")),
            "smi_before": smi, "device_properties": device_line,
            "nvcc_version": nvcc[-2:] if nvcc else None, "nvcc_flags": env.get("nvcc_flags"),
            "date_utc": env.get("date_utc"), "host_kernel": env.get("kernel"),
            "run_seconds": env.get("total_seconds"), "status": status,
            "command": _command(dest.name)}
    if "lat_alu" in timing:
        info["sm_clock_mhz_measured"] = timing["lat_alu"]["summary"]["sm_clock_mhz_measured"]  # type: ignore[index]
    (dest / "run_info.json").write_text(json.dumps(info, indent=1) + "\n")
    total = sum(p.stat().st_size for p in dest.rglob("*") if p.is_file())
    print(f"wrote {len(written)} functional files ({', '.join(written)}), "
          f"timing: {sorted(k for k in timing if k in TIMING)}; {total / 1024:.0f} KiB in {dest}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
