"""L2 lines installed by host-to-device copies (GPGPU-Sim ``-gpgpu_perf_sim_memcpy``).

Follows: GPGPU-Sim 4.2 ``gpgpu_sim::perf_memcpy_to_gpu`` -> ``memory_partition_unit::
handle_memcpy_to_gpu`` -> ``l2_cache::force_tag_access``: every line a copy writes is put in
its L2 slice's tags at once, with no traffic and no time.
Assumptions:
  [A] An installed line is valid and clean and becomes the most recently used of its set (in
      a sectored L2 the sectors the copy covers become valid); a line already present is only
      re-stamped; the victim is the set's replacement choice
      (a dirty victim's write-back is not simulated, as in GPGPU-Sim's forced tag access).
  [A] Copies are applied in order when the next launch starts (the timing simulator and its
      memory system exist from the first timed launch on).
"""

from __future__ import annotations

from warpsim._jit import jit
from warpsim.timing.cache import _install, cache_probe, cache_set, cache_victim, stamp_use
from warpsim.timing.l2 import addr_slice
from warpsim.timing.memconsts import (
    G_LINE_SHIFT,
    G_SECTOR_SHIFT,
    LS_VALID,
    P_L2_BASE,
    P_L2_LINE_BYTES,
)
from warpsim.timing.sector import put_sectors

__all__ = ["warm_l2"]


@jit
def warm_l2(p, ca, address: int, nbytes: int) -> int:
    """Install the L2 lines of ``[address, address + nbytes)`` (in a sectored L2, the sectors
    the range covers); returns how many lines were new."""
    step = p[P_L2_LINE_BYTES]
    end = address + nbytes
    a = address - address % step
    new = 0
    while a < end:
        c = addr_slice(p, a) + p[P_L2_BASE]
        line = a >> ca.geo[c, G_LINE_SHIFT]
        s = cache_set(ca, c, line)
        w = cache_probe(ca, c, s, line)
        sectored = ca.geo[c, G_SECTOR_SHIFT] < ca.geo[c, G_LINE_SHIFT]
        if w >= 0:
            stamp_use(ca, c, s, w)
        else:
            w = cache_victim(ca, c, s)
            if w < 0:
                a += step
                continue
            _install(ca, c, s, w, line, LS_VALID)
            if sectored:
                ca.tag_sec[c, s, w] = 0
            new += 1
        if sectored:
            sec = 1 << ca.geo[c, G_SECTOR_SHIFT]
            mask = 0
            for i in range(step // sec):
                if a + (i + 1) * sec > address and a + i * sec < end:
                    mask |= 1 << i
            put_sectors(ca, c, s, w, ca.tag_sec[c, s, w] | mask)
        a += step
    return new
