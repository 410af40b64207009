"""``python -m warpsim``: the ``warpsim`` command (for a checkout that is not installed)."""

import sys

try:
    from warpsim.cli import main

    sys.exit(main())
except KeyboardInterrupt:  # Ctrl-C while importing, before ``main`` handles it
    print("\nwarpsim: interrupted", file=sys.stderr)
    sys.exit(130)
