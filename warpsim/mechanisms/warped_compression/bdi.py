"""Base-delta-immediate encodings of one 32-lane warp register (uint32 lane values), as the
Warped-Compression compressor and decompressor compute them.

Follows: specs/warped-compression.md §3.1-§3.7 (Table 1, Eq. 1, the compressor of Fig. 7),
§4.1 (value-similarity bins) and §10 (the compressor test vectors); paper Sec. 4-5.
Assumptions:
  [A5] Lane values are raw 32-bit patterns (floats included); deltas are modulo 2**32 and a
       Y-byte delta fits when its two's-complement value lies in [-2**(8Y-1), 2**(8Y-1) - 1].
  [A25] Full BDI: an 8-byte chunk is lanes (2i, 2i+1) read little-endian; the choice is the
       highest byte compression ratio, ties to fewer banks, then the smaller base.
  [A7] ``exist`` masks out lanes of a partial warp: they count as delta 0.
"""

from __future__ import annotations

import numpy as np

__all__ = ["CRI_BANKS", "CRI_BYTES", "FULL_BDI_BANKS", "FULL_BDI_NAMES", "SCHEMES",
           "bdi_banks", "compress", "cri", "decompress", "full_bdi", "scheme_allowed",
           "similarity_bin"]

CRI_BANKS = (1, 3, 5, 8)
"""128-bit banks of a <4,0>, <4,1>, <4,2>, uncompressed image (Table 1)."""
CRI_BYTES = (4, 35, 66, 128)
"""Bytes of the same images (Eq. 1)."""
FULL_BDI_NAMES = ("4_0", "4_1", "4_2", "8_0", "8_1", "8_2", "8_4", "unc")
"""Full-BDI outcomes, in the order of the ``wc_bdi_full_*`` statistics."""
FULL_BDI_BANKS = (1, 3, 5, 1, 2, 3, 5, 8)
"""Banks of each full-BDI outcome (Table 1)."""
_FULL_BYTES = (4, 35, 66, 8, 23, 38, 68, 128)
SCHEMES = {"wc": (0, 1, 2), "4_0": (0,), "4_1": (1,), "4_2": (2,)}
"""Delta sizes (bytes) each 4-byte-base scheme may use (spec §3.3, §3.7)."""

_M32 = np.uint64(0xFFFFFFFF)


def _lanes(lanes: np.ndarray | list[int]) -> np.ndarray:
    v = np.asarray(lanes)
    if v.dtype.kind == "f":
        v = v.astype(np.float32).view(np.uint32)
    v = (v.astype(np.int64) & 0xFFFFFFFF).astype(np.uint32)
    if v.shape != (32,):
        raise ValueError(f"a warp register has 32 lanes, got shape {v.shape}")
    return v


def _fits(delta: np.ndarray, nbytes: int) -> bool:
    if nbytes == 0:
        return bool((delta == 0).all())
    lim = 1 << (8 * nbytes - 1)
    return bool(((delta >= -lim) & (delta <= lim - 1)).all())


def _deltas4(v: np.ndarray, exist: int) -> np.ndarray:
    d = (v - v[0]).view(np.int32).astype(np.int64)  # modular 32-bit subtraction
    ex = (np.uint64(exist) >> np.arange(32, dtype=np.uint64)) & np.uint64(1)
    return np.where(ex.astype(bool), d, 0)[1:]


def scheme_allowed(scheme: str) -> tuple[int, ...]:
    """Delta sizes of a 4-byte-base scheme (``wc``, ``4_0``, ``4_1``, ``4_2``)."""
    if scheme not in SCHEMES:
        raise ValueError(f"unknown Warped-Compression scheme {scheme!r} "
                         f"(one of {', '.join(SCHEMES)})")
    return SCHEMES[scheme]


def cri(lanes: np.ndarray | list[int], allowed: tuple[int, ...] = (0, 1, 2),
        exist: int = 0xFFFFFFFF) -> int:
    """Compression range indicator: the smallest delta size in ``allowed`` that every lane's
    delta to lane 0 fits (0 = <4,0>, 1 = <4,1>, 2 = <4,2>), 3 when none fits."""
    d = _deltas4(_lanes(lanes), exist)
    for y in sorted(allowed):
        if _fits(d, y):
            return y
    return 3


def compress(lanes: np.ndarray | list[int], allowed: tuple[int, ...] = (0, 1, 2),
             exist: int = 0xFFFFFFFF) -> tuple[int, int, np.ndarray]:
    """``(cri, base, deltas[31])`` (int64 sign-extended deltas; all 0 when uncompressed, the
    register then kept as is)."""
    v = _lanes(lanes)
    c = cri(v, allowed, exist)
    if c == 3:
        return 3, int(v[0]), np.zeros(31, np.int64)
    return c, int(v[0]), _deltas4(v, exist)


def decompress(cri_: int, base: int, deltas: np.ndarray) -> np.ndarray:
    """The 32 lanes of a compressed image: base + sign-extended delta modulo 2**32."""
    if cri_ == 3:
        raise ValueError("an uncompressed register has no base/delta image")
    d = np.zeros(31, np.int64) if cri_ == 0 else np.asarray(deltas, np.int64)
    out = np.empty(32, np.uint32)
    out[0] = base
    out[1:] = ((np.int64(base) + d) & 0xFFFFFFFF).astype(np.uint32)
    return out


def full_bdi(lanes: np.ndarray | list[int], exist: int = 0xFFFFFFFF) -> str:
    """The full-BDI choice among <4,0>, <4,1>, <4,2>, <8,0>, <8,1>, <8,2>, <8,4> (spec §3.6):
    one of ``FULL_BDI_NAMES``."""
    v = _lanes(lanes)
    ex = ((np.uint64(exist) >> np.arange(32, dtype=np.uint64)) & np.uint64(1)).astype(bool)
    d4 = _deltas4(v, exist)
    w = v.copy()  # a missing lane of a chunk takes the base chunk's half: delta 0
    w[0::2] = np.where(ex[0::2], v[0::2], v[0])
    w[1::2] = np.where(ex[1::2], v[1::2], v[1])
    c = w[0::2].astype(np.uint64) | (w[1::2].astype(np.uint64) << np.uint64(32))
    d8 = (c - c[0]).view(np.int64)[1:]
    best, key = "unc", (128.0, 8, 0)
    for i, name in enumerate(FULL_BDI_NAMES[:-1]):
        base, y = int(name[0]), int(name[2])
        if _fits(d4 if base == 4 else d8, y):
            k = (_FULL_BYTES[i], FULL_BDI_BANKS[i], base)
            if k < key:
                best, key = name, k
    return best


def similarity_bin(lanes: np.ndarray | list[int]) -> int:
    """Fig. 2 bin of the worst successive-lane distance: 0 zero, 1 |d| <= 128, 2 |d| <= 2**15,
    3 random (spec §4.1; modular 32-bit differences)."""
    v = _lanes(lanes)
    d = np.abs((v[1:] - v[:-1]).view(np.int32).astype(np.int64))
    m = int(d.max())
    return 0 if m == 0 else 1 if m <= 128 else 2 if m <= 32768 else 3


def bdi_banks(lanes: np.ndarray | list[int], scheme: str = "wc") -> int:
    """128-bit banks (1, 3, 5 or 8) a 32-lane register occupies under ``scheme`` (default:
    Warped-Compression's <4,0>/<4,1>/<4,2> choice; ``full_bdi`` may also give 2)."""
    if scheme == "full_bdi":
        return FULL_BDI_BANKS[FULL_BDI_NAMES.index(full_bdi(lanes))]
    return CRI_BANKS[cri(lanes, scheme_allowed(scheme))]
