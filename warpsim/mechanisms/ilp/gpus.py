"""The ILP chapter's GPUs: iso-area SM counts of GPU-T (TLP SMs), GPU-I (ILP SMs) and GPU-H
(both kinds), their configuration overrides, the static kernel routing rule of GPU-H and the
weighted speedup of concurrent kernel pairs.

Follows: the dissertation §4.5 (modified McPAT areas at 40 nm; GPU-H = 20 TLP + 18 ILP SMs;
kernels with fewer than 16 warps per SM or at most 32768 threads go to the ILP SMs; weighted
speedup over each kernel alone on its favoured homogeneous GPU); specs/xiang-simt-efficiency.md
§3.5 (with its [FIX] of the GPU-H area sum).
Assumptions:
  [A] A scaled-down GPU keeps the iso-area rule: the area budget is ``n_tlp`` TLP SMs, GPU-I
      gets as many ILP SMs as fit, GPU-H half the budget of TLP SMs and ILP SMs in the rest.
  [A] GPU-H lists its ILP SMs first (kind 0): the CTA dispatcher fills SMs in index order, so
      a single kernel with few blocks runs on ILP SMs (the paper: GPU-H performs like GPU-I on
      the low-TLP kernels); concurrent kernels are placed by kind.
  [A] The ILP SM is the ILP core with bypass, the 8-entry scoreboard and static prediction
      (spec §3.8 item 10); the TLP SM the TLP core (``ilp.enabled`` with nothing added).
  [A] Iso-SM-count GPUs (§4.5, Figs 52-53: 30 SMs each; TLP SMs with 16k registers, ILP SMs
      with 8k): the ILP SMs have half the TLP SMs' registers (the preset's), GPU-H half the
      SMs of each kind (the ILP half rounded up, spec §3.5 [A] 15 + 15).
"""

from __future__ import annotations

from dataclasses import dataclass

from warpsim.errors import ConfigError

__all__ = ["AREA", "GPUMix", "ilp_core_overrides", "iso_area", "iso_sm_count", "route",
           "weighted_speedup"]

AREA = {
    "tlp_sm": 11.823,          # mm^2, SM with TLP cores, 16k registers
    "bypass_per_sc": 0.028,    # x 8 SCs per SM
    "scoreboard": 0.917,       # per SM
    "ilp_sm": 12.964,          # SM with ILP cores, 16k registers (+9.6 %)
    "ilp_sm_8k": 12.026,       # SM with ILP cores, 8k registers
}
"""Areas of the dissertation §4.5 (mm^2)."""

WARPS_PER_SM_LIMIT = 16
THREADS_LIMIT = 32768


@dataclass(frozen=True, slots=True)
class GPUMix:
    """SM counts of one GPU: ``n_ilp`` ILP SMs (kind 0, the first SM indices) then ``n_tlp``
    TLP SMs (kind 1)."""

    name: str
    n_tlp: int
    n_ilp: int
    tlp_registers: int = 0
    """32-bit registers per TLP SM; 0: the ``sm`` section's (iso-area GPUs: every SM has the
    same register file)."""
    ilp_registers: int = 0
    """32-bit registers per ILP SM when fewer than the TLP SMs' (iso-SM-count GPUs); 0: the
    same as the TLP SMs."""

    @property
    def area_mm2(self) -> float:
        ilp = AREA["ilp_sm_8k"] if self.ilp_registers else AREA["ilp_sm"]
        return self.n_tlp * AREA["tlp_sm"] + self.n_ilp * ilp

    def overrides(self) -> list[str]:
        """``-o`` overrides: the SM count, the kinds (with their register files), and ILP
        cores on the ILP SMs."""
        n = self.n_tlp + self.n_ilp
        out = [f"sm.n_sms={n}", "ilp.enabled=true"]
        if self.n_tlp and self.n_ilp:
            out += [f"sm_kinds.n_sms={self.n_ilp},{self.n_tlp}", "ilp.sm_kinds=0"]
            if self.ilp_registers:
                out.append(f"sm_kinds.n_registers={self.ilp_registers},{self.tlp_registers}")
        elif self.n_ilp and self.ilp_registers:
            out += [f"sm.n_registers={self.ilp_registers}",
                    f"sm.n_max_regs_per_cta={self.ilp_registers}"]
        if self.n_ilp:
            out += ilp_core_overrides()
        return out


def ilp_core_overrides(entries: int = 8, predictor: str = "static") -> list[str]:
    """The ILP core's techniques (bypass, scoreboard, branch prediction)."""
    return ["ilp.bypass=true", f"ilp.scoreboard_entries={entries}",
            f"ilp.branch_predictor={predictor}"]


def iso_area(n_tlp: int = 40) -> tuple[GPUMix, GPUMix, GPUMix]:
    """GPU-T, GPU-I and GPU-H within the area of ``n_tlp`` TLP SMs (40: the paper's 40, 36,
    20 + 18)."""
    budget = n_tlp * AREA["tlp_sm"]
    n_i = int(budget // AREA["ilp_sm"])
    h_t = n_tlp // 2
    h_i = int((budget - h_t * AREA["tlp_sm"]) // AREA["ilp_sm"])
    return GPUMix("GPU-T", n_tlp, 0), GPUMix("GPU-I", 0, n_i), GPUMix("GPU-H", h_t, h_i)


def iso_sm_count(n_sms: int, tlp_registers: int) -> tuple[GPUMix, GPUMix, GPUMix]:
    """GPU-T, GPU-I and GPU-H with ``n_sms`` SMs each: TLP SMs with ``tlp_registers``
    registers, ILP SMs with half as many (30 and 16384: the paper's Figs 52-53)."""
    if n_sms < 2 or tlp_registers < 2:
        raise ConfigError("iso_sm_count", (n_sms, tlp_registers),
                          "at least 2 SMs and 2 registers per TLP SM")
    half = tlp_registers // 2
    h_t = n_sms // 2
    return (GPUMix("GPU-T", n_sms, 0, tlp_registers),
            GPUMix("GPU-I", 0, n_sms, tlp_registers, half),
            GPUMix("GPU-H", h_t, n_sms - h_t, tlp_registers, half))


def route(warps_per_sm: int, total_threads: int) -> str:
    """GPU-H's static kernel routing: ``"ilp"`` for a kernel with fewer than 16 resident warps
    per SM or at most 32768 threads in all, else ``"tlp"``."""
    if warps_per_sm < WARPS_PER_SM_LIMIT or total_threads <= THREADS_LIMIT:
        return "ilp"
    return "tlp"


def weighted_speedup(ipc1: float, ipc1_ref: float, ipc2: float, ipc2_ref: float) -> float:
    """``1/2 (IPC_1 / IPC_1,ref + IPC_2 / IPC_2,ref)``: kernel 1 (low TLP) against itself alone
    on GPU-I, kernel 2 (high TLP) alone on GPU-T."""
    return 0.5 * (ipc1 / ipc1_ref + ipc2 / ipc2_ref)
