"""Memory-system configuration: ``dram.addr_mapping`` (GPGPU-Sim -gpgpu_mem_addr_mapping) against
hand-decoded addresses and the linear mapping it replaces; the queue-size fields
(``icnt.eject_buffer_entries``, ``l2.rop_queue_entries``, ``l2.reply_queue_entries``).

Oracle: GPGPU-Sim 4.2 addrdec.cc ``addrdec_tlx`` as documented in warpsim/arch/addr_mapping.py,
worked by hand for the SM2_GTX480 string (6 channels, dramid@8,
``...RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS``: bank bits 8, 13, 14, 15 of the address inside the
channel, row bits 16-27; 2 L2 slices per channel chosen by the bank's low bit).
"""

from __future__ import annotations

import pytest

from warpsim.arch import GTX480_3X, apply_overrides
from warpsim.errors import ConfigError
from warpsim.stats import make_counts
from warpsim.timing.cache import mq_push
from warpsim.timing.icnt import tick_icnt
from warpsim.timing.l2 import addr_bank, addr_channel, addr_row, addr_slice
from warpsim.timing.memconsts import A_L1_MQ, PK_WRITE, SRC_NONE, X_ROP_COUNT
from warpsim.timing.memstate import build_mem_state, pack_info

FERMI = ("dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.BBBCCCCB."
         "CCSSSSSS")


def _decode(cfg, addr):
    p = build_mem_state(cfg).p
    return (addr_channel(p, addr), addr_bank(p, addr), addr_row(p, addr),
            addr_slice(p, addr))


@pytest.mark.parametrize(("addr", "channel", "bank", "row", "slice_"), [
    (0x100, 1, 0, 0, 2),               # chunk 1 -> channel 1, in-channel address 0
    (6 * 256, 0, 1, 0, 1),             # chunk 6 -> channel 0, in-channel 256: bit 8 = bank 1
    (6 * 256 * 32, 0, 2, 0, 0),        # in-channel 8192: bit 13 = bank bit 1
    (6 * 256 * 256, 0, 0, 1, 0),       # in-channel 65536: bit 16 = row bit 0
    (6 * 256 * 256 + 6 * 256 * 33 + 5 * 256 + 77, 5, 3, 1, 11),  # all of the above at once
])
def test_gpgpusim_mapping_decodes_like_addrdec(addr, channel, bank, row, slice_):
    cfg = apply_overrides(GTX480_3X, {"dram.addr_mapping": FERMI, "dram.row_bytes": 4096})
    assert _decode(cfg, addr) == (channel, bank, row, slice_)


def test_empty_mapping_keeps_the_linear_one():
    # 256 B chunks round robin; bank = (local // 2048) % 16; slice from the 128 B line bit
    assert _decode(GTX480_3X, 6 * 256 * 8 + 128) == (0, 1, 0, 1)


def test_mapping_must_agree_with_bank_count_and_row_size():
    with pytest.raises(ConfigError) as info:
        apply_overrides(GTX480_3X, {"dram.addr_mapping": FERMI})
    assert info.value.field == "dram.row_bytes"   # C and S bits span 4096 bytes
    with pytest.raises(ConfigError) as info:
        apply_overrides(GTX480_3X, {"dram.addr_mapping": FERMI, "dram.row_bytes": 4096,
                                 "dram.n_banks": 8, "dram.n_bank_groups": 4})
    assert info.value.field == "dram.addr_mapping"
    with pytest.raises(ConfigError) as info:
        apply_overrides(GTX480_3X, {"dram.addr_mapping": "00RRBBCC"})
    assert info.value.field == "dram.addr_mapping"


def test_queue_fields_size_the_memory_system_queues():
    cfg = apply_overrides(GTX480_3X, {"icnt.eject_buffer_entries": 3, "l2.rop_queue_entries": 5,
                                   "l2.reply_queue_entries": 7})
    ms = build_mem_state(cfg)
    # the ROP ring: 5 entries past the delay + 1 line of slack (unsectored: 1 sector) + the
    # delay line, one packet per icnt tick of the 120-cycle ROP delay (+ 2)
    assert (ms.ej.shape[1], ms.rop.shape[1], ms.rq.shape[1]) == (3, 5 + 1 + 122, 7)


def test_the_rop_delay_does_not_count_against_the_rop_queue():
    """GPGPU-Sim 4.2: requests wait out the ROP delay (120 cycles) in an unbounded line, the
    icnt_L2 queue of ``l2.rop_queue_entries`` (5 here) counts only those past it. 20 store
    packets (8 + 32 B = 2 flits of 32 B) from SM 0 to slice 0 are granted 2 ticks apart
    (icnt clock = core clock), all by tick 38, the first ready at 0 + 4 + 1 + 120 = 125; with
    nothing consuming them, a 21st is refused once 5 are past the delay (from cycle 133)."""
    cfg = apply_overrides(GTX480_3X, {"l2.rop_queue_entries": 5, "l1d.miss_queue_entries": 32})
    ms = build_mem_state(cfg)
    cnt = make_counts(cfg.n_sms)
    slice0 = [j * 6 * 256 for j in range(0, 42, 2)]     # channel 0, even 128 B line: slice 0
    assert {int(addr_slice(ms.p, a)) for a in slice0} == {0}
    info = pack_info(0, PK_WRITE, SRC_NONE, 32, 0)
    for a in slice0[:20]:
        mq_push(ms.caches, 0, a, info, 0)
    ms.act[A_L1_MQ] += 20
    for k in range(40):
        tick_icnt(ms.p, ms.clk, ms.caches, ms.sm_s, ms.sl_s, ms.rop, ms.rq, ms.ej, ms.act, cnt,
                  k, k)
    assert ms.sl_s[0, X_ROP_COUNT] == 20                 # 4x l2.rop_queue_entries in flight
    mq_push(ms.caches, 0, slice0[20], info, 200)
    ms.act[A_L1_MQ] += 1
    for k in range(200, 210):
        tick_icnt(ms.p, ms.clk, ms.caches, ms.sm_s, ms.sl_s, ms.rop, ms.rq, ms.ej, ms.act, cnt,
                  k, k)
    assert ms.sl_s[0, X_ROP_COUNT] == 20                 # 20 past the delay >= 5: refused
