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

from warpsim.arch import GTX480, apply_overrides
from warpsim.errors import ConfigError
from warpsim.timing.l2 import addr_bank, addr_channel, addr_row, addr_slice
from warpsim.timing.memstate import build_mem_state

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
    cfg = apply_overrides(GTX480, {"dram.addr_mapping": FERMI, "dram.row_bytes": 4096})
    assert _decode(cfg, addr) == (channel, bank, row, slice_)


def test_empty_mapping_keeps_the_linear_one():
    # 256 B chunks round robin; bank = (local // 2048) % 16; slice from the 128 B line bit
    assert _decode(GTX480, 6 * 256 * 8 + 128) == (0, 1, 0, 1)


def test_mapping_must_agree_with_bank_count_and_row_size():
    with pytest.raises(ConfigError) as info:
        apply_overrides(GTX480, {"dram.addr_mapping": FERMI})
    assert info.value.field == "dram.row_bytes"   # C and S bits span 4096 bytes
    with pytest.raises(ConfigError) as info:
        apply_overrides(GTX480, {"dram.addr_mapping": FERMI, "dram.row_bytes": 4096,
                                 "dram.n_banks": 8, "dram.n_bank_groups": 4})
    assert info.value.field == "dram.addr_mapping"
    with pytest.raises(ConfigError) as info:
        apply_overrides(GTX480, {"dram.addr_mapping": "00RRBBCC"})
    assert info.value.field == "dram.addr_mapping"


def test_queue_fields_size_the_memory_system_queues():
    cfg = apply_overrides(GTX480, {"icnt.eject_buffer_entries": 3, "l2.rop_queue_entries": 5,
                                   "l2.reply_queue_entries": 7})
    ms = build_mem_state(cfg)
    assert (ms.ej.shape[1], ms.rop.shape[1], ms.rq.shape[1]) == (3, 5, 7)
