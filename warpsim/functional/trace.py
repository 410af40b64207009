"""Per-warp dynamic instruction traces of a functional launch, with the annotations the timing
model and the mechanisms need (value signatures, BDI class, uniformity, lines, bank conflicts).

Follows: ARCHITECTURE.md §3 (trace contents) and §9 (CSR per warp, streamed by CTA batch, about
18 bytes per record); Warped-Compression spec §3.3-§3.6 (BDI classes); docs/trace-format.md
(the layout, field by field).
Assumptions:
  [A] A value entry describes one 32-bit physical warp register after the write: 32-bit (and
      narrower, zero-extended) destinations give one entry, 64-bit ones two (low half, then
      high half), predicates one (lanes as 0/1 words, BDI field ``BDI_NA``).
  [A] Signature = sum over lanes of ``lane_value * SIG_KEYS[lane]`` modulo 2**64 with random odd
      64-bit keys: equal contents always give equal signatures; two different contents
      collide with probability about 2**-(64 - k) when their lane differences are all
      multiples of 2**k (at most 2**-33 for 32-bit values).
  [A] Lanes that do not exist (partial last warp of a CTA) count as delta 0 for BDI (spec §5.3)
      and as the base value for the successive-lane similarity bin; the signature covers all
      32 lanes.
  [A] Sectors are 32 B and lines 128 B of the accessed address; local memory is traced at an
      interleaved address (word ``k`` of every thread of a warp in one 128 B line), as hardware
      lays local memory out; shared-memory accesses report bank conflicts, not lines.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from warpsim._jit import jit
from warpsim.functional.lane_patterns import AFFINE_BIT, RL_PATTERN_BIT, rl_mark, sim_bin

__all__ = [
    "BDI_NA",
    "RL_PATTERN_BIT",
    "SIG_KEYS",
    "LaunchTrace",
    "TraceBuilder",
    "TraceChunk",
    "gather_rows",
    "annotate_predicates",
    "annotate_words",
    "bank_conflict_degree",
    "bdi_best",
    "bdi_class_4",
    "bdi_class_8",
    "bdi_similarity",
    "mem_lines",
    "signature",
]

SIG_KEYS = (np.random.default_rng(0x5EED_5157).integers(0, 2**63, size=32, dtype=np.uint64)
            * np.uint64(2) + np.uint64(1))
"""Per-lane odd multipliers of the value signature."""

BDI_NA = 255
"""BDI field of a predicate value entry (not a register-file value)."""
_BDI8_NONE = 4


@jit
def annotate_words(vals, exist, active, keys, sig, bdi, uni, col):  # pragma: no cover - jit
    """Signature, BDI code and uniformity of warp registers ``vals[w, 32]`` (uint32), written
    into column ``col`` of ``sig``/``bdi``/``uni`` ([n_warps, k])."""
    nw = vals.shape[0]
    one = np.uint32(1)
    full = np.uint32(0xFFFFFFFF)
    for w in range(nw):
        ex = np.uint32(exist[w])
        ac = np.uint32(active[w])
        row = vals[w]
        r0 = row[0]
        r1 = row[1]
        if ex == full and ac == full:
            s = np.uint64(0)
            m0 = np.int32(0)
            m1 = np.int32(0)
            x = np.uint32(0)
            mx = np.int64(0)
            prev = r0
            stride = np.uint32(r1 - r0)
            affine = True  # lane i = r0 + i * stride (mod 2**32): WIR's Affine model
            for lane in range(32):
                v = row[lane]
                s += np.uint64(v) * keys[lane]
                d = np.int32(np.uint32(v - r0))
                m0 = min(m0, d)
                m1 = max(m1, d)
                x |= v ^ r0
                mx = max(mx, abs(np.int64(np.int32(np.uint32(v - prev)))))
                affine = affine and (lane == 0 or np.uint32(v - prev) == stride)
                prev = v
            b0 = np.uint64(r0) | (np.uint64(r1) << np.uint64(32))
            e0 = np.int64(0)
            e1 = np.int64(0)
            for i in range(1, 16):
                c = np.uint64(row[2 * i]) | (np.uint64(row[2 * i + 1]) << np.uint64(32))
                e = np.int64(c - b0)
                e0 = min(e0, e)
                e1 = max(e1, e)
            sig[w, col] = s
            bdi[w, col] = _bdi_code(np.int64(m0), np.int64(m1), e0, e1) | sim_bin(mx)
            uni[w, col] = np.uint8(x == 0) | (AFFINE_BIT if affine else np.uint8(0))
            rl_mark(row, bdi, uni, w, col)
            continue
        if ex == full:
            ref = r0
            if ac != 0:
                first = 0
                while not (ac >> np.uint32(first)) & one:
                    first += 1
                ref = row[first]
            s = np.uint64(0)
            m0 = np.int32(0)
            m1 = np.int32(0)
            x = np.uint32(0)
            mx = np.int64(0)
            prev = r0
            for lane in range(32):
                v = row[lane]
                s += np.uint64(v) * keys[lane]
                d = np.int32(np.uint32(v - r0))
                m0 = min(m0, d)
                m1 = max(m1, d)
                x |= (v ^ ref) & (np.uint32(0) - ((ac >> np.uint32(lane)) & one))
                mx = max(mx, abs(np.int64(np.int32(np.uint32(v - prev)))))
                prev = v
            b0 = np.uint64(r0) | (np.uint64(r1) << np.uint64(32))
            e0 = np.int64(0)
            e1 = np.int64(0)
            for i in range(1, 16):
                c = np.uint64(row[2 * i]) | (np.uint64(row[2 * i + 1]) << np.uint64(32))
                e = np.int64(c - b0)
                e0 = min(e0, e)
                e1 = max(e1, e)
            sig[w, col] = s
            bdi[w, col] = _bdi_code(np.int64(m0), np.int64(m1), e0, e1) | sim_bin(mx)
            uni[w, col] = x == 0
            rl_mark(row, bdi, uni, w, col)
            continue
        # reference for uniformity: the first active lane (lane 0 when none is active)
        ref = r0
        if ac != 0:
            first = 0
            while not (ac >> np.uint32(first)) & one:
                first += 1
            ref = row[first]
        s = np.uint64(0)
        m0 = np.int32(0)
        m1 = np.int32(0)
        x = np.uint32(0)
        mx = np.int64(0)
        prev = r0
        for lane in range(32):
            v = row[lane]
            s += np.uint64(v) * keys[lane]
            sh = np.uint32(lane)
            em = np.uint32(0) - ((ex >> sh) & one)
            am = np.uint32(0) - ((ac >> sh) & one)
            d = np.int32(np.uint32((v - r0) & em))
            m0 = min(m0, d)
            m1 = max(m1, d)
            x |= (v ^ ref) & am
            ve = (v & em) | (r0 & ~em)  # a missing lane counts as the base
            mx = max(mx, abs(np.int64(np.int32(np.uint32(ve - prev)))))
            prev = ve
        b0 = np.uint64(r0) | (np.uint64(r1) << np.uint64(32))
        e0 = np.int64(0)
        e1 = np.int64(0)
        for i in range(1, 16):
            lo = row[2 * i]
            hi = row[2 * i + 1]
            ml = np.uint32(0) - ((ex >> np.uint32(2 * i)) & one)
            mh = np.uint32(0) - ((ex >> np.uint32(2 * i + 1)) & one)
            lo = (lo & ml) | (r0 & ~ml)
            hi = (hi & mh) | (r1 & ~mh)
            c = np.uint64(lo) | (np.uint64(hi) << np.uint64(32))
            e = np.int64(c - b0)
            e0 = min(e0, e)
            e1 = max(e1, e)
        sig[w, col] = s
        bdi[w, col] = _bdi_code(np.int64(m0), np.int64(m1), e0, e1) | sim_bin(mx)
        uni[w, col] = x == 0
        rl_mark(row, bdi, uni, w, col)


@jit
def annotate_predicates(bits, active, keys, sig, bdi, uni, col):  # pragma: no cover - jit
    """Value entries of predicate registers given as lane bits per warp (``bits[w]``): the
    signature of the 0/1 lane words, BDI ``BDI_NA``, uniformity over the active lanes."""
    for w in range(bits.shape[0]):
        b = np.uint32(bits[w])
        s = np.uint64(0)
        for lane in range(32):
            if (b >> np.uint32(lane)) & np.uint32(1):
                s += keys[lane]
        ac = np.uint32(active[w])
        on = b & ac
        sig[w, col] = s
        bdi[w, col] = 255
        uni[w, col] = on == 0 or on == ac


@jit
def gather_rows(flat, step, off, ws, out):  # pragma: no cover - jit
    """``out[i, l] = flat[(32 * ws[i] + l) * step + off]``: the 32-bit lanes of warps ``ws``."""
    for i in range(ws.shape[0]):
        base = 32 * ws[i] * step + off
        for lane in range(32):
            out[i, lane] = flat[base + lane * step]


@jit
def _bdi_code(dmin, dmax, emin, emax):  # pragma: no cover - jit
    """BDI code from the extreme 4-byte-base deltas and 8-byte-base deltas."""
    if dmin == 0 and dmax == 0:
        c4 = 0
    elif dmin >= -128 and dmax <= 127:
        c4 = 1
    elif dmin >= -32768 and dmax <= 32767:
        c4 = 2
    else:
        c4 = 3
    if emin == 0 and emax == 0:
        c8 = 0
    elif emin >= -128 and emax <= 127:
        c8 = 1
    elif emin >= -32768 and emax <= 32767:
        c8 = 2
    elif emin >= -2147483648 and emax <= 2147483647:
        c8 = 3
    else:
        c8 = 4
    return c4 | (c8 << 2)


@jit
def mem_lines(addr, seg, sector_bytes, line_bytes, nsec, nlin, lines,
              lsec):  # pragma: no cover
    """Distinct sectors and lines per warp of the accesses ``addr[seg[w]:seg[w+1]]``; the
    distinct line addresses go to ``lines`` (sorted per warp), the sectors each touches to
    ``lsec`` (bit i = sector i of the line). Returns the number written."""
    nw = seg.shape[0] - 1
    longest = 64  # a warp's accesses: one per lane, more for a wmma tile (functional/wmma.py)
    for w in range(nw):
        longest = max(longest, seg[w + 1] - seg[w])
    tmp = np.empty(longest, dtype=np.uint64)
    out = 0
    for w in range(nw):
        n = 0
        for i in range(seg[w], seg[w + 1]):
            a = addr[i] // np.uint64(sector_bytes)
            j = n
            while j > 0 and tmp[j - 1] > a:
                tmp[j] = tmp[j - 1]
                j -= 1
            tmp[j] = a
            n += 1
        ns = 0
        nl = 0
        prev_s = np.uint64(0)
        prev_l = np.uint64(0)
        per = np.uint64(line_bytes // sector_bytes)
        for i in range(n):
            if i == 0 or tmp[i] != prev_s:
                ns += 1
                prev_s = tmp[i]
                ln = tmp[i] // per
                if nl == 0 or ln != prev_l:
                    lines[out] = ln * np.uint64(line_bytes)
                    lsec[out] = 0
                    out += 1
                    nl += 1
                    prev_l = ln
                lsec[out - 1] |= np.uint8(1 << int(tmp[i] - ln * per))
        nsec[w] = ns
        nlin[w] = nl
    return out


@jit
def bank_conflict_degree(addr, seg, size, n_banks, width, out):  # pragma: no cover - jit
    """Shared-memory bank-conflict degree per warp: the largest number of distinct
    ``width``-byte words that map to one bank (``bank = word % n_banks``, GPGPU-Sim
    ``shmem_bank``) among the warp's accesses of ``size`` bytes each."""
    nw = seg.shape[0] - 1
    per = max(1, (size + width - 1) // width) + 1
    longest = 32  # a warp's accesses: one per lane, more for a wmma tile (functional/wmma.py)
    for w in range(nw):
        longest = max(longest, seg[w + 1] - seg[w])
    words = np.empty(longest * per, dtype=np.uint64)
    count = np.zeros(n_banks, dtype=np.int64)
    w64 = np.uint64(width)
    for w in range(nw):
        n = 0
        for i in range(seg[w], seg[w + 1]):
            first = addr[i] // w64
            last = (addr[i] + np.uint64(max(size, 1) - 1)) // w64
            a = first
            while a <= last:
                j = n
                while j > 0 and words[j - 1] > a:
                    words[j] = words[j - 1]
                    j -= 1
                words[j] = a
                n += 1
                a += np.uint64(1)
        for b in range(n_banks):
            count[b] = 0
        best = 0
        for i in range(n):
            if i == 0 or words[i] != words[i - 1]:
                b = np.int64(words[i] % np.uint64(n_banks))
                count[b] += 1
                if count[b] > best:
                    best = count[b]
        out[w] = best


@jit
def _warp_order(keys, n_warps):  # pragma: no cover - jit
    """Stable counting sort of records by warp: (offsets[n_warps + 1], order) such that the
    records of warp ``w`` are ``order[offsets[w]:offsets[w + 1]]`` in execution order."""
    n = keys.shape[0]
    cnt = np.zeros(n_warps + 1, np.int64)
    for i in range(n):
        cnt[keys[i] + 1] += 1
    for w in range(n_warps):
        cnt[w + 1] += cnt[w]
    pos = cnt[:n_warps].copy()
    order = np.empty(n, np.int32)
    for i in range(n):
        k = keys[i]
        p = pos[k]
        pos[k] = p + 1
        order[p] = i
    return cnt, order


@jit
def _expand_steps(step_pc, counts, n_values, nlin):  # pragma: no cover - jit
    """Per-record pc, first value entry and first line address from the per-step pcs and
    record counts (records of one step are consecutive)."""
    n = nlin.shape[0]
    pc = np.empty(n, np.int32)
    vstart = np.empty(n, np.int64)
    lstart = np.empty(n, np.int64)
    r = 0
    v = 0
    ln = 0
    for s in range(step_pc.shape[0]):
        p = step_pc[s]
        k = n_values[p]
        for _ in range(counts[s]):
            pc[r] = p
            vstart[r] = v
            lstart[r] = ln
            v += k
            ln += nlin[r]
            r += 1
    return pc, vstart, lstart


def signature(vals: np.ndarray) -> np.ndarray:
    """Value signatures of warp registers ``vals[n_warps, 32]`` (uint32), as in the trace."""
    v = np.ascontiguousarray(vals, dtype=np.uint32)
    with np.errstate(over="ignore"):
        return (v.astype(np.uint64) * SIG_KEYS).sum(axis=1, dtype=np.uint64)


def bdi_class_4(code: np.ndarray | int) -> np.ndarray | int:
    """Warped-Compression CRI (0 = <4,0>, 1 = <4,1>, 2 = <4,2>, 3 = uncompressed)."""
    return np.asarray(code) & 3 if not isinstance(code, int) else code & 3


def bdi_class_8(code: np.ndarray | int) -> np.ndarray | int:
    """8-byte-base class (0 = <8,0>, 1 = <8,1>, 2 = <8,2>, 3 = <8,4>, 4 = does not fit)."""
    return (np.asarray(code) >> 2) & 7 if not isinstance(code, int) else (code >> 2) & 7


def bdi_similarity(code: np.ndarray | int) -> np.ndarray | int:
    """Value-similarity bin (0 = zero, 1 = |d| <= 128, 2 = |d| <= 2**15, 3 = random) of the
    worst successive-lane distance (spec §4.1, Fig. 2)."""
    return (np.asarray(code) >> 5) & 3 if not isinstance(code, int) else (code >> 5) & 3


_BEST_ORDER = [("4,0", 0, None), ("8,0", None, 0), ("8,1", None, 1), ("4,1", 1, None),
               ("8,2", None, 2), ("4,2", 2, None), ("8,4", None, 3)]


def bdi_best(code: int) -> str:
    """The full-BDI choice (spec §3.6 preference order) of a BDI code, e.g. ``"<8,1>"``."""
    c4, c8 = code & 3, (code >> 2) & 7
    for name, want4, want8 in _BEST_ORDER:
        if (want4 is not None and c4 <= want4) or (want8 is not None and c8 <= want8):
            return f"<{name}>"
    return "uncompressed"


@dataclass(slots=True)
class TraceChunk:
    """The trace of one CTA batch, per warp in CSR form (docs/trace-format.md)."""

    batch: int
    warp_cta: np.ndarray
    """Linear CTA index (x fastest) of each warp of the chunk (int64)."""
    warp_in_cta: np.ndarray
    """Warp index inside its CTA (int32)."""
    offsets: np.ndarray
    """Warp ``w`` owns ``order[offsets[w]:offsets[w + 1]]`` (int64, n_warps + 1)."""
    order: np.ndarray
    """Record indices grouped by warp, each warp's in execution order (int32): the per-warp
    CSR view of the record columns, which stay in batch execution order."""
    warp: np.ndarray
    """Chunk-local warp of each record (int32)."""
    pc: np.ndarray
    """Static instruction index (int32)."""
    mask: np.ndarray
    """SIMT active mask (uint32; bit i = lane i)."""
    exec_mask: np.ndarray
    """Lanes that executed: active and guard predicate true (uint32)."""
    n_sectors: np.ndarray
    """Distinct 32 B sectors touched (uint8; 0 for non-memory records)."""
    n_lines: np.ndarray
    """Distinct 128 B lines touched (uint8); their addresses are in ``lines``."""
    bank_conflict: np.ndarray
    """Shared-memory bank-conflict degree (uint8; 0 when not a shared access)."""
    val_start: np.ndarray
    """Per record: index of its first value entry (int64); a record owns
    ``LaunchTrace.n_values[pc]`` consecutive entries of ``sig``/``bdi``/``uniform``."""
    sig: np.ndarray
    """64-bit signature per value entry (uint64)."""
    bdi: np.ndarray
    """BDI code per value entry (uint8): bits 0-1 the <4,Y> CRI, bits 2-4 the <8,Y> class."""
    uniform: np.ndarray
    """Per value entry (uint8): bit 0 all active lanes equal; ``AFFINE_BIT`` a full warp's lanes
    are base + lane * stride; bits 2-4 RegLess's pattern (``lane_patterns.rl_pattern_id``)."""
    line_start: np.ndarray
    """Per record: index of its first line address in ``lines`` (int64); it owns
    ``n_lines``."""
    lines: np.ndarray
    """Byte address of each touched 128 B line (uint64)."""
    line_sectors: np.ndarray | None = None
    """Per entry of ``lines``: the 32 B sectors of the line touched (uint8, bit i = sector
    i); None in traces built without it (a sectored L1D then takes the line's first
    sectors)."""

    @property
    def n_warps(self) -> int:
        return int(self.offsets.size - 1)

    @property
    def n_records(self) -> int:
        return int(self.pc.size)

    def regrouped(self, column: str) -> np.ndarray:
        """A record column copied into per-warp contiguous order (``offsets`` apply)."""
        return getattr(self, column)[self.order]

    def nbytes(self) -> int:
        """Bytes held by the chunk's arrays."""
        return sum(getattr(self, f).nbytes for f in self.__slots__  # type: ignore[attr-defined]
                   if isinstance(getattr(self, f), np.ndarray))


@dataclass(slots=True)
class LaunchTrace:
    """Everything traced by one launch: static per-pc tables plus the chunks (one per batch)."""

    kernel: str
    opcodes: list[str]
    """Full opcode per static instruction (pc)."""
    lines_of_pc: np.ndarray
    """PTX source line per pc (int32)."""
    n_values: np.ndarray
    """Value entries per record of each pc (int32)."""
    chunks: list[TraceChunk] = field(default_factory=list)
    """Retained chunks (empty when a ``trace_sink`` consumed them)."""

    def __iter__(self) -> Iterator[TraceChunk]:
        return iter(self.chunks)

    @property
    def n_records(self) -> int:
        return sum(c.n_records for c in self.chunks)

    def warp_records(self, chunk: int, warp: int) -> dict[str, np.ndarray]:
        """The records of one warp of one chunk as a dict of columns (tests, listings)."""
        c = self.chunks[chunk]
        idx = c.order[int(c.offsets[warp]):int(c.offsets[warp + 1])]
        return {"pc": c.pc[idx], "mask": c.mask[idx], "exec_mask": c.exec_mask[idx],
                "n_sectors": c.n_sectors[idx], "n_lines": c.n_lines[idx],
                "bank_conflict": c.bank_conflict[idx], "val_start": c.val_start[idx],
                "line_start": c.line_start[idx]}

    def warp_values(self, chunk: int, warp: int) -> list[list[tuple[int, int, bool]]]:
        """Per record of one warp: its value entries as (signature, bdi, uniform)."""
        rec = self.warp_records(chunk, warp)
        c = self.chunks[chunk]
        out = []
        for pc, v in zip(rec["pc"], rec["val_start"], strict=True):
            k = int(self.n_values[pc])
            out.append([(int(c.sig[i]), int(c.bdi[i]), bool(c.uniform[i] & 1))
                        for i in range(int(v), int(v) + k)])
        return out

    def warp_lines(self, chunk: int, warp: int) -> list[np.ndarray]:
        """Per record of one warp: its line addresses."""
        rec = self.warp_records(chunk, warp)
        c = self.chunks[chunk]
        return [c.lines[int(s):int(s) + int(k)]
                for s, k in zip(rec["line_start"], rec["n_lines"], strict=True)]


class TraceBuilder:
    """Collects the records of one batch step by step and regroups them per warp at the end."""

    def __init__(self, n_values: np.ndarray) -> None:
        self.n_values = n_values
        self.ws: list[np.ndarray] = []
        self.pcs: list[int] = []
        self.counts: list[int] = []
        self.masks: list[np.ndarray] = []
        self.execs: list[np.ndarray] = []
        self.n_rec = 0
        self.mem: list[tuple[int, np.ndarray, np.ndarray, np.ndarray]] = []
        self.lines: list[np.ndarray] = []
        self.lsecs: list[np.ndarray] = []
        self.sigs: list[np.ndarray] = []
        self.bdis: list[np.ndarray] = []
        self.unis: list[np.ndarray] = []

    def record(self, pc: int, ws: np.ndarray, mask: np.ndarray, exec_mask: np.ndarray) -> int:
        """Append one record per warp of ``ws``; returns the first record's index."""
        start = self.n_rec
        self.ws.append(ws)
        self.pcs.append(pc)
        self.counts.append(ws.size)
        self.masks.append(mask)
        self.execs.append(exec_mask)
        self.n_rec = start + ws.size
        return start

    def values(self, sig: np.ndarray, bdi: np.ndarray, uni: np.ndarray) -> None:
        """Value entries of the last ``record`` call, shaped [n_warps, k] (record-major)."""
        self.sigs.append(sig.reshape(-1))
        self.bdis.append(bdi.reshape(-1))
        self.unis.append(uni.reshape(-1))

    def memory(self, start: int, nsec: np.ndarray, nlin: np.ndarray, bank: np.ndarray,
               lines: np.ndarray, lsec: np.ndarray | None = None) -> None:
        """Memory annotations of the records starting at ``start`` (``lsec``: the sector mask
        of each line, ``TraceChunk.line_sectors``; None: not known, 0)."""
        self.mem.append((start, nsec, nlin, bank))
        if lines.size:
            self.lines.append(lines)
            self.lsecs.append(np.zeros(lines.size, np.uint8) if lsec is None
                              else lsec.astype(np.uint8, copy=False))

    def finish(self, batch: int, warp_cta: np.ndarray, warp_in_cta: np.ndarray) -> TraceChunk:
        """Regroup everything per warp (stable by warp id) into a ``TraceChunk``."""
        n_warps = warp_cta.size
        n = self.n_rec
        if n:
            rec_w = np.concatenate(self.ws, dtype=np.int32)  # warp ids < 2**31: one pass
            mask = np.concatenate(self.masks).astype(np.uint32, copy=False)
            exe = np.concatenate(self.execs).astype(np.uint32, copy=False)
        else:
            rec_w = np.zeros(0, np.int32)
            mask = exe = np.zeros(0, np.uint32)
        nsec = np.zeros(n, np.uint8)
        nlin = np.zeros(n, np.uint8)
        bank = np.zeros(n, np.uint8)
        for start, s, ln, b in self.mem:
            k = s.size
            nsec[start:start + k] = s
            nlin[start:start + k] = ln
            bank[start:start + k] = b
        sig = np.concatenate(self.sigs) if self.sigs else np.zeros(0, np.uint64)
        bdi = np.concatenate(self.bdis) if self.bdis else np.zeros(0, np.uint8)
        uni = np.concatenate(self.unis) if self.unis else np.zeros(0, np.uint8)
        lines = np.concatenate(self.lines) if self.lines else np.zeros(0, np.uint64)
        lsec = np.concatenate(self.lsecs) if self.lsecs else np.zeros(0, np.uint8)
        pc, vstart, lstart = _expand_steps(np.asarray(self.pcs, np.int64),
                                           np.asarray(self.counts, np.int64), self.n_values,
                                           nlin)
        keys = rec_w.astype(np.int32, copy=False)
        offsets, order = _warp_order(keys, n_warps)
        return TraceChunk(
            batch=batch, warp_cta=warp_cta, warp_in_cta=warp_in_cta, offsets=offsets,
            order=order, warp=keys, pc=pc, mask=mask, exec_mask=exe, n_sectors=nsec,
            n_lines=nlin, bank_conflict=bank, val_start=vstart, sig=sig, bdi=bdi, uniform=uni,
            line_start=lstart, lines=lines, line_sectors=lsec)


def empty_values(nw: int, k: int) -> tuple[Any, Any, Any]:
    """Output arrays for ``annotate_words`` for ``nw`` warps and ``k`` value entries."""
    return (np.empty((nw, k), np.uint64), np.empty((nw, k), np.uint8),
            np.empty((nw, k), np.uint8))
