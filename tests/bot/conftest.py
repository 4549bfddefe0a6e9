"""Fixtures for driving the real bot through simcord (see docs/testing-with-simcord.md)."""

from __future__ import annotations

import asyncio
import atexit
import shutil
import sqlite3
import tempfile
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing
from functools import cache
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord

from bot.app import DurakBot
from bot.cardart.emojis import wanted_emojis
from bot.config import Config
from bot.storage import Storage

SEED = 20260101


def make_config(db_path: Path, **changes: Any) -> Config:
    values: dict[str, Any] = {
        "discord_token": None,
        "database_path": db_path,
        "dev_guild_id": None,
        "log_level": "INFO",
        # No pause before a computer's move: simcord waits for a short timer in real time (a
        # test of the pause sets its own, as do tests/bot/test_restart_and_ai.py's).
        "ai_delay_seconds": 0.0,
        "table_edit_interval": 0.0,
        "default_turn_timer_seconds": 0,
        # The bot is an AutoShardedBot; simcord needs the count that Discord would recommend.
        "shard_count": 1,
        # Most tests read the table in the channel itself; the thread default has its own.
        "default_threads": False,
    }
    values.update(changes)
    return Config(**values)


def make_bot(
    db_path: Path,
    seed: int = SEED,
    *,
    live_timing: tuple[float, float] = (0.0, 0.0),
    **changes: Any,
) -> DurakBot:
    """The real bot on a test config. Live hands edit without a debounce (under simcord a
    pending sleep waits in real time); tests of the coalescing pass the bot's own timing."""
    return DurakBot(
        make_config(db_path, **changes),
        sync="global",
        seed_factory=lambda: seed,
        live_hand_timing=live_timing,
    )


@pytest.fixture(scope="session", autouse=True)
def card_faces_drawn() -> None:
    """Draw the 137 card faces once per test process, before the first bot starts.

    The bot draws them at start-up (in an executor, cached for the process) and simcord gives
    a start 5 s to settle; the first drawing takes seconds on a busy machine, so whichever
    test happened to start the first bot of a process (of each xdist worker) could time out."""
    wanted_emojis()


@cache
def migrated_database() -> Path:
    """An empty SQLite database at the latest schema, made once per test process.

    Every bot test starts on a copy of it instead of migrating a new file: the migrations
    (each in a transaction of its own) and the WAL switch cost more wall time than most
    tests themselves, and what they do is the storage suite's subject
    (tests/storage/test_migrations.py), not that of each game test. A copy is exactly what
    the bot would have made on its first start."""
    folder = Path(tempfile.mkdtemp(prefix="durak-tests-"))
    atexit.register(shutil.rmtree, folder, True)
    path = folder / "migrated.db"

    async def create() -> None:
        async with await Storage.open(path):
            pass

    # In a thread of its own: the caller may be running an event loop already.
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, create()).result()
    # Fold the WAL into the file (closing the last connection removes it), so that copying
    # the one file copies the whole database.
    with closing(sqlite3.connect(path)) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").close()
    assert not path.with_name(path.name + "-wal").exists()
    return path


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """The bot's SQLite file: a copy of an empty, fully migrated database."""
    path = tmp_path / "durak.db"
    shutil.copyfile(migrated_database(), path)
    return path


@pytest.fixture
def simcord_bot(db_path: Path) -> DurakBot:
    return make_bot(db_path)


@pytest.fixture
async def world(simcord_env: simcord.Env) -> Any:
    """A guild with one games channel, four players, a moderator and a spectator."""
    yield build_world(simcord_env)
    # simcord never closes the bot; close it so the SQLite connection is released.
    await simcord_env.bot.close()


def build_world(env: simcord.Env) -> dict[str, Any]:
    guild = env.create_guild("Durak Club")
    channel = guild.create_text_channel("games")
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    members = {
        name: guild.add_member(env.create_user(name))
        for name in ("alice", "bob", "carol", "dave", "eve")
    }
    members["mod"] = guild.add_member(env.create_user("mod"), roles=[mods])
    return {"guild": guild, "channel": channel, **members}
