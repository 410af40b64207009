"""Compare a Rodinia CUDA program's output under warpsim with an independent reference: the
suite's OpenMP/CPU version of the program, or numpy (dwt2d's 5/3 wavelet, backprop's sums).

Usage (``run_rodinia.sh`` calls these; exit status 0 = verified):
  check_outputs.py srad GPU.pgm CPU.pgm            grey levels within 1 (float rounding)
  check_outputs.py cfd GPU_DIR CPU_DIR             density, momentum, density_energy files
  check_outputs.py dwt53 IMAGE W H LEVELS PREFIX   PREFIX.r/.g/.b against numpy's 5/3 DWT
  check_outputs.py myocyte GPU_output.txt CPU_stdout
  check_outputs.py heartwall GPU_result.txt CPU_result.txt
  check_outputs.py printed GPU_stdout CPU_stdout N   the last N numbers printed with 5 decimals
  check_outputs.py lavamd GPU_result.txt CPU_result.txt     charges and forces, 6 decimals
  check_outputs.py backprop GPU.bin CPU.bin CPU_W0.bin N    weights dumped before/after training
  check_outputs.py particles GPU_stdout CPU_stdout N  XE, YE, distance of the last N frames
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np


def _pgm(path: str) -> np.ndarray:
    tok = Path(path).read_text().split()
    cols, rows = int(tok[1]), int(tok[2])
    return np.array(tok[4:4 + rows * cols], np.int64).reshape(rows, cols)


def srad(gpu: str, cpu: str) -> bool:
    a, b = _pgm(gpu), _pgm(cpu)
    d = np.abs(a - b)
    print(f"srad: {a.shape[0]}x{a.shape[1]}, {int((d > 0).sum())} pixels differ, "
          f"by at most {int(d.max())} grey level(s)")
    return a.shape == b.shape and int(d.max()) <= 1


def cfd(gpu: str, cpu: str) -> bool:
    ok = True
    for name in ("density", "momentum", "density_energy"):
        a = np.loadtxt(Path(gpu) / name, skiprows=1)
        b = np.loadtxt(Path(cpu) / name, skiprows=1)
        d = np.abs(a - b)
        tol = 2e-5 + 1e-5 * np.abs(b)  # 6 significant digits printed
        print(f"cfd {name}: {b.size} values in [{b.min():.4g}, {b.max():.4g}], "
              f"largest difference {d.max():.3g}")
        ok &= a.shape == b.shape and bool(np.all(d <= tol))
    return ok


def _lift53(v: np.ndarray) -> np.ndarray:
    """One 1-D forward 5/3 lifting pass (ITU-T T.800 F.8/F.9 with C's truncating division, as
    the program computes it), symmetric extension; low then high coefficients."""
    n = len(v)
    x = v.astype(np.int64).copy()

    def at(i: int) -> int:
        i = -i if i < 0 else i
        return int(x[2 * (n - 1) - i] if i >= n else x[i])

    def div(a: int, b: int) -> int:
        q = abs(a) // b
        return q if a >= 0 else -q

    for i in range(1, n, 2):
        x[i] -= div(at(i - 1) + at(i + 1), 2)
    for i in range(0, n, 2):
        x[i] += div(at(i - 1) + at(i + 1) + 2, 4)
    return np.concatenate([x[0::2], x[1::2]])


def dwt53_linear(img: np.ndarray, levels: int) -> np.ndarray:
    """The program's linear output: per level a vertical then a horizontal pass, the bands
    stored one after another (LL, HL, LH, HH), the LL band transformed again in place."""
    s = np.array([_lift53(c) for c in img.T]).T
    s = np.array([_lift53(r) for r in s])
    h2, w2 = (s.shape[0] + 1) // 2, (s.shape[1] + 1) // 2
    ll = s[:h2, :w2]
    first = dwt53_linear(ll, levels - 1) if levels > 1 else ll.ravel()
    return np.concatenate([first, s[:h2, w2:].ravel(), s[h2:, :w2].ravel(),
                           s[h2:, w2:].ravel()])


def dwt53(image: str, width: str, height: str, levels: str, prefix: str) -> bool:
    w, h, lv = int(width), int(height), int(levels)
    raw = np.fromfile(image, np.uint8)[:w * h * 3]  # the program reads the file's first bytes
    ok = True
    for k, comp in enumerate("rgb"):
        x = raw[k::3].reshape(h, w).astype(np.int64) - 128
        ref = np.clip(dwt53_linear(x, lv) + 128, 0, 255)
        got = np.fromfile(f"{prefix}.{comp}", np.uint8).astype(np.int64)
        d = np.abs(got - ref) if got.size == ref.size else np.array([999])
        print(f"dwt2d {comp}: {int((d > 0).sum())} of {ref.size} coefficients differ")
        ok &= int(d.max()) == 0
    return ok


def _myocyte_values(path: str) -> dict[tuple[int, int], float]:
    pat = r"y\[0\]\[(\d+)\]\[(\d+)\]=\s*(\S+)"
    return {(int(m[1]), int(m[2])): float(m[3])
            for m in re.finditer(pat, Path(path).read_text())}


def myocyte(gpu: str, cpu: str) -> bool:
    g, c = _myocyte_values(gpu), _myocyte_values(cpu)
    keys = sorted(set(g) & set(c))
    a = np.array([g[k] for k in keys])
    b = np.array([c[k] for k in keys])
    rel = np.abs(a - b) / np.maximum(np.abs(b), 1e-3)
    print(f"myocyte: {len(keys)} values (of {len(g)}), largest relative difference "
          f"{rel.max():.3g} at time/state {keys[int(np.argmax(rel))]}")
    return len(keys) == len(g) > 0 and bool(np.all(np.isfinite(a))) and rel.max() < 1e-3


def heartwall(gpu: str, cpu: str) -> bool:
    a = np.array(Path(gpu).read_text().split()[8:])
    b = np.array(Path(cpu).read_text().split()[8:])
    same = a.size == b.size and bool(np.all(a == b))
    nums = [t for t in b if t.lstrip("-").isdigit()]
    print(f"heartwall: {len(nums)} tracked coordinates, "
          f"{'all equal' if same else 'differ'}")
    return same


def printed(gpu: str, cpu: str, count: str) -> bool:
    n = int(count)
    a, b = (np.array(re.findall(r"-?\d+\.\d{5}\b", Path(p).read_text()), float)[-n:]
            for p in (gpu, cpu))
    d = np.abs(a - b) if a.size == b.size == n else np.array([np.inf])
    print(f"printed values: {n}, largest difference {d.max():.3g}")
    return bool(d.max() <= 1.5e-5)  # 5 decimals printed


def lavamd(gpu: str, cpu: str) -> bool:
    """Potential and force (v, x, y, z) of every particle: doubles printed with 6 decimals; the
    OpenMP version sums the same neighbour boxes in the same order, so only the print rounds."""
    a, b = (np.loadtxt(p, delimiter=",", ndmin=2) for p in (gpu, cpu))
    d = np.abs(a - b) if a.shape == b.shape else np.array([np.inf])
    print(f"lavaMD: {b.size} values of {b.shape[0]} particles in [{b.min():.4g}, {b.max():.4g}], "
          f"largest difference {d.max():.3g}")
    return b.size > 0 and bool(d.max() <= 1.5e-6)


def backprop(gpu: str, cpu: str, w0: str, inputs: str) -> bool:
    """One training step of the 2-layer net (N inputs, 16 hidden units, 1 output). GPU.bin: the
    input weights the adjust kernel returned, hidden units, hidden weights, then the forward
    kernel's per-block partial sums; CPU.bin: the OpenMP version's same three arrays; W0.bin: its
    input weights before training, then its input units (both versions draw them from srand(7)).
    The partial sums (16 float products each, summed as a tree) must be within 16 float32
    epsilons of numpy's float64 sums; the rest within 1e-6 of the OpenMP version (the hidden sums
    are added in another order, and float32 resolves 6e-8 near the sigmoid's 1)."""
    n, hid, out = int(inputs), 16, 1
    nw = (n + 1) * (hid + 1)
    g, c, w = (np.fromfile(p, np.float32).astype(np.float64) for p in (gpu, cpu, w0))
    if c.size != nw + (hid + 1) * (out + 2) or g.size != c.size + n // 16 * hid:
        print(f"backprop: unexpected sizes {g.size}, {c.size}")
        return False
    weights, x = w[:nw].reshape(n + 1, hid + 1), w[nw:]
    ref = (x[1:, None] * weights[1:, 1:]).reshape(n // 16, 16, hid).sum(axis=1)
    part = g[c.size:].reshape(n // 16, hid)
    dp = np.abs(part - ref)
    d = np.abs(g[:c.size] - c)
    moved = int((c[:nw] != w[:nw]).sum())
    print(f"backprop: {part.size} partial sums in [{ref.min():.3g}, {ref.max():.3g}], largest "
          f"difference from numpy {dp.max():.3g}; {c.size} weights and hidden units, largest "
          f"difference {d.max():.3g} ({moved} input weights changed by the step)")
    return bool(np.all(dp <= 16 * 2.0**-23 * ref)) and bool(d.max() <= 1e-6)


def particles(gpu: str, cpu: str, frames: str) -> bool:
    """Estimated position (XE, YE) and its distance from the true one in the last N frames
    (the naive version prints every frame after the first, the float version only the last),
    printed with 6 decimals; within 1e-5: the float version's float32 resolves 7.6e-6 at 64."""
    pat = r"XE: (\S+)\s+YE: (\S+)\s+(\S+)"
    n = int(frames)
    a, b = (np.array(re.findall(pat, Path(p).read_text()), float).reshape(-1, 3)[-n:]
            for p in (gpu, cpu))
    d = np.abs(a - b) if a.shape == b.shape == (n, 3) else np.array([np.inf])
    print(f"particlefilter: {n} frames (XE, YE, distance), largest difference {d.max():.3g}")
    return bool(d.max() <= 1e-5)


def main(argv: list[str]) -> int:
    checks = {"srad": srad, "cfd": cfd, "dwt53": dwt53, "myocyte": myocyte,
              "heartwall": heartwall, "printed": printed, "lavamd": lavamd,
              "backprop": backprop, "particles": particles}
    if not argv or argv[0] not in checks:
        print(__doc__)
        return 2
    ok = checks[argv[0]](*argv[1:])
    print("VERIFIED" if ok else "MISMATCH")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
