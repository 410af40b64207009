"""``python -m warpsim``: the ``warpsim`` command (for a checkout that is not installed)."""

import sys

from warpsim.cli import main

sys.exit(main())
