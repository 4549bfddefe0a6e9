"""The storage service: every operation on lobbies, games, results, settings and forfeits.

Design notes (the *why*):

* Written once, for both engines: the SQL below is the portable subset with ``?``
  placeholders, run through a :class:`~bot.storage.dialect.Connection`; the backend (SQLite
  by default, PostgreSQL when several processes share one database) is chosen by the
  database URL given to :meth:`Storage.open`. What differs per engine lives in dialect.py,
  sqlite.py and postgres.py.
* Every public method is exactly one transaction, so a crash between two awaits can never
  leave half an operation behind, and no caller can observe another one's uncommitted rows.
* Schema changes are numbered SQL files in ``bot/migrations`` (see migrations.py).
* ``games.version`` gives optimistic concurrency: a writer states which version it read and
  the UPDATE itself is refused (``WHERE id = ? AND version = ?``) if somebody else got there
  first - a double-clicked button, an interaction replayed after a restart, or another bot
  process. That, not an in-process lock, is what prevents duplicated actions. Reads that a
  write transaction depends on lock their rows (``conn.for_update``) where the engine locks
  rows rather than the whole database.
* The "one active game per user" rule lives in the ``active_players`` primary key rather than
  in a check-then-insert in Python, so it also holds for concurrent joins.
* Time is injected (``clock``/``now``) so that tests can control periods and streaks.
"""

from __future__ import annotations

import json
import os
import random
import time
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import fields, replace
from importlib.resources.abc import Traversable
from types import TracebackType
from typing import Any, Self

from .backend import STATE_UPDATE, Database
from .dialect import Connection
from .migrations import MIGRATIONS_DIR, Migration, load_migrations
from .rows import (
    DEFAULT_TURN_TIMER_SECONDS,
    AlreadyInGame,
    Forfeit,
    ForfeitReason,
    GameNotFound,
    GameRow,
    GameStatus,
    GuildSettings,
    InvalidGameStatus,
    LeaderboardEntry,
    LeaderboardSort,
    LobbyFull,
    OutboxRow,
    Outcome,
    Period,
    PlayerPrefs,
    ResultEntry,
    ResultRow,
    Row,
    SeatRow,
    SeatTaken,
    StaleVersion,
    StorageError,
    UserStats,
)
from .url import DatabaseUrl, parse_database_url

__all__ = [
    "ACTIVE_STATUSES",
    "AI_DIFFICULTIES",
    "DEFAULT_FORFEITS",
    "DEFAULT_TURN_TIMER_SECONDS",
    "FOOL_OUTCOMES",
    "FORFEIT_REASONS",
    "LOCALES",
    "MIGRATIONS_DIR",
    "OUTBOX_KINDS",
    "OUTCOMES",
    "PERIOD_SECONDS",
    "AlreadyInGame",
    "DatabaseUrl",
    "Forfeit",
    "ForfeitReason",
    "GameNotFound",
    "GameRow",
    "GameStatus",
    "GuildSettings",
    "InvalidGameStatus",
    "LeaderboardEntry",
    "LeaderboardSort",
    "LobbyFull",
    "Migration",
    "OutboxRow",
    "Outcome",
    "Period",
    "PlayerPrefs",
    "ResultEntry",
    "ResultRow",
    "SeatRow",
    "SeatTaken",
    "StaleVersion",
    "Storage",
    "StorageError",
    "UserStats",
    "load_migrations",
    "parse_database_url",
]

ACTIVE_STATUSES: tuple[str, ...] = ("lobby", "running")
#: What an ended game can still owe the channel (table ``outbox``, migration 0006).
OUTBOX_KINDS: tuple[str, ...] = ("table", "result")
OUTCOMES: frozenset[str] = frozenset({"fool", "win", "draw", "forfeit", "lost_team"})
AI_DIFFICULTIES: frozenset[str] = frozenset({"easy", "normal", "hard"})
LOCALES: frozenset[str] = frozenset({"en", "ru"})
# Outcomes that count as "being the fool" in stats: in team games the whole losing team is,
# and a player who left a running game or was timed out of it (outcome 'forfeit') is counted
# as the fool of that game *and* as a forfeit, so walking away never protects a record.
FOOL_OUTCOMES: tuple[str, ...] = ("fool", "lost_team", "forfeit")
FORFEIT_REASONS: frozenset[str] = frozenset({"left", "timeout"})
# Rolling windows rather than calendar months/weeks: no timezone is right for every guild.
PERIOD_SECONDS: dict[str, float | None] = {"all": None, "month": 30 * 86400.0, "week": 7 * 86400.0}

DEFAULT_FORFEITS: dict[str, tuple[str, ...]] = {
    "en": (
        "Change your nickname to “Fool” for an hour.",
        "Compliment every player of this game.",
        "Tell a joke in the chat.",
        "Use only emoji in your next five messages.",
        "Set a profile status chosen by the winner for one hour.",
        "Sing (or type out) a verse of any song.",
        "Write a three-line poem about the trump suit.",
    ),
    "ru": (
        "Смени ник на «Дурак» на один час.",
        "Сделай комплимент каждому игроку этой партии.",
        "Расскажи анекдот в чате.",
        "Следующие пять сообщений пиши только эмодзи.",
        "Поставь статус, который выберет победитель, на один час.",
        "Спой (или напиши) куплет любой песни.",
        "Сочини трёхстишие про козырную масть.",
    ),
}


# --------------------------------------------------------------------------- helpers


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


def _settings_from_row(row: Row, default_threads: bool = True) -> GuildSettings:
    allowed = row["allowed_channel_ids"]
    keys = set(row.keys())  # asyncpg gives an iterator, read once
    threads_explicit = bool(row["threads_explicit"]) if "threads_explicit" in keys else False
    return GuildSettings(
        guild_id=row["guild_id"],
        locale=row["locale"],
        default_preset=row["default_preset"],
        default_options=json.loads(row["default_options"]),
        turn_timer_seconds=row["turn_timer_seconds"],
        use_threads=bool(row["use_threads"]) if threads_explicit else default_threads,
        default_ai_difficulty=row["default_ai_difficulty"],
        allowed_channel_ids=None if allowed is None else tuple(int(c) for c in json.loads(allowed)),
        locale_explicit=(bool(row["locale_explicit"]) if "locale_explicit" in keys else False),
        pictures=(bool(row["table_pictures"]) if "table_pictures" in keys else True),
        threads_explicit=threads_explicit,
    )


_SETTINGS_FIELDS = frozenset(f.name for f in fields(GuildSettings)) - {"guild_id"}


def _validate_settings(settings: GuildSettings) -> None:
    """Reject bad values with a readable message before SQLite's CHECK gives a cryptic one."""
    if settings.locale not in LOCALES:
        raise ValueError(f"locale must be one of {sorted(LOCALES)}, got {settings.locale!r}")
    if settings.default_ai_difficulty not in AI_DIFFICULTIES:
        raise ValueError(f"unknown AI difficulty {settings.default_ai_difficulty!r}")
    if settings.turn_timer_seconds < 0:
        raise ValueError("turn_timer_seconds must be >= 0")


def _streaks(outcomes: Sequence[str]) -> tuple[int, int]:
    """(longest, current) run of games without a fool/forfeit outcome, in the given order."""
    longest = current = 0
    for outcome in outcomes:
        if outcome in FOOL_OUTCOMES:
            current = 0
        else:
            current += 1
            longest = max(longest, current)
    return longest, current


# --------------------------------------------------------------------------- storage


def _state_params(
    game_id: int,
    state_json: str,
    expected_version: int,
    new_version: int,
    deadline: float | None,
    timer_strikes: Mapping[str, int] | None,
    ts: float,
) -> tuple[object, ...]:
    """Parameters of ``STATE_UPDATE`` (bot/storage/backend.py), in its order."""
    strikes = None if timer_strikes is None else _dumps(dict(timer_strikes))
    return (state_json, new_version, deadline, strikes, ts, game_id, expected_version)


#: Seconds a guild's settings row read from the database is used again (see Storage).
SETTINGS_LIFETIME = 30.0


class Storage:
    """Async facade over the database. Create with ``await Storage.open(url_or_path)``."""

    def __init__(self, db: Database, clock: Callable[[], float]) -> None:
        """Prefer :meth:`open`; the constructor takes an already open and migrated database."""
        self._db = db
        self._clock = clock
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
        return self._clock() if now is None else now

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

    # ----------------------------------------------------------------- lobby

    async def create_lobby(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        preset: str,
        options: Mapping[str, Any] | None = None,
        *,
        host_display_name: str | None = None,
        thread_id: int | None = None,
        now: float | None = None,
    ) -> int:
        """Create a lobby and return its id.

        If ``host_display_name`` is given the host is seated at seat 0 in the same transaction,
        so a host already in another game gets :class:`AlreadyInGame` and no orphan lobby.
        """
        ts = self._now(now)
        async with self._transaction() as conn:
            game_id = await conn.insert_returning_id(
                "INSERT INTO games (guild_id, channel_id, thread_id, host_id, status, preset,"
                " options, created_at, updated_at) VALUES (?, ?, ?, ?, 'lobby', ?, ?, ?, ?)",
                (
                    guild_id,
                    channel_id,
                    thread_id,
                    host_id,
                    preset,
                    _dumps(dict(options or {})),
                    ts,
                    ts,
                ),
            )
            assert game_id is not None  # no ON CONFLICT: a refused insert raises
            if host_display_name is not None:
                await self._claim_user(conn, host_id, game_id)
                await conn.execute(
                    "INSERT INTO game_seats (game_id, seat, user_id, display_name)"
                    " VALUES (?, 0, ?, ?)",
                    (game_id, host_id, host_display_name),
                )
        return game_id

    async def set_table_message(
        self,
        game_id: int,
        *,
        message_id: int | None,
        channel_id: int | None = None,
        thread_id: int | None = None,
    ) -> None:
        """Remember where the public table lives so it can be re-attached after a restart.
        ``channel_id``/``thread_id`` are only changed when given."""
        async with self._transaction() as conn:
            await self._fetch_game(conn, game_id)
            await conn.execute(
                "UPDATE games SET table_message_id = ?,"
                " channel_id = COALESCE(?, channel_id), thread_id = COALESCE(?, thread_id),"
                " updated_at = ? WHERE id = ?",
                (message_id, channel_id, thread_id, self._clock(), game_id),
            )

    async def add_seat(
        self,
        game_id: int,
        *,
        display_name: str,
        user_id: int | None = None,
        ai_difficulty: str | None = None,
        seat: int | None = None,
        max_seats: int | None = None,
    ) -> int:
        """Seat a human (``user_id``) or a computer (``ai_difficulty``) in a lobby.

        Returns the seat number (lowest free one unless ``seat`` is given). Raises
        AlreadyInGame, LobbyFull, SeatTaken, InvalidGameStatus or GameNotFound.
        """
        if (user_id is None) == (ai_difficulty is None):
            raise ValueError("exactly one of user_id and ai_difficulty must be given")
        if ai_difficulty is not None and ai_difficulty not in AI_DIFFICULTIES:
            raise ValueError(f"unknown AI difficulty {ai_difficulty!r}")
        async with self._transaction() as conn:
            await self._require_status(conn, game_id, ("lobby",))
            async with conn.execute(
                "SELECT seat FROM game_seats WHERE game_id = ? ORDER BY seat", (game_id,)
            ) as cur:
                taken = {int(r[0]) async for r in cur}
            if seat is None:
                seat = next(i for i in range(len(taken) + 1) if i not in taken)
            elif seat in taken:
                raise SeatTaken(game_id, seat)
            if max_seats is not None and (seat >= max_seats or len(taken) >= max_seats):
                raise LobbyFull(game_id, max_seats)
            if user_id is not None:
                await self._claim_user(conn, user_id, game_id)
            await conn.execute(
                "INSERT INTO game_seats (game_id, seat, user_id, ai_difficulty, display_name)"
                " VALUES (?, ?, ?, ?, ?)",
                (game_id, seat, user_id, ai_difficulty, display_name),
            )
        return seat

    async def remove_seat(
        self, game_id: int, seat: int, *, now: float | None = None
    ) -> SeatRow | None:
        """Remove a seat; returns the removed/updated row, or None if the seat was empty.

        In a lobby the seat row is deleted (seats may then have gaps; the session renumbers
        when starting). In a running game the row is kept with ``left_at`` set, because the
        engine state still references that seat and results need it; the human is released
        from ``active_players`` either way so they can join another game.
        """
        ts = self._now(now)
        async with self._transaction() as conn:
            game = await self._require_status(conn, game_id, ACTIVE_STATUSES)
            async with conn.execute(
                "SELECT * FROM game_seats WHERE game_id = ? AND seat = ?", (game_id, seat)
            ) as cur:
                row = await cur.fetchone()
            if row is None:
                return None
            removed = _seat_from_row(row)
            if game.status == "lobby":
                await conn.execute(
                    "DELETE FROM game_seats WHERE game_id = ? AND seat = ?", (game_id, seat)
                )
            else:
                await conn.execute(
                    "UPDATE game_seats SET left_at = COALESCE(left_at, ?)"
                    " WHERE game_id = ? AND seat = ?",
                    (ts, game_id, seat),
                )
                removed = replace(removed, left_at=removed.left_at or ts)
            if removed.user_id is not None:
                await conn.execute(
                    "DELETE FROM active_players WHERE user_id = ? AND game_id = ?",
                    (removed.user_id, game_id),
                )
        return removed

    async def seats(self, game_id: int) -> list[SeatRow]:
        """All seats of a game ordered by seat number (including ones that left)."""
        async with (
            self._read() as conn,
            conn.execute(
                "SELECT * FROM game_seats WHERE game_id = ? ORDER BY seat", (game_id,)
            ) as cur,
        ):
            return [_seat_from_row(r) async for r in cur]

    async def user_active_game(self, user_id: int) -> int | None:
        """The lobby/running game the user sits in, if any."""
        async with (
            self._read() as conn,
            conn.execute("SELECT game_id FROM active_players WHERE user_id = ?", (user_id,)) as cur,
        ):
            row = await cur.fetchone()
        return int(row[0]) if row is not None else None

    # ----------------------------------------------------------------- running games

    async def get_game(self, game_id: int) -> GameRow | None:
        """Fetch a game regardless of status; None if it does not exist."""
        async with self._read() as conn:
            try:
                return await self._fetch_game(conn, game_id)
            except GameNotFound:
                return None

    async def start_game(
        self,
        game_id: int,
        state_json: str,
        version: int = 1,
        *,
        deadline: float | None = None,
        now: float | None = None,
    ) -> None:
        """Move a lobby to running with the engine's initial state."""
        ts = self._now(now)
        async with self._transaction() as conn:
            await self._require_status(conn, game_id, ("lobby",))
            await self._start_lobby(conn, game_id, state_json, version, deadline, ts)

    @classmethod
    async def _start_lobby(
        cls,
        conn: Connection,
        game_id: int,
        state_json: str,
        version: int,
        deadline: float | None,
        ts: float,
    ) -> None:
        """The lobby -> running write, guarded in the UPDATE itself: if another process
        started or cancelled the lobby since it was read, nothing changes and we say so."""
        cur = await conn.execute(
            "UPDATE games SET status = 'running', state_json = ?, version = ?,"
            " turn_deadline = ?, timer_strikes = '{}', updated_at = ?"
            " WHERE id = ? AND status = 'lobby'",
            (state_json, version, deadline, ts, game_id),
        )
        if cur.rowcount != 1:
            game = await cls._fetch_game(conn, game_id)
            raise InvalidGameStatus(game_id, game.status, ("lobby",))

    async def mark_reminded(self, game_id: int, version: int) -> bool:
        """Record that the half-time reminder for ``version``'s turn went out. False when the
        game moved on meanwhile (then the reminder belongs to a turn that is over)."""
        async with self._transaction() as conn:
            cur = await conn.execute(
                "UPDATE games SET turn_reminded = 1"
                " WHERE id = ? AND version = ? AND status = 'running'",
                (game_id, version),
            )
            return cur.rowcount == 1

    async def save_state(
        self,
        game_id: int,
        state_json: str,
        expected_version: int,
        new_version: int,
        deadline: float | None = None,
        *,
        timer_strikes: Mapping[str, int] | None = None,
        now: float | None = None,
    ) -> None:
        """Persist a new engine state iff the stored version is still ``expected_version``.

        Raises :class:`StaleVersion` otherwise (a raise, not a bool, so a forgotten check can
        never silently apply an action twice). ``deadline`` is written as given - None clears
        the turn timer. ``timer_strikes`` is left unchanged when None.
        """
        if new_version <= expected_version:
            raise ValueError("new_version must be greater than expected_version")
        ts = self._now(now)
        params = _state_params(
            game_id, state_json, expected_version, new_version, deadline, timer_strikes, ts
        )
        if not await self._db.store_state(game_id, params):
            async with self._read() as conn:
                game = await self._require_status(conn, game_id, ("running",))
            raise StaleVersion(game_id, expected_version, game.version)

    async def _store_state(
        self,
        conn: Connection,
        game_id: int,
        state_json: str,
        expected_version: int,
        new_version: int,
        deadline: float | None,
        timer_strikes: Mapping[str, int] | None,
        ts: float,
    ) -> None:
        """The optimistic-version write shared by every path that stores a running game's
        state: it changes one row or raises, inside the caller's transaction."""
        cur = await conn.execute(
            STATE_UPDATE,
            _state_params(
                game_id, state_json, expected_version, new_version, deadline, timer_strikes, ts
            ),
        )
        if cur.rowcount != 1:
            game = await self._require_status(conn, game_id, ("running",))
            raise StaleVersion(game_id, expected_version, game.version)

    async def load_running_games(self) -> list[GameRow]:
        """Every running game with its state, for resuming after a restart."""
        return await self._games_where("status = 'running'", ())

    async def load_lobbies(self) -> list[GameRow]:
        """Open lobbies, so their buttons can be re-attached after a restart."""
        return await self._games_where("status = 'lobby'", ())

    async def running_games(self, guild_id: int) -> list[GameRow]:
        """Running games of one guild (for admin/status commands)."""
        return await self._games_where("status = 'running' AND guild_id = ?", (guild_id,))

    async def _games_where(self, where: str, params: tuple[Any, ...]) -> list[GameRow]:
        async with (
            self._read() as conn,
            conn.execute(f"SELECT * FROM games WHERE {where} ORDER BY id", params) as cur,
        ):
            return [_game_from_row(r) async for r in cur]

    async def finish_game(
        self,
        game_id: int,
        results: Sequence[ResultEntry],
        state_json: str,
        *,
        expected_version: int | None = None,
        new_version: int | None = None,
        now: float | None = None,
    ) -> None:
        """Record the end of a game atomically: results, final state, status and releasing
        the players all commit together or not at all, so stats can never count a game that is
        still "running", and nobody stays locked out of joining.

        With ``expected_version`` the same optimistic check as :meth:`save_state` applies.
        """
        ts = self._now(now)
        for entry in results:
            if entry.outcome not in OUTCOMES:
                raise ValueError(f"unknown outcome {entry.outcome!r}")
            if entry.forfeit_reason is not None and (
                entry.outcome != "forfeit" or entry.forfeit_reason not in FORFEIT_REASONS
            ):
                raise ValueError(f"bad forfeit reason {entry.forfeit_reason!r}")
        async with self._transaction() as conn:
            game = await self._require_status(conn, game_id, ("running",))
            if expected_version is not None and game.version != expected_version:
                raise StaleVersion(game_id, expected_version, game.version)
            version = new_version if new_version is not None else game.version + 1
            cur = await conn.execute(
                "UPDATE games SET status = 'finished', state_json = ?, version = ?,"
                " finished_at = ?, updated_at = ?, turn_deadline = NULL"
                " WHERE id = ? AND version = ? AND status = 'running'",
                (state_json, version, ts, ts, game_id, game.version),
            )
            if cur.rowcount != 1:  # another process moved the game on since it was read
                raise StaleVersion(game_id, game.version, None)
            await conn.executemany(
                "INSERT INTO results (game_id, guild_id, user_id, seat, outcome, preset,"
                " finished_at, forfeit_text, forfeit_reason) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        game_id,
                        game.guild_id,
                        r.user_id,
                        r.seat,
                        r.outcome,
                        game.preset,
                        ts,
                        r.forfeit_text,
                        r.forfeit_reason,
                    )
                    for r in results
                ],
            )
            await conn.execute("DELETE FROM active_players WHERE game_id = ?", (game_id,))
            await self._owe(conn, game_id, version, ("table", "result"), ts)

    async def active_game_in_channel(self, channel_id: int) -> int | None:
        """The lobby or running game whose table lives in this channel or thread, if any.

        A channel holds at most one game so that "this channel's game" (e.g. for rules or
        cancelling) is never ambiguous; several channels of a guild may each have one.
        """
        async with (
            self._read() as conn,
            conn.execute(
                "SELECT id FROM games WHERE status IN ('lobby', 'running')"
                " AND COALESCE(thread_id, channel_id) = ? ORDER BY id LIMIT 1",
                (channel_id,),
            ) as cur,
        ):
            row = await cur.fetchone()
        return int(row[0]) if row is not None else None

    async def begin_game(
        self,
        game_id: int,
        seat_order: Sequence[int],
        state_json: str,
        version: int = 1,
        *,
        deadline: float | None = None,
        now: float | None = None,
    ) -> None:
        """Start a lobby: renumber its seats to ``0..n-1`` (``seat_order`` lists the lobby's
        seat numbers in table order) and store the dealt state, in one transaction.

        Lobby seats can have gaps after people leave, while the engine's seats are dense; doing
        both together means a crash can never leave a running game whose seat rows do not
        match its state.
        """
        ts = self._now(now)
        async with self._transaction() as conn:
            await self._require_status(conn, game_id, ("lobby",))
            async with conn.execute(
                "SELECT seat FROM game_seats WHERE game_id = ?", (game_id,)
            ) as cur:
                present = {int(r[0]) async for r in cur}
            if present != set(seat_order) or len(seat_order) != len(present):
                raise ValueError(f"seat_order {list(seat_order)} does not match seats {present}")
            # Two steps through a disjoint range so the (game_id, seat) key never collides.
            offset = 1000 + max(present, default=0)
            await conn.execute(
                "UPDATE game_seats SET seat = seat + ? WHERE game_id = ?", (offset, game_id)
            )
            for new, old in enumerate(seat_order):
                await conn.execute(
                    "UPDATE game_seats SET seat = ? WHERE game_id = ? AND seat = ?",
                    (new, game_id, old + offset),
                )
            await self._start_lobby(conn, game_id, state_json, version, deadline, ts)

    async def leave_running_game(
        self,
        game_id: int,
        seat: int,
        state_json: str,
        *,
        expected_version: int,
        new_version: int,
        deadline: float | None = None,
        timer_strikes: Mapping[str, int] | None = None,
        now: float | None = None,
    ) -> SeatRow:
        """A human leaves a running game: mark the seat left, release the user and store the
        new state (a computer plays on) atomically, with the usual optimistic version check.
        """
        if new_version <= expected_version:
            raise ValueError("new_version must be greater than expected_version")
        ts = self._now(now)
        async with self._transaction() as conn:
            await self._store_state(
                conn,
                game_id,
                state_json,
                expected_version,
                new_version,
                deadline,
                timer_strikes,
                ts,
            )
            async with conn.execute(
                "SELECT * FROM game_seats WHERE game_id = ? AND seat = ?", (game_id, seat)
            ) as cur2:
                row = await cur2.fetchone()
            if row is None or row["user_id"] is None:
                raise ValueError(f"game {game_id}: seat {seat} is not a human seat")
            await conn.execute(
                "UPDATE game_seats SET left_at = COALESCE(left_at, ?)"
                " WHERE game_id = ? AND seat = ?",
                (ts, game_id, seat),
            )
            await conn.execute(
                "DELETE FROM active_players WHERE user_id = ? AND game_id = ?",
                (row["user_id"], game_id),
            )
            return replace(_seat_from_row(row), left_at=row["left_at"] or ts)

    async def cancel_game(self, game_id: int, *, now: float | None = None) -> bool:
        """Cancel a lobby or running game (no results are written). False if it had already
        ended, which makes a double-clicked Cancel harmless."""
        ts = self._now(now)
        async with self._transaction() as conn:
            game = await self._fetch_game(conn, game_id, lock=True)
            if game.status not in ACTIVE_STATUSES:
                return False
            cur = await conn.execute(
                "UPDATE games SET status = 'cancelled', finished_at = ?, updated_at = ?,"
                " turn_deadline = NULL WHERE id = ? AND status IN ('lobby', 'running')",
                (ts, ts, game_id),
            )
            if cur.rowcount != 1:  # ended by another process meanwhile
                return False
            await conn.execute("DELETE FROM active_players WHERE game_id = ?", (game_id,))
            await self._owe(conn, game_id, game.version, ("table",), ts)
        return True

    async def game_results(self, game_id: int) -> list[ResultRow]:
        """Results of one finished game ordered by seat (for the final announcement)."""
        async with (
            self._read() as conn,
            conn.execute(
                "SELECT * FROM results WHERE game_id = ? ORDER BY seat", (game_id,)
            ) as cur,
        ):
            return [
                ResultRow(
                    game_id=r["game_id"],
                    guild_id=r["guild_id"],
                    user_id=r["user_id"],
                    seat=r["seat"],
                    outcome=r["outcome"],
                    preset=r["preset"],
                    finished_at=r["finished_at"],
                    forfeit_text=r["forfeit_text"],
                    forfeit_reason=r["forfeit_reason"],
                )
                async for r in cur
            ]

    # ----------------------------------------------------------------- outbox (bot/delivery.py)

    @staticmethod
    async def _owe(
        conn: Connection, game_id: int, version: int, kinds: Iterable[str], ts: float
    ) -> None:
        """Inside the transaction that ends a game: record what its end owes the channel, so
        a Discord failure or a restart between this commit and the delivery loses nothing."""
        await conn.executemany(
            "INSERT INTO outbox (game_id, kind, version, created_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (game_id, kind) DO UPDATE SET version = excluded.version,"
            " created_at = excluded.created_at WHERE excluded.version >= outbox.version",
            [(game_id, kind, version, ts) for kind in kinds],
        )

    async def outbox_pending(self) -> list[OutboxRow]:
        """Everything still owed to the channel, oldest first (delivery resumes it)."""
        async with (
            self._read() as conn,
            conn.execute(
                "SELECT game_id, kind, version FROM outbox ORDER BY created_at, game_id, kind"
            ) as cur,
        ):
            return [OutboxRow(int(r[0]), str(r[1]), int(r[2])) async for r in cur]

    async def outbox_done(self, game_id: int, kind: str, version: int) -> None:
        """Discord took (or can never take) ``kind`` of ``game_id`` as of ``version``; a newer
        obligation of the same kind stays."""
        async with self._transaction() as conn:
            await conn.execute(
                "DELETE FROM outbox WHERE game_id = ? AND kind = ? AND version <= ?",
                (game_id, kind, version),
            )

    async def ping_delivered(self, game_id: int, version: int) -> None:
        """Discord took the turn ping owed at ``version``: a restart does not repeat it."""
        async with self._transaction() as conn:
            await conn.execute(
                "UPDATE games SET pinged_version = ? WHERE id = ? AND pinged_version < ?",
                (version, game_id, version),
            )

    async def pinged_version(self, game_id: int) -> int:
        """The version of the last turn ping delivered for ``game_id`` (0: none)."""
        async with (
            self._read() as conn,
            conn.execute("SELECT pinged_version FROM games WHERE id = ?", (game_id,)) as cur,
        ):
            row = await cur.fetchone()
        return int(row[0]) if row is not None else 0

    # ----------------------------------------------------------------- guild settings

    async def get_guild_settings(self, guild_id: int) -> GuildSettings:
        """Settings of a guild; defaults (not persisted) if it never changed anything."""
        cached = self._settings_rows.get(guild_id)
        now = self._monotonic()
        if cached is not None and now - cached[0] < self.settings_lifetime:
            return self._settings_of(guild_id, cached[1])
        async with self._read() as conn:
            row = await self._settings_row(conn, guild_id)
        self._settings_rows[guild_id] = (now, row)
        return self._settings_of(guild_id, row)

    @asynccontextmanager
    async def _settings_transaction(self, guild_id: int) -> AsyncIterator[Connection]:
        """A transaction that writes the guild's settings row: read it afresh next time.
        Forgotten before (SQLite: a read waiting for the lock then sees the new row) and after
        (PostgreSQL reads do not wait: one in flight meanwhile may have kept the old row)."""
        self._settings_rows.pop(guild_id, None)
        try:
            async with self._transaction() as conn:
                yield conn
        finally:
            self._settings_rows.pop(guild_id, None)

    @staticmethod
    async def _settings_row(conn: Connection, guild_id: int) -> Any:
        async with conn.execute(
            "SELECT * FROM guild_settings WHERE guild_id = ?", (guild_id,)
        ) as cur:
            return await cur.fetchone()

    async def _get_settings(self, conn: Connection, guild_id: int) -> GuildSettings:
        return self._settings_of(guild_id, await self._settings_row(conn, guild_id))

    def _settings_of(self, guild_id: int, row: Any) -> GuildSettings:
        """The settings a row says (the defaults of now when there is no row)."""
        if row is None:
            return GuildSettings(
                guild_id=guild_id,
                turn_timer_seconds=self.default_turn_timer_seconds,
                use_threads=self.default_use_threads,
            )
        return _settings_from_row(row, self.default_use_threads)

    async def update_guild_settings(self, guild_id: int, **changes: Any) -> GuildSettings:
        """Change some settings (keyword names = GuildSettings fields) and return the result.

        Read-modify-write happens in one transaction so two admins editing different fields at
        once do not overwrite each other.
        """
        unknown = set(changes) - _SETTINGS_FIELDS
        if unknown:
            raise ValueError(f"unknown guild settings: {sorted(unknown)}")
        if "locale" in changes and "locale_explicit" not in changes:
            changes["locale_explicit"] = True
        if "use_threads" in changes and "threads_explicit" not in changes:
            changes["threads_explicit"] = True
        if changes.get("allowed_channel_ids") is not None:
            changes["allowed_channel_ids"] = tuple(int(c) for c in changes["allowed_channel_ids"])
        async with self._settings_transaction(guild_id) as conn:
            settings = replace(await self._get_settings(conn, guild_id), **changes)
            _validate_settings(settings)
            allowed = settings.allowed_channel_ids
            await conn.execute(
                "INSERT INTO guild_settings (guild_id, locale, default_preset, default_options,"
                " turn_timer_seconds, use_threads, default_ai_difficulty, allowed_channel_ids,"
                " locale_explicit, table_pictures, threads_explicit)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET locale = excluded.locale,"
                " default_preset = excluded.default_preset,"
                " default_options = excluded.default_options,"
                " turn_timer_seconds = excluded.turn_timer_seconds,"
                " use_threads = excluded.use_threads,"
                " default_ai_difficulty = excluded.default_ai_difficulty,"
                " allowed_channel_ids = excluded.allowed_channel_ids,"
                " locale_explicit = excluded.locale_explicit,"
                " table_pictures = excluded.table_pictures,"
                " threads_explicit = excluded.threads_explicit",
                (
                    guild_id,
                    settings.locale,
                    settings.default_preset,
                    _dumps(settings.default_options),
                    settings.turn_timer_seconds,
                    int(settings.use_threads),
                    settings.default_ai_difficulty,
                    None if allowed is None else _dumps(list(allowed)),
                    int(settings.locale_explicit),
                    int(settings.pictures),
                    int(settings.threads_explicit),
                ),
            )
        return settings

    # ----------------------------------------------------------------- player preferences

    async def get_player_prefs(self, user_id: int) -> PlayerPrefs:
        """A user's own preferences (defaults, not persisted, if never changed)."""
        async with (
            self._read() as conn,
            conn.execute("SELECT pings FROM player_prefs WHERE user_id = ?", (user_id,)) as cur,
        ):
            row = await cur.fetchone()
        return PlayerPrefs(user_id) if row is None else PlayerPrefs(user_id, bool(row["pings"]))

    async def set_player_prefs(
        self, user_id: int, *, pings: bool, now: float | None = None
    ) -> PlayerPrefs:
        async with self._transaction() as conn:
            await conn.execute(
                "INSERT INTO player_prefs (user_id, pings, updated_at) VALUES (?, ?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET pings = excluded.pings,"
                " updated_at = excluded.updated_at",
                (user_id, int(pings), self._now(now)),
            )
        return PlayerPrefs(user_id, pings)

    # ----------------------------------------------------------------- forfeits

    async def list_forfeits(self, guild_id: int) -> list[Forfeit]:
        """The guild's forfeits in display order (1-based positions used by remove)."""
        async with self._read() as conn:
            return await self._list_forfeits(conn, guild_id)

    @classmethod
    async def _list_forfeits(cls, conn: Connection, guild_id: int) -> list[Forfeit]:
        async with conn.execute(
            "SELECT forfeits_customised, locale FROM guild_settings WHERE guild_id = ?",
            (guild_id,),
        ) as cur:
            row = await cur.fetchone()
        if row is None or not row["forfeits_customised"]:
            locale = row["locale"] if row is not None else "en"
            return [Forfeit(None, text, True) for text in DEFAULT_FORFEITS[locale]]
        async with conn.execute(
            "SELECT id, text FROM forfeits WHERE guild_id = ? ORDER BY id", (guild_id,)
        ) as cur:
            return [Forfeit(r["id"], r["text"]) async for r in cur]

    @staticmethod
    async def _materialise_forfeits(conn: Connection, guild_id: int, ts: float) -> None:
        """Copy the defaults into the table on the first edit, so editing one item keeps the
        rest and an emptied list stays empty instead of reverting to the defaults."""
        await conn.execute(
            "INSERT INTO guild_settings (guild_id) VALUES (?) ON CONFLICT DO NOTHING", (guild_id,)
        )
        async with conn.execute(
            "SELECT forfeits_customised, locale FROM guild_settings WHERE guild_id = ?",
            (guild_id,),
        ) as cur:
            row = await cur.fetchone()
        assert row is not None
        if row["forfeits_customised"]:
            return
        await conn.executemany(
            "INSERT INTO forfeits (guild_id, text, created_at) VALUES (?, ?, ?)",
            [(guild_id, text, ts) for text in DEFAULT_FORFEITS[row["locale"]]],
        )
        await conn.execute(
            "UPDATE guild_settings SET forfeits_customised = 1 WHERE guild_id = ?", (guild_id,)
        )

    async def add_forfeit(self, guild_id: int, text: str, *, now: float | None = None) -> Forfeit:
        """Append a forfeit (1-200 characters after trimming)."""
        text = text.strip()
        if not 1 <= len(text) <= 200:
            raise ValueError("forfeit text must be 1-200 characters")
        ts = self._now(now)
        async with self._settings_transaction(guild_id) as conn:
            await self._materialise_forfeits(conn, guild_id, ts)
            forfeit_id = await conn.insert_returning_id(
                "INSERT INTO forfeits (guild_id, text, created_at) VALUES (?, ?, ?)",
                (guild_id, text, ts),
            )
            assert forfeit_id is not None
            return Forfeit(forfeit_id, text)

    async def remove_forfeit(
        self, guild_id: int, position: int, *, now: float | None = None
    ) -> Forfeit | None:
        """Remove the forfeit at 1-based ``position`` of :meth:`list_forfeits`.

        Positions rather than ids because that is what users see and type, and defaults have
        no ids until first edited. Returns the removed forfeit, or None if out of range.
        """
        ts = self._now(now)
        async with self._settings_transaction(guild_id) as conn:
            await self._materialise_forfeits(conn, guild_id, ts)
            items = await self._list_forfeits(conn, guild_id)
            if not 1 <= position <= len(items):
                return None
            victim = items[position - 1]
            await conn.execute("DELETE FROM forfeits WHERE id = ?", (victim.id,))
            return victim

    async def reset_forfeits(self, guild_id: int) -> None:
        """Forget the guild's edits and go back to the built-in list."""
        async with self._settings_transaction(guild_id) as conn:
            await conn.execute("DELETE FROM forfeits WHERE guild_id = ?", (guild_id,))
            await conn.execute(
                "UPDATE guild_settings SET forfeits_customised = 0 WHERE guild_id = ?",
                (guild_id,),
            )

    async def pick_forfeit(self, guild_id: int, rng: random.Random | None = None) -> str | None:
        """A random forfeit text, or None when the guild emptied its list (feature off)."""
        items = await self.list_forfeits(guild_id)
        if not items:
            return None
        return (rng or random).choice(items).text

    # ----------------------------------------------------------------- stats

    def _period_start(self, period: str, now: float | None) -> float | None:
        if period not in PERIOD_SECONDS:
            raise ValueError(f"period must be one of {sorted(PERIOD_SECONDS)}, got {period!r}")
        span = PERIOD_SECONDS[period]
        return None if span is None else self._now(now) - span

    def _window(self, period: str, now: float | None) -> tuple[str, tuple[float, ...]]:
        """The WHERE condition of a period (empty for 'all') and its parameters.

        Built in Python rather than as ``? IS NULL OR ...``: PostgreSQL cannot tell the type
        of a parameter that is only compared with NULL.
        """
        start = self._period_start(period, now)
        if start is None:
            return "", ()
        return " AND finished_at >= ? AND finished_at <= ?", (start, self._now(now))

    async def leaderboard(
        self,
        guild_id: int,
        period: Period = "all",
        sort: LeaderboardSort = "fools",
        limit: int = 10,
        offset: int = 0,
        now: float | None = None,
        *,
        min_games: int = 1,
    ) -> list[LeaderboardEntry]:
        """A page of the guild leaderboard.

        ``period``: rolling windows - 'week' = last 7 days, 'month' = last 30 days, up to
        ``now``. ``sort='fools'`` is the hall of shame: most fools first (ties: higher fool
        rate, then more games). ``sort='record'`` is the best record: lowest fool rate first
        (ties: more games, more wins); use ``min_games`` to keep one-game wonders out of it.
        Ties finally break by user id so pagination is stable.
        """
        if sort == "fools":
            order = "fools DESC, fool_rate DESC, games DESC, user_id"
        elif sort == "record":
            order = "fool_rate ASC, games DESC, wins DESC, user_id"
        else:
            raise ValueError(f"sort must be 'fools' or 'record', got {sort!r}")
        window, window_params = self._window(period, now)
        # CASE rather than SUM(boolean), which PostgreSQL has no SUM of; DOUBLE PRECISION is
        # a float in both engines (PostgreSQL's REAL is single precision).
        fools = "SUM(CASE WHEN outcome IN ('fool', 'lost_team', 'forfeit') THEN 1 ELSE 0 END)"
        sql = (
            f"SELECT user_id, COUNT(*) AS games, {fools} AS fools,"
            " SUM(CASE WHEN outcome = 'win' THEN 1 ELSE 0 END) AS wins,"
            " SUM(CASE WHEN outcome = 'draw' THEN 1 ELSE 0 END) AS draws,"
            " SUM(CASE WHEN outcome = 'forfeit' THEN 1 ELSE 0 END) AS forfeits,"
            f" CAST({fools} AS DOUBLE PRECISION) / COUNT(*) AS fool_rate"
            f" FROM results WHERE guild_id = ?{window}"
            " GROUP BY user_id HAVING COUNT(*) >= ?"
            f" ORDER BY {order} LIMIT ? OFFSET ?"
        )
        params = (guild_id, *window_params, min_games, limit, offset)
        async with self._read() as conn, conn.execute(sql, params) as cur:
            rows = [r async for r in cur]
        return [
            LeaderboardEntry(
                rank=offset + i + 1,
                user_id=r["user_id"],
                games=r["games"],
                fools=r["fools"],
                wins=r["wins"],
                draws=r["draws"],
                forfeits=r["forfeits"],
            )
            for i, r in enumerate(rows)
        ]

    async def leaderboard_size(
        self,
        guild_id: int,
        period: Period = "all",
        now: float | None = None,
        *,
        min_games: int = 1,
    ) -> int:
        """Number of ranked users, for "page X of Y"."""
        window, window_params = self._window(period, now)
        async with (
            self._read() as conn,
            conn.execute(
                "SELECT COUNT(*) FROM (SELECT user_id FROM results WHERE guild_id = ?"
                f"{window} GROUP BY user_id HAVING COUNT(*) >= ?) AS ranked",
                (guild_id, *window_params, min_games),
            ) as cur,
        ):
            row = await cur.fetchone()
        return int(row[0]) if row is not None else 0

    async def user_stats(self, guild_id: int, user_id: int) -> UserStats:
        """Lifetime stats in a guild; see :class:`UserStats` for the streak definition.

        Favourite preset = most played; ties go to the most recently played one.
        """
        async with (
            self._read() as conn,
            conn.execute(
                "SELECT outcome, preset, finished_at FROM results"
                " WHERE guild_id = ? AND user_id = ? ORDER BY finished_at, game_id",
                (guild_id, user_id),
            ) as cur,
        ):
            rows = [(str(r[0]), str(r[1]), float(r[2])) async for r in cur]
        outcomes = [r[0] for r in rows]
        preset_counts: dict[str, tuple[int, float]] = {}
        for _, preset, finished in rows:
            count, _last = preset_counts.get(preset, (0, 0.0))
            preset_counts[preset] = (count + 1, finished)
        favourite = max(preset_counts, key=lambda p: preset_counts[p]) if preset_counts else None
        longest, current = _streaks(outcomes)
        return UserStats(
            guild_id=guild_id,
            user_id=user_id,
            games=len(rows),
            fools=sum(o in FOOL_OUTCOMES for o in outcomes),
            wins=outcomes.count("win"),
            draws=outcomes.count("draw"),
            forfeits=outcomes.count("forfeit"),
            favourite_preset=favourite,
            longest_fool_free_streak=longest,
            current_fool_free_streak=current,
            last_played_at=rows[-1][2] if rows else None,
        )
