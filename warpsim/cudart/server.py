"""The simulator side of warpsim's libcudart: a socket server that runs forwarded CUDA calls.

Wire format (little-endian), one request and one reply per call, written by ``shim.c``:
request ``u32 length | u16 name length | name | u16 n | n x u64 | blob``; reply
``u32 length | i32 cudaError_t | u16 n | n x u64 | blob``. Each connection is one program
(one process) with its own ``CudaContext`` and ``warpsim.Device``.

Two ways in: ``warpsim exec`` listens on a Unix socket whose path it gives the program in
``$WARPSIM_CUDART_SOCKET`` (:func:`serve_unix`); a program started without it makes the
library spawn ``python -m warpsim.cudart.server --fd N`` over a socket pair (:func:`main`),
configured by ``$WARPSIM_CONFIG``, ``$WARPSIM_GPGPUSIM_CONFIG``, ``$WARPSIM_OVERRIDES``
(comma-separated), ``$WARPSIM_LAUNCH_TIMEOUT`` (seconds), ``$WARPSIM_OOB`` (``fault`` or
``report``) and ``$WARPSIM_STATS`` (each
launch's record is appended as the launch completes; the exit status is unknown there).
"""

from __future__ import annotations

import argparse
import os
import socket
import struct
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from warpsim.cudart.context import CudaContext
from warpsim.cudart.records import RecordWriter
from warpsim.errors import WarpsimError

__all__ = [
    "DeviceSpec",
    "UnixServer",
    "main",
    "parse_timeout",
    "report_oob",
    "serve_connection",
]


class DeviceSpec:
    """How to make the Device of each connected program: configuration and overrides.

    Parameters
    ----------
    config
        A GPU preset name (``"gtx480"``) to time every launch on, or None (functional only).
    overrides
        Dotted configuration overrides (``["regfile.n_banks=32"]``).
    gpgpusim_config
        A GPGPU-Sim ``gpgpusim.config`` read over ``config`` (gtx480 when ``config`` is None).
    launch_timeout_s
        Wall-clock limit of each launch's functional execution (``Device.launch_timeout_s``);
        a launch past it fails with a ``LaunchTimeoutError`` the program sees as a launch
        failure. None: no limit.
    oob
        ``"fault"`` (exact bounds checks) or ``"report"`` (global accesses just outside an
        allocation proceed as on a GPU and are reported at exit; ``functional/oob.py``).
    """

    def __init__(self, config: str | None = None, overrides: tuple[str, ...] = (),
                 gpgpusim_config: str | None = None,
                 launch_timeout_s: float | None = None, oob: str = "fault") -> None:
        from warpsim.functional.oob import OOB_MODES

        if oob not in OOB_MODES:
            raise WarpsimError(f"out-of-bounds mode {oob!r} is not one of "
                               f"{', '.join(OOB_MODES)}\n  hint: --oob report")
        self.oob = oob
        self.config = config
        self.overrides = tuple(overrides)
        self.gpgpusim_config = gpgpusim_config
        self.launch_timeout_s = launch_timeout_s
        self._resolved: Any = None

    @property
    def timed(self) -> bool:
        """True when launches are timed (a preset or a gpgpusim.config was given)."""
        return self.config is not None or self.gpgpusim_config is not None

    def resolve(self) -> Any:
        """The ``GPUConfig`` of the timed device (read once), or None when functional."""
        if not self.timed:
            return None
        if self._resolved is None:
            from warpsim.arch import resolve_config

            self._resolved = resolve_config(self.config or "gtx480",
                                            gpgpusim_config=self.gpgpusim_config,
                                            overrides=list(self.overrides))
        return self._resolved

    def make_device(self) -> Any:
        """A new ``warpsim.Device`` for one program."""
        from warpsim.cudart.resources import _FUNCTIONAL_SM
        from warpsim.runtime import Device

        # device printf text travels to the program in the launch reply (context.py)
        common = {"printf_to_stdout": False, "launch_timeout_s": self.launch_timeout_s,
                  "oob": self.oob}
        # the per-block limit is the opt-in one (all of an SM's shared memory); a kernel gets
        # 48 KiB unless cudaFuncSetAttribute raises it (context.py)
        if not self.timed:
            return Device(max_shared_per_block_bytes=_FUNCTIONAL_SM["shmem"], **common)
        cfg = self.resolve()
        return Device(config=cfg, max_shared_per_block_bytes=cfg.shmem.size_bytes, **common)


def report_oob(contexts: list[CudaContext]) -> None:
    """Print, on stderr, every forgiven out-of-bounds access of the programs' devices."""
    for ctx in contexts:
        log = getattr(ctx.device, "oob_log", None)
        if log is not None and log.count:
            print(f"warpsim: {log.summary()}", file=sys.stderr)


def parse_timeout(text: str) -> float:
    """Seconds from ``--launch-timeout`` / ``$WARPSIM_LAUNCH_TIMEOUT`` (a positive number)."""
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not value > 0 or value == float("inf"):
        raise WarpsimError(f"launch timeout {text!r} is not a positive number of seconds\n"
                           "  hint: e.g. --launch-timeout 60")
    return value


def _recv_exact(sock: socket.socket, n: int) -> bytes | None:
    buf = bytearray(n)
    view = memoryview(buf)
    got = 0
    while got < n:
        k = sock.recv_into(view[got:], n - got)
        if k == 0:
            return None
        got += k
    return bytes(buf)


def _decode(body: bytes) -> tuple[str, tuple[int, ...], bytes]:
    (nl,) = struct.unpack_from("<H", body, 0)
    name = body[2:2 + nl].decode()
    (ni,) = struct.unpack_from("<H", body, 2 + nl)
    at = 4 + nl
    ints = struct.unpack_from(f"<{ni}Q", body, at)
    return name, ints, body[at + 8 * ni:]


def _encode(status: int, ints: list[int], blob: bytes) -> bytes:
    head = struct.pack(f"<iH{len(ints)}Q", status, len(ints),
                       *[int(v) & 0xFFFFFFFFFFFFFFFF for v in ints])
    return struct.pack("<I", len(head) + len(blob)) + head + blob


def serve_connection(sock: socket.socket, make_context: Callable[[], CudaContext]
                     ) -> CudaContext | None:
    """Answer one program's calls until it closes the connection; returns its context."""
    ctx: CudaContext | None = None
    with sock:
        while True:
            head = _recv_exact(sock, 4)
            if head is None:
                break
            body = _recv_exact(sock, struct.unpack("<I", head)[0])
            if body is None:
                break
            name, ints, blob = _decode(body)
            if ctx is None:
                ctx = make_context()
            status, out, out_blob = ctx.handle(name, ints, blob)
            try:
                sock.sendall(_encode(status, out, out_blob))
            except OSError:
                break
    return ctx


def _program_of_peer(pid: int | None) -> str:
    if pid is None:
        return "<program>"
    try:
        argv0 = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")[0].decode()
    except OSError:
        return "<program>"
    return Path(argv0).name or "<program>"


def _executable_of_peer(pid: int) -> bytes:
    """The ELF file the program runs (``-rdc=true`` builds keep their PTX there), or b""."""
    try:
        data = Path(f"/proc/{pid}/exe").read_bytes()
    except OSError:
        return b""
    return data if b"__nv_relfatbin" in data else b""


class UnixServer:
    """Listen on a Unix socket; one thread and one ``CudaContext`` per connected program."""

    def __init__(self, path: str, spec: DeviceSpec, program: str,
                 records: RecordWriter | None = None) -> None:
        self.path = path
        self.spec = spec
        self.program = program
        self.records = records
        self.contexts: list[CudaContext] = []
        self._lock = threading.Lock()
        self._threads: list[threading.Thread] = []
        self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._sock.bind(path)
        self._sock.listen(8)
        self._accept = threading.Thread(target=self._accept_loop, daemon=True)
        self._accept.start()

    def _make_context(self, executable: bytes = b"") -> CudaContext:
        ctx = CudaContext(self.spec.make_device(), program=self.program,
                          on_launch=self.records.add if self.records is not None else None,
                          executable=executable)
        with self._lock:
            self.contexts.append(ctx)
        return ctx

    def _accept_loop(self) -> None:
        while True:
            try:
                conn, _ = self._sock.accept()
            except OSError:
                return
            creds = conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED,
                                    struct.calcsize("3i"))
            exe = _executable_of_peer(struct.unpack("3i", creds)[0])
            t = threading.Thread(target=serve_connection,
                                 args=(conn, lambda exe=exe: self._make_context(exe)),
                                 daemon=True)
            t.start()
            self._threads.append(t)

    def close(self, timeout_s: float = 30.0) -> None:
        """Stop accepting and wait for the connections of exited programs to finish."""
        try:
            self._sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self._sock.close()
        for t in list(self._threads):
            t.join(timeout_s)


def main(argv: list[str] | None = None) -> int:
    """``python -m warpsim.cudart.server --fd N``: serve the program that started us."""
    ap = argparse.ArgumentParser(prog="python -m warpsim.cudart.server")
    ap.add_argument("--fd", type=int, required=True, help="connected socket to serve")
    args = ap.parse_args(argv)
    overrides = tuple(o for o in os.environ.get("WARPSIM_OVERRIDES", "").split(",") if o)
    timeout = os.environ.get("WARPSIM_LAUNCH_TIMEOUT") or None
    try:
        timeout_s = parse_timeout(timeout) if timeout is not None else None
    except WarpsimError as err:
        print(f"warpsim: WARPSIM_LAUNCH_TIMEOUT: {err.message}", file=sys.stderr)
        return 2
    try:
        spec = DeviceSpec(os.environ.get("WARPSIM_CONFIG") or None, overrides,
                          os.environ.get("WARPSIM_GPGPUSIM_CONFIG") or None, timeout_s,
                          os.environ.get("WARPSIM_OOB") or "fault")
    except WarpsimError as err:
        print(f"warpsim: {err.message}", file=sys.stderr)
        return 2
    program = _program_of_peer(os.getppid())
    sock = socket.socket(fileno=args.fd)
    stats = os.environ.get("WARPSIM_STATS")
    try:
        records = RecordWriter(stats, spec) if stats else None  # written launch by launch
        ctx = serve_connection(sock, lambda: CudaContext(
            spec.make_device(), program=program,
            on_launch=records.add if records is not None else None,
            executable=_executable_of_peer(os.getppid())))
    except OSError as err:
        print(f"warpsim: cannot write the records file {stats}: {err.strerror or err}",
              file=sys.stderr)
        return 2
    except WarpsimError as err:
        print(f"warpsim: {err.message}", file=sys.stderr)
        return 2
    report_oob([ctx] if ctx is not None else [])
    return 0


if __name__ == "__main__":
    sys.exit(main())
