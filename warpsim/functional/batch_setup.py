"""The layout of one CTA batch of a functional launch: special-register arrays, existence masks,
the register file, shared and local memory (kept between launches of one shape when small).

Follows: ARCHITECTURE.md §9 (CTA batches of 16-64 Ki threads; per-launch tables cached on the
``Program``). Split from ``executor.py``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["CACHED_LAYOUT_BYTES", "setup_batch"]

CACHED_LAYOUT_BYTES = 1 << 22
"""Batch layouts whose register file is at most this large stay on the ``Program`` between
launches (``Program.launch_cache``); larger ones are rebuilt by each launch."""


def setup_batch(run: Any, first: int, k: int) -> None:
    """Lay out batch ``first .. first + k - 1`` of ``run`` (an executor ``_Launch``): special
    registers, existence masks, the zeroed register file, shared and local memory.

    Every general register starts on one read-only zero array per dtype, shared by all
    registers of that dtype and by every batch of the layout: a write of the whole batch
    replaces the register's array, a write of some lanes copies it first
    (``simt_stack.own``), so no batch pays for zeroing registers it does not write."""
    prog = run.prog
    run.first_cta = first
    n = k * run.cta_threads
    run.n_threads = n
    run.n_warps = k * run.wpc
    # the batch layout depends on the launch shape only: a small one is kept on the program
    # for the next launch of the same shape (a loop of small launches rebuilds nothing); a
    # large one only for the next batch of this launch (memory stays bounded by a batch)
    key = (k, run.grid, run.block, run.dyn_shared, run.grid_workspace)  # all of `static`
    keep = prog.launch_cache if n * run.reg_bytes <= CACHED_LAYOUT_BYTES else run.layouts
    cache = keep.get("batch")
    if cache is None or cache[0] != key:
        t = np.arange(n, dtype=np.int64)
        slot, lin = np.divmod(t, run.cta_threads)
        lane = (t & 31).astype(np.uint32)
        lanes_in = np.minimum(np.maximum(run.cta_size - np.arange(run.wpc) * 32, 0), 32)
        exist1 = np.where(lanes_in >= 32, np.uint64(0xFFFFFFFF),
                          (np.uint64(1) << lanes_in.astype(np.uint64)) - np.uint64(1))
        bx, by, bz = run.block
        gx, gy, gz = run.grid
        u32 = np.uint32
        static: dict[str, Any] = {
            "%tid.x": lin % bx, "%tid.y": (lin // bx) % by, "%tid.z": lin // (bx * by),
            "%ntid.x": bx, "%ntid.y": by, "%ntid.z": bz,
            "%nctaid.x": gx, "%nctaid.y": gy, "%nctaid.z": gz,
            "%laneid": lane, "%warpid": lin // 32, "%nwarpid": run.wpc,
            "%lanemask_eq": u32(1) << lane,
            "%lanemask_lt": (u32(1) << lane) - u32(1),
            "%lanemask_le": ((u32(1) << lane) - u32(1)) | (u32(1) << lane),
            "%lanemask_ge": ~((u32(1) << lane) - u32(1)),
            "%lanemask_gt": ~(((u32(1) << lane) - u32(1)) | (u32(1) << lane)),
            "%dynamic_smem_size": run.dyn_shared, "%total_smem_size": run.shared_bytes,
            "%aggr_smem_size": run.shared_bytes, "%nsmid": 1,
            "%envreg1": run.grid_workspace >> 32,
            "%envreg2": run.grid_workspace & 0xFFFFFFFF,
        }
        arrays = {}
        for name, rid in prog.special_regs.items():
            if name.startswith("%ctaid"):
                continue
            v = static.get(name, 0)
            arrays[name] = np.broadcast_to(np.asarray(v).astype(prog.reg_dtypes[rid]),
                                           (n,)).copy()
        zeros: dict[np.dtype, np.ndarray] = {}
        for dt in map(np.dtype, prog.reg_dtypes):
            if dt not in zeros:
                zeros[dt] = np.zeros(n, dtype=dt)
                zeros[dt].flags.writeable = False
        regs = [zeros[np.dtype(dt)] for dt in prog.reg_dtypes]
        cache = (key, slot, np.tile(exist1.astype(np.uint32), k), arrays, regs)
        keep["batch"] = cache
    _, _, exist, arrays, regs = cache
    run.exist = exist
    run.live = exist.copy()
    regs = list(regs)
    gx, gy, _ = run.grid
    c = first + np.arange(k, dtype=np.int64)  # linear CTA index of each batch slot
    for name, rid in prog.special_regs.items():
        if name in arrays:
            regs[rid] = arrays[name]
        else:
            v = {"%ctaid.x": c % gx, "%ctaid.y": (c // gx) % gy,
                 "%ctaid.z": c // (gx * gy)}[name]
            regs[rid] = np.repeat(v.astype(prog.reg_dtypes[rid]), run.cta_threads)
    run.regs = regs
    run.shared = np.zeros(max(8, -(-(k * run.shared_bytes) // 8) * 8), np.uint8)
    run.local = np.zeros(max(8, -(-(n * run.local_bytes) // 8) * 8), np.uint8)
