"""mummer: exact matches of reads against a reference through a trie in a texture (like Rodinia
mummergpu / ISPASS-2009 MUM)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from warpsim.bench.harness import Launcher
from warpsim.bench.spec import Benchmark, Params

__all__ = ["BENCHMARK"]

_TPB = 256


def _trie(ref: np.ndarray, depth: int) -> tuple[np.ndarray, np.ndarray]:
    """Children table [nodes, 4] (-1 = none) of the trie of all suffixes capped at `depth`, and
    for each node the first reference position whose suffix passes through it."""
    children: list[list[int]] = [[-1, -1, -1, -1]]
    first = [0]
    seq = ref.tolist()
    for i in range(len(seq)):
        node = 0
        for c in seq[i:i + depth]:
            nxt = children[node][c]
            if nxt < 0:
                nxt = len(children)
                children[node][c] = nxt
                children.append([-1, -1, -1, -1])
                first.append(i)
            node = nxt
    return np.array(children, np.int32), np.array(first, np.int32)


def _pack(reads: np.ndarray) -> np.ndarray:
    """Two uint32 words per read, 2 bits per base, base p in word p // 16 at bits 2 (p % 16)."""
    q, qlen = reads.shape
    padded = np.zeros((q, 32), np.uint64)
    padded[:, :qlen] = reads
    shifts = (2 * (np.arange(32) % 16)).astype(np.uint64)
    words = (padded << shifts).reshape(q, 2, 16).sum(axis=2)
    return words.astype(np.uint32).reshape(-1)


def generate(p: Params, rng: np.random.Generator) -> dict[str, Any]:
    n, q, qlen = p["ref_len"], p["queries"], p["query_len"]
    if qlen > 32:
        raise ValueError("reads are packed into two 32-bit words: at most 32 bases")
    ref = rng.integers(0, 4, n).astype(np.uint8)
    starts = rng.integers(0, n - qlen, q)
    reads = ref[starts[:, None] + np.arange(qlen)[None, :]].copy()
    mutate = rng.random((q, qlen)) < 0.08  # sequencing errors break the matches
    reads[mutate] = rng.integers(0, 4, int(mutate.sum()))
    return {"ref": ref, "reads": reads.astype(np.uint8)}


def launch(ctx: Launcher, d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    reads = d["reads"]
    q, qlen = reads.shape
    children, first = _trie(d["ref"], p["max_depth"])
    nodes = ctx.to_device(children.reshape(-1))
    mlen, mref = ctx.empty(q * qlen, np.int32), ctx.empty(q * qlen, np.int32)
    best = ctx.empty(3 * q, np.int32)
    ctx.kernel("mummer_match")[(q + _TPB - 1) // _TPB, _TPB](
        ctx.texture(nodes), ctx.to_device(first), ctx.to_device(_pack(reads)), np.int32(qlen),
        np.int32(q), np.int32(p["max_depth"]), np.int32(p["min_match"]), mlen, mref, best)
    return {"match_len": mlen.copy_to_host().reshape(q, qlen),
            "match_ref": mref.copy_to_host().reshape(q, qlen),
            "best": best.copy_to_host().reshape(q, 3)}


def reference(d: dict[str, Any], p: Params) -> dict[str, np.ndarray]:
    ref = bytes(d["ref"].tolist())
    depth, min_match = p["max_depth"], p["min_match"]
    reads = d["reads"]
    mlen = np.zeros(reads.shape, np.int32)
    mref = np.full(reads.shape, -1, np.int32)
    best = np.tile(np.array([0, -1, -1], np.int32), (reads.shape[0], 1))
    for qi, read in enumerate(reads):
        r = bytes(read.tolist())
        for s in range(len(r)):
            k = 0
            while s + k < len(r) and k < depth and ref.find(r[s:s + k + 1]) >= 0:
                k += 1
            if k >= min_match:
                mlen[qi, s] = k
                mref[qi, s] = ref.find(r[s:s + k])
                if k > best[qi, 0]:
                    best[qi] = (k, s, mref[qi, s])
    return {"match_len": mlen, "match_ref": mref, "best": best}


BENCHMARK = Benchmark(
    name="mummer", suite="rodinia", resembles="rodinia/mummergpu",
    workload="mummergpu NC_003997.20k.fna with 50,000 25-bp reads (ISPASS MUM: same data)",
    kernels=("mummer_match",), threads_per_block={"mummer_match": _TPB},
    sizes={"tiny": {"ref_len": 256, "queries": 64, "query_len": 25, "max_depth": 12,
                    "min_match": 4},
           "small": {"ref_len": 4096, "queries": 1024, "query_len": 25, "max_depth": 16,
                     "min_match": 8},
           "paper": {"ref_len": 20000, "queries": 4096, "query_len": 25, "max_depth": 20,
                     "min_match": 10}},
    launches="1 launch (the original launches per query batch, then printKernel)",
    differences="a depth-capped suffix trie (4 children per node, 1-D texture) instead of a "
                "suffix tree in 2-D textures; random genome and reads; no printKernel",
    tolerance_note="exact (match lengths and first reference positions)",
    source=Path(__file__).with_name("kernels.cu"),
    generate=generate, launch=launch, reference=reference)
