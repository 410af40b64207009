"""Thread blocks per SM with and without Register Sharing (integer form of the paper's Eqs. 1-4).

Models the launch decision of Jatala et al., "The More We Share, The More We Have", Sec. 4.1:
an SM that holds only g = floor(R / R_tb) register-limited thread blocks launches extra blocks
in *sharing mode*; each extra block pairs with a resident one, and a pair needs R_tb·(1+t)
registers. The number of pairs S and unshared blocks U keep S + U = g (Eq. 1) so that at least
the baseline's number of blocks always progresses, and the other residency limits (threads,
shared memory, blocks) still cap M = U + 2S.

Follows specs/register-sharing.md §2 (GPGPU-Sim ``max_cta``: padded CTA size, registers per
thread rounded up to the allocation granule) and §3.3's integer algorithm with the threshold t
as an exact fraction; this reproduces all 48 cells of the paper's Table 5 and Fig. 8.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from warpsim.errors import ConfigError, LaunchError

__all__ = ["LIMIT_ORDER", "SharingOccupancy", "as_fraction", "sharing_occupancy"]

LIMIT_ORDER = ("blocks", "threads", "shared_memory", "registers")
"""Which resource is reported as the limit when several give the same count: registers last,
because sharing registers cannot lift a tied limit (the paper's Table 3 calls BFS, a tie of
threads and registers, "limited by Threads"; Fig. 8 calls LIB's 8 blocks "the TB limit")."""


@dataclass(frozen=True, slots=True)
class SharingOccupancy:
    """Resident thread blocks per SM for one kernel shape, with and without sharing.

    With sharing off (or when no extra block fits, Sec. 6: the sharing-mode bit is set only
    when M exceeds the default), ``blocks == baseline_blocks``, ``shared_pairs == 0`` and
    ``unshared_blocks == blocks``.
    """

    baseline_blocks: int
    """Blocks per SM without sharing (GPGPU-Sim ``max_cta``)."""
    blocks: int
    """M = U + 2S, the blocks launched per SM (``baseline_blocks`` when not sharing)."""
    shared_pairs: int
    """S, pairs of blocks that share registers."""
    unshared_blocks: int
    """U, blocks with private registers only; S + U = g in sharing mode."""
    g: int
    """floor(R / R_tb), the register-limited block count (the block limit when the kernel
    uses no registers)."""
    limit: str
    """Resource that limits ``blocks``: "registers", "threads", "shared_memory" or "blocks"."""
    baseline_limit: str
    """Resource that limits ``baseline_blocks``."""
    sharing_mode: bool
    """True when extra blocks are launched (M > baseline)."""
    regs_per_block: int
    """R_tb: padded threads x registers per thread rounded up to the allocation granule."""
    unshared_regs_per_thread: int
    """u = floor(t·r) (r rounded to the granule): a shared warp's registers with sequence
    number <= u are private; r itself when sharing is off."""
    registers_per_sm: int = 0
    """R, the SM's 32-bit registers."""
    resource_limits: tuple[tuple[str, int], ...] = ()
    """Baseline blocks allowed by each resource, in ``LIMIT_ORDER``."""

    @property
    def unused_registers(self) -> int:
        """Registers per SM the baseline leaves unallocated (the paper's Fig. 2)."""
        return self.registers_per_sm - self.baseline_blocks * self.regs_per_block

    def as_dict(self) -> dict[str, Any]:
        """Plain values for JSON output."""
        return {"baseline_blocks": self.baseline_blocks, "blocks": self.blocks,
                "shared_pairs": self.shared_pairs, "unshared_blocks": self.unshared_blocks,
                "g": self.g, "limit": self.limit, "baseline_limit": self.baseline_limit,
                "sharing_mode": self.sharing_mode, "regs_per_block": self.regs_per_block,
                "unshared_regs_per_thread": self.unshared_regs_per_thread,
                "registers_per_sm": self.registers_per_sm,
                "unused_registers": self.unused_registers,
                "resource_limits": dict(self.resource_limits)}


def as_fraction(threshold: Any, field: str = "register_sharing.threshold_frac") -> Fraction:
    """``threshold`` as an exact fraction in (0, 1]; floats are read by their shortest decimal
    form, so 0.1 is exactly 1/10."""
    try:
        t = Fraction(repr(threshold)) if isinstance(threshold, float) else Fraction(threshold)
    except (TypeError, ValueError, ZeroDivisionError):
        raise ConfigError(field, threshold, "a number in (0, 1]") from None
    if not 0 < t <= 1:
        raise ConfigError(field, threshold, "a number in (0, 1]",
                          hint="t = 0.1 means 90% sharing; t = 1 means none")
    return t


def _argmin(counts: dict[str, int]) -> str:
    low = min(counts.values())
    return next(k for k in LIMIT_ORDER if counts.get(k) == low)


def sharing_occupancy(cfg: Any, cta_threads: int, regs_per_thread: int, shmem_bytes: int,
                      threshold_frac: Any = None) -> SharingOccupancy:
    """Blocks per SM for a kernel on ``cfg`` (a ``GPUConfig``) with sharing threshold t.

    ``threshold_frac=None`` is the baseline (no sharing). Otherwise t in (0, 1] (a float, a
    ``Fraction`` or a string such as "1/10") and spec §3.3: S_max = min(g, floor((R - g·R_tb) /
    (t·R_tb))), M = min(g + S_max, other limits); sharing mode only when M > g, with S = M - g
    and U = g - S.

    Raises
    ------
    LaunchError
        When not even one block fits on an SM.
    ConfigError
        When t is outside (0, 1] or the block shape is impossible.
    """
    sm = cfg.sm
    if cta_threads < 1:
        raise ConfigError("cta_threads", cta_threads, "a positive thread count")
    if regs_per_thread < 0 or shmem_bytes < 0:
        raise ConfigError("regs_per_thread/shmem_bytes", (regs_per_thread, shmem_bytes),
                          "non-negative counts")
    warp = sm.n_threads_per_warp
    padded = -(-cta_threads // warp) * warp
    granule = sm.n_regs_alloc_granule
    r = -(-regs_per_thread // granule) * granule
    r_tb = padded * r
    big = sm.n_max_ctas  # an unused resource allows as many blocks as the block limit
    other = {
        "threads": sm.n_max_threads // padded,
        "shared_memory": (cfg.shmem.size_bytes // shmem_bytes if shmem_bytes else big),
        "blocks": sm.n_max_ctas,
    }
    if shmem_bytes > cfg.shmem.cta_limit_bytes:
        other["shared_memory"] = 0
    regs = sm.n_registers
    g = regs // r_tb if r_tb else big
    if r_tb > sm.n_max_regs_per_cta:
        g = 0
    base_counts = {**other, "registers": g}
    baseline = min(base_counts.values())
    base_limit = _argmin(base_counts)
    if baseline < 1:
        raise LaunchError("<kernel>", f"one block of {cta_threads} threads, {regs_per_thread} "
                          f"registers per thread and {shmem_bytes} bytes of shared memory does "
                          f"not fit on an SM of {cfg.name} (limited by {base_limit})",
                          hint="use smaller blocks or fewer registers/shared memory")
    limits = tuple((k, base_counts[k]) for k in LIMIT_ORDER)

    def unshared(m: int, u_regs: int, limit: str) -> SharingOccupancy:
        return SharingOccupancy(baseline, m, 0, m, g, limit, base_limit, False, r_tb, u_regs,
                                regs, limits)

    if threshold_frac is None:
        return unshared(baseline, r, base_limit)
    t = as_fraction(threshold_frac)
    u = int(t * r)  # floor: t * r >= 0
    if not r_tb:  # no registers: nothing to share
        return unshared(baseline, u, base_limit)
    s_max = min(g, int(Fraction(regs - g * r_tb) / (t * r_tb)))
    counts = {**other, "registers": g + s_max}
    m = min(counts.values())
    limit = _argmin(counts)
    if m <= g:
        return unshared(m, u, limit)
    s = m - g
    return SharingOccupancy(baseline, m, s, g - s, g, limit, base_limit, True, r_tb, u, regs,
                            limits)
