"""Small inputs of our own for the Rodinia programs whose data files are not in the suite's
repository (issue 18): a PGM image (srad_v1), B+tree records and commands (b+tree), an
unstructured-mesh file (cfd), a byte stream (huffman), a 24-bit BMP (dwt2d), DNA reference and
reads (mummergpu), initial state and parameters (myocyte).

Every input is generated from a fixed seed (the same bytes on every run); none is the suite's
data. Usage: ``python3 validation/rodinia/make_inputs.py DATA_DIR`` writes the files under
DATA_DIR in the layout the programs' hard-coded paths expect (``DATA_DIR/srad/image.pgm``,
``DATA_DIR/myocyte/y.txt`` ...); ``run_rodinia.sh`` builds, runs and checks the programs.
"""

from __future__ import annotations

import struct
import sys
from pathlib import Path

import numpy as np

SEED = 18


def srad_image(rows: int = 502, cols: int = 458) -> np.ndarray:
    """An ultrasound-like 8-bit image: bright ellipses on a dark field, multiplicative speckle
    (SRAD's noise model), the size srad_v1 reads (502 x 458, then resizes)."""
    rng = np.random.default_rng(SEED)
    y, x = np.mgrid[0:rows, 0:cols].astype(np.float64)
    img = np.full((rows, cols), 40.0)
    for cy, cx, ry, rx, v in ((250, 230, 120, 90, 150), (120, 100, 40, 60, 200),
                              (380, 330, 60, 50, 110)):
        img[((y - cy) / ry) ** 2 + ((x - cx) / rx) ** 2 <= 1.0] = v
    speckle = rng.gamma(4.0, 0.25, size=img.shape)  # mean 1, variance 1/4
    return np.clip(img * speckle, 0, 255).astype(np.int64)


def write_pgm_p2(path: Path, img: np.ndarray) -> None:
    """ASCII PGM (P2), the format srad_v1's read_graphics skips three header lines of."""
    rows, cols = img.shape
    lines = ["P2", f"{cols} {rows}", "255"]
    lines += [" ".join(str(v) for v in row) for row in img]
    path.write_text("\n".join(lines) + "\n")


def btree_files(n: int = 10000, queries: int = 256) -> tuple[str, str]:
    """(records file, command file): ``n`` distinct keys in random order after their count;
    a ``k`` (find keys) and a ``j`` (range query) command."""
    rng = np.random.default_rng(SEED)
    keys = rng.permutation(n) + 1
    records = f"{n}\n" + "\n".join(str(k) for k in keys) + "\n"
    return records, f"k {queries}\nj {queries} 10\n"


def cfd_mesh(nx: int = 24, ny: int = 16) -> str:
    """A mesh in cfd's ``.domn`` format: the element count, then per element its area and 4
    neighbours (1-based; 0 a wall, -1 the far field), each with its face normal (3 floats,
    scaled by the face area). Here a 2-D grid of unit cells (x faces 1, y faces 0.5): a wall
    on the bottom edge and a fence across the lower half of the middle column (the Mach 1.2
    free stream hits it), far field elsewhere."""
    lines = [str(nx * ny)]
    fence = nx // 2

    def idx(ii: int, jj: int) -> int:
        return jj * nx + ii + 1

    for j in range(ny):
        low = j < ny // 2
        for i in range(nx):
            left = 0 if low and i == fence else idx(i - 1, j) if i > 0 else -1
            right = 0 if low and i == fence - 1 else idx(i + 1, j) if i < nx - 1 else -1
            nbs = [(left, (-1.0, 0.0, 0.0)), (right, (1.0, 0.0, 0.0)),
                   (idx(i, j - 1) if j > 0 else 0, (0.0, -0.5, 0.0)),
                   (idx(i, j + 1) if j < ny - 1 else -1, (0.0, 0.5, 0.0))]
            parts = ["0.5"]
            for nb, nrm in nbs:
                parts.append(str(nb))
                parts += [f"{c:.6f}" for c in nrm]
            lines.append(" ".join(parts))
    return "\n".join(lines) + "\n"


def huffman_bytes(n: int = 256 * 1024) -> bytes:
    """A byte stream with a skewed (geometric) symbol distribution, entropy about 3 bits."""
    rng = np.random.default_rng(SEED)
    return np.minimum(rng.geometric(0.2, size=n) - 1, 255).astype(np.uint8).tobytes()


def bmp24(width: int = 64, height: int = 64) -> bytes:
    """A 24-bit uncompressed BMP (bottom-up rows padded to 4 bytes): smooth gradients, a
    disc and noise in the three channels."""
    rng = np.random.default_rng(SEED)
    y, x = np.mgrid[0:height, 0:width]
    r = (x * 255 // max(width - 1, 1))
    g = (y * 255 // max(height - 1, 1))
    b = np.where((x - width / 2) ** 2 + (y - height / 2) ** 2 < (width / 4) ** 2, 220, 30)
    px = np.stack([b, g, r], axis=-1) + rng.integers(0, 16, size=(height, width, 3))
    px = np.clip(px, 0, 255).astype(np.uint8)
    row = width * 3
    pad = (-row) % 4
    body = b"".join(px[height - 1 - k].tobytes() + b"\0" * pad for k in range(height))
    head = struct.pack("<2sIHHI", b"BM", 54 + len(body), 0, 0, 54)
    info = struct.pack("<IiiHHIIiiII", 40, width, height, 1, 24, 0, len(body), 2835, 2835,
                       0, 0)
    return head + info + body


def dna(ref_len: int = 20000, reads: int = 200, read_len: int = 50) -> tuple[str, str]:
    """(reference FASTA, reads FASTA): a random genome and forward-strand reads cut from it,
    each with two random substitutions (for mummergpu, which does not build with CUDA 13)."""
    rng = np.random.default_rng(SEED)
    alphabet = np.array(list("ACGT"))
    genome = alphabet[rng.integers(0, 4, ref_len)]
    ref = ">ref\n" + "\n".join("".join(genome[i:i + 70]) for i in range(0, ref_len, 70)) + "\n"
    out = []
    for k in range(reads):
        start = int(rng.integers(0, ref_len - read_len))
        seq = genome[start:start + read_len].copy()
        for pos in rng.integers(0, read_len, 2):
            seq[pos] = alphabet[rng.integers(0, 4)]
        out.append(f">read{k}\n{''.join(seq)}\n")
    return ref, "".join(out)


def myocyte_state() -> tuple[str, str, str]:
    """(y.txt, params.txt of the CUDA version, params.txt of the OpenMP version), one value a
    line: 91 initial values of the cardiac myocyte model (0-45 excitation-contraction
    coupling: gates and buffers drawn in [0.01, 0.5], Na 9 mM at 31-33, K 120 mM at 34, Ca
    0.1-0.2 uM at 35-37, Vm -85 mV at 38; 46-90 the three calmodulin compartments, drawn in
    [0, 1] uM) and the parameters: per compartment the CaM, buffer, CaMKII, calcineurin and PP1
    totals (uM), the cycle length (1000 ms), K 135 mM and Mg 1 mM. The two versions order
    the parameters differently (CUDA: dyad, SL, cytosol, cycle length, K, Mg; OpenMP: cycle
    length, dyad, SL, cytosol, with K and Mg built in), and the CUDA version's kernel_fin reads
    its dyad buffer and CaMKII totals one slot later than the OpenMP version: the dyad's
    buffer, CaMKII and calcineurin totals are equal here, so both read the same values."""
    rng = np.random.default_rng(SEED)
    y = rng.uniform(0.01, 0.5, 91)
    y[31:34] = 9.0
    y[34] = 120.0
    y[35:38] = rng.uniform(1e-4, 2e-4, 3)
    y[38] = -85.0
    y[46:] = rng.uniform(0.0, 1.0, 45)
    cams = [[24.0, 40.0, 40.0, 40.0, 0.5], [12.0, 20.0, 60.0, 1.5, 0.25],
            [6.0, 10.0, 30.0, 0.75, 0.125]]
    cuda = [v for c in cams for v in c] + [1000.0, 135.0, 1.0]
    openmp = [1000.0] + [v for c in cams for v in c]

    def lines(vals: list[float] | np.ndarray) -> str:
        return "\n".join(f"{v:.9g}" for v in vals) + "\n"
    return lines(y), lines(cuda), lines(openmp)


def avi_gray8(frames: list[np.ndarray], fps: int = 25) -> bytes:
    """An uncompressed 8-bit grey AVI (RIFF 'AVI ': hdrl with avih, a 'vids' strh and a
    BITMAPINFOHEADER strf with a grey palette; movi of '00db' chunks; an idx1 index with
    offsets from the 'movi' tag), the layout heartwall's reader expects: each frame is
    width x height bytes, bottom row first (as in a DIB)."""
    height, width = frames[0].shape
    size = width * height

    def chunk(tag: bytes, data: bytes) -> bytes:
        return tag + struct.pack("<I", len(data)) + data + (b"\0" if len(data) % 2 else b"")

    def lst(kind: bytes, body: bytes) -> bytes:
        return b"LIST" + struct.pack("<I", len(body) + 4) + kind + body

    avih = struct.pack("<14I", 1000000 // fps, size * fps, 0, 0x10, len(frames), 0, 1, size,
                       width, height, 0, 0, 0, 0)
    strh = (b"vids" + b"DIB " + struct.pack("<IHHIIIIIIiI", 0, 0, 0, 0, 1, fps, 0,
                                            len(frames), size, -1, 0)
            + struct.pack("<4h", 0, 0, width, height))
    palette = b"".join(bytes((g, g, g, 0)) for g in range(256))
    strf = struct.pack("<IiiHHIIiiII", 40, width, height, 1, 8, 0, size, 0, 0, 256, 0) + palette
    hdrl = lst(b"hdrl", chunk(b"avih", avih) + lst(b"strl", chunk(b"strh", strh) +
                                                   chunk(b"strf", strf)))
    movi_body, index, off = b"", b"", 4
    for f in frames:
        data = np.ascontiguousarray(f[::-1]).astype(np.uint8).tobytes()
        index += b"00db" + struct.pack("<III", 0x10, off, len(data))
        movi_body += chunk(b"00db", data)
        off += 8 + len(data) + len(data) % 2
    body = b"AVI " + hdrl + lst(b"movi", movi_body) + chunk(b"idx1", index)
    return b"RIFF" + struct.pack("<I", len(body)) + body


def heartwall_frames(n: int = 4, rows: int = 600, cols: int = 640) -> list[np.ndarray]:
    """Frames of a textured ring (a heart wall seen in ultrasound) that shrinks and moves a
    little from frame to frame, over speckle: something for heartwall's templates to track."""
    rng = np.random.default_rng(SEED)
    y, x = np.mgrid[0:rows, 0:cols].astype(np.float64)
    noise = rng.normal(0.0, 1.0, (rows, cols))
    k = np.outer(np.hanning(9), np.hanning(9))
    k /= k.sum()
    texture = np.real(np.fft.ifft2(np.fft.fft2(noise) * np.fft.fft2(k, noise.shape)))
    frames = []
    for t in range(n):
        r = np.hypot(y - 380 - 2 * t, x - 300 - t)
        wall = np.exp(-((r - 140 + 3 * t) / 25.0) ** 2) + np.exp(-((r - 220 + 2 * t) / 20.0) ** 2)
        img = 40 + 150 * wall + 25 * np.roll(texture, (t, t), axis=(0, 1)) / texture.std()
        frames.append(np.clip(img, 0, 255).astype(np.uint8))
    return frames


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__)
        return 2
    root = Path(argv[0])
    for sub in ("srad", "b+tree", "cfd", "huffman", "dwt2d", "mummergpu", "myocyte",
                "heartwall"):
        (root / sub).mkdir(parents=True, exist_ok=True)
    write_pgm_p2(root / "srad" / "image.pgm", srad_image())
    records, commands = btree_files()
    (root / "b+tree" / "records.txt").write_text(records)
    (root / "b+tree" / "command.txt").write_text(commands)
    (root / "cfd" / "fence.domn").write_text(cfd_mesh())
    (root / "huffman" / "skewed.in").write_bytes(huffman_bytes())
    (root / "dwt2d" / "64.bmp").write_bytes(bmp24())
    (root / "heartwall" / "test.avi").write_bytes(avi_gray8(heartwall_frames()))
    y, params, params_openmp = myocyte_state()
    (root / "myocyte" / "y.txt").write_text(y)
    (root / "myocyte" / "params.txt").write_text(params)
    (root / "myocyte" / "params_openmp.txt").write_text(params_openmp)
    ref, reads = dna()
    (root / "mummergpu" / "ref.fna").write_text(ref)
    (root / "mummergpu" / "reads.fna").write_text(reads)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
