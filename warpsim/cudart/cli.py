"""``warpsim exec``: run an unmodified CUDA program on the simulator.

Follows: GPGPU-Sim's way of running applications (the simulator's ``libcudart.so`` first on
the library path), with warpsim's library from ``build.py`` and a ``UnixServer`` in this
process. The program's exit status is the command's exit status.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from warpsim.errors import WarpsimError

__all__ = ["add_subcommand", "run_program"]


def _check_program(path: str) -> None:
    """Refuse a program that links the CUDA runtime statically (nvcc's default)."""
    exe = shutil.which(path) if os.sep not in path else path
    if exe is None or not Path(exe).is_file():
        raise WarpsimError(f"no such program: {path}")
    data = Path(exe).read_bytes()
    if data[:4] != b"\x7fELF":
        return  # a script: whatever it runs inherits the environment
    if b"__cudaRegisterFatBinary" in data and b"libcudart.so" not in data:
        raise WarpsimError(f"{path} links the CUDA runtime statically, so warpsim cannot "
                           "stand in for it\n  hint: rebuild it with nvcc -cudart shared ...")


def run_program(argv: list[str], *, config: str | None = None, overrides: tuple[str, ...] = (),
                stats: str | None = None, gpgpusim_config: str | None = None,
                launch_timeout_s: float | None = None, oob: str = "fault",
                per_kernel: bool = False) -> int:
    """Run ``argv`` with warpsim's libcudart; returns its exit status (128 + signal number
    when a signal ended it).

    Parameters
    ----------
    argv
        The program and its arguments.
    config
        GPU preset to time every launch on (``"gtx480"``); None runs the functional model only.
    overrides
        Dotted configuration overrides for ``config``.
    gpgpusim_config
        A GPGPU-Sim ``gpgpusim.config`` (and the BookSim file it names) read over ``config``,
        or over gtx480 when ``config`` is None; every launch is then timed.
    stats
        Append one JSON record per kernel launch to this file, as each launch completes
        (a faulting launch gets a record with ``status: "fault"``).
    launch_timeout_s
        Fail a launch whose functional execution runs longer than this many seconds (the
        program sees a launch failure and warpsim says where the kernel was); None: no limit.
    oob
        ``"report"``: global accesses just outside an allocation proceed as on a GPU and are
        listed on stderr when the program ends; ``"fault"`` (default): they stop the launch.
    per_kernel
        With a timed GPU, print a table on stderr at the end: per kernel, its launches,
        cycles, thread instructions and IPC.
    """
    from warpsim.cudart.build import shim_dir
    from warpsim.cudart.records import RecordWriter
    from warpsim.cudart.server import DeviceSpec, UnixServer, report_oob

    if not argv:
        raise WarpsimError("no program given\n  hint: warpsim exec -- ./app args...")
    spec = DeviceSpec(config, tuple(overrides), gpgpusim_config, launch_timeout_s, oob)
    if spec.timed:
        cfg = spec.resolve()  # bad names and files fail before the run
    elif overrides:
        raise WarpsimError("-o/--override needs --config or --gpgpusim-config\n  hint: e.g. "
                           "--config gtx480 -o ...")
    _check_program(argv[0])
    lib = shim_dir()
    try:
        records = RecordWriter(stats, spec) if stats else None  # written launch by launch
    except OSError as err:
        raise WarpsimError(f"cannot write the records file {stats}: "
                           f"{err.strerror or err}") from None
    tmp = tempfile.mkdtemp(prefix="warpsim-exec-")
    server = UnixServer(os.path.join(tmp, "cudart.sock"), spec, program=Path(argv[0]).name,
                        records=records)
    env = dict(os.environ)
    env["LD_LIBRARY_PATH"] = os.pathsep.join(p for p in (str(lib),
                                                         env.get("LD_LIBRARY_PATH")) if p)
    env["WARPSIM_CUDART_SOCKET"] = server.path
    try:
        proc = subprocess.run(argv, env=env)
        status = proc.returncode if proc.returncode >= 0 else 128 - proc.returncode
    except OSError as err:
        raise WarpsimError(f"cannot run {argv[0]}: {err.strerror}") from None
    finally:
        server.close()
        shutil.rmtree(tmp, ignore_errors=True)
    n_records = records.finish(status) if records is not None else 0
    report_oob(server.contexts)
    if spec.timed and per_kernel:
        print(_per_kernel_table(server.contexts), file=sys.stderr)
    if spec.timed or records is not None:
        launches = sum(len(c.launches) for c in server.contexts)
        cycles = sum(c.sim_cycles for c in server.contexts)
        print(f"warpsim: {Path(argv[0]).name}: {launches} kernel launch(es)"
              + (f", {cycles} cycles on {cfg.name}" if spec.timed else "")
              + (f"; {n_records} record(s) in {stats}" if records is not None else ""),
              file=sys.stderr)
    return status


def _per_kernel_table(contexts: list[Any]) -> str:
    """``warpsim: per kernel`` and the table of ``kernel_stats.format_per_kernel``."""
    from warpsim.runner.kernel_stats import format_per_kernel

    launches = [{"kernel": x.kernel, "stats": x.result.stats} for c in contexts
                for x in c.launches if getattr(x.result, "stats", None)]
    if not launches:
        return "warpsim: no timed kernel launch completed"
    return "warpsim: per kernel\n" + format_per_kernel(launches)


def _cmd_exec(args: argparse.Namespace) -> int:
    argv = list(args.program)
    if argv and argv[0] == "--":
        argv = argv[1:]
    from warpsim.cudart.server import parse_timeout

    timeout = parse_timeout(args.launch_timeout) if args.launch_timeout is not None else None
    from warpsim.runner.sampling_cli import export_sample

    export_sample(args.sample)  # the timed Device reads WARPSIM_SAMPLE
    return run_program(argv, config=args.config, overrides=tuple(args.override),
                       stats=args.stats, gpgpusim_config=args.gpgpusim_config,
                       launch_timeout_s=timeout, oob=args.oob, per_kernel=args.per_kernel)


def add_subcommand(sub: Any) -> None:
    """Add ``warpsim exec`` to the ``warpsim`` command's sub-parsers."""
    p = sub.add_parser("exec", help="run an unmodified CUDA program (built with nvcc "
                                    "-cudart shared) on the simulator")
    p.add_argument("--config", default=None,
                   help="GPU preset to time every launch on (e.g. gtx480); default: the "
                        "functional model only")
    p.add_argument("--gpgpusim-config", metavar="FILE", default=None,
                   help="a GPGPU-Sim gpgpusim.config (with the interconnect file it names) "
                        "read over --config (default gtx480); times every launch")
    p.add_argument("-o", "--override", action="append", default=[], metavar="FIELD=VALUE",
                   help="dotted configuration override (repeatable; needs --config or "
                        "--gpgpusim-config)")
    p.add_argument("--stats", metavar="FILE",
                   help="append one JSON record per kernel launch (warpsim run's format)")
    p.add_argument("--launch-timeout", metavar="SECONDS", default=None,
                   help="fail a kernel launch that executes longer than this (wall clock); "
                        "default: no limit (a kernel that spins on unchanging state is "
                        "stopped anyway)")
    p.add_argument("--per-kernel", action="store_true",
                   help="with --config/--gpgpusim-config: print a table of launches, cycles, "
                        "instructions and IPC per kernel at the end (stderr)")
    p.add_argument("--oob", choices=("fault", "report"), default="fault",
                   help="global accesses outside every allocation: stop the launch (fault, "
                        "default) or, inside device memory, proceed as a GPU would and list "
                        "them when the program ends (report)")
    from warpsim.runner.sampling_cli import add_sample_option

    add_sample_option(p)
    p.add_argument("program", nargs=argparse.REMAINDER, help="-- ./app args...")
    p.set_defaults(func=_cmd_exec)


if __name__ == "__main__":
    sys.exit(run_program(sys.argv[1:]))
