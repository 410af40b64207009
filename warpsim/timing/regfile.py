"""Banked register file and operand collector: register-to-bank mapping, collector-unit
allocation from the ID_OC registers, the bank arbiter (read grants, write priority), and the
bank write ports used by writeback.

Follows: GPGPU-Sim ``opndcoll_rfu_t`` (reference/gpu-simulators.md §2): ``register_bank``
(``bank = (reg + warp) % n_banks``, sub-core variant), ``allocate_cu`` (an instruction in the
ID_OC register takes a free collector unit of its set, up to the set's in ports per step),
``arbiter_t::allocate_reads`` (one grant per bank read port per step; a bank written this cycle
grants no read; GPGPU-Sim 3.2.2: a collector unit receives at most one operand per step,
``regfile.collector_single_read_per_cycle``; 4.x: several), ``-gpgpu_reg_file_port_throughput``
(``regfile.n_oc_steps_per_cycle`` steps per cycle), writeback needing its bank free.
Assumptions:
  [A] The arbiter grants in a round-robin order of collector units that rotates with the clock
      (GPGPU-Sim's wavefront allocator rotates its priority diagonal every cycle); inside a
      unit, operands are tried in source order.
  [A] A write occupies its bank for the whole cycle (all its read ports).
  [A] ``regfile_bank_conflict_stalls`` counts, per step, every pending operand whose bank was
      taken (by a write or another grant) when its collector unit was visited.
"""

from __future__ import annotations

from warpsim._jit import jit, jit_inline
from warpsim.stats import (
    C_OPCOLL_ALLOC_STALLS,
    C_REGFILE_BANK_CONFLICT_STALLS,
    C_REGFILE_BANK_READS,
    C_REGFILE_NON_RF_OPERANDS,
)
from warpsim.timing.consts import (
    BANK_MAP_LINEAR,
    BANK_MAP_SUB_CORE,
    P_BANK_MAP,
    P_N_BANKS,
    P_N_SCHED,
    P_RD_PORTS,
    P_SINGLE_READ,
    P_WR_PORTS,
)
from warpsim.timing.fields import (
    F_BANK_RD_COUNT,
    F_BANK_RD_STAMP,
    F_BANK_WR_COUNT,
    F_BANK_WR_STAMP,
    F_CU_LEFT,
    F_CU_REC,
    F_CU_VALID,
    F_CU_WARP,
    F_IDOC_COUNT,
    F_IDOC_HEAD,
    F_IDOC_REC,
    F_IDOC_WARP,
    F_PC_NIMM,
    F_PC_NSRC,
    F_REC_PC,
    F_SET_CU_COUNT,
    F_SET_CU_START,
    F_SET_IN_PORTS,
)

__all__ = ["bank_of", "bank_write", "bank_write_ok", "tick_operand_collector"]


@jit
def _mod(x, n):  # pragma: no cover - jit
    """``x % n`` (floor modulo, ``n`` > 0) without a division when ``n`` is a power of two: a
    64-bit division costs tens of cycles, and this runs for every operand."""
    if n > 0 and n & (n - 1) == 0:
        return x & (n - 1)
    return x % n


@jit
def bank_of(reg, warp, sched, n_banks, n_sched, mapping):  # pragma: no cover - jit
    """Register bank of physical register ``reg`` of warp slot ``warp`` (GPGPU-Sim
    ``register_bank``)."""
    if mapping == BANK_MAP_LINEAR:
        return _mod(reg, n_banks)
    if mapping == BANK_MAP_SUB_CORE:
        per = n_banks // n_sched
        return _mod(reg + warp, per) + sched * per
    return _mod(reg + warp, n_banks)


@jit
def bank_write_ok(bank, pc_dst, prm, sm, w, rec, pc, cycle, hs, hooks):  # pragma: no cover
    """True when every destination bank of ``pc`` (as the ``dest_bank`` hook maps them) has a
    free write port this cycle (takes arrays, not the state tuples: it runs for every
    writeback)."""
    nb = prm[P_N_BANKS]
    ns = prm[P_N_SCHED]
    sw = _mod(w, ns)
    for k in range(pc_dst.shape[1]):
        reg = pc_dst[pc, k]
        if reg < 0:
            break
        b = hooks.dest_bank(hs, sm, w, rec, reg, bank_of(reg, w, sw, nb, ns,
                                                          prm[P_BANK_MAP]))
        if b < 0:
            continue
        if (bank[sm, b, F_BANK_WR_STAMP] == cycle
                and bank[sm, b, F_BANK_WR_COUNT] >= prm[P_WR_PORTS]):
            return False
        rb = hooks.writeback_read_bank(hs, sm, w, rec, reg)  # a verify read (mechanisms)
        if (rb >= 0 and bank[sm, rb, F_BANK_WR_STAMP] == cycle
                and bank[sm, rb, F_BANK_WR_COUNT] >= prm[P_WR_PORTS]):
            return False
    return True


@jit_inline
def _take_port(bank, sm, b, cycle):  # pragma: no cover - jit
    """One of bank ``b``'s ports for this cycle (a write, or a read in the writeback stage)."""
    if bank[sm, b, F_BANK_WR_STAMP] != cycle:
        bank[sm, b, F_BANK_WR_STAMP] = cycle
        bank[sm, b, F_BANK_WR_COUNT] = 0
    bank[sm, b, F_BANK_WR_COUNT] += 1


@jit
def bank_write(bank, pc_dst, prm, sm, w, rec, pc, cycle, hs, hooks):  # pragma: no cover
    """Take the write ports of ``pc``'s destination banks this cycle; returns bank writes."""
    nb = prm[P_N_BANKS]
    ns = prm[P_N_SCHED]
    sw = _mod(w, ns)
    n = 0
    for k in range(pc_dst.shape[1]):
        reg = pc_dst[pc, k]
        if reg < 0:
            break
        b = hooks.dest_bank(hs, sm, w, rec, reg, bank_of(reg, w, sw, nb, ns,
                                                          prm[P_BANK_MAP]))
        if b < 0:
            continue
        _take_port(bank, sm, b, cycle)
        n += 1
    return n


@jit
def bank_read_at_writeback(bank, pc_dst, sm, w, rec, pc, cycle, hs, hooks):  # pragma: no cover
    """Take the ports of the banks ``pc``'s writeback reads this cycle (the
    ``writeback_read_bank`` hook; after ``bank_write``); returns the bank reads."""
    n = 0
    for k in range(pc_dst.shape[1]):
        reg = pc_dst[pc, k]
        if reg < 0:
            break
        b = hooks.writeback_read_bank(hs, sm, w, rec, reg)
        if b < 0:
            continue
        _take_port(bank, sm, b, cycle)
        n += 1
    return n


@jit_inline
def _allocate_collectors(st, tb, tw, counters, sm, hs, hooks):  # pragma: no cover
    """Move instructions from the ID_OC registers into free collector units of their set."""
    progress = False
    qcap = st.idoc_q.shape[2]
    nk = tb.pc_src.shape[1]  # cu_src has one more column: ``extra_operand``
    for s in range(tb.set_info.shape[0]):
        start = tb.set_info[s, F_SET_CU_START]
        cnt = tb.set_info[s, F_SET_CU_COUNT]
        for _ in range(tb.set_info[s, F_SET_IN_PORTS]):
            if st.idoc_hc[sm, s, F_IDOC_COUNT] == 0:
                break
            cu = -1
            for i in range(cnt):
                if st.cu[sm, start + i, F_CU_VALID] == 0:
                    cu = start + i
                    break
            if cu < 0:
                counters[sm, C_OPCOLL_ALLOC_STALLS] += 1
                break
            q = st.idoc_hc[sm, s, F_IDOC_HEAD]
            st.idoc_hc[sm, s, F_IDOC_HEAD] = (q + 1) % qcap
            st.idoc_hc[sm, s, F_IDOC_COUNT] -= 1
            rec = st.idoc_q[sm, s, q, F_IDOC_REC]
            pc = tw.rec[rec - tw.base[0], F_REC_PC]
            st.cu[sm, cu, F_CU_VALID] = 1
            st.cu[sm, cu, F_CU_WARP] = st.idoc_q[sm, s, q, F_IDOC_WARP]
            st.cu[sm, cu, F_CU_REC] = rec
            st.cu[sm, cu, F_CU_LEFT] = tb.pc_info[pc, F_PC_NSRC]
            for k in range(nk):
                st.cu_src[sm, cu, k] = tb.pc_src[pc, k]
            xr = hooks.extra_operand(hs, sm, st.cu[sm, cu, F_CU_WARP], rec)
            st.cu_src[sm, cu, nk] = xr
            if xr >= 0:
                st.cu[sm, cu, F_CU_LEFT] += 1
            counters[sm, C_REGFILE_NON_RF_OPERANDS] += tb.pc_info[pc, F_PC_NIMM]
            progress = True
    return progress


@jit_inline
def tick_operand_collector(st, tb, tw, prm, counters, sm, cycle, step, hs,
                           hooks):  # pragma: no cover - jit
    """One operand-collector step after ready units were dispatched: the bank arbiter grants
    pending operand reads, then ID_OC entries take free collector units (so a newly allocated
    unit reads from the next step on). Returns True when anything happened."""
    stamp = cycle * 8 + step
    n_cu = st.cu.shape[1]
    nb = prm[P_N_BANKS]
    ns = prm[P_N_SCHED]
    mapping = prm[P_BANK_MAP]
    single = prm[P_SINGLE_READ] != 0
    ports = prm[P_RD_PORTS]
    progress = False
    cu = cycle % n_cu - 1  # round robin from the clock; no division per unit
    for _ in range(n_cu):
        cu += 1
        if cu == n_cu:
            cu = 0
        if st.cu[sm, cu, F_CU_VALID] == 0 or st.cu[sm, cu, F_CU_LEFT] == 0:
            continue
        w = st.cu[sm, cu, F_CU_WARP]
        rec = st.cu[sm, cu, F_CU_REC]
        sw = _mod(w, ns)
        for k in range(st.cu_src.shape[2]):
            reg = st.cu_src[sm, cu, k]
            if reg < 0:
                continue
            b = hooks.operand_bank(hs, sm, w, rec, reg, bank_of(reg, w, sw, nb, ns, mapping))
            if b < 0:  # served outside the banked register file
                st.cu_src[sm, cu, k] = -1
                st.cu[sm, cu, F_CU_LEFT] -= 1
                counters[sm, C_REGFILE_NON_RF_OPERANDS] += 1
                progress = True
                continue
            if st.bank[sm, b, F_BANK_WR_STAMP] == cycle or (
                    st.bank[sm, b, F_BANK_RD_STAMP] == stamp
                    and st.bank[sm, b, F_BANK_RD_COUNT] >= ports):
                counters[sm, C_REGFILE_BANK_CONFLICT_STALLS] += 1
                continue
            if st.bank[sm, b, F_BANK_RD_STAMP] != stamp:
                st.bank[sm, b, F_BANK_RD_STAMP] = stamp
                st.bank[sm, b, F_BANK_RD_COUNT] = 0
            st.bank[sm, b, F_BANK_RD_COUNT] += 1
            st.cu_src[sm, cu, k] = -1
            st.cu[sm, cu, F_CU_LEFT] -= 1
            counters[sm, C_REGFILE_BANK_READS] += hooks.on_operand_read(hs, sm, w, reg, b, cycle)
            progress = True
            if single:
                break
    waiting = False
    for s in range(st.idoc_hc.shape[1]):
        if st.idoc_hc[sm, s, F_IDOC_COUNT] > 0:
            waiting = True
            break
    if waiting and _allocate_collectors(st, tb, tw, counters, sm, hs, hooks):
        progress = True
    return progress
