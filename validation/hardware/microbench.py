#!/usr/bin/env python3
"""The clock64 microbenchmarks of ``validation/kernels/lat_alu.cu``, ``lat_mem.cu`` and
``throughput.cu``, measured on warpsim, next to the hardware's numbers
(``validation/results/<chip>/timing.json``).

    python3 validation/hardware/microbench.py [--config h100] [--chip h100] [-o PATH=VALUE ...]
                                              [--only NAME ...] [--markdown]

warpsim's ``%clock64`` counts instructions, not cycles (functional/executor.py), so the same
kernels cannot time themselves here. Each number is measured instead as a *difference of two
launches* that differ only in the length of the timed part: a kernel with ``short`` and one
with ``long`` dependent operations (or loads, or independent operations per thread); cycles
per operation = (cycles(long) - cycles(short)) / (long - short). Launch overhead, the loads of
the operands and the final store cancel out. The kernels are hand-written PTX (no compiler
needed), one per measurement, mirroring the hardware programs:

* latency: one warp, a chain of ``add.rn.f32 x, x, y`` (...) in which each op consumes the
  previous result: cycles per PTX op, compared with the hardware's ``cycles_per_ptx_op``
  (ptxas merges two dependent 32-bit adds into one IADD3, so the hardware's ``iadd`` is 2
  cycles per PTX add and 4 per machine instruction: warpsim, which runs PTX, is compared with
  the per-PTX-op number and the machine one is shown next to it);
* load-to-use: one thread follows a chain of 64-bit pointers through 128-byte lines (one load
  per step): ``l1`` default loads over 64 lines after a warm pass (L1 hits), ``l2`` default
  loads over 320 lines (40 KiB, more than the 32 KiB L1 of the h100 preset) after a warm
  pass (L1 misses, L2 hits: the hardware's ``l2_ca_miss``), ``dram`` ``ld.global.cg`` over
  distinct lines 64 KiB + 128 B apart, cold (L2 misses in different DRAM rows), ``shared``
  ``ld.shared`` around a ring. warpsim ignores the ``.cg`` cache operator (every global load
  goes through L1), so the hardware's ``ld.global.cg`` L2-hit chase (``l2_cg``, ~100 cycles
  slower than ``l2_ca_miss`` on the H100 and H200) has no counterpart;
* throughput: one block of 1024 threads on one SM, 8 independent chains per thread: thread
  operations per cycle per SM.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # this checkout's warpsim, also when run as a script
    sys.path.insert(0, str(ROOT))
RESULTS = ROOT / "validation" / "results"

_HEAD = ".version 8.0\n.target sm_90\n.address_size 64\n"


@dataclass(frozen=True)
class Alu:
    """A dependent chain: ``insn`` with ``%x`` the accumulator, ``%y``/``%z`` fixed operands."""

    name: str
    ty: str
    insn: str
    hw_key: str


ALU = (
    Alu("fadd", "f32", "add.rn.f32 %x, %x, %y;", "fadd"),
    Alu("fmul", "f32", "mul.rn.f32 %x, %x, %y;", "fmul"),
    Alu("ffma", "f32", "fma.rn.f32 %x, %x, %y, %z;", "ffma"),
    Alu("fmnmx", "f32", "max.f32 %x, %x, %y;", "fmnmx"),
    Alu("dadd", "f64", "add.rn.f64 %x, %x, %y;", "dadd"),
    Alu("dfma", "f64", "fma.rn.f64 %x, %x, %y, %z;", "dfma"),
    Alu("iadd", "u32", "add.u32 %x, %x, %y;", "iadd"),
    Alu("imad", "u32", "mad.lo.u32 %x, %x, %y, %z;", "imad"),
    Alu("imul", "u32", "mul.lo.u32 %x, %x, %y;", "imul"),
    Alu("imad_hi", "u32", "mad.hi.u32 %x, %x, %y, %z;", "imad_hi"),
    Alu("popc", "u32", "popc.b32 %x, %x;", "popc"),
    Alu("iadd64", "u64", "add.u64 %x, %x, %y;", "iadd64"),
    Alu("mufu_ex2", "f32", "ex2.approx.ftz.f32 %x, %x;", "mufu_ex2"),
    Alu("mufu_rsqrt", "f32", "rsqrt.approx.ftz.f32 %x, %x;", "mufu_rsqrt"),
    Alu("mufu_lg2", "f32", "lg2.approx.ftz.f32 %x, %x;", "mufu_lg2"),
    Alu("mufu_sin", "f32", "sin.approx.f32 %x, %x;", "mufu_sin"),
    Alu("cvt_f2f_rzi", "f32", "cvt.rzi.f32.f32 %x, %x;", "cvt_f2f_rzi"),
    Alu("shfl_idx", "u32", "shfl.sync.idx.b32 %x, %x, %y, 31, -1;", "shfl_idx"),
)
"""The chains of lat_alu.cu that have one PTX instruction per step."""

TP = (
    Alu("ffma", "f32", "fma.rn.f32 %x, %x, %y, %z;", "ffma"),
    Alu("fadd", "f32", "add.rn.f32 %x, %x, %y;", "fadd"),
    Alu("dfma", "f64", "fma.rn.f64 %x, %x, %y, %z;", "dfma"),
    Alu("imad", "u32", "mad.lo.u32 %x, %x, %y, %z;", "imad"),
    Alu("lop3", "u32", "lop3.b32 %x, %x, %y, %z, 0x96;", "lop3"),
    Alu("popc", "u32", "popc.b32 %x, %x;", "popc"),
    Alu("mufu_ex2", "f32", "ex2.approx.ftz.f32 %x, %x;", "mufu_ex2"),
    Alu("shfl_bfly", "u32", "shfl.sync.bfly.b32 %x, %x, 1, 31, -1;", "shfl_bfly"),
)
"""The loops of throughput.cu."""

MEM = ("l1", "l2", "dram", "shared")
"""Load-to-use chains (hardware keys: l1_ca, l2_ca_miss, dram_64m, shared)."""
L1_THRASH_LINES = 320
"""Lines of the ``l2`` ring: 80 per set of the 32 KiB 64-way L1 (LRU: all miss again)."""
MEM_HW = {"l1": "l1_ca", "l2": "l2_ca_miss", "dram": "dram_64m", "shared": "shared"}


def _ptx_type(ty: str) -> str:
    return {"f32": "f32", "f64": "f64", "u32": "b32", "u64": "b64"}[ty]


def _imm(ty: str, v: float) -> str:
    """``v`` as a PTX immediate of type ``ty`` (floats by their bits: 0f..., 0d...)."""
    if ty == "f32":
        return f"0f{int(np.float32(v).view(np.uint32)):08X}"
    if ty == "f64":
        return f"0d{int(np.float64(v).view(np.uint64)):016X}"
    return str(int(v))


def _operands(op: Alu) -> tuple[str, str, str]:
    """Immediates (x, y, z) of a chain, as lat_alu.cu's host code sets them (no memory access
    before the timed part: only the results are stored)."""
    x, y, z = {"f32": (1.0, 1e-7, 0.9999999), "f64": (1.0, 1e-9, 1e-12),
               "u32": (12345, 3, 7), "u64": (5, 3, 1)}[op.ty]
    if op.name.startswith("mufu") or op.name == "cvt_f2f_rzi":
        x = 0.5
    if op.name.startswith("shfl"):
        z = 1
    return _imm(op.ty, x), _imm(op.ty, y), _imm(op.ty, z)


def alu_chain_ptx(op: Alu, n: int, chains: int = 1, iters: int = 0) -> str:
    """``.entry k(.param .u64 io)``: x (per chain), y, z set from immediates, ``n`` steps of
    ``chains`` independent chains of ``op`` (interleaved), store the chains' results. With
    ``iters``, the ``n`` steps are a loop body run ``iters`` times (as throughput.cu's loop:
    fully unrolled code would make 32 warps wait on instruction fetch instead)."""
    t = _ptx_type(op.ty)
    size = 8 if op.ty in ("f64", "u64") else 4
    x, y, z = _operands(op)
    lines = [_HEAD, ".visible .entry k(.param .u64 io)\n{",
             f"  .reg .{t} %v<{chains + 3}>;", "  .reg .u64 %a<2>;", "  .reg .u32 %i;",
             "  .reg .pred %p;", "  ld.param.u64 %a0, [io];", "  cvta.to.global.u64 %a0, %a0;",
             f"  mov.{t} %v0, {y};", f"  mov.{t} %v1, {z};"]
    for c in range(chains):
        lines.append(f"  mov.{t} %v{c + 2}, {x};")
    body = op.insn.replace("%y", "%v0").replace("%z", "%v1")
    if op.name == "shfl_idx":
        body = op.insn.replace("%y", "%v1")
    if iters:
        lines += ["  mov.u32 %i, 0;", "LOOP:"]
    for _ in range(n):
        for c in range(chains):
            lines.append("  " + body.replace("%x", f"%v{c + 2}"))
    if iters:
        lines += ["  add.u32 %i, %i, 1;", f"  setp.lt.u32 %p, %i, {iters};", "  @%p bra LOOP;"]
    for c in range(chains):
        lines.append(f"  st.global.{t} [%a0+{(3 + c) * size}], %v{c + 2};")
    lines += ["  ret;", "}"]
    return "\n".join(lines) + "\n"


def chase_ptx(n: int, space: str) -> str:
    """One load per step: ``p = *p`` ``n`` times from the pointer in io[0], result to io[1].
    ``space``: "global" (default caching), "cg" (ld.global.cg) or "shared" (a ring in shared
    memory, 256 32-bit words, first filled from io[4..])."""
    if space == "shared":
        lines = [_HEAD, ".visible .entry k(.param .u64 io)\n{",
                 "  .shared .align 4 .b32 ring[256];",
                 "  .reg .u32 %r<4>;", "  .reg .u64 %a<4>;", "  .reg .pred %p;",
                 "  ld.param.u64 %a0, [io];", "  cvta.to.global.u64 %a0, %a0;",
                 "  mov.u32 %r0, 0;", "FILL:", "  mul.wide.u32 %a1, %r0, 4;",
                 "  add.u64 %a2, %a0, %a1;", "  ld.global.u32 %r1, [%a2+16];",
                 "  mov.u32 %r2, ring;", "  add.u32 %r1, %r1, %r2;",
                 "  cvt.u64.u32 %a3, %r2;", "  add.u64 %a3, %a3, %a1;",
                 "  st.shared.u32 [%a3], %r1;", "  add.u32 %r0, %r0, 1;",
                 "  setp.lt.u32 %p, %r0, 256;", "  @%p bra FILL;",
                 "  mov.u32 %r0, ring;"]
        lines += ["  ld.shared.u32 %r0, [%r0];"] * n
        lines += ["  st.global.u32 [%a0+8], %r0;", "  ret;", "}"]
        return "\n".join(lines) + "\n"
    ld = "ld.global.cg.u64" if space == "cg" else "ld.global.u64"
    lines = [_HEAD, ".visible .entry k(.param .u64 io)\n{", "  .reg .u64 %a<2>;",
             "  ld.param.u64 %a0, [io];", "  cvta.to.global.u64 %a0, %a0;",
             "  ld.global.u64 %a1, [%a0];"]
    lines += [f"  {ld} %a1, [%a1];"] * n
    lines += ["  st.global.u64 [%a0+8], %a1;", "  ret;", "}"]
    return "\n".join(lines) + "\n"


class Bench:
    """A timed warpsim Device for ``config`` and the launches of the measurements."""

    def __init__(self, config: str = "h100", overrides: tuple[str, ...] = ()):
        self.config, self.overrides = config, tuple(overrides)
        self.dev: Any = None
        self._fresh()

    def _fresh(self) -> None:
        import warpsim

        if self.dev is not None:
            self.dev.close()
        self.dev = warpsim.Device(config=self.config, overrides=self.overrides,
                                  memory_bytes=64 << 20)
        self._mods: dict[str, Any] = {}

    def cycles(self, ptx: str, grid: int, block: int, io: Any) -> int:
        if ptx not in self._mods:
            self._mods[ptx] = self.dev.load_ptx(ptx, name="microbench.ptx").get_kernel("k")
        self._mods[ptx][grid, block](io)
        return int(self.dev.last_launch.stats["gpu_sim_cycle"])

    def _io(self) -> Any:
        """A fresh buffer for a chain kernel's results."""
        return self.dev.device_array(64, np.uint64)

    def latency(self, op: Alu, short: int = 16, long: int = 80) -> float:
        """Cycles per dependent op (one warp)."""
        c0 = self.cycles(alu_chain_ptx(op, short), 1, 32, self._io())
        c1 = self.cycles(alu_chain_ptx(op, long), 1, 32, self._io())
        return (c1 - c0) / (long - short)

    def throughput(self, op: Alu, short: int = 2, long: int = 6, chains: int = 8,
                   steps: int = 16) -> float:
        """Thread operations per cycle on one SM: 1024 threads, ``chains`` per thread, a loop
        of ``steps`` steps run ``short`` or ``long`` times; best of two launches each, on a new
        Device. With 32 warps warpsim has a slow mode: on a new Device the first long launch
        of imad took 19,425 cycles and the same launch again 16,394 (the short ones 8,012 and
        8,008), the same on every new Device; the hardware program too keeps the best of its
        repetitions (lat_alu.cu)."""
        self._fresh()
        ptx = (alu_chain_ptx(op, steps, chains, short), alu_chain_ptx(op, steps, chains, long))
        runs = [self.cycles(ptx[i % 2], 1, 1024, self._io()) for i in range(4)]
        c0, c1 = min(runs[0::2]), min(runs[1::2])
        return 1024 * chains * steps * (long - short) / (c1 - c0)

    def _ring(self, lines: int, stride: int) -> Any:
        """A device buffer holding a cyclic chain of 64-bit pointers ``stride`` bytes apart
        (``lines`` of them, in order), preceded by a 256-byte header whose word 0 points to
        the first element."""
        buf = self.dev.device_array(256 // 8 + lines * stride // 8, np.uint64)
        base = buf.device_ptr
        host = np.zeros(buf.size, np.uint64)
        first = base + 256
        for i in range(lines):
            host[(256 + i * stride) // 8] = first + ((i + 1) % lines) * stride
        host[0] = first
        buf.copy_to_device(host)
        return buf

    def load_to_use(self, kind: str) -> float:
        """Cycles per dependent load (one thread). Warm chains walk their ring once before the
        timed part: the two launches differ by 256 hits (``l1``: 64 lines; ``l2``: more lines
        than an LRU L1 holds, so every load of the second pass misses L1 and hits L2)."""
        self._fresh()
        if kind == "shared":
            host = np.zeros(4 + 256, np.uint32)  # element i points to element i + 33 (mod 256)
            host[4:] = (np.arange(256, dtype=np.uint32) * 4 + 4 * 33) % 1024
            c = [self.cycles(chase_ptx(n, "shared"), 1, 1, self.dev.to_device(host))
                 for n in (64, 320)]
            return (c[1] - c[0]) / 256
        if kind == "dram":  # cold: a fresh ring per launch, every load a new line and row
            c = [self.cycles(chase_ptx(n, "cg"), 1, 1, self._ring(n + 1, 65536 + 128))
                 for n in (16, 48)]
            return (c[1] - c[0]) / 32
        ring = 64 if kind == "l1" else L1_THRASH_LINES
        c = [self.cycles(chase_ptx(ring + n, "global"), 1, 1, self._ring(ring, 128))
             for n in (64, 320)]
        return (c[1] - c[0]) / 256


def hardware(chip: str = "h100") -> dict[str, Any]:
    """The stored timing summary of ``chip`` (``results/<chip>/timing.json``)."""
    doc = json.loads((RESULTS / chip / "timing.json").read_text())
    return {k: doc[k]["summary"] for k in ("lat_alu", "lat_mem", "throughput")}


def measure(config: str = "h100", overrides: tuple[str, ...] = (), chip: str = "h100",
            only: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    """Rows (kind, name, hardware, warpsim, ratio) for every microbenchmark (or ``only``)."""
    hw, bench, rows = hardware(chip), Bench(config, overrides), []

    def want(name: str) -> bool:
        return not only or name in only

    for op in ALU:
        if want(op.name):
            h = hw["lat_alu"]["ops"][op.hw_key]
            rows.append({"kind": "latency", "name": op.name, "hw": h["cycles_per_ptx_op"],
                         "hw_sass": h["cycles_per_sass_instruction"], "ws": bench.latency(op)})
    for kind in MEM:
        if want(kind):
            rows.append({"kind": "load-to-use", "name": kind,
                         "hw": hw["lat_mem"]["bulk"][MEM_HW[kind]]["cycles_per_load"],
                         "ws": bench.load_to_use(kind)})
    for op in TP:
        if want("tp_" + op.name):
            h = hw["throughput"]["ops"][op.hw_key]
            rows.append({"kind": "throughput", "name": op.name,
                         "hw": h["thread_ops_per_cycle_per_sm"], "ws": bench.throughput(op)})
    for r in rows:
        r["ratio"] = r["ws"] / r["hw"] if r["hw"] else None
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--config", default="h100")
    ap.add_argument("--chip", default="h100", help="hardware data: results/<chip>/timing.json")
    ap.add_argument("-o", "--set", action="append", default=[], metavar="PATH=VALUE")
    ap.add_argument("--only", action="append", default=[], metavar="NAME",
                    help="a latency/load name, or tp_<name> for a throughput")
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args(argv)
    rows = measure(args.config, tuple(args.set), args.chip, tuple(args.only))
    if args.markdown:
        print(f"| kind | name | {args.chip} | warpsim {args.config} | ratio |")
        print("|---|---|---:|---:|---:|")
    for r in rows:
        if args.markdown:
            print(f"| {r['kind']} | {r['name']} | {r['hw']:.1f} | {r['ws']:.1f} | "
                  f"{r['ratio']:.2f} |")
        else:
            print(f"{r['kind']:12s} {r['name']:12s} hw {r['hw']:8.1f}  warpsim {r['ws']:8.1f}  "
                  f"ratio {r['ratio']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
