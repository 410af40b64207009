"""The test mechanism of the engine-seam tests (tests/timing/test_seams.py,
test_seams_dispatch.py): one ``Probe`` whose behaviour a mode word selects, so that the cycle
loop is compiled once for all of them (each distinct set of hook functions, and each hook-state
layout, compiles its own: 40-110 s). Each mode bit switches one seam's behaviour on; with no bit
set every hook gives the baseline's answer.
"""

from __future__ import annotations

import numpy as np
from timing_helpers import FakeAlloc, FakeProgram, make_chunk, small_config
from timing_memstub import stub_memsys

from warpsim._jit import jit
from warpsim.mechanisms.base import Mechanism
from warpsim.timing.consts import (
    INT64_MAX,
    ISSUE_COMPLETE,
    ISSUE_EXECUTE,
    ISSUE_PARK,
    MK_LD_GLOBAL,
    MK_NONE,
)
from warpsim.timing.driver import TimingSimulator
from warpsim.timing.fields import F_WARP_AGE, F_WARP_CTA

# modes (bits of cfg[0])
(REUSE, PARK, OUTSIDE, BANK0, LANE, PRELOAD, SEE, OBSERVE, DELAY, VERIFY,
 DISPATCH, FETCH) = (1 << i for i in range(12))
# cfg[1]: the added unit's type id; cfg[2]: the memory-port refusals
# st[w, *] per warp slot; the last row holds counters
S_ISSUED, S_RETIRED, S_SENT, S_BACK, S_PENDING, S_SEEN = range(6)
G_RELEASED, G_POLLS, G_PARKED, G_DELAYED = 0, 1, 2, 3
# DISPATCH (warp-level dispatch, test_seams_dispatch.py), the state hs[4] of one SM: [K
# live-warp cap (0: none), free slots at exit, live warps, launches, exits]; launch i at
# 8 + 4 i: (CTA slot, position, warp slot, cycle); exit i at 80 + 2 i: (warp slot, cycle)
H_CAP, H_RELEASE, H_LIVE, H_NL, H_NE = 0, 1, 2, 3, 4
H_L, H_E = 8, 80
# FETCH (extra instruction words, test_seams_fetch.py), the state hs[5]: words due in front of
# absolute record r at r (r < 64); per warp slot w the record being fetched at 64 + w and the
# words fetched for it at 96 + w; the number of words fetched at 128 and their cycles from 129
W_CUR, W_DONE, W_N, W_CYC = 64, 96, 128, 129


@jit
def _on_issue(hs, sm, warp, pc, rec, cycle):  # pragma: no cover - jit
    cfg, st, core = hs[0], hs[1], hs[2]
    mode = cfg[0]
    st[warp, S_ISSUED] += 1
    if mode & SEE:
        st[warp, S_SEEN] = core[sm, warp, F_WARP_AGE] * 1000 + core[sm, warp, F_WARP_CTA]
    if mode & REUSE:
        return ISSUE_COMPLETE, cycle + 3
    if mode & PARK and warp == 1:
        st[st.shape[0] - 1, G_PARKED] = 1
        return ISSUE_PARK, np.int64(0)
    return ISSUE_EXECUTE, np.int64(0)


@jit
def _poll_parked(hs, sm, warp, rec, cycle):  # pragma: no cover - jit
    st = hs[1]
    g = st.shape[0] - 1
    st[g, G_POLLS] += 1
    if st[g, G_RELEASED] > 0:
        st[g, G_PARKED] = 0
        return ISSUE_EXECUTE, np.int64(0)
    return ISSUE_PARK, np.int64(0)


@jit
def _on_retire(hs, sm, warp, pc, rec, cycle):  # pragma: no cover - jit
    st = hs[1]
    st[warp, S_RETIRED] += 1
    g = st.shape[0] - 1
    if warp == 0 and st[g, G_RELEASED] == 0:
        st[g, G_RELEASED] = cycle


@jit
def _on_cycle_end(hs, counters, cycle):  # pragma: no cover - jit
    st, own = hs[1], hs[3]
    if st[st.shape[0] - 1, G_PARKED] != 0:
        own[0, 0] += 1  # a cycle with an instruction parked (SM 0)
    return INT64_MAX


@jit
def _operand_bank(hs, sm, warp, rec, reg, bank):  # pragma: no cover - jit
    mode = hs[0][0]
    if mode & OUTSIDE:
        return -1
    if mode & BANK0:
        return 0
    return bank


@jit
def _dest_bank(hs, sm, warp, rec, reg, bank):  # pragma: no cover - jit
    return -1 if hs[0][0] & OUTSIDE else bank


@jit
def _unit_choice(hs, sm, warp, rec, unit_type, ii):  # pragma: no cover - jit
    cfg = hs[0]
    if cfg[0] & LANE:
        return cfg[1], np.int64(4)
    return unit_type, ii


@jit
def _on_warp_launch(hs, sm, warp, cta_slot, pos, cycle):  # pragma: no cover - jit
    if hs[0][0] & PRELOAD:
        hs[1][warp, S_PENDING] = 1
    if hs[0][0] & DISPATCH:
        d = hs[4]
        i = H_L + 4 * d[H_NL]
        d[i] = cta_slot
        d[i + 1] = pos
        d[i + 2] = warp
        d[i + 3] = cycle
        d[H_NL] += 1
        d[H_LIVE] += 1


@jit
def _on_warp_exit(hs, sm, warp, cycle):  # pragma: no cover - jit
    if hs[0][0] & DISPATCH:
        d = hs[4]
        i = H_E + 2 * d[H_NE]
        d[i] = warp
        d[i + 1] = cycle
        d[H_NE] += 1
        d[H_LIVE] -= 1


@jit
def _cta_fit(hs, sm, cta, fits):  # pragma: no cover - jit
    """DISPATCH: a CTA starts whenever one more warp may live (at most the cap)."""
    if (hs[0][0] & DISPATCH) == 0:
        return fits
    d = hs[4]
    return d[H_CAP] == 0 or d[H_LIVE] < d[H_CAP]


@jit
def _warps_to_place(hs, sm, cta, cta_slot, placed, n_warps, free_warps, n):  # pragma: no cover
    if (hs[0][0] & DISPATCH) == 0:
        return n
    d = hs[4]
    room = free_warps if d[H_CAP] == 0 else min(free_warps, d[H_CAP] - d[H_LIVE])
    return np.int64(max(0, min(room, n_warps - placed)))


@jit
def _release_warp_slot(hs, sm, warp, cycle):  # pragma: no cover - jit
    return (hs[0][0] & DISPATCH) != 0 and hs[4][H_RELEASE] != 0


@jit
def _mem_request(hs, sm, cycle):  # pragma: no cover - jit
    st = hs[1]
    for w in range(st.shape[0] - 1):
        if st[w, S_PENDING] != 0:
            return MK_LD_GLOBAL, np.int64(0x10000 + 128 * w), np.int64(4), np.int64(w)
    return MK_NONE, np.int64(0), np.int64(0), np.int64(0)


@jit
def _on_mem_sent(hs, sm, tag, accepted, cycle):  # pragma: no cover - jit
    cfg, st = hs[0], hs[1]
    if accepted:
        st[tag, S_PENDING] = 0
        st[tag, S_SENT] = cycle
    else:
        cfg[2] += 1


@jit
def _on_mem_complete(hs, sm, tag, cycle):  # pragma: no cover - jit
    hs[1][tag, S_BACK] = cycle


@jit
def _result_delay(hs, sm, warp, rec, cycle):  # pragma: no cover - jit
    cfg, st = hs[0], hs[1]
    g = st.shape[0] - 1
    if cfg[0] & DELAY and st[g, G_DELAYED] == 0:  # the first result one cycle later
        st[g, G_DELAYED] = 1
        return 1
    return 0


@jit
def _writeback_read_bank(hs, sm, warp, rec, reg):  # pragma: no cover - jit
    return np.int64(1) if hs[0][0] & VERIFY and reg == 2 else np.int64(-1)


@jit
def _can_issue(hs, sm, warp, pc, cycle):  # pragma: no cover - jit
    return (hs[0][0] & PRELOAD) == 0 or hs[1][warp, S_BACK] > 0


@jit
def _fetch_word(hs, sm, warp, rec, cycle):  # pragma: no cover - jit
    if (hs[0][0] & FETCH) == 0 or rec >= W_CUR:
        return False
    f = hs[5]
    if f[W_CUR + warp] != rec:
        f[W_CUR + warp] = rec
        f[W_DONE + warp] = 0
    if f[W_DONE + warp] >= f[rec]:
        return False
    f[W_DONE + warp] += 1
    f[W_CYC + f[W_N]] = cycle
    f[W_N] += 1
    return True


PROBE_HOOKS = dict(fetch_word=_fetch_word, on_issue=_on_issue, poll_parked=_poll_parked,
                   on_retire=_on_retire,
                   operand_bank=_operand_bank, dest_bank=_dest_bank, unit_choice=_unit_choice,
                   on_warp_launch=_on_warp_launch, mem_request=_mem_request,
                   on_mem_sent=_on_mem_sent, on_mem_complete=_on_mem_complete,
                   can_issue=_can_issue, on_cycle_end=_on_cycle_end,
                   result_delay=_result_delay, writeback_read_bank=_writeback_read_bank,
                   on_warp_exit=_on_warp_exit, cta_fit=_cta_fit, warps_to_place=_warps_to_place,
                   release_warp_slot=_release_warp_slot)


class Probe(Mechanism):
    """Every seam, each behaviour switched on by a bit of ``mode`` (constants above).
    DISPATCH: warp-level dispatch, at most ``cap`` live warps per SM (0: only the free warp
    slots limit), a CTA started whenever one of its warps may be placed, its other warps placed
    as live warps exit; an exited warp's slot is freed at its exit when ``release``.
    FETCH: ``words[r]`` extra instruction words are fetched in front of absolute record ``r``
    (``fetch_word``); ``word_cycles`` lists the cycles they were decoded in."""

    extra_units = (("probe_lane", 1),)

    def __init__(self, cfg, mode, name="probe", *, cap=0, release=False, words=None):
        super().__init__(cfg)
        self.mode = mode
        self.words = dict(words or {})  # FETCH: {absolute record: extra words in front}
        self.name = name
        self.cap, self.release = cap, release
        self.counter_names = (f"{name}_parked_cycles",)
        self.hooks = self.hooks._replace(**PROBE_HOOKS)

    def ctas_per_sm(self, cta_threads, regs_per_thread, shmem_bytes, baseline):
        if self.mode & DISPATCH:  # a partially dispatched CTA takes a CTA slot only
            return self.cfg.sm.n_max_ctas
        return baseline

    def start_launch(self, info):
        cfg = np.array([self.mode, info.unit_types.get("probe_lane", 0), 0], np.int64)
        wbw = np.zeros(128, np.int64)
        wbw[H_CAP], wbw[H_RELEASE] = self.cap, int(self.release)
        fw = np.zeros(256, np.int64)
        fw[W_CUR:W_DONE] = -1
        for r, n in self.words.items():
            fw[r] = n
        return {"cfg": cfg, "st": np.zeros((info.cfg.sm.n_max_warps + 1, 6), np.int64),
                "wbw": wbw, "fw": fw}

    def bind_core(self, launch_state, core):
        launch_state["core"] = core.warp

    def bind_counters(self, launch_state, counters):
        launch_state["own"] = counters

    def hook_state(self, launch_state, rec_cols, rec_base):
        return (launch_state["cfg"], launch_state["st"], launch_state["core"],
                launch_state["own"], launch_state["wbw"], launch_state["fw"])

    def finish_launch(self, launch_state, counts):
        st, cfg, d = launch_state["st"], launch_state["cfg"], launch_state["wbw"]
        out = {f"{self.name}_{k}_w{w}": int(st[w, i]) for w in range(min(4, len(st) - 1))
               for i, k in enumerate(("issued", "retired", "sent", "back", "pending", "seen"))}
        out.update({f"{self.name}_released": int(st[-1, G_RELEASED]),
                    f"{self.name}_polls": int(st[-1, G_POLLS]),
                    f"{self.name}_refused": int(cfg[2])})
        if self.mode & FETCH:
            fw = launch_state["fw"]
            self.word_cycles = [int(c) for c in fw[W_CYC:W_CYC + fw[W_N]]]
        if self.mode & DISPATCH:
            n, e = int(d[H_NL]), int(d[H_NE])
            self.launches = [tuple(int(v) for v in d[H_L + 4 * i:H_L + 4 * i + 4])
                             for i in range(n)]
            self.exits = [tuple(int(v) for v in d[H_E + 2 * i:H_E + 2 * i + 2])
                          for i in range(e)]
            out[f"{self.name}_launched"] = n
        return out


def timed(mode_or_mech, insts, warps, *, wpc=1, skip_idle=True, cfg=None):
    cfg = cfg or small_config()
    mech = (Probe(cfg, mode_or_mech) if isinstance(mode_or_mech, int)
            else mode_or_mech)
    sim = TimingSimulator(cfg, mechanism=mech, memsys=stub_memsys(None, 200),
                          skip_idle_cycles=skip_idle)
    n_ctas = len(warps) // wpc
    sim.start(FakeProgram(insts), FakeAlloc(insts), n_ctas=n_ctas, cta_threads=32 * wpc,
              regs_per_thread=8, shmem_bytes=0)
    sim.consume(make_chunk(warps, wpc))
    return sim.finish()
