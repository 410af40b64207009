"""``per_program``: a launch observer's analysis runs once per kernel program, and the cached
result belongs to the launched kernel's own program."""

from __future__ import annotations

import numpy as np

import warpsim
from warpsim.runtime.observers import per_program

PTX = """
.version 7.0
.target sm_80
.address_size 64
.visible .entry one(.param .u64 p) {
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [p];
  st.global.u32 [%rd1], 1;
  ret;
}
.visible .entry two(.param .u64 p) {
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [p];
  st.global.u32 [%rd1], 2;
  st.global.u32 [%rd1+4], 2;
  ret;
}
"""


def test_analysis_runs_once_per_program_and_sees_that_program():
    calls: list[str] = []
    n_insts = per_program(lambda p: calls.append(p.name) or len(p.insts))
    seen: list[tuple[str, int]] = []
    dev = warpsim.Device()
    dev.add_launch_observer(lambda k, cfg, res: seen.append((k.name, n_insts(k))))
    mod = dev.load_ptx(PTX)
    out = dev.to_device(np.zeros(2, np.uint32))
    for name in ("one", "two", "one", "two", "two"):
        mod.get_kernel(name)[1, 1](out)
    assert sorted(calls) == ["one", "two"]
    counts = dict(seen)
    assert counts["two"] == counts["one"] + 1  # one more store in "two"
    assert [n for n, _ in seen] == ["one", "two", "one", "two", "two"]
