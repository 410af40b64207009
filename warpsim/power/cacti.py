"""CACTI 7 SRAM-bank energies for register-file studies, and entries built from them.

Follows: reference/energy-and-configs.md §3.5 (CACTI 7.0, HewlettPackard/cacti @1ffd8df: RAM,
1 RW port, 1 bank, 350 K, ITRS-HP cells and periphery, ED^2 optimisation; 40 and 28 nm are
CACTI's own interpolation; tag [C]) and §2.8 (report RF energy both as counter x coefficient
and as bank-level physical energy).

A bank access of ``width_bits`` reads ``width_bits / 128`` granules, so its energy per
128-bit granule is ``read_pj x 128 / width_bits``.
"""

from __future__ import annotations

from dataclasses import dataclass

from warpsim.errors import ConfigError
from warpsim.power.table import EnergyEntry, StaticEntry, StaticScope

__all__ = ["CACTI_BANKS", "CactiBank", "cacti_bank", "regfile_entries_from_bank"]

_SRC = "reference/energy-and-configs.md §3.5 CACTI 7 [C]"


@dataclass(frozen=True, slots=True, kw_only=True)
class CactiBank:
    """One CACTI 7 SRAM bank: per-access energies, leakage and area."""

    size_bytes: int
    """Capacity of the bank."""
    width_bits: int
    """Bits per access (the bank's line)."""
    node_nm: int
    """Process node."""
    read_pj: float
    """Energy of one read access."""
    write_pj: float
    """Energy of one write access."""
    leak_mw: float
    """Leakage power."""
    area_mm2: float
    """Area."""

    @property
    def source(self) -> str:
        """Where the numbers come from."""
        return (f"{_SRC}: {self.size_bytes // 1024} KB x {self.width_bits}-bit bank at "
                f"{self.node_nm} nm: {self.read_pj:g} / {self.write_pj:g} pJ, "
                f"{self.leak_mw:g} mW")


_ROWS: dict[tuple[int, int], tuple[tuple[float, float, float, float], ...]] = {
    # (KB, width) -> values at 45, 40, 32, 28, 22 nm: read pJ, write pJ, leak mW, area mm2
    (4, 128): ((3.68, 9.73, 4.75, 0.014), (2.95, 7.79, 3.26, 0.011), (2.00, 5.24, 1.46, 0.007),
               (1.58, 4.10, 1.13, 0.006), (1.45, 2.04, 0.68, 0.004)),
    (4, 1024): ((76.5, 78.1, 5.35, 0.111), (60.9, 62.3, 3.62, 0.087),
                (42.0, 43.0, 1.64, 0.056), (34.6, 35.5, 1.33, 0.043),
                (22.2, 22.8, 0.92, 0.027)),
    (8, 128): ((6.54, 11.38, 8.77, 0.028), (5.26, 9.09, 6.01, 0.022), (3.59, 6.10, 2.69, 0.014),
               (2.86, 4.78, 2.08, 0.011), (1.86, 3.09, 1.33, 0.007)),
    (8, 1024): ((77.7, 85.5, 9.07, 0.121), (61.9, 68.3, 6.16, 0.096), (42.7, 47.1, 2.77, 0.062),
                (35.2, 38.7, 2.20, 0.047), (22.6, 25.0, 1.46, 0.029)),
    (16, 128): ((9.11, 19.0, 17.4, 0.051), (9.86, 11.7, 11.3, 0.042),
                (6.78, 7.82, 5.02, 0.027), (5.42, 6.14, 3.83, 0.021),
                (3.55, 3.91, 2.41, 0.013)),
    (32, 1024): ((83.0, 131.4, 31.2, 0.184), (66.5, 105.2, 21.3, 0.145),
                 (46.1, 72.0, 9.48, 0.093), (38.1, 58.3, 7.33, 0.071),
                 (24.7, 37.9, 4.70, 0.044)),
    (64, 1024): ((92.6, 190.7, 60.9, 0.269), (74.6, 153.1, 41.5, 0.212),
                 (52.0, 104.5, 18.5, 0.136), (42.9, 83.8, 14.2, 0.104),
                 (28.2, 54.9, 9.03, 0.065)),
    (128, 128): ((40.5, 36.1, 119.0, 0.41), (32.9, 28.7, 81.3, 0.33), (23.1, 19.5, 36.1, 0.21),
                 (16.4, 14.7, 27.9, 0.18), (10.4, 9.05, 17.6, 0.11)),
    (256, 1024): ((150.0, 546.0, 239.0, 0.78), (177.0, 303.0, 155.0, 0.68),
                  (125.0, 207.0, 69.0, 0.43), (108.0, 191.0, 55.9, 0.59),
                  (70.0, 124.0, 35.4, 0.37)),
}
_NODES = (45, 40, 32, 28, 22)

CACTI_BANKS: dict[tuple[int, int, int], CactiBank] = {
    (kb * 1024, width, node): CactiBank(size_bytes=kb * 1024, width_bits=width, node_nm=node,
                                        read_pj=r, write_pj=w, leak_mw=leak, area_mm2=area)
    for (kb, width), row in _ROWS.items()
    for node, (r, w, leak, area) in zip(_NODES, row, strict=True)
}
"""CACTI 7 banks by ``(size_bytes, width_bits, node_nm)`` (128 KB and 256 KB: monolithic)."""


def cacti_bank(size_bytes: int, width_bits: int, node_nm: int) -> CactiBank:
    """The CACTI 7 bank of that size, width and node.

    Raises
    ------
    ConfigError
        When the combination was not computed; the message lists the available ones.
    """
    key = (size_bytes, width_bits, node_nm)
    if key not in CACTI_BANKS:
        have = sorted({(s // 1024, w) for s, w, _ in CACTI_BANKS})
        raise ConfigError("cacti_bank", key,
                          f"one of (KB, width) {have} at nodes {list(_NODES)} nm")
    return CACTI_BANKS[key]


def regfile_entries_from_bank(bank: CactiBank, *, wire_pj_per_granule: float = 0.0,
                              wire_source: str = "") -> tuple[tuple[EnergyEntry, ...],
                                                               StaticEntry]:
    """Register-file entries (granule read, granule write, bank leakage) from a CACTI bank.

    ``wire_pj_per_granule`` (bank -> collector wire per 128-bit transfer, e.g. 9.6 pJ from
    Warped-Compression Table 3) is added to both, as part of the register file.
    """
    per_granule = 128 / bank.width_bits
    src = bank.source + (f"; + {wire_pj_per_granule:g} pJ wire per granule ({wire_source})"
                         if wire_pj_per_granule else "")
    dyn = (
        EnergyEntry(counter="regfile_granule_reads", component="register_file",
                    energy_pj=bank.read_pj * per_granule + wire_pj_per_granule, source=src),
        EnergyEntry(counter="regfile_granule_writes", component="register_file",
                    energy_pj=bank.write_pj * per_granule + wire_pj_per_granule, source=src),
    )
    leak = StaticEntry(component="register_file", scope=StaticScope.RF_BANK,
                       power_mw=bank.leak_mw, source=bank.source)
    return dyn, leak
