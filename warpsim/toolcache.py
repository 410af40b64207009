"""The toolchain's on-disk cache: compiled PTX and ptxas reports keyed by a content hash.

Follows: docs/dev-contracts.md "Toolchain" (``$WARPSIM_CACHE_DIR``, default
``~/.cache/warpsim``; ``WARPSIM_NO_CACHE=1`` disables it). Entries are JSON files written
atomically, so concurrent processes never read a partial one.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import tempfile
from pathlib import Path
from typing import Any

__all__ = ["cache_dir", "cache_key", "cache_load", "cache_store"]

logger = logging.getLogger("warpsim.toolchain")

_CACHE_FORMAT = "warpsim-toolchain-1"


def cache_dir() -> Path | None:
    if os.environ.get("WARPSIM_NO_CACHE", "") not in ("", "0"):
        return None
    base = os.environ.get("WARPSIM_CACHE_DIR") or os.path.join("~", ".cache", "warpsim")
    return Path(base).expanduser() / "toolchain"


def cache_key(*parts: Any) -> str:
    blob = json.dumps([_CACHE_FORMAT, *parts], sort_keys=True, default=str)
    return hashlib.sha256(blob.encode()).hexdigest()


def cache_load(kind: str, key: str) -> dict[str, Any] | None:
    if (root := cache_dir()) is None:
        return None
    try:
        with open(root / kind / f"{key}.json", encoding="utf-8") as fh:
            return json.load(fh)
    except (OSError, ValueError):  # absent, or unreadable: compile again
        return None


def cache_store(kind: str, key: str, data: dict[str, Any]) -> None:
    if (root := cache_dir()) is None:
        return
    folder, tmp = root / kind, None
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{key[:16]}.", suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(data, fh)
        os.replace(tmp, folder / f"{key}.json")  # atomic: readers never see a partial file
        tmp = None
    except OSError as exc:
        logger.warning("cannot write toolchain cache in %s: %s", folder, exc)
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
