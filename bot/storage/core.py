"""What every area of the storage shares: the open database, its transactions and clock,
the game-row look-ups and the one-active-game claim, and the vocabulary several areas check.

:class:`StorageCore` is the base of each area class (lobbies.py, games.py, settings.py, ...);
store.py composes them into :class:`~bot.storage.store.Storage`. The state of a storage
(database, clock, settings cache and the defaults the bot sets) is declared once, here, so an
area reads it without needing an ``__init__`` of its own.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import AsyncIterator, Callable, Iterable, Mapping
from contextlib import asynccontextmanager
from importlib.resources.abc import Traversable
from types import TracebackType
from typing import Any, Self

from .backend import Database
from .dialect import Connection
from .migrations import MIGRATIONS_DIR
from .rating_games import RATINGS_SCHEMA, backfill
from .rows import (
    DEFAULT_TURN_TIMER_SECONDS,
    AlreadyInGame,
    GameNotFound,
    GameRow,
    InvalidGameStatus,
    Row,
    SeatRow,
)
from .url import parse_database_url

__all__ = [
    "ACTIVE_STATUSES",
    "AI_DIFFICULTIES",
    "FORFEIT_REASONS",
    "OUTCOMES",
    "StorageCore",
]

ACTIVE_STATUSES: tuple[str, ...] = ("lobby", "running")
OUTCOMES: frozenset[str] = frozenset({"fool", "win", "draw", "forfeit", "lost_team"})
AI_DIFFICULTIES: frozenset[str] = frozenset({"easy", "normal", "hard"})
FORFEIT_REASONS: frozenset[str] = frozenset({"left", "timeout"})


def _dumps(value: Any) -> str:
    """Compact, deterministic JSON so equal options produce equal text."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def _game_from_row(row: Row) -> GameRow:
    return GameRow(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        thread_id=row["thread_id"],
        table_message_id=row["table_message_id"],
        host_id=row["host_id"],
        status=row["status"],
        preset=row["preset"],
        options=json.loads(row["options"]),
        state_json=row["state_json"],
        version=row["version"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        finished_at=row["finished_at"],
        turn_deadline=row["turn_deadline"],
        timer_strikes={str(k): int(v) for k, v in json.loads(row["timer_strikes"]).items()},
        # Absent in databases still at schema 2 (only reachable from migration tests).
        # sqlite3.Row's `in` tests values, not column names, hence .keys().
        turn_reminded=(
            bool(row["turn_reminded"]) if "turn_reminded" in row.keys() else False  # noqa: SIM118
        ),
    )


def _seat_from_row(row: Row) -> SeatRow:
    return SeatRow(
        game_id=row["game_id"],
        seat=row["seat"],
        user_id=row["user_id"],
        ai_difficulty=row["ai_difficulty"],
        display_name=row["display_name"],
        left_at=row["left_at"],
    )


def _state_params(
    game_id: int,
    state_json: str,
    expected_version: int,
    new_version: int,
    deadline: float | None,
    timer_strikes: Mapping[str, int] | None,
    ts: float,
    record_line: str | None = None,
) -> tuple[object, ...]:
    """Parameters of ``STATE_UPDATE`` (bot/storage/backend.py), in its order. ``record_line``
    is appended to the game's record (it starts with its own newline)."""
    strikes = None if timer_strikes is None else _dumps(dict(timer_strikes))
    return (state_json, new_version, deadline, strikes, ts, record_line, game_id, expected_version)


#: Seconds a guild's settings row read from the database is used again (see Storage).
SETTINGS_LIFETIME = 30.0


class StorageCore:
    """The database, clock and shared look-ups that every area of :class:`Storage` uses."""

    def __init__(self, db: Database, clock: Callable[[], float]) -> None:
        """Prefer :meth:`open`; the constructor takes an already open and migrated database."""
        self._db = db
        #: What "now" is for every write without an explicit ``now`` (a test or a benchmark
        #: sets its own, at :meth:`open` or here, to control periods, streaks and seasons).
        self.clock = clock
        #: Turn timer of guilds that never saved settings (DEFAULT_TURN_TIMER_SECONDS); it is
        #: also what their first saved row starts from, so saving the language keeps it.
        self.default_turn_timer_seconds = DEFAULT_TURN_TIMER_SECONDS
        #: Whether guilds that never set ``threads`` play each game in its own thread.
        self.default_use_threads = True
        #: Guild settings rows read lately: guild id -> (monotonic read time, row or None).
        #: Every move reads its guild's settings a few times (pictures, timers, language),
        #: and each read queued for the storage lock behind the group commit: at 1,000 live
        #: games that was a thousand trips to the database a second for rows that almost
        #: never change. They change only through this object, in the process that owns the
        #: guild's shard, which drops the entry; the short lifetime bounds how long a change
        #: made outside the bot (a script on the database) goes unseen.
        self._settings_rows: dict[int, tuple[float, Any]] = {}
        self.settings_lifetime = SETTINGS_LIFETIME
        self._monotonic: Callable[[], float] = time.monotonic

    # ----------------------------------------------------------------- lifecycle

    @classmethod
    async def open(
        cls,
        target: str | os.PathLike[str],
        *,
        clock: Callable[[], float] = time.time,
        migrations_dir: Traversable = MIGRATIONS_DIR,
        target_version: int | None = None,
    ) -> Self:
        """Open (creating if needed) and migrate the database.

        ``target`` is a database URL (``sqlite:///data/durak.db``, ``postgresql://...``) or a
        path of an SQLite file. ``target_version`` exists for tests that need a database
        frozen at an old schema; production always migrates to the latest.
        """
        url = parse_database_url(target)
        db: Database
        if url.dialect == "postgresql":
            from .postgres import PostgresDatabase  # asyncpg is only needed when used

            db = await PostgresDatabase.open(
                url.url, migrations_dir=migrations_dir, target_version=target_version
            )
        else:
            from .sqlite import SqliteDatabase

            db = await SqliteDatabase.open(
                url.path, migrations_dir=migrations_dir, target_version=target_version
            )
        if db.schema_version >= RATINGS_SCHEMA:
            # Migration 0008 leaves a job: rate the games finished before it, oldest first
            # (SQL cannot run OpenSkill). Done once; a no-op on every later start.
            await backfill(db)
        return cls(db, clock)

    @property
    def database(self) -> Database:
        """The backend (for its engine-specific tools, e.g. SQLite's ``checkpoint``)."""
        return self._db

    @property
    def dialect(self) -> str:
        """``"sqlite"`` or ``"postgresql"``."""
        return self._db.dialect

    @property
    def schema_version(self) -> int:
        """The migration the database is at."""
        return self._db.schema_version

    async def close(self) -> None:
        """Close the database; waits for queued moves and any in-flight transaction first."""
        await self._db.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    # ----------------------------------------------------------------- plumbing

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[Connection]:
        """One write transaction (see the backend's ``transaction``)."""
        async with self._db.transaction() as conn:
            yield conn

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[Connection]:
        """A connection for reads that never sees another caller's uncommitted writes."""
        async with self._db.read() as conn:
            yield conn

    def _now(self, now: float | None) -> float:
        return self.clock() if now is None else now

    @staticmethod
    async def _fetch_game(conn: Connection, game_id: int, *, lock: bool = False) -> GameRow:
        """The game row; ``lock`` keeps other transactions from changing it until this one
        ends (needed where a write depends on what was read)."""
        sql = "SELECT * FROM games WHERE id = ?" + (conn.for_update if lock else "")
        async with conn.execute(sql, (game_id,)) as cur:
            row = await cur.fetchone()
        if row is None:
            raise GameNotFound(game_id)
        return _game_from_row(row)

    @classmethod
    async def _require_status(
        cls, conn: Connection, game_id: int, allowed: Iterable[str]
    ) -> GameRow:
        """The game, locked for the rest of the transaction, if its status is allowed."""
        allowed_set = frozenset(allowed)
        game = await cls._fetch_game(conn, game_id, lock=True)
        if game.status not in allowed_set:
            raise InvalidGameStatus(game_id, game.status, allowed_set)
        return game

    @staticmethod
    async def _claim_user(conn: Connection, user_id: int, game_id: int) -> None:
        """Insert into active_players; the primary key turns a second active game into a
        refusal we translate, instead of a race-prone SELECT-then-INSERT. (ON CONFLICT rather
        than catching the violation: on PostgreSQL a failed statement aborts the transaction.)
        """
        cur = await conn.execute(
            "INSERT INTO active_players (user_id, game_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
            (user_id, game_id),
        )
        if cur.rowcount != 1:
            async with conn.execute(
                "SELECT game_id FROM active_players WHERE user_id = ?", (user_id,)
            ) as cur:
                row = await cur.fetchone()
            raise AlreadyInGame(user_id, int(row[0]) if row else game_id)
