"""GPGPU-Sim 4.x's L1 latency queue (``l1d.latency_queue``, timing/l1access.py): accesses wait
``l1d.hit_latency_cycles`` in a FIFO of that many slots before their tag lookup; a lookup that
finds no MSHR holds the head, the accesses behind it wait in order, one lookup per cycle.
Timelines worked out by hand from those rules (GPGPU-Sim 4.2 ``L1_latency_queue_cycle``)."""

from __future__ import annotations

import pytest
from test_memsys import SMALL, cold_miss_cycles, run

from warpsim.arch import apply_overrides, get_preset
from warpsim.errors import ConfigError
from warpsim.stats import export
from warpsim.timing.memconsts import MEM_LD_GLOBAL

HL = 4
QUEUED = apply_overrides(SMALL, {"l1d.latency_queue": True, "l1d.hit_latency_cycles": HL,
                                 "l1d.mshr_entries": 1})
"""SMALL with a 4-slot latency queue (hit latency 4) and one L1D MSHR."""
PLAIN = apply_overrides(QUEUED, {"l1d.latency_queue": False})

H, A, B = 0x10000, 0x20080, 0x30100
"""Three lines in different L1D sets (the GTX480 L1D's 32 sets of 128 B lines)."""


def _stream(t):
    """Warm ``H``; from cycle ``t``: miss ``A`` (token 1), miss ``B`` (2), hits on ``H``
    offered at t+2, t+3, t+4 and t+6 (tokens 3-6)."""
    return [(0, 0, H, 4, MEM_LD_GLOBAL, 100), (t, 0, A, 4, MEM_LD_GLOBAL, 1),
            (t + 1, 0, B, 4, MEM_LD_GLOBAL, 2), (t + 2, 0, H, 4, MEM_LD_GLOBAL, 3),
            (t + 3, 0, H, 4, MEM_LD_GLOBAL, 4), (t + 4, 0, H, 4, MEM_LD_GLOBAL, 5),
            (t + 6, 0, H, 4, MEM_LD_GLOBAL, 6)]


def _times(done):
    return {tok: c for c, _, tok in done}


@pytest.mark.parametrize("skip", [True, False])
def test_an_unloaded_miss_and_hit_take_what_they_take_without_the_queue(skip):
    t0 = cold_miss_cycles(QUEUED) + 10
    stream = [(0, 0, H, 4, MEM_LD_GLOBAL, 1), (t0, 0, H, 4, MEM_LD_GLOBAL, 2)]
    done, _, refused, _ = run(QUEUED, stream, skip=skip)
    assert done == [(cold_miss_cycles(QUEUED), 0, 1), (t0 + HL, 0, 2)]
    assert refused == 0
    assert run(PLAIN, stream)[0] == done


def test_a_head_without_mshr_holds_the_accesses_behind_it_in_order():
    t = cold_miss_cycles(QUEUED) + 10
    done, cnt, refused, _ = run(QUEUED, _stream(t))
    ta = _times(done)[1]  # A's fill frees the MSHR: B's lookup in the next cycle (lookups
    # come before the fills in a memory cycle, as the LD/ST unit's own retries do)
    # queue (4 slots): t A, t+1 B, t+2 H3, t+3 H4; A leaves at its lookup t+4 (after the
    # offer of that cycle): H5 refused at t+4, enters at t+5; H6 refused from t+6 until B
    # leaves at ta+1, enters at ta+2.  Lookups after B's: one per cycle, H6 hl after entry
    assert {tok: c for tok, c in _times(done).items() if 3 <= tok <= 6} == {
        3: ta + 2, 4: ta + 3, 5: ta + 4, 6: ta + 2 + HL}
    assert refused == 1 + (ta + 2 - (t + 6))
    flat = export(cnt)
    # B's lookup failed at t+5 .. ta (A's took the MSHR at t+4)
    assert flat["L1D_total_cache_reservation_fails"] == ta + 1 - (t + 5)
    assert flat["L1D_total_cache_misses"] == 3 and flat["L1D_total_cache_accesses"] == 7


def test_without_the_queue_the_lsu_retries_the_lookup_itself():
    t = cold_miss_cycles(PLAIN) + 10
    done, cnt, refused, _ = run(PLAIN, _stream(t))
    ta = _times(done)[1]
    # B is refused at t+1 .. ta (the fill frees the MSHR in the tick after the offer), accepted
    # at ta+1; each hit then enters one cycle later and completes hl after it
    assert {tok: c for tok, c in _times(done).items() if 3 <= tok <= 6} == {
        3: ta + 2 + HL, 4: ta + 3 + HL, 5: ta + 4 + HL, 6: ta + 5 + HL}
    assert refused == ta - t
    assert export(cnt)["L1D_total_cache_reservation_fails"] == ta - t


def test_the_presets_and_the_field_type():
    assert get_preset("gtx480").l1d.latency_queue
    for name in ("gtx285", "c2050", "table8", "gtx980", "qv100", "a100", "h100"):
        assert not get_preset(name).l1d.latency_queue, name
    with pytest.raises(ConfigError):
        apply_overrides(SMALL, {"l1d.latency_queue": "sometimes"})
