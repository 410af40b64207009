"""Paper reproductions (layer 5): each module registers its experiment with
``warpsim.runner.reproduce.register_reproduction`` when imported.

Follows: ARCHITECTURE.md §7. ``warpsim reproduce NAME`` imports this package once.
"""

from __future__ import annotations

import importlib

for _name in ("warped_compression", "register_sharing", "warpman", "uniform_vectors", "wir",
              "ilp", "regless", "coarse_fetch"):
    try:
        importlib.import_module(f"warpsim.experiments.{_name}")
    except ModuleNotFoundError as _exc:  # a reproduction not written yet
        if _exc.name != f"warpsim.experiments.{_name}":
            raise
