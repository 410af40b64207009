"""aes: AES-128 ECB encryption with T-tables in shared memory (like the ISPASS-2009 AES
benchmark). The reference is an independent byte-oriented AES (SubBytes, ShiftRows,
MixColumns) checked against the FIPS-197 example vector."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from warpsim.bench.harness import Launcher
from warpsim.bench.spec import Benchmark, Params

__all__ = ["BENCHMARK"]

_TPB = 256


def _xtime(a: int) -> int:
    a <<= 1
    return (a ^ 0x11B) & 0xFF if a & 0x100 else a


def _gmul(a: int, b: int) -> int:
    r = 0
    while b:
        if b & 1:
            r ^= a
        a, b = _xtime(a), b >> 1
    return r


@cache
def _sbox() -> np.ndarray:
    """S-box from the GF(2^8) inverse and the affine map (FIPS-197 §5.1.1)."""
    inv = [0] * 256
    for x in range(1, 256):
        inv[x] = next(y for y in range(1, 256) if _gmul(x, y) == 1)
    box = np.zeros(256, np.uint8)
    for x in range(256):
        b = inv[x]
        s = b
        for k in range(1, 5):
            s ^= ((b << k) | (b >> (8 - k))) & 0xFF
        box[x] = s ^ 0x63
    return box


def _expand_key(key: np.ndarray) -> np.ndarray:
    sbox = _sbox()
    w = [int.from_bytes(bytes(key[4 * i:4 * i + 4]), "big") for i in range(4)]
    rcon = 1
    for i in range(4, 44):
        t = w[i - 1]
        if i % 4 == 0:
            t = ((t << 8) | (t >> 24)) & 0xFFFFFFFF
            t = int.from_bytes(bytes(int(sbox[b]) for b in t.to_bytes(4, "big")), "big")
            t ^= rcon << 24
            rcon = _xtime(rcon)
        w.append(w[i - 4] ^ t)
    return np.array(w, np.uint32)


def _t_tables() -> np.ndarray:
    s = _sbox().astype(np.uint32)
    m2 = np.array([_xtime(int(v)) for v in s], np.uint32)
    te0 = (m2 << 24) | (s << 16) | (s << 8) | (m2 ^ s)
    ror = [te0] + [((te0 >> (8 * k)) | (te0 << (32 - 8 * k))) & 0xFFFFFFFF for k in (1, 2, 3)]
    return np.concatenate(ror).astype(np.uint32)


def _encrypt_bytes(blocks: np.ndarray, key: np.ndarray) -> np.ndarray:
    """Byte-oriented AES-128 over [n, 16] uint8 blocks (state[r, c] = byte r + 4c)."""
    sbox = _sbox()
    rk = _expand_key(key).view(np.uint32)
    rk_bytes = np.array([list(int(x).to_bytes(4, "big")) for x in rk], np.uint8).reshape(11, 16)
    mul2 = np.array([_xtime(v) for v in range(256)], np.uint8)
    st = blocks ^ rk_bytes[0]
    shift = np.array([(r + 4 * ((c + r) % 4)) for c in range(4) for r in range(4)])
    for rnd in range(1, 11):
        st = sbox[st][:, shift]
        if rnd < 10:
            col = st.reshape(-1, 4, 4)  # [n, c, r]
            a0, a1, a2, a3 = (col[:, :, r] for r in range(4))
            new = np.stack([mul2[a0] ^ mul2[a1] ^ a1 ^ a2 ^ a3, a0 ^ mul2[a1] ^ mul2[a2] ^ a2 ^ a3,
                            a0 ^ a1 ^ mul2[a2] ^ mul2[a3] ^ a3, mul2[a0] ^ a0 ^ a1 ^ a2 ^ mul2[a3]],
                           axis=2)
            st = new.reshape(-1, 16)
        st = st ^ rk_bytes[rnd]
    return st


def generate(p: Params, rng: np.random.Generator) -> dict[str, Any]:
    return {"plain": rng.integers(0, 256, (p["nblocks"], 16), dtype=np.uint8),
            "key": rng.integers(0, 256, 16, dtype=np.uint8)}


def _words(b: np.ndarray) -> np.ndarray:
    return b.reshape(-1, 4).view(">u4").astype(np.uint32).reshape(-1, 4)


def launch(ctx: Launcher, d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    n = p["nblocks"]
    ctx.set_symbol("c_round_keys", _expand_key(d["key"]))
    ctx.set_symbol("c_sbox", _sbox())
    tables = ctx.to_device(_t_tables())
    out = ctx.empty((n, 4), np.uint32)
    ctx.kernel("aes_encrypt128")[(n + _TPB - 1) // _TPB, _TPB](
        ctx.to_device(_words(d["plain"])), out, ctx.texture(tables), np.int32(n))
    return {"cipher": out.copy_to_host().reshape(n, 4)}


def reference(d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    fips_key = np.arange(16, dtype=np.uint8)
    fips_plain = np.array([(i << 4) | i for i in range(16)], np.uint8)[None]
    got = bytes(_encrypt_bytes(fips_plain, fips_key)[0]).hex()
    if got != "69c4e0d86a7b0430d8cdb78070b4c55a":
        raise RuntimeError(f"AES reference fails the FIPS-197 C.1 vector: {got}")
    return {"cipher": _words(_encrypt_bytes(d["plain"], d["key"]))}


BENCHMARK = Benchmark(
    name="aes", suite="ispass2009", resembles="ispass2009/AES",
    workload="AES encrypt128 of output.bmp (256 KB = 16,384 blocks), 256 threads",
    kernels=("aes_encrypt128",), threads_per_block={"aes_encrypt128": _TPB},
    sizes={"tiny": {"nblocks": 512}, "small": {"nblocks": 4096}, "paper": {"nblocks": 16384}},
    launches="1 launch",
    differences="one 16-byte block per thread; random plaintext instead of the bitmap",
    tolerance_note="exact (ciphertext words)",
    source=Path(__file__).with_name("kernels.cu"),
    generate=generate, launch=launch, reference=reference)
