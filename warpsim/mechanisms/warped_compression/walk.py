"""Program-order walk of one trace chunk: per warp, the compression state of every register
(the CRI and how many banks its image occupies) after each record, the record columns the
timing hooks use, and the statistics the trace alone fixes (encodings, bank accesses, MOVs).

Follows: specs/warped-compression.md §5.3 (write path), §5.4 (read path), §5.5 (dummy MOV),
§4.1-§4.3 (characterisation), §9.2 (counters). The scoreboard orders every read of a register
after the write that produced it, so the state seen by the timing model at each access equals
the program-order state computed here.
Assumptions:
  [A7] A write is partial when the record's exec mask differs from the warp's valid lanes
       (SIMT divergence or predication): stored uncompressed (8 banks), no compressor use.
  [A24] A register read before any write of its warp costs 8 bank reads, no decompression.
  [A18] One dummy MOV per compressed destination of a partial write: it reads the image (k
       banks, one decompression) and writes 8 banks; the instruction's own write follows.
  [A] Stored-encoding histograms bin a full-BDI image by its size: 1 bank, 2-3, 5, 8.
"""

from __future__ import annotations

import numpy as np

from warpsim._jit import jit
from warpsim.mechanisms.warped_compression.counters import (
    COL_COMP,
    COL_DECOMP,
    COL_DST_BANKS,
    COL_FLAGS,
    COL_MOV_REG,
    FL_DIV,
    FL_HAS_DST,
    FL_MOV_SHIFT,
    FL_PARTIAL,
    FL_READS_COMPRESSED,
    FL_WRITES_COMPRESSED,
    W,
)

__all__ = ["SCHEME_CODES", "banks_of_code", "walk_chunk"]

SCHEME_CODES = {"wc": 0, "4_0": 1, "4_1": 2, "4_2": 3, "full_bdi": 4}

_S_INS = W["wc_warp_insts_nondiv"]
_S_MOV = W["wc_mov_insts"]
_S_WR = W["wc_reg_writes_nondiv"]
_S_PPRED = W["wc_partial_pred_writes"]
_S_ENC_N = W["wc_enc_nondiv_0"]
_S_ENC_D = W["wc_enc_div_0"]
_S_WHATIF = W["wc_whatif_enc_div_0"]
_S_FULL = W["wc_bdi_full_4_0"]
_S_SIM_N = W["wc_sim_nondiv_zero"]
_S_SIM_D = W["wc_sim_div_zero"]
_S_BRD = W["wc_bank_reads"]
_S_BWR = W["wc_bank_writes"]
_S_MRD = W["wc_mov_bank_reads"]
_S_MWR = W["wc_mov_bank_writes"]
_S_BASE_RD = W["wc_base_bank_reads"]
_S_BASE_WR = W["wc_base_bank_writes"]
_S_COMP = W["wc_comp_activations"]
_S_DECOMP = W["wc_decomp_activations"]
_S_INVALID = W["wc_reads_of_invalid_regs"]
_S_CREG_N = W["wc_compressed_regs_nondiv"]
_S_AREG_N = W["wc_allocated_regs_nondiv"]
_S_CREG_D = W["wc_compressed_regs_div"]
_S_AREG_D = W["wc_allocated_regs_div"]


@jit
def full_bdi_index(code):  # pragma: no cover - jit
    """Full-BDI choice (index into ``bdi.FULL_BDI_NAMES``) of a trace BDI code."""
    c4 = code & 3
    c8 = (code >> 2) & 7
    if c4 == 0:
        return 0
    if c8 == 0:
        return 3
    if c8 <= 1:
        return 4
    if c4 <= 1:
        return 1
    if c8 <= 2:
        return 5
    if c4 <= 2:
        return 2
    if c8 <= 3:
        return 6
    return 7


@jit
def banks_of_code(code, scheme):  # pragma: no cover - jit
    """Banks of a full write whose merged value has trace BDI code ``code`` under ``scheme``
    (``SCHEME_CODES``)."""
    c4 = code & 3
    if scheme == 0:
        return 1 if c4 == 0 else 3 if c4 == 1 else 5 if c4 == 2 else 8
    if scheme == 1:
        return 1 if c4 == 0 else 8
    if scheme == 2:
        return 3 if c4 <= 1 else 8
    if scheme == 3:
        return 5 if c4 <= 2 else 8
    i = full_bdi_index(code)
    return (1, 3, 5, 1, 2, 3, 5, 8)[i]


@jit
def _enc_bin(banks):  # pragma: no cover - jit
    return 0 if banks == 1 else 1 if banks <= 3 else 2 if banks == 5 else 3


@jit
def walk_chunk(order, offsets, warp_in_cta, pc_col, mask, exec_mask, val_start, bdi, n_values,
               pc_src, pc_dst, n_regs, cta_threads, regs_alloc, scheme, stats,
               cols):  # pragma: no cover - jit
    """Fill ``cols[i]`` for record ``order[i]`` and add the chunk's statistics to ``stats``."""
    kreg = np.zeros(max(1, n_regs), np.int64)
    for w in range(offsets.shape[0] - 1):
        kreg[:] = 0
        n_comp = 0
        nthr = min(32, cta_threads - 32 * np.int64(warp_in_cta[w]))
        valid = np.uint32(0xFFFFFFFF) if nthr >= 32 else np.uint32((1 << max(nthr, 0)) - 1)
        for i in range(offsets[w], offsets[w + 1]):
            r = order[i]
            pc = pc_col[r]
            div = np.uint32(mask[r]) != valid
            partial = np.uint32(exec_mask[r]) != valid
            d = 1 if div else 0
            flags = FL_DIV if div else 0
            stats[_S_INS + d] += 1
            stats[(_S_CREG_D if div else _S_CREG_N)] += n_comp
            stats[(_S_AREG_D if div else _S_AREG_N)] += regs_alloc
            ndec = 0
            for k in range(pc_src.shape[1]):
                s = pc_src[pc, k]
                if s < 0:
                    break
                kb = kreg[s]
                stats[_S_BASE_RD] += 8
                if kb == 0:
                    stats[_S_INVALID] += 1
                    stats[_S_BRD] += 8
                else:
                    stats[_S_BRD] += kb
                    if kb < 8:
                        ndec += 1
                        flags |= FL_READS_COMPRESSED
            stats[_S_DECOMP] += ndec
            cols[i, COL_DECOMP] = ndec
            mov_reg = -1
            nmov = 0
            packed = 0
            ncomp = 0
            if pc_dst[pc, 0] >= 0:
                flags |= FL_HAS_DST
                if partial:
                    flags |= FL_PARTIAL
                j = 0
                nv = n_values[pc]
                for e in range(val_start[r], val_start[r] + nv):
                    code = np.int64(bdi[e])
                    if code == 255:
                        continue
                    if j >= pc_dst.shape[1] or pc_dst[pc, j] < 0:
                        break
                    reg = pc_dst[pc, j]
                    old = kreg[reg]
                    if partial and 0 < old < 8:  # dummy MOV: decompress in place first
                        stats[_S_MOV] += 1
                        stats[_S_MRD] += old
                        stats[_S_BRD] += old
                        stats[_S_MWR] += 8
                        stats[_S_BWR] += 8
                        stats[_S_DECOMP] += 1
                        nmov += 1
                        if mov_reg < 0:
                            mov_reg = reg
                        n_comp -= 1
                        old = 8
                    if partial:
                        kb = 8
                    else:
                        kb = banks_of_code(code, scheme)
                        ncomp += 1
                    stats[_S_WR + d] += 1
                    if partial and not div:
                        stats[_S_PPRED] += 1
                    stats[(_S_ENC_D if div else _S_ENC_N) + _enc_bin(kb)] += 1
                    if div:
                        stats[_S_WHATIF + (code & 3)] += 1
                        stats[_S_SIM_D + ((code >> 5) & 3)] += 1
                    else:
                        stats[_S_SIM_N + ((code >> 5) & 3)] += 1
                    stats[_S_FULL + full_bdi_index(code)] += 1
                    stats[_S_BWR] += kb
                    stats[_S_BASE_WR] += 8
                    if 0 < old < 8:
                        n_comp -= 1
                    if kb < 8:
                        n_comp += 1
                        flags |= FL_WRITES_COMPRESSED
                    kreg[reg] = kb
                    if j < 15:
                        packed |= kb << (4 * j)
                    j += 1
                while j < pc_dst.shape[1] and pc_dst[pc, j] >= 0:  # no value entry: uncompressed
                    reg = pc_dst[pc, j]
                    if 0 < kreg[reg] < 8:
                        n_comp -= 1
                    kreg[reg] = 8
                    stats[_S_BWR] += 8
                    stats[_S_BASE_WR] += 8
                    if j < 15:
                        packed |= 8 << (4 * j)
                    j += 1
            stats[_S_COMP] += ncomp
            cols[i, COL_FLAGS] = flags | (nmov << FL_MOV_SHIFT)
            cols[i, COL_DST_BANKS] = packed
            cols[i, COL_MOV_REG] = mov_reg
            cols[i, COL_COMP] = ncomp
