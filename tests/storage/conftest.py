"""Fixtures giving each test a fresh on-disk database (WAL needs a real file)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage import Storage


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


@pytest.fixture
async def storage(db_path: Path, clock: FakeClock) -> AsyncIterator[Storage]:
    async with await Storage.open(db_path, clock=clock) as st:
        yield st
