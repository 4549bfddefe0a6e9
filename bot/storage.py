"""Persistent storage for lobbies, running games, results, guild settings and forfeits.

Design notes (the *why*):

* One aiosqlite connection guarded by an :class:`asyncio.Lock`. Every public method is exactly
  one transaction (``BEGIN IMMEDIATE`` … ``COMMIT``), so a crash between two awaits can never
  leave half an operation behind, and no coroutine can observe another one's uncommitted rows.
* Schema changes are numbered SQL files in ``bot/migrations``; each is applied in its own
  transaction together with ``PRAGMA user_version`` so an interrupted upgrade rolls back
  cleanly and is retried on the next start.
* ``games.version`` gives optimistic concurrency: a writer states which version it read and the
  write is refused if somebody else got there first (e.g. a double-clicked button, or an
  interaction replayed after a restart). That is what prevents duplicated actions.
* The "one active game per user" rule lives in the ``active_players`` primary key rather than
  in a check-then-insert in Python, so it also holds for concurrent joins.
* Time is injected (``clock``/``now``) so that tests can control periods and streaks.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import random
import re
import sqlite3
import threading
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, fields, replace
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path
from types import TracebackType
from typing import Any, Literal, Self

import aiosqlite

__all__ = [
    "ACTIVE_STATUSES",
    "DEFAULT_FORFEITS",
    "MIGRATIONS_DIR",
    "OUTBOX_KINDS",
    "AlreadyInGame",
    "Forfeit",
    "GameNotFound",
    "GameRow",
    "GuildSettings",
    "InvalidGameStatus",
    "LeaderboardEntry",
    "LobbyFull",
    "Migration",
    "OutboxRow",
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
]

#: The schema ships inside the package and is read through importlib.resources, so it is found
#: wherever the package is installed (site-packages, a zip, a Docker image) and never depends on
#: the working directory or on a data/ folder next to the code (which, as a Docker volume,
#: would keep serving the migrations of the first image forever).
MIGRATIONS_DIR: Traversable = files("bot").joinpath("migrations")

GameStatus = Literal["lobby", "running", "finished", "cancelled"]
Outcome = Literal["fool", "win", "draw", "forfeit", "lost_team"]
ForfeitReason = Literal["left", "timeout"]
Period = Literal["all", "month", "week"]
LeaderboardSort = Literal["fools", "record"]

ACTIVE_STATUSES: tuple[str, ...] = ("lobby", "running")
#: What an ended game can still owe the channel (table ``outbox``, migration 0006).
OUTBOX_KINDS: tuple[str, ...] = ("table", "result")
DEFAULT_TURN_TIMER_SECONDS = 90
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

log = logging.getLogger(__name__)

_MIGRATION_NAME = re.compile(r"^(\d{4})_[A-Za-z0-9_]+\.sql$")


# --------------------------------------------------------------------------- errors


class StorageError(Exception):
    """Base class so callers can catch every storage refusal in one place."""


class GameNotFound(StorageError):
    """The game id does not exist (stale button, or the row was purged)."""

    def __init__(self, game_id: int) -> None:
        super().__init__(f"game {game_id} does not exist")
        self.game_id = game_id


class InvalidGameStatus(StorageError):
    """The operation does not fit the game's current status (e.g. joining a finished game)."""

    def __init__(self, game_id: int, status: str, expected: Iterable[str]) -> None:
        expected_list = sorted(expected)
        super().__init__(f"game {game_id} is {status!r}, expected one of {expected_list}")
        self.game_id = game_id
        self.status = status
        self.expected = tuple(expected_list)


class StaleVersion(StorageError):
    """Someone else advanced the game first; the caller must reload and re-validate."""

    def __init__(self, game_id: int, expected: int, actual: int | None) -> None:
        super().__init__(f"game {game_id}: expected version {expected}, stored {actual}")
        self.game_id = game_id
        self.expected = expected
        self.actual = actual


class AlreadyInGame(StorageError):
    """The user already sits in a lobby or running game (``game_id``), maybe this very one."""

    def __init__(self, user_id: int, game_id: int) -> None:
        super().__init__(f"user {user_id} is already in active game {game_id}")
        self.user_id = user_id
        self.game_id = game_id


class LobbyFull(StorageError):
    """No free seat below ``max_seats``."""

    def __init__(self, game_id: int, max_seats: int) -> None:
        super().__init__(f"game {game_id} is full ({max_seats} seats)")
        self.game_id = game_id
        self.max_seats = max_seats


class SeatTaken(StorageError):
    """An explicit seat number was requested but is occupied."""

    def __init__(self, game_id: int, seat: int) -> None:
        super().__init__(f"game {game_id}: seat {seat} is taken")
        self.game_id = game_id
        self.seat = seat


# --------------------------------------------------------------------------- rows


@dataclass(frozen=True, slots=True)
class GameRow:
    """A ``games`` row with JSON columns decoded. ``state_json`` stays a string: only the
    engine knows how to parse it, and keeping it opaque keeps storage engine-independent."""

    id: int
    guild_id: int
    channel_id: int
    thread_id: int | None
    table_message_id: int | None
    host_id: int
    status: str
    preset: str
    options: dict[str, Any]
    state_json: str | None
    version: int
    created_at: float
    updated_at: float
    finished_at: float | None
    turn_deadline: float | None
    timer_strikes: dict[str, int]
    turn_reminded: bool = False

    @property
    def message_channel_id(self) -> int:
        """Where the table message lives: the thread if the game uses one."""
        return self.thread_id if self.thread_id is not None else self.channel_id


@dataclass(frozen=True, slots=True)
class SeatRow:
    """One seat; ``user_id`` is None for a computer player."""

    game_id: int
    seat: int
    user_id: int | None
    ai_difficulty: str | None
    display_name: str
    left_at: float | None

    @property
    def is_ai(self) -> bool:
        """Computer seats have no Discord user behind them."""
        return self.user_id is None


@dataclass(frozen=True, slots=True)
class ResultEntry:
    """Input for :meth:`Storage.finish_game`: one per *human* seat."""

    user_id: int
    seat: int
    outcome: Outcome
    forfeit_text: str | None = None
    forfeit_reason: ForfeitReason | None = None


@dataclass(frozen=True, slots=True)
class ResultRow:
    """A stored ``results`` row."""

    game_id: int
    guild_id: int
    user_id: int
    seat: int
    outcome: str
    preset: str
    finished_at: float
    forfeit_text: str | None
    forfeit_reason: str | None = None


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """Per-guild settings; a guild with no row gets these defaults without a write."""

    guild_id: int
    locale: str = "en"
    default_preset: str = "podkidnoy"
    default_options: dict[str, Any] = field(default_factory=dict)
    turn_timer_seconds: int = DEFAULT_TURN_TIMER_SECONDS
    #: Each game in its own thread (where the bot may create threads). Until the guild sets
    #: it (``threads_explicit``) it follows :attr:`Storage.default_use_threads`.
    use_threads: bool = True
    default_ai_difficulty: str = "normal"
    allowed_channel_ids: tuple[int, ...] | None = None
    #: False until the guild picks a language: public messages then follow the server's
    #: Discord language rather than ``locale``.
    locale_explicit: bool = False
    #: The table message carries a picture of the table (False: text only).
    pictures: bool = True
    #: False until the guild sets ``threads`` itself.
    threads_explicit: bool = False

    def channel_allowed(self, channel_id: int) -> bool:
        """None means no restriction, which is the friendlier default for a new guild."""
        return self.allowed_channel_ids is None or channel_id in self.allowed_channel_ids


@dataclass(frozen=True, slots=True)
class Forfeit:
    """A forfeit; ``id`` is None (and ``is_default`` True) for built-in, never-edited lists."""

    id: int | None
    text: str
    is_default: bool = False


@dataclass(frozen=True, slots=True)
class LeaderboardEntry:
    """Aggregates over ``results`` for one user in the chosen period.

    ``fools`` counts outcomes ``fool``, ``lost_team`` and ``forfeit`` (see FOOL_OUTCOMES);
    ``forfeits`` counts games the user abandoned or was timed out of (outcome ``forfeit``), so
    a forfeit shows in both columns. ``wins`` = went out before the last player (``win``).
    """

    rank: int
    user_id: int
    games: int
    fools: int
    wins: int
    draws: int
    forfeits: int

    @property
    def fool_rate(self) -> float:
        """Share of games ending as the fool, 0.0–1.0."""
        return self.fools / self.games if self.games else 0.0


@dataclass(frozen=True, slots=True)
class UserStats:
    """Lifetime stats of a user in one guild.

    The streak statistic is the longest run of consecutive games (by finish time) in which the
    user was *not* the fool (``fool``/``lost_team``/``forfeit``: walking away is being the
    fool, so it cannot protect a streak). Draws and wins extend it.
    """

    guild_id: int
    user_id: int
    games: int
    fools: int
    wins: int
    draws: int
    forfeits: int
    favourite_preset: str | None
    longest_fool_free_streak: int
    current_fool_free_streak: int
    last_played_at: float | None

    @property
    def fool_rate(self) -> float:
        """Share of games ending as the fool, 0.0–1.0."""
        return self.fools / self.games if self.games else 0.0


@dataclass(frozen=True, slots=True)
class OutboxRow:
    """Something the channel is still owed for an ended game: its final ``table`` or its
    ``result`` announcement, as of game ``version`` (see bot/delivery.py)."""

    game_id: int
    kind: str
    version: int


@dataclass(frozen=True, slots=True)
class Migration:
    """A numbered SQL script from ``bot/migrations``."""

    version: int
    name: str
    sql: str


# --------------------------------------------------------------------------- migrations


def load_migrations(directory: Traversable = MIGRATIONS_DIR) -> list[Migration]:
    """Read ``NNNN_name.sql`` files; numbering must be gap-free so a missing file is loud.

    Only the ``Traversable`` API is used (no ``Path`` methods), so the same code reads the
    files from a source checkout, an installed wheel or a zip archive.
    """
    migrations: list[Migration] = []
    for entry in sorted(directory.iterdir(), key=lambda e: e.name):
        match = _MIGRATION_NAME.match(entry.name)
        if match is None:
            continue
        migrations.append(
            Migration(
                int(match.group(1)),
                entry.name.removesuffix(".sql"),
                entry.read_text(encoding="utf-8"),
            )
        )
    if not migrations:
        raise StorageError(
            f"no migrations found in {directory}; the package was installed without its"
            " bot/migrations/*.sql files"
        )
    for expected, migration in enumerate(migrations, start=1):
        if migration.version != expected:
            raise StorageError(
                f"migrations must be numbered 0001, 0002, … without gaps; "
                f"found {migration.name} where version {expected} was expected"
            )
    return migrations


async def _apply_migrations(
    conn: aiosqlite.Connection, migrations: Sequence[Migration], target: int | None
) -> int:
    """Bring the database to ``target`` (default: latest). Returns the resulting version.

    ``executescript`` commits any open transaction before running, so the BEGIN/COMMIT are
    part of the script itself; on failure we roll back the half-applied script explicitly.
    """
    current = await _user_version(conn)
    latest = migrations[-1].version if migrations else 0
    if current > latest:
        raise StorageError(
            f"database schema version {current} is newer than this code supports ({latest}); "
            "refusing to touch it"
        )
    target = latest if target is None else target
    for migration in migrations:
        if migration.version <= current or migration.version > target:
            continue
        script = (
            "BEGIN IMMEDIATE;\n"
            f"{migration.sql}\n;\n"
            f"PRAGMA user_version = {migration.version};\n"
            "COMMIT;"
        )
        try:
            await conn.executescript(script)
        except BaseException:
            if conn.in_transaction:
                await conn.rollback()
            raise
        current = migration.version
    return current


async def _user_version(conn: aiosqlite.Connection) -> int:
    async with conn.execute("PRAGMA user_version") as cur:
        row = await cur.fetchone()
    return int(row[0]) if row is not None else 0


# --------------------------------------------------------------------------- helpers


def _dumps(value: Any) -> str:
    """Compact, deterministic JSON so equal options produce equal text."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def _game_from_row(row: sqlite3.Row) -> GameRow:
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


def _seat_from_row(row: sqlite3.Row) -> SeatRow:
    return SeatRow(
        game_id=row["game_id"],
        seat=row["seat"],
        user_id=row["user_id"],
        ai_difficulty=row["ai_difficulty"],
        display_name=row["display_name"],
        left_at=row["left_at"],
    )


def _settings_from_row(row: sqlite3.Row, default_threads: bool = True) -> GuildSettings:
    allowed = row["allowed_channel_ids"]
    keys = row.keys()
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


@dataclass(frozen=True, slots=True)
class PlayerPrefs:
    """One user's own preferences, the same on every server; no row means the defaults."""

    user_id: int
    pings: bool = True


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


#: The optimistic-version write of a running game's state: changes one row or none.
_STATE_UPDATE = (
    "UPDATE games SET state_json = ?, version = ?, turn_deadline = ?,"
    " timer_strikes = COALESCE(?, timer_strikes), turn_reminded = 0, updated_at = ?"
    " WHERE id = ? AND version = ? AND status = 'running'"
)


def _state_params(
    game_id: int,
    state_json: str,
    expected_version: int,
    new_version: int,
    deadline: float | None,
    timer_strikes: Mapping[str, int] | None,
    ts: float,
) -> tuple[object, ...]:
    strikes = None if timer_strikes is None else _dumps(dict(timer_strikes))
    return (state_json, new_version, deadline, strikes, ts, game_id, expected_version)


#: Bytes of game state written between two WAL checkpoints: about SQLite's own default of
#: 1,000 pages, so the WAL stays a few megabytes.
CHECKPOINT_BYTES = 4 << 20
#: SQLite's default page size, the least one committed transaction adds to the WAL.
PAGE_SIZE = 4096
#: What an emptied WAL file may keep on disk (SQLite truncates it to this after a checkpoint).
WAL_SIZE_LIMIT = 64 << 20

#: Most moves one group commit writes; keeps a transaction (and the write lock) short.
_STATE_BATCH_MAX = 256


@dataclass
class _StateWrite:
    """One queued move: its parameters for ``_STATE_UPDATE`` and whether it was stored."""

    game_id: int
    params: tuple[object, ...]
    stored: asyncio.Future[bool]


#: ``UPDATE ... FROM`` arrived in SQLite 3.33 (2020); older libraries write moves one by one.
_UPDATE_FROM = sqlite3.sqlite_version_info >= (3, 33, 0)


def _batch_update_sql(rows: int) -> str:
    """``_STATE_UPDATE`` for ``rows`` games in one statement (parameters as ``_state_params``)."""
    values = ", ".join(["(?, ?, ?, ?, ?, ?, ?)"] * rows)
    return (
        "UPDATE games SET state_json = v.column1, version = v.column2, turn_deadline = v.column3,"
        " timer_strikes = COALESCE(v.column4, games.timer_strikes), turn_reminded = 0,"
        f" updated_at = v.column5 FROM (VALUES {values}) AS v"
        " WHERE games.id = v.column6 AND games.version = v.column7 AND games.status = 'running'"
    )


def _update_states(conn: sqlite3.Connection, batch: Sequence[_StateWrite]) -> list[bool]:
    """Runs in the database thread and stores a batch of moves in one transaction.

    The moves go into one statement, because each statement costs the database thread a
    fresh turn at the GIL, which a busy event loop hands over only every few milliseconds:
    a batch written row by row took over 100 ms under load. When that statement changes
    fewer rows than the batch holds, some version was stale: the transaction is rolled back
    and every move is written alone, so that each gets its own answer.
    """
    if len(batch) == 1:  # autocommit: the statement is its own transaction
        return [conn.execute(_STATE_UPDATE, batch[0].params).rowcount == 1]
    conn.execute("BEGIN IMMEDIATE")
    try:
        if _UPDATE_FROM:
            params = [p for w in batch for p in w.params]
            if conn.execute(_batch_update_sql(len(batch)), params).rowcount == len(batch):
                conn.commit()
                return [True] * len(batch)
            conn.rollback()
            conn.execute("BEGIN IMMEDIATE")
        stored = [conn.execute(_STATE_UPDATE, w.params).rowcount == 1 for w in batch]
    except BaseException:
        conn.rollback()
        raise
    conn.commit()
    return stored


#: Longest one trip to the database thread keeps committing moves before it hands the
#: connection back (while it drains the queue the writer holds the storage lock, so other
#: transactions wait), and how long it waits for the next move before it stops.
_STATE_TRIP_SECONDS = 0.02
_STATE_LINGER_SECONDS = 0.005

_Settle = Callable[[list[_StateWrite], "list[bool] | BaseException"], None]


def _take_batch(queue: deque[_StateWrite]) -> list[_StateWrite]:
    """The oldest queued moves, at most one per game and ``_STATE_BATCH_MAX`` in all.

    Strictly first in, first out: a game's second move ends the batch, so it is written after
    its first and its version check sees the first one's version.
    """
    batch: list[_StateWrite] = []
    seen: set[int] = set()
    while queue and len(batch) < _STATE_BATCH_MAX:
        w = queue.popleft()
        if w.game_id in seen:
            queue.appendleft(w)
            break
        seen.add(w.game_id)
        batch.append(w)
    return batch


def _drain_states(
    conn: sqlite3.Connection,
    queue: deque[_StateWrite],
    wake: threading.Event,
    settle: _Settle,
    closing: threading.Event,
) -> None:
    """Runs in the database thread: commit queued moves batch by batch until none comes.

    Each batch is reported to the event loop as soon as it is committed (``settle`` is
    thread-safe), and moves queued meanwhile go into the next batch without the event loop
    having to start another trip: under load every hand-over between the loop and this thread
    waits for a whole turn of the loop, so a move should wait only for its own commit and one
    hand-over back. The thread waits briefly for the next move (``wake`` is set on every
    queued move) and stops after ``_STATE_TRIP_SECONDS`` so other transactions get their turn.
    ``closing`` stops the drain at shutdown; the deque's appends and pops are atomic, so the
    loop may queue concurrently.
    """
    stop = time.monotonic() + _STATE_TRIP_SECONDS
    while not closing.is_set():
        wake.clear()
        batch = _take_batch(queue)
        if not batch:
            if time.monotonic() >= stop or not wake.wait(_STATE_LINGER_SECONDS):
                return
            continue
        try:
            stored = _update_states(conn, batch)
        except Exception as exc:  # reported to each waiter; the next batch still gets its go
            settle(batch, exc)
        else:
            settle(batch, stored)
        if time.monotonic() >= stop:
            return


class Storage:
    """Async facade over the SQLite database. Create with ``await Storage.open(path)``."""

    def __init__(self, conn: aiosqlite.Connection, clock: Callable[[], float]) -> None:
        """Prefer :meth:`open`; the constructor assumes an already configured connection."""
        self._conn = conn
        self._clock = clock
        self._lock = asyncio.Lock()
        #: Moves waiting for the group commit (see :meth:`save_state`) and its writer task.
        #: (A deque: the database thread takes from it while the loop adds to it.)
        self._state_queue: deque[_StateWrite] = deque()
        self._state_writer: asyncio.Task[None] | None = None
        self._state_closing = threading.Event()  # set once the writer is cancelled
        self._state_wake = threading.Event()
        #: A second connection that checkpoints the WAL off the commit path (file databases
        #: in WAL mode only), and how many bytes of state were written since its last run.
        self._checkpointer: aiosqlite.Connection | None = None
        self._checkpoint_task: asyncio.Task[None] | None = None
        self._unchecked_bytes = 0
        self.schema_version = 0
        #: Turn timer of guilds that never saved settings (DEFAULT_TURN_TIMER_SECONDS); it is
        #: also what their first saved row starts from, so saving the language keeps it.
        self.default_turn_timer_seconds = DEFAULT_TURN_TIMER_SECONDS
        #: Whether guilds that never set ``threads`` play each game in its own thread.
        self.default_use_threads = True

    # ----------------------------------------------------------------- lifecycle

    @classmethod
    async def open(
        cls,
        path: str | os.PathLike[str],
        *,
        clock: Callable[[], float] = time.time,
        migrations_dir: Traversable = MIGRATIONS_DIR,
        target_version: int | None = None,
    ) -> Self:
        """Open (creating if needed) and migrate the database.

        ``target_version`` exists for tests that need a database frozen at an old schema;
        production always migrates to the latest.
        """
        path_str = os.fspath(path)
        if path_str != ":memory:":
            Path(path_str).parent.mkdir(parents=True, exist_ok=True)
        # isolation_level=None: we issue BEGIN/COMMIT ourselves; the sqlite3 module's implicit
        # transactions would otherwise interleave with ours in surprising ways.
        conn = await aiosqlite.connect(path_str, isolation_level=None)
        try:
            conn.row_factory = sqlite3.Row
            # WAL lets readers (e.g. a backup or a stats query tool) work during writes, and
            # NORMAL sync is durable enough with WAL while much cheaper per action.
            # Cursors are closed explicitly: `journal_mode` returns a row, and a cursor left
            # unconsumed keeps its statement active until garbage collection, which makes the
            # migration's COMMIT fail ("SQL statements in progress") wherever something else
            # still references the cursor (seen under simcord).
            for pragma in (
                "PRAGMA journal_mode = WAL",
                "PRAGMA synchronous = NORMAL",
                "PRAGMA foreign_keys = ON",
                "PRAGMA busy_timeout = 5000",
            ):
                async with conn.execute(pragma):
                    pass
            storage = cls(conn, clock)
            storage.schema_version = await _apply_migrations(
                conn, load_migrations(migrations_dir), target_version
            )
            if path_str != ":memory:" and await storage.journal_mode() == "wal":
                await storage._start_checkpointer(path_str)
        except BaseException:
            await conn.close()
            raise
        return storage

    async def _start_checkpointer(self, path: str) -> None:
        """Move WAL checkpoints off the commit path.

        By default SQLite checkpoints inside whichever commit pushes the WAL past 1,000
        pages: that commit copies the pages into the database file and syncs it, which took
        20-200 ms, and every move queued behind it waited as long (the tail of
        bench/bot_load.py). Here commits never checkpoint; after every ~4 MB of game state
        a PASSIVE checkpoint runs on a second connection in its own thread, which does not
        block the writer (WAL allows both at once).
        """
        async with self._conn.execute("PRAGMA wal_autocheckpoint = 0"):
            pass
        # the WAL file is reused from its start after a full checkpoint; cap what it keeps
        async with self._conn.execute(f"PRAGMA journal_size_limit = {WAL_SIZE_LIMIT}"):
            pass
        checkpointer = await aiosqlite.connect(path, isolation_level=None)
        try:
            async with checkpointer.execute("PRAGMA busy_timeout = 5000"):
                pass
        except BaseException:
            await checkpointer.close()
            raise
        self._checkpointer = checkpointer

    def _wrote(self, size: int) -> None:
        """Count written bytes; start a background checkpoint once enough have piled up."""
        self._unchecked_bytes += size
        if (
            self._unchecked_bytes >= CHECKPOINT_BYTES
            and self._checkpointer is not None
            and self._checkpoint_task is None
        ):
            self._checkpoint_task = asyncio.create_task(self._background_checkpoint())

    async def _background_checkpoint(self) -> None:
        try:
            await self.checkpoint()
        except Exception:
            log.warning("WAL checkpoint failed; the next one will retry", exc_info=True)
        finally:
            self._checkpoint_task = None

    async def checkpoint(self) -> tuple[int, int]:
        """Copy committed pages from the WAL into the database file without blocking writers;
        returns (pages in the WAL, pages checkpointed). (0, 0) when there is no WAL."""
        if self._checkpointer is None:
            return (0, 0)
        self._unchecked_bytes = 0
        async with self._checkpointer.execute("PRAGMA wal_checkpoint(PASSIVE)") as cur:
            row = await cur.fetchone()
        return (0, 0) if row is None else (int(row[1]), int(row[2]))

    async def close(self) -> None:
        """Close the connection; waits for queued moves and any in-flight transaction first."""
        if self._state_writer is not None:  # its last batch may start a checkpoint
            await asyncio.wait([self._state_writer])  # never raises: its waiters get that
        if self._checkpoint_task is not None:
            await asyncio.wait([self._checkpoint_task])
        if self._checkpointer is not None:
            await self._checkpointer.close()
            self._checkpointer = None
        async with self._lock:
            await self._conn.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    async def journal_mode(self) -> str:
        """Exposed for health checks/tests: WAL silently falls back on some filesystems."""
        async with self._read() as conn, conn.execute("PRAGMA journal_mode") as cur:
            row = await cur.fetchone()
        return str(row[0]) if row is not None else ""

    # ----------------------------------------------------------------- plumbing

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """Serialised write transaction. IMMEDIATE takes the write lock up front so that a
        second process (e.g. a maintenance script) cannot make us fail half-way with BUSY."""
        async with self._lock:
            await self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
            except BaseException:
                await self._conn.rollback()
                raise
            else:
                await self._conn.commit()
                self._wrote(PAGE_SIZE)  # at least a page: lobbies and results count too

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[aiosqlite.Connection]:
        """Reads share the lock so they never see another coroutine's uncommitted writes."""
        async with self._lock:
            yield self._conn

    def _now(self, now: float | None) -> float:
        return self._clock() if now is None else now

    @staticmethod
    async def _fetch_game(conn: aiosqlite.Connection, game_id: int) -> GameRow:
        async with conn.execute("SELECT * FROM games WHERE id = ?", (game_id,)) as cur:
            row = await cur.fetchone()
        if row is None:
            raise GameNotFound(game_id)
        return _game_from_row(row)

    @classmethod
    async def _require_status(
        cls, conn: aiosqlite.Connection, game_id: int, allowed: Iterable[str]
    ) -> GameRow:
        allowed_set = frozenset(allowed)
        game = await cls._fetch_game(conn, game_id)
        if game.status not in allowed_set:
            raise InvalidGameStatus(game_id, game.status, allowed_set)
        return game

    @staticmethod
    async def _claim_user(conn: aiosqlite.Connection, user_id: int, game_id: int) -> None:
        """Insert into active_players; the primary key turns a second active game into an
        error we translate, instead of a race-prone SELECT-then-INSERT."""
        try:
            await conn.execute(
                "INSERT INTO active_players (user_id, game_id) VALUES (?, ?)", (user_id, game_id)
            )
        except sqlite3.IntegrityError:
            async with conn.execute(
                "SELECT game_id FROM active_players WHERE user_id = ?", (user_id,)
            ) as cur:
                row = await cur.fetchone()
            raise AlreadyInGame(user_id, int(row[0]) if row else game_id) from None

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
            cur = await conn.execute(
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
            game_id = cur.lastrowid
            assert game_id is not None
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
            await conn.execute(
                "UPDATE games SET status = 'running', state_json = ?, version = ?,"
                " turn_deadline = ?, timer_strikes = '{}', updated_at = ? WHERE id = ?",
                (state_json, version, deadline, ts, game_id),
            )

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
        write = _StateWrite(
            game_id,
            _state_params(
                game_id, state_json, expected_version, new_version, deadline, timer_strikes, ts
            ),
            asyncio.get_running_loop().create_future(),
        )
        if self._state_closing.is_set():
            raise StorageError("the database is closing")
        self._state_queue.append(write)
        self._state_wake.set()
        if self._state_writer is None:
            self._state_writer = asyncio.create_task(self._write_states())
        if not await write.stored:
            async with self._read() as conn:
                game = await self._require_status(conn, game_id, ("running",))
            raise StaleVersion(game_id, expected_version, game.version)

    async def _write_states(self) -> None:
        """Group commit: the moves of many games in one transaction.

        Every accepted move waits for its own commit before the player sees it, and a trip to
        the database thread costs a full turn of a busy event loop. One writer task therefore
        hands the queue to the database thread, which commits whatever is queued in batches
        (``_drain_states``) and settles each batch's moves from there, so under load the
        commit time stays flat instead of growing with the queue (bench/bot_load.py). A batch
        holds each game at most once, so two writes of one game keep their order and their
        version check.

        aiosqlite has no public way to run several statements in one trip, so this uses its
        ``_execute`` (unchanged across the pinned 0.20-0.22 range); the tests of group commit
        fail loudly should that ever change.
        """
        loop = asyncio.get_running_loop()

        def settle(batch: list[_StateWrite], result: list[bool] | BaseException) -> None:
            loop.call_soon_threadsafe(self._settle, batch, result)

        run_in_thread: Callable[..., Awaitable[None]] = self._conn._execute
        try:
            while self._state_queue and not self._state_closing.is_set():
                async with self._lock:
                    await run_in_thread(
                        _drain_states,
                        self._conn._conn,
                        self._state_queue,
                        self._state_wake,
                        settle,
                        self._state_closing,
                    )
        except BaseException as exc:
            # cancelled (shutdown) or the connection failed: nobody may wait forever for a
            # write that never ran
            self._state_closing.set()
            error = exc if isinstance(exc, Exception) else StorageError("the database is closing")
            while self._state_queue:
                w = self._state_queue.popleft()
                if not w.stored.done():
                    w.stored.set_exception(error)
            raise
        finally:
            self._state_writer = None

    def _settle(self, batch: list[_StateWrite], result: list[bool] | BaseException) -> None:
        """In the event loop: answer the moves of one committed (or failed) batch."""
        if isinstance(result, BaseException):
            for w in batch:
                if not w.stored.done():
                    w.stored.set_exception(result)
            return
        for w, ok in zip(batch, result, strict=True):
            if not w.stored.done():
                w.stored.set_result(ok)
        self._wrote(sum(len(str(w.params[0])) for w in batch))

    async def _store_state(
        self,
        conn: aiosqlite.Connection,
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
            _STATE_UPDATE,
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
            await conn.execute(
                "UPDATE games SET status = 'finished', state_json = ?, version = ?,"
                " finished_at = ?, updated_at = ?, turn_deadline = NULL WHERE id = ?",
                (state_json, version, ts, ts, game_id),
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
            await conn.execute(
                "UPDATE games SET status = 'running', state_json = ?, version = ?,"
                " turn_deadline = ?, timer_strikes = '{}', updated_at = ? WHERE id = ?",
                (state_json, version, deadline, ts, game_id),
            )

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
            game = await self._fetch_game(conn, game_id)
            if game.status not in ACTIVE_STATUSES:
                return False
            await conn.execute(
                "UPDATE games SET status = 'cancelled', finished_at = ?, updated_at = ?,"
                " turn_deadline = NULL WHERE id = ?",
                (ts, ts, game_id),
            )
            await conn.execute("DELETE FROM active_players WHERE game_id = ?", (game_id,))
            await self._owe(conn, game_id, game.version, ("table",), ts)
        return True

    # ----------------------------------------------------------------- outbox (bot/delivery.py)

    @staticmethod
    async def _owe(
        conn: aiosqlite.Connection, game_id: int, version: int, kinds: Iterable[str], ts: float
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

    # ----------------------------------------------------------------- guild settings

    async def get_guild_settings(self, guild_id: int) -> GuildSettings:
        """Settings of a guild; defaults (not persisted) if it never changed anything."""
        async with self._read() as conn:
            return await self._get_settings(conn, guild_id)

    async def _get_settings(self, conn: aiosqlite.Connection, guild_id: int) -> GuildSettings:
        async with conn.execute(
            "SELECT * FROM guild_settings WHERE guild_id = ?", (guild_id,)
        ) as cur:
            row = await cur.fetchone()
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
        async with self._transaction() as conn:
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
    async def _list_forfeits(cls, conn: aiosqlite.Connection, guild_id: int) -> list[Forfeit]:
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
    async def _materialise_forfeits(conn: aiosqlite.Connection, guild_id: int, ts: float) -> None:
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
        async with self._transaction() as conn:
            await self._materialise_forfeits(conn, guild_id, ts)
            cur = await conn.execute(
                "INSERT INTO forfeits (guild_id, text, created_at) VALUES (?, ?, ?)",
                (guild_id, text, ts),
            )
            assert cur.lastrowid is not None
            return Forfeit(cur.lastrowid, text)

    async def remove_forfeit(
        self, guild_id: int, position: int, *, now: float | None = None
    ) -> Forfeit | None:
        """Remove the forfeit at 1-based ``position`` of :meth:`list_forfeits`.

        Positions rather than ids because that is what users see and type, and defaults have
        no ids until first edited. Returns the removed forfeit, or None if out of range.
        """
        ts = self._now(now)
        async with self._transaction() as conn:
            await self._materialise_forfeits(conn, guild_id, ts)
            items = await self._list_forfeits(conn, guild_id)
            if not 1 <= position <= len(items):
                return None
            victim = items[position - 1]
            await conn.execute("DELETE FROM forfeits WHERE id = ?", (victim.id,))
            return victim

    async def reset_forfeits(self, guild_id: int) -> None:
        """Forget the guild's edits and go back to the built-in list."""
        async with self._transaction() as conn:
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
        start = self._period_start(period, now)
        sql = (
            "SELECT user_id, COUNT(*) AS games,"
            " SUM(outcome IN ('fool', 'lost_team', 'forfeit')) AS fools,"
            " SUM(outcome = 'win') AS wins, SUM(outcome = 'draw') AS draws,"
            " SUM(outcome = 'forfeit') AS forfeits,"
            " CAST(SUM(outcome IN ('fool', 'lost_team', 'forfeit')) AS REAL) / COUNT(*)"
            " AS fool_rate"
            " FROM results WHERE guild_id = ? AND (? IS NULL OR finished_at >= ?)"
            " AND (? IS NULL OR finished_at <= ?)"
            " GROUP BY user_id HAVING COUNT(*) >= ?"
            f" ORDER BY {order} LIMIT ? OFFSET ?"
        )
        end = None if start is None else self._now(now)
        async with (
            self._read() as conn,
            conn.execute(sql, (guild_id, start, start, end, end, min_games, limit, offset)) as cur,
        ):
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
        start = self._period_start(period, now)
        end = None if start is None else self._now(now)
        async with (
            self._read() as conn,
            conn.execute(
                "SELECT COUNT(*) FROM (SELECT user_id FROM results WHERE guild_id = ?"
                " AND (? IS NULL OR finished_at >= ?) AND (? IS NULL OR finished_at <= ?)"
                " GROUP BY user_id HAVING COUNT(*) >= ?)",
                (guild_id, start, start, end, end, min_games),
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
