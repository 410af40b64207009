"""Execution units and writeback: SP/SFU/DP/INT/tensor pipelines with latency and initiation
interval, the LD/ST unit (shared memory with bank conflicts, parameter and constant reads, lines
offered to the memory system), and the writeback stage with register-bank write ports.

Follows: GPGPU-Sim 3.x ``pipelined_simd_unit`` (a unit accepts a warp instruction every
initiation interval; the result is ready ``latency`` cycles after dispatch), ``ldst_unit``
(shared memory serialised by the bank-conflict degree; one memory request per cycle), and
``opndcoll_rfu_t::writeback`` (a destination's bank must be free: a failed write retries next
cycle); the memory-system interface of docs/dev-contracts.md "Timing engine".
Assumptions:
  [A] The collector-to-execute register (OC_EX) is folded into the unit: a collector unit
      dispatches straight into a free unit instance of its instruction's type.
  [A] Shared memory: the LD/ST unit is busy ``degree`` cycles; the result is ready after
      ``shmem.latency_cycles + degree - 1`` cycles. ``ld.param`` takes ``l1c.hit_latency_cycles``.
  [A] A record's ``n_sectors`` are spread over its lines as evenly as possible (1..4 each).
  [A] At most ``pipelines.n_ex_wb_slots`` instructions write back per SM per cycle, ready ones
      oldest first; an instruction writes all its destination registers in the same cycle.
"""

from __future__ import annotations

import numpy as np

from warpsim._jit import jit, jit_inline
from warpsim.stats import (
    C_EXEC_FP32_THREAD_INSTS,
    C_EXEC_FP32_WARP_INSTS,
    C_EXEC_FP64_THREAD_INSTS,
    C_EXEC_FP64_WARP_INSTS,
    C_EXEC_INT32_THREAD_INSTS,
    C_EXEC_INT32_WARP_INSTS,
    C_EXEC_LDST_WARP_INSTS,
    C_EXEC_SFU_THREAD_INSTS,
    C_EXEC_SFU_WARP_INSTS,
    C_EXEC_TENSOR_THREAD_INSTS,
    C_EXEC_TENSOR_WARP_INSTS,
    C_GPGPU_N_CONST_INSN,
    C_GPGPU_N_LOAD_INSN,
    C_GPGPU_N_PARAM_INSN,
    C_GPGPU_N_SHMEM_BKCONFLICT,
    C_GPGPU_N_SHMEM_INSN,
    C_GPGPU_N_STALL_SHD_MEM,
    C_GPGPU_N_STORE_INSN,
    C_GPGPU_N_TEX_INSN,
    C_MEM_LOAD_LATENCY_CYCLES,
    C_MEM_LOADS_COMPLETED,
    C_OPCOLL_DISPATCH_STALLS,
    C_REGFILE_BANK_READS,
    C_REGFILE_BANK_WRITES,
    C_REGFILE_WRITE_CONFLICT_STALLS,
    C_SHMEM_WARP_ACCESSES,
    C_WRITEBACK_WARP_INSTS,
)
from warpsim.timing.consts import (
    INT64_MAX,
    MECH_TOKEN_BASE,
    MK_ATOMIC,
    MK_ATOMIC_GENERIC,
    MK_LD_CONST,
    MK_LD_GENERIC,
    MK_LD_GLOBAL,
    MK_LD_LOCAL,
    MK_LD_TEX,
    MK_NONE,
    MK_PARAM,
    MK_SHARED,
    MK_ST_GENERIC,
    MK_ST_GLOBAL,
    MK_ST_LOCAL,
    OPC_FP32,
    OPC_FP64,
    OPC_INT32,
    OPC_LDST,
    OPC_SFU,
    P_EX_WB,
    P_LDST_LAT,
    P_PARAM_LAT,
    P_SHMEM_LAT,
)
from warpsim.timing.dispatch import warp_try_exit
from warpsim.timing.fields import (
    F_ACT_EXEC_THREADS,
    F_ACT_EXEC_WARPS,
    F_CU_LEFT,
    F_CU_REC,
    F_CU_VALID,
    F_CU_WARP,
    F_INFL_DELAY,
    F_INFL_ISSUE,
    F_INFL_LINES,
    F_INFL_MK,
    F_INFL_NFREE,
    F_INFL_REC,
    F_INFL_STATE,
    F_INFL_VALID,
    F_INFL_WARP,
    F_LDST_CUR,
    F_LDST_LINE,
    F_LDST_UNIT,
    F_PC_II,
    F_PC_LATENCY,
    F_PC_MEM,
    F_PC_OPCLASS,
    F_PC_UNIT,
    F_REC_BANK,
    F_REC_LINE0,
    F_REC_NLINES,
    F_REC_NSEC,
    F_REC_NTHR,
    F_REC_PC,
    F_SET_CU_COUNT,
    F_SET_CU_START,
    F_SET_OUT_PORTS,
    F_SM_INFL_HW,
    F_SM_LINES_OUT,
    F_SM_NEXT_WB,
    F_TYPE_UNIT_COUNT,
    F_TYPE_UNIT_START,
    F_WARP_END,
    F_WARP_INFLIGHT,
    F_WARP_POS,
    F_WARP_SB_COUNT,
    INFL_BYPASS,
)
from warpsim.timing.inflight import free_slot, take_slot
from warpsim.timing.regfile import bank_read_at_writeback, bank_write, bank_write_ok
from warpsim.timing.store_ack import ACK_TOKEN_BASE, store_acked, store_sent, store_token
from warpsim.timing.warpbits import set_sb_wait

__all__ = ["dispatch_ready_collectors", "dispatch_to_unit", "tick_execute", "tick_writeback"]


@jit
def _count_exec(counters, sm, opc, nthr):  # pragma: no cover - jit
    if opc == OPC_INT32:
        counters[sm, C_EXEC_INT32_WARP_INSTS] += 1
        counters[sm, C_EXEC_INT32_THREAD_INSTS] += nthr
    elif opc == OPC_FP32:
        counters[sm, C_EXEC_FP32_WARP_INSTS] += 1
        counters[sm, C_EXEC_FP32_THREAD_INSTS] += nthr
    elif opc == OPC_FP64:
        counters[sm, C_EXEC_FP64_WARP_INSTS] += 1
        counters[sm, C_EXEC_FP64_THREAD_INSTS] += nthr
    elif opc == OPC_SFU:
        counters[sm, C_EXEC_SFU_WARP_INSTS] += 1
        counters[sm, C_EXEC_SFU_THREAD_INSTS] += nthr
    elif opc == OPC_LDST:
        counters[sm, C_EXEC_LDST_WARP_INSTS] += 1
    else:
        counters[sm, C_EXEC_TENSOR_WARP_INSTS] += 1
        counters[sm, C_EXEC_TENSOR_THREAD_INSTS] += nthr


@jit
def _count_mem(counters, sm, mk, nthr):  # pragma: no cover - jit
    """Thread-instruction counts of a memory instruction (requests are counted by the memory
    system per line)."""
    if mk == MK_LD_GLOBAL or mk == MK_ATOMIC or mk == MK_LD_LOCAL:
        counters[sm, C_GPGPU_N_LOAD_INSN] += nthr
    elif mk == MK_ST_GLOBAL or mk == MK_ST_LOCAL:
        counters[sm, C_GPGPU_N_STORE_INSN] += nthr
    elif mk == MK_LD_CONST:
        counters[sm, C_GPGPU_N_CONST_INSN] += nthr
    elif mk == MK_LD_TEX:
        counters[sm, C_GPGPU_N_TEX_INSN] += nthr


@jit
def dispatch_to_unit(infl, infl_ready, infl_free, smv, unit_free_at, pc_info, type_info, trec,
                     base_arr, prm, counters, pc_act, sm, w, rec, cycle, hs, hooks, ut,
                     ii):  # pragma: no cover
    """Move a collected instruction into a free unit of type ``ut`` (initiation interval
    ``ii``); False when none is free, no in-flight slot is left, or the instruction sends lines
    while the SM's one line register (``F_LDST_CUR``, fed by ``tick_execute``) still holds
    another's (several LD/ST units share it). Takes the arrays it needs (runs for every
    instruction)."""
    r = rec - base_arr[0]
    pc = trec[r, F_REC_PC]
    start = type_info[ut, F_TYPE_UNIT_START]
    u = -1
    for i in range(type_info[ut, F_TYPE_UNIT_COUNT]):
        if unit_free_at[sm, start + i] <= cycle:
            u = start + i
            break
    if u < 0 or smv[sm, F_INFL_NFREE] == 0:
        return False
    nthr = trec[r, F_REC_NTHR]
    mk = pc_info[pc, F_PC_MEM]
    if mk == MK_LD_GENERIC or mk == MK_ST_GENERIC or mk == MK_ATOMIC_GENERIC:
        if trec[r, F_REC_BANK] > 0:
            mk = MK_SHARED
        elif mk == MK_LD_GENERIC:
            mk = MK_LD_GLOBAL
        elif mk == MK_ST_GENERIC:
            mk = MK_ST_GLOBAL
        else:
            mk = MK_ATOMIC
    if (mk != MK_NONE and mk != MK_SHARED and mk != MK_PARAM and trec[r, F_REC_NLINES] > 0
            and smv[sm, F_LDST_CUR] >= 0):
        return False  # the SM's one line port still sends another instruction's lines
    f = take_slot(infl_free, smv, sm)
    delay = hooks.result_delay(hs, sm, w, rec, cycle)
    ready = cycle + pc_info[pc, F_PC_LATENCY] + delay
    busy = cycle + ii
    _count_exec(counters, sm, pc_info[pc, F_PC_OPCLASS], nthr)
    pc_act[pc, F_ACT_EXEC_WARPS] += 1
    pc_act[pc, F_ACT_EXEC_THREADS] += nthr
    infl[sm, f, F_INFL_LINES] = 0
    if mk == MK_SHARED:
        deg = max(1, trec[r, F_REC_BANK])
        ready = cycle + prm[P_SHMEM_LAT] + deg - 1 + delay
        busy = cycle + deg
        counters[sm, C_GPGPU_N_SHMEM_INSN] += nthr
        counters[sm, C_SHMEM_WARP_ACCESSES] += 1
        counters[sm, C_GPGPU_N_SHMEM_BKCONFLICT] += deg - 1
    elif mk == MK_PARAM:
        ready = cycle + prm[P_PARAM_LAT] + delay
        counters[sm, C_GPGPU_N_PARAM_INSN] += nthr
    elif mk != MK_NONE:
        nl = trec[r, F_REC_NLINES]
        _count_mem(counters, sm, mk, nthr)
        if nl == 0:
            ready = cycle + prm[P_LDST_LAT] + delay
        else:
            smv[sm, F_LDST_CUR] = f
            smv[sm, F_LDST_LINE] = 0
            smv[sm, F_LDST_UNIT] = u
            infl[sm, f, F_INFL_LINES] = nl
            ready = INT64_MAX
            busy = INT64_MAX
    unit_free_at[sm, u] = busy
    infl[sm, f, F_INFL_VALID] = 1
    infl[sm, f, F_INFL_WARP] = w
    infl[sm, f, F_INFL_REC] = rec
    infl_ready[sm, f] = ready
    infl[sm, f, F_INFL_ISSUE] = cycle
    infl[sm, f, F_INFL_MK] = mk
    infl[sm, f, F_INFL_DELAY] = delay
    if ready < smv[sm, F_SM_NEXT_WB]:
        smv[sm, F_SM_NEXT_WB] = ready
    return True


@jit_inline
def dispatch_ready_collectors(st, tb, tw, prm, counters, sm, cycle, hs,
                              hooks):  # pragma: no cover - jit
    """Dispatch collector units holding all their operands into execution units, up to the
    set's out ports per step; units visited round robin from the clock (GPGPU-Sim
    ``dispatch_ready_cu``). Returns True when an instruction was dispatched."""
    progress = False
    for s in range(tb.set_info.shape[0]):
        cnt = tb.set_info[s, F_SET_CU_COUNT]
        if cnt == 0:
            continue
        start = tb.set_info[s, F_SET_CU_START]
        j = cycle % cnt - 1  # round robin from the clock; no division per unit
        done = 0
        for _ in range(cnt):
            if done >= tb.set_info[s, F_SET_OUT_PORTS]:
                break
            j += 1
            if j == cnt:
                j = 0
            cu = start + j
            if st.cu[sm, cu, F_CU_VALID] == 0 or st.cu[sm, cu, F_CU_LEFT] > 0:
                continue
            # the common refusal (unit busy) is decided here, without the call's cost
            free = st.smv[sm, F_INFL_NFREE] > 0
            if free:
                w = st.cu[sm, cu, F_CU_WARP]
                rec = st.cu[sm, cu, F_CU_REC]
                pc = tw.rec[rec - tw.base[0], F_REC_PC]
                ut, ii = hooks.unit_choice(hs, sm, w, rec, tb.pc_info[pc, F_PC_UNIT],
                                           tb.pc_info[pc, F_PC_II])
                u0 = tb.type_info[ut, F_TYPE_UNIT_START]
                free = False
                for u in range(u0, u0 + tb.type_info[ut, F_TYPE_UNIT_COUNT]):
                    if st.unit_free_at[sm, u] <= cycle:
                        free = True
                        break
            if free and dispatch_to_unit(st.infl, st.infl_ready, st.infl_free, st.smv,
                                         st.unit_free_at, tb.pc_info, tb.type_info, tw.rec,
                                         tw.base, prm, counters, st.pc_act, sm, w, rec, cycle,
                                         hs, hooks, ut, ii):
                st.cu[sm, cu, F_CU_VALID] = 0
                done += 1
                progress = True
            else:
                counters[sm, C_OPCOLL_DISPATCH_STALLS] += 1
    return progress


@jit
def _needs_completion(mk):  # pragma: no cover - jit
    return (mk == MK_LD_GLOBAL or mk == MK_LD_LOCAL or mk == MK_LD_CONST or mk == MK_LD_TEX
            or mk == MK_ATOMIC)


@jit_inline
def tick_execute(st, tw, counters, sm, cycle, ms, mem, mem_kind_map):  # pragma: no cover - jit
    """The LD/ST unit offers the next line of its current instruction to the memory system
    (one per cycle). Returns True when a line was accepted."""
    f = st.smv[sm, F_LDST_CUR]
    if f < 0:
        return False
    r = st.infl[sm, f, F_INFL_REC] - tw.base[0]
    mk = st.infl[sm, f, F_INFL_MK]
    nl = tw.rec[r, F_REC_NLINES]
    li = st.smv[sm, F_LDST_LINE]
    addr = tw.lines[tw.rec[r, F_REC_LINE0] + li]
    nsec = tw.rec[r, F_REC_NSEC]
    per = nsec // nl
    ns = per + (1 if li < nsec - per * nl else 0)
    ns = min(4, max(1, ns))
    load = _needs_completion(mk)
    token = f if load else store_token(st, sm, st.infl[sm, f, F_INFL_WARP])
    if mem.access(ms, sm, addr, ns, mem_kind_map[mk], token, cycle) == 0:
        counters[sm, C_GPGPU_N_STALL_SHD_MEM] += 1
        return False
    if load:
        st.smv[sm, F_SM_LINES_OUT] += 1
    elif token >= 0:
        store_sent(st, sm, st.infl[sm, f, F_INFL_WARP])
    li += 1
    st.smv[sm, F_LDST_LINE] = li
    if li == nl:
        st.smv[sm, F_LDST_CUR] = -1
        st.unit_free_at[sm, st.smv[sm, F_LDST_UNIT]] = cycle + 1
        if not load:
            rd = cycle + 1 + st.infl[sm, f, F_INFL_DELAY]
            st.infl[sm, f, F_INFL_LINES] = 0
            st.infl_ready[sm, f] = rd
            if rd < st.smv[sm, F_SM_NEXT_WB]:
                st.smv[sm, F_SM_NEXT_WB] = rd
    return True


@jit_inline
def tick_writeback(st, tb, tw, prm, counters, sm, cycle, ms, mem, hs,
                   hooks):  # pragma: no cover - jit
    """Collect memory completions, then write back up to ``n_ex_wb_slots`` ready instructions
    (oldest ready first). Returns True when anything happened."""
    progress = False
    # has_completion (inlined: one load) is False once no SM has a completion queued, and then
    # pop_completion answers -1 for every SM: checked before each call, not once per cycle
    while mem.has_completion(ms):
        tok = mem.pop_completion(ms, sm, cycle)
        if tok < 0:
            break
        progress = True
        st.smv[sm, F_SM_LINES_OUT] -= 1
        if tok >= ACK_TOKEN_BASE:  # a store acknowledgement (``timing/store_ack.py``)
            store_acked(st, counters, sm, tok - ACK_TOKEN_BASE, cycle, hs, hooks)
            continue
        if tok >= MECH_TOKEN_BASE:  # a mechanism's own line (``timing/mechport.py``)
            hooks.on_mem_complete(hs, sm, tok - MECH_TOKEN_BASE, cycle)
            continue
        st.infl[sm, tok, F_INFL_LINES] -= 1
        if st.infl[sm, tok, F_INFL_LINES] == 0:
            rd = cycle + st.infl[sm, tok, F_INFL_DELAY]
            st.infl_ready[sm, tok] = rd
            st.smv[sm, F_SM_NEXT_WB] = min(st.smv[sm, F_SM_NEXT_WB], rd)
            counters[sm, C_MEM_LOADS_COMPLETED] += 1
            counters[sm, C_MEM_LOAD_LATENCY_CYCLES] += cycle - st.infl[sm, tok, F_INFL_ISSUE]
    if st.smv[sm, F_SM_NEXT_WB] > cycle:
        return progress
    nf = st.smv[sm, F_SM_INFL_HW]  # slots above were never used: READY is INT64_MAX
    ready = st.infl_ready[sm]
    # one pass finds the two oldest ready entries (by READY, then slot), how many are ready
    # and the earliest READY still ahead: usually all the writeback needs (a third ready
    # entry is looked for by a scan, and the next READY by a final scan, only when needed)
    b1 = np.int64(-1)
    r1 = INT64_MAX
    b2 = np.int64(-1)
    r2 = INT64_MAX
    n_ready = 0
    ahead = INT64_MAX
    for f in range(nf):
        rd = ready[f]
        if rd > cycle:
            if rd < ahead:
                ahead = rd
            continue
        n_ready += 1
        if rd < r1:
            b2 = b1
            r2 = r1
            b1 = f
            r1 = rd
        elif rd < r2:
            b2 = f
            r2 = rd
    done = 0
    taken = 0
    left = INT64_MAX  # the earliest READY of a ready entry that stays (write port, veto)
    last_ready = -1
    last_f = -1
    while done < prm[P_EX_WB]:
        if taken == 0:
            best = b1
            best_ready = r1
        elif taken == 1:
            best = b2
            best_ready = r2
        else:
            best = np.int64(-1)
            best_ready = INT64_MAX
            for f in range(nf):
                rd = ready[f]
                if rd > cycle or rd > best_ready:
                    continue
                if rd < last_ready or (rd == last_ready and f <= last_f):
                    continue
                if rd < best_ready or best < 0:
                    best = f
                    best_ready = rd
        if best < 0:
            break
        taken += 1
        last_ready = best_ready
        last_f = best
        w = st.infl[sm, best, F_INFL_WARP]
        rec = st.infl[sm, best, F_INFL_REC]
        pc = tw.rec[rec - tw.base[0], F_REC_PC]
        bypass = st.infl[sm, best, F_INFL_STATE] == INFL_BYPASS
        if not bypass:
            if not bank_write_ok(st.bank, tb.pc_dst, prm, sm, w, rec, pc, cycle, hs, hooks):
                counters[sm, C_REGFILE_WRITE_CONFLICT_STALLS] += 1
                left = min(left, best_ready)
                continue
            # retire (inline: a call per writeback costs about as much as the work)
            if not hooks.can_writeback(hs, sm, w, pc, rec, cycle):
                left = min(left, best_ready)
                continue
            n = bank_write(st.bank, tb.pc_dst, prm, sm, w, rec, pc, cycle, hs, hooks)
            counters[sm, C_REGFILE_BANK_WRITES] += n + hooks.on_writeback(hs, sm, w, pc, rec,
                                                                          cycle)
            counters[sm, C_REGFILE_BANK_READS] += bank_read_at_writeback(
                st.bank, tb.pc_dst, sm, w, rec, pc, cycle, hs, hooks)
        for k in range(tb.pc_sbdst.shape[1]):
            reg = tb.pc_sbdst[pc, k]
            if reg < 0:
                break
            word = reg >> 6
            bit = ~(np.uint64(1) << np.uint64(reg & 63))
            st.warp_sb[sm, w, word] &= bit
            st.warp_sb_long[sm, w, word] &= bit
            st.warp[sm, w, F_WARP_SB_COUNT] -= 1
        free_slot(st.infl, st.infl_ready, st.infl_free, st.smv, sm, best)
        st.warp[sm, w, F_WARP_INFLIGHT] -= 1
        # its scoreboard changed: the issue scan rechecks
        set_sb_wait(st.warp, st.warp_bits, sm, w, 0)
        if not bypass:
            counters[sm, C_WRITEBACK_WARP_INSTS] += 1
        hooks.on_retire(hs, sm, w, pc, rec, cycle)
        if (st.warp[sm, w, F_WARP_POS] == st.warp[sm, w, F_WARP_END]
                and st.warp[sm, w, F_WARP_INFLIGHT] == 0):
            warp_try_exit(st, sm, w, cycle, hs, hooks)
        if not bypass:  # a completed instruction takes no writeback slot
            done += 1
        progress = True
    if taken >= n_ready:  # every ready entry was written back or stays at ``left``
        nxt = min(ahead, left)
    else:
        nxt = INT64_MAX
        for f in range(nf):
            if ready[f] < nxt:
                nxt = ready[f]
    st.smv[sm, F_SM_NEXT_WB] = nxt  # <= cycle: blocked or over the EX_WB width: next cycle
    return progress
