"""NVIDIA fat binaries: find the PTX that nvcc embedded in a program and decompress it.

Follows: the layout nvcc writes into the ``.nv_fatbin`` section and points to from the
``__fatBinC_Wrapper_t`` it passes to ``__cudaRegisterFatBinary`` (``fatbinary_section.h``:
magic ``0x466243B1``): a 16-byte container header (magic ``0xBA55ED50``, version, header size,
size of the entries) followed by entries, each a header (kind 1 = PTX, 2 = ELF cubin; target
``sm_XY``; flags; sizes) and its payload.
Assumptions: [A] entry header fields as observed in nvcc 12/13 output: payload size at byte 16,
target at byte 28, flags at byte 40, uncompressed size at byte 56; [A] flag ``0x8000`` means a
zstd-compressed payload (nvcc 13), ``0x2000`` an LZ4 block (nvcc 11.x/12.x ``--compress``).
Deviations: only PTX entries are used: warpsim executes PTX, never SASS.
"""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass

from warpsim.errors import WarpsimError

__all__ = ["FATBIN_MAGIC", "FatbinEntry", "extract_ptx", "fatbin_size", "parse_fatbin",
           "relocatable_ptx"]

FATBIN_MAGIC = 0xBA55ED50
"""Magic number of a fat binary container."""
WRAPPER_MAGIC = 0x466243B1
"""Magic number of the ``__fatBinC_Wrapper_t`` nvcc passes to ``__cudaRegisterFatBinary``."""

_KIND_PTX = 1
_KIND_ELF = 2
_FLAG_LZ4 = 0x2000
_FLAG_ZSTD = 0x8000


@dataclass(frozen=True, slots=True)
class FatbinEntry:
    """One entry of a fat binary."""

    kind: int
    """1 = PTX text, 2 = ELF cubin (SASS)."""
    sm: int
    """Target, e.g. 80 for ``compute_80`` / ``sm_80``."""
    flags: int
    payload: bytes
    """The payload as stored (possibly compressed)."""
    uncompressed_bytes: int


def fatbin_size(header: bytes) -> int:
    """Total size of a fat binary from its first 16 bytes (container header)."""
    magic, _version, hsize, size = struct.unpack_from("<IHHQ", header, 0)
    if magic != FATBIN_MAGIC:
        raise WarpsimError(f"not an NVIDIA fat binary (magic {magic:#x}, expected "
                           f"{FATBIN_MAGIC:#x})")
    return hsize + size


def parse_fatbin(data: bytes) -> list[FatbinEntry]:
    """Split one or more concatenated fat binary containers into their entries."""
    entries: list[FatbinEntry] = []
    pos = 0
    while pos + 16 <= len(data):
        magic, _version, hsize, size = struct.unpack_from("<IHHQ", data, pos)
        if magic != FATBIN_MAGIC:
            break
        end = min(pos + hsize + size, len(data))
        at = pos + hsize
        while at + 64 <= end:
            kind, _ver, ehsize, padded = struct.unpack_from("<HHIQ", data, at)
            payload_bytes = struct.unpack_from("<I", data, at + 16)[0]
            sm = struct.unpack_from("<I", data, at + 28)[0]
            flags = struct.unpack_from("<Q", data, at + 40)[0]
            raw_bytes = struct.unpack_from("<Q", data, at + 56)[0]
            start = at + ehsize
            entries.append(FatbinEntry(kind, sm, flags, bytes(data[start:start + payload_bytes]),
                                       raw_bytes))
            if ehsize == 0:
                break
            at = start + padded
        pos = end
    return entries


def _lz4_block(src: bytes, out_bytes: int) -> bytes:
    """Decode one LZ4 block (the LZ4 block format: literal runs and back-references)."""
    out = bytearray()
    i, n = 0, len(src)
    while i < n:
        token = src[i]
        i += 1
        lit = token >> 4
        if lit == 15:
            while True:
                b = src[i]
                i += 1
                lit += b
                if b != 255:
                    break
        out += src[i:i + lit]
        i += lit
        if i >= n or len(out) >= out_bytes:
            break
        offset = src[i] | (src[i + 1] << 8)
        i += 2
        length = token & 15
        if length == 15:
            while True:
                b = src[i]
                i += 1
                length += b
                if b != 255:
                    break
        length += 4
        start = len(out) - offset
        if offset <= 0 or start < 0:
            raise WarpsimError("corrupt LZ4 data in the fat binary")
        for k in range(length):  # may overlap itself
            out.append(out[start + k])
    return bytes(out[:out_bytes])


def _zstd(src: bytes, out_bytes: int) -> bytes:
    try:
        import zstandard
    except ImportError:
        try:
            from compression import zstd  # Python 3.14+
        except ImportError:
            raise WarpsimError("the program's PTX is zstd-compressed (nvcc 13) and no zstd "
                               "decoder is installed\n  hint: pip install zstandard") from None
        return zstd.decompress(src)[:out_bytes]
    return zstandard.ZstdDecompressor().decompress(src, max_output_size=max(out_bytes, 1))


def _payload_text(entry: FatbinEntry) -> str:
    data = entry.payload
    if entry.flags & _FLAG_ZSTD:
        data = _zstd(data, entry.uncompressed_bytes)
    elif entry.flags & _FLAG_LZ4:
        data = _lz4_block(data, entry.uncompressed_bytes)
    return data.split(b"\0", 1)[0].decode("utf-8", errors="replace")


def extract_ptx(data: bytes, *, max_sm: int | None = None) -> str:
    """The PTX of a fat binary: the entry with the highest target (at most ``max_sm``).

    Raises ``WarpsimError`` when the fat binary holds only SASS (cubins).
    """
    entries = parse_fatbin(data)
    ptx = [e for e in entries if e.kind == _KIND_PTX and (max_sm is None or e.sm <= max_sm)]
    if not ptx:
        ptx = [e for e in entries if e.kind == _KIND_PTX]
    if not ptx:
        sass = sorted({e.sm for e in entries if e.kind == _KIND_ELF})
        raise WarpsimError(
            "the program embeds no PTX (only SASS for " +
            (", ".join(f"sm_{s}" for s in sass) or "no target") + "); warpsim runs PTX\n"
            "  hint: build with -arch=sm_80 (which embeds compute_80 PTX) or add "
            "-gencode arch=compute_80,code=compute_80")
    best = max(ptx, key=lambda e: e.sm)
    return _payload_text(best)


_DEVRT = re.compile(r"\.visible\s+\.func\s*(\([^)]*\))?\s*__cudaCDP2LaunchDeviceV2\s*\(")
"""A definition of the device-side launch: the device runtime library's own PTX."""


def _elf_section(elf: bytes, wanted: str) -> bytes | None:
    """The contents of the ELF64 section named ``wanted``, or None."""
    if elf[:4] != b"\x7fELF" or elf[4] != 2:
        return None
    shoff = struct.unpack_from("<Q", elf, 0x28)[0]
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", elf, 0x3A)
    if shoff == 0 or shstrndx >= shnum:
        return None

    def header(k: int) -> tuple[int, int, int]:
        name, _type = struct.unpack_from("<II", elf, shoff + k * shentsize)
        offset, size = struct.unpack_from("<QQ", elf, shoff + k * shentsize + 24)
        return name, offset, size

    _, str_off, str_size = header(shstrndx)
    names = elf[str_off:str_off + str_size]
    for k in range(shnum):
        name, offset, size = header(k)
        if names[name:names.index(b"\0", name)].decode("ascii", "replace") == wanted:
            return elf[offset:offset + size]
    return None


def relocatable_ptx(elf: bytes, *, max_sm: int | None = None) -> list[str]:
    """The PTX of each translation unit of a program built with ``-rdc=true``: nvlink links
    their code into a SASS-only image, but the executable keeps every unit's own fat binary
    (with the PTX ``-arch=sm_XX`` embeds) in its ``__nv_relfatbin`` section; the device
    runtime library's container (``libcudadevrt``, which defines the device-side launch
    functions warpsim models itself: ``functional/device_launch.py``) is left out."""
    section = _elf_section(elf, "__nv_relfatbin")
    out: list[str] = []
    pos = 0
    while section is not None and pos + 16 <= len(section):
        if struct.unpack_from("<I", section, pos)[0] != FATBIN_MAGIC:
            pos += 8  # containers are 8-byte aligned
            continue
        end = pos + fatbin_size(section[pos:pos + 16])
        if any(e.kind == _KIND_PTX for e in parse_fatbin(section[pos:end])):
            ptx = extract_ptx(section[pos:end], max_sm=max_sm)
            if not _DEVRT.search(ptx):
                out.append(ptx)
        pos = -(-end // 8) * 8
    return out
