"""Opportunistic redundancy for reliability, as a functional fault model: a converted uniform
instruction computes on two lanes and compares before the register file is updated, reuse
buffer entries carry a parity bit, and a single-bit fault injected into one lane's ALU result
is detected or not. Used to check the coverage statistics the timing hooks count.

Follows: specs/xiang-simt-efficiency.md §1.9 (dual computation, two copies, parity on IRB
entries; ALU coverage = protected scalar ALU operations / all).
Assumptions:
  [A] A fault strikes one thread operation of the baseline-equivalent stream, uniformly: in a
      vector instruction it corrupts that thread's result (undetected); in a converted
      instruction the only ALUs computing are the two lanes, so it strikes one of them and the
      comparison detects it; an IRB hit runs no ALU, so the fault has nothing to corrupt
      (protected "in an indirect manner").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

__all__ = ["KINDS", "dual_lane", "fault_campaign", "irb_entry_ok", "parity32"]

KINDS = ("vector", "dual", "reused")
"""How an instruction's thread operations execute: all lanes, two lanes + compare, none."""


def parity32(x: int) -> int:
    """Even parity bit of a 32-bit value."""
    return bin(int(x) & 0xFFFFFFFF).count("1") & 1


def dual_lane(fn: Callable[..., int], srcs: Sequence[int], fault: tuple[int, int] | None = None
              ) -> tuple[int, bool]:
    """Compute ``fn(*srcs)`` on lanes N and N+1, flip bit ``fault[1]`` of lane ``fault[0]``
    (0 or 1) if given; (value written, fault detected by the comparison)."""
    a = int(fn(*srcs)) & 0xFFFFFFFF
    b = a
    if fault is not None:
        lane, bit = fault
        if lane == 0:
            a ^= 1 << bit
        else:
            b ^= 1 << bit
    return a, a != b


def irb_entry_ok(value: int, parity: int) -> bool:
    """A reuse-buffer entry may be reused only when its stored parity matches (spec §1.9)."""
    return parity32(value) == parity


def fault_campaign(records: Sequence[tuple[str, int]], n_faults: int, seed: int = 0) -> float:
    """Inject ``n_faults`` single-bit faults into thread operations of ``records`` (``(kind,
    thread ops)`` with kind in ``KINDS``), chosen uniformly over the thread operations; the
    fraction detected by the dual-lane comparison or masked (no ALU ran)."""
    rng = np.random.default_rng(seed)
    ops = np.array([n for _, n in records], np.float64)
    if ops.sum() == 0:
        return float("nan")
    picks = rng.choice(len(records), size=n_faults, p=ops / ops.sum())
    bits = rng.integers(0, 32, size=n_faults)
    lanes = rng.integers(0, 2, size=n_faults)
    safe = 0
    for i, bit, lane in zip(picks, bits, lanes, strict=True):
        kind = records[i][0]
        if kind == "reused":
            safe += 1
        elif kind == "dual":
            _, detected = dual_lane(lambda x, y: x + y, (int(i), 7), (int(lane), int(bit)))
            safe += int(detected)
        elif kind != "vector":
            raise ValueError(f"unknown kind {kind!r}, expected one of {KINDS}")
    return safe / n_faults
