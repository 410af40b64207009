"""GPGPU-Sim's DRAM address mapping string (``-gpgpu_mem_addr_mapping``), parsed.

Follows: GPGPU-Sim 4.2 ``src/gpgpu-sim/addrdec.cc`` (``addrdec_parseoption``, ``addrdec_tlx``):
``dramid@K;`` followed by one letter per address bit, most significant first, ``.``, ``|`` and
blanks only separating groups. ``R`` row, ``B`` bank, ``C`` column, ``S`` burst, ``0`` unused.
The channel is ``(addr >> K) % n_channels`` and the address inside the channel
``((addr >> K) // n_channels) << K | addr % 2**K``; the letters select the bank and row bits of
that address (consecutive partition indexing: the L2 slice is the bank's low bits).
"""

from __future__ import annotations

from typing import NamedTuple

from warpsim.errors import ConfigError

__all__ = ["AddrMapping", "parse_addr_mapping"]


class AddrMapping(NamedTuple):
    """The bit fields of an address mapping."""

    chip_shift: int
    """K of ``dramid@K``: channels interleave every 2**K bytes."""
    bank_mask: int
    """Bits of the in-channel address that form the bank number (packed low to high)."""
    row_mask: int
    """Bits of the in-channel address that form the row number."""
    column_mask: int
    """Column and burst bits (the bytes of one row)."""


def parse_addr_mapping(text: str, field: str = "dram.addr_mapping") -> AddrMapping:
    """Parse ``dramid@8;0000...RRRR.BBBCCCCB.CCSSSSSS``; ``ConfigError`` naming ``field``."""
    head, sep, bits = text.strip().partition(";")
    if not sep or not head.startswith("dramid@"):
        raise ConfigError(field, text, "'dramid@K;' followed by the address bit letters "
                          "(GPGPU-Sim -gpgpu_mem_addr_mapping)")
    try:
        shift = int(head[len("dramid@"):])
    except ValueError:
        raise ConfigError(field, text, "an integer bit position after dramid@") from None
    letters = [c for c in bits if c not in ". |"]
    if len(letters) > 64 or any(c.upper() not in "RBCS0" for c in letters) or not 0 <= shift < 48:
        raise ConfigError(field, text, "at most 64 letters R, B, C, S or 0 (channel bits come "
                          "from dramid@K, 0 <= K < 48)")
    masks = {"R": 0, "B": 0, "C": 0, "S": 0}
    for pos, c in enumerate(reversed(letters)):
        if c != "0":
            masks[c.upper()] |= 1 << pos
    return AddrMapping(shift, masks["B"], masks["R"], masks["C"] | masks["S"])
