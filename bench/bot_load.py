"""``.venv/bin/python bench/bot_load.py``: runs the package bench/bot_load/ as a script.

An import of ``bench.bot_load`` finds the package (a package wins over a module of the same
name), so this file is only the command's entry; the benchmark and its documentation live in
bench/bot_load/__init__.py.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bot_load.run import main

if __name__ == "__main__":
    sys.exit(main())
