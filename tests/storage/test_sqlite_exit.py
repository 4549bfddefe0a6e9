"""A storage nobody closed must not keep the process from exiting (aiosqlite's thread is
not a daemon; bot/storage/sqlite.py stops it once the main thread has ended)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

LEAK = """
import asyncio, sys
sys.path.insert(0, sys.argv[2])
from bot.storage import Storage

async def main() -> None:
    global kept  # referenced to the end: nothing would ever collect it
    kept = await Storage.open(sys.argv[1])
    await kept.create_lobby(1, 2, 3, "podkidnoy")
    print("left open")

asyncio.run(main())
"""


@pytest.mark.slow(sample=1)  # a subprocess: in make test, not make check
def test_an_unclosed_sqlite_storage_lets_the_process_exit(tmp_path: Path) -> None:
    db = tmp_path / "durak.db"
    # the timeout only stops a hang (it was one: the process waited for the thread forever)
    done = subprocess.run(
        [sys.executable, "-c", LEAK, str(db), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (done.returncode, done.stdout.strip()) == (0, "left open"), done.stderr
    # and the lobby it committed is there
    check = subprocess.run(
        [sys.executable, "-c", "import sqlite3, sys; print(sqlite3.connect(sys.argv[1])"
         ".execute('SELECT COUNT(*) FROM games').fetchone()[0])", str(db)],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert check.stdout.strip() == "1", check.stderr
