"""Fixtures giving each test a fresh database on each backend.

``storage`` and ``db_url`` run a test twice: on an SQLite file (WAL needs a real file) and
on PostgreSQL (a fresh schema, see tests/postgres.py; skipped with the reason when no server
is reachable). ``db_path`` is for the tests of SQLite's own machinery.
"""

from __future__ import annotations

import shutil
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage import Storage
from tests.bot.conftest import migrated_database
from tests.postgres import emptied_schema, fresh_schema

BACKENDS = ("sqlite", "postgresql")


class FakeClock:
    """Manually advanced clock so periods and ordering are deterministic."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "durak.db"


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    """Runs a test once per backend (the ids stay ``[sqlite]`` and ``[postgresql]``)."""
    return str(request.param)


@pytest.fixture
async def db_url(backend: str, db_path: Path) -> AsyncIterator[str]:
    """Where a fresh database lives, once per backend (reopen it as often as needed)."""
    if backend == "sqlite":
        yield f"sqlite:///{db_path}"
        return
    async with fresh_schema() as url:
        yield url


@pytest.fixture
async def storage(backend: str, db_path: Path, clock: FakeClock) -> AsyncIterator[Storage]:
    """An open storage on an empty database at the latest schema, migrated once per test
    process: on SQLite a copy of one migrated file (tests/bot/conftest.py; migrating a new
    file waits ~0.2 s for the disk), on PostgreSQL the process's own schema, emptied
    (tests/postgres.py; a new schema would cost dozens of round trips and the server's CPU
    for every test). The migrations have tests of their own (test_migrations.py, on
    ``db_url``, which stays empty)."""
    if backend == "sqlite":
        shutil.copyfile(migrated_database(), db_path)
        url = f"sqlite:///{db_path}"
    else:
        url = await emptied_schema()
    async with await Storage.open(url, clock=clock) as st:
        yield st


@pytest.fixture
async def sqlite_storage(db_path: Path, clock: FakeClock) -> AsyncIterator[Storage]:
    """For tests of SQLite's own machinery (its database thread, WAL, old versions)."""
    async with await Storage.open(db_path, clock=clock) as st:
        yield st
