"""``python -m bench.bot_load``: the benchmark's command line (see the package's docstring)."""

from __future__ import annotations

import sys

from bench.bot_load.run import main

sys.exit(main())
