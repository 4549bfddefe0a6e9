"""The SQLite backend: the embedded default, one file, nothing to set up.

Design notes (the *why*):

* aiosqlite, through its public API only: one :class:`aiosqlite.Connection` (its own
  thread runs the blocking sqlite3 calls, so the event loop never waits on the disk),
  ``execute``/``execute_fetchall``/``executemany``, ``commit``/``rollback``. Nothing reaches
  into its internals, so any release of the 0.x series that keeps that API will do
  (tests/packaging checks no library's private attribute is touched anywhere).
* Every call is one hand-over to that thread and back, and under load each hand-over
  waits for a turn of the busy event loop, so the statements are arranged to need few:
  a write needs one (its ``rowcount``/``lastrowid`` come with the cursor), a SELECT one
  (``execute_fetchall``), and a group commit of many moves one (see
  :meth:`SqliteDatabase._update_states`).
* An :class:`asyncio.Lock` serialises the connection. Every write transaction is explicit
  (``BEGIN IMMEDIATE`` ... ``commit``): IMMEDIATE takes the write lock up front so a second
  process cannot make us fail half-way with BUSY. Reads share the lock so they never see
  another coroutine's uncommitted rows.
* WAL journal: readers (a backup, a stats tool) work during writes, and NORMAL sync is
  durable enough with WAL while much cheaper per action. Checkpoints run on a second
  connection off the commit path (see :meth:`SqliteDatabase._start_checkpointer`).
* Schema version in ``PRAGMA user_version``, set in the same transaction as each migration.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import re
import sqlite3
import threading
import time
import weakref
from collections.abc import AsyncIterator, Iterable, Iterator, Sequence
from contextlib import asynccontextmanager
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, Self

import aiosqlite

from .backend import STATE_UPDATE, Database, StateWrite, take_batch
from .dialect import Connection, Cursor, IntegrityError
from .migrations import MIGRATIONS_DIR, load_migrations, pending_migrations
from .rows import StorageError

__all__ = ["CHECKPOINT_BYTES", "PAGE_SIZE", "WAL_SIZE_LIMIT", "SqliteDatabase"]

log = logging.getLogger(__name__)
_SQL_COMMENT = re.compile(r"--[^\n]*")

#: Bytes of game state written between two WAL checkpoints: about SQLite's own default of
#: 1,000 pages, so the WAL stays a few megabytes.
CHECKPOINT_BYTES = 4 << 20
#: SQLite's default page size, the least one committed transaction adds to the WAL.
PAGE_SIZE = 4096
#: What an emptied WAL file may keep on disk (SQLite truncates it to this after a checkpoint).
WAL_SIZE_LIMIT = 64 << 20
#: Longest the group commit keeps the connection for consecutive batches of moves before it
#: lets the other transactions (lobbies, results) waiting for the lock have their turn.
_STATE_TRIP_SECONDS = 0.02
#: How long opening the database retries switching it to WAL (see ``_switch_to_wal``).
_WAL_SWITCH_SECONDS = 10.0
#: A whole batch of moves in one ``UPDATE ... FROM (VALUES ...) RETURNING`` statement needs
#: SQLite 3.35 (2021; ``UPDATE ... FROM`` came in 3.33, ``RETURNING`` in 3.35); older
#: libraries write a batch row by row in one explicit transaction.
_BATCH_STATEMENT = sqlite3.sqlite_version_info >= (3, 35, 0)


def _statements(script: str) -> Iterator[str]:
    """The statements of a migration file, one by one (``executescript`` would commit the
    transaction the migration must run in)."""
    statement = ""
    for line in script.splitlines(keepends=True):
        statement += line
        if sqlite3.complete_statement(statement):
            yield statement
            statement = ""
    if _SQL_COMMENT.sub("", statement).strip():
        yield statement  # incomplete: let SQLite say what is wrong with it


def _is_select(sql: str) -> bool:
    """A plain SELECT (never a write): its rows and nothing else are wanted."""
    return sql.lstrip()[:6].upper() == "SELECT"


def _batch_update_sql(rows: int) -> str:
    """``STATE_UPDATE`` for ``rows`` games in one statement (parameters as ``state_params``)
    that returns the id of every game it changed."""
    values = ", ".join(["(?, ?, ?, ?, ?, ?, ?, ?)"] * rows)
    return (
        "UPDATE games SET state_json = v.column1, version = v.column2, turn_deadline = v.column3,"
        " timer_strikes = COALESCE(v.column4, games.timer_strikes), turn_reminded = 0,"
        " updated_at = v.column5, record = games.record || COALESCE(v.column6, '')"
        f" FROM (VALUES {values}) AS v"
        " WHERE games.id = v.column7 AND games.version = v.column8 AND games.status = 'running'"
        " RETURNING id"
    )


class SqliteConnection(Connection):
    """:class:`Connection` over the aiosqlite connection (the caller holds the lock)."""

    dialect = "sqlite"
    for_update = ""  # BEGIN IMMEDIATE already holds the database's write lock

    def __init__(self, db: aiosqlite.Connection) -> None:
        self.db = db

    async def _execute(self, sql: str, params: tuple[Any, ...]) -> Cursor:
        """One statement in one hand-over to the connection's thread (two for a statement
        other than SELECT that returns rows: a PRAGMA or a RETURNING clause)."""
        try:
            if _is_select(sql):
                return Cursor(list(await self.db.execute_fetchall(sql, params)), -1)
            cur = await self.db.execute(sql, params)
            # A write ran to its end inside execute (sqlite3 resets the statement there),
            # so nothing stays open; a statement with rows is read to its end here.
            rows = list(await cur.fetchall()) if cur.description is not None else []
            return Cursor(rows, cur.rowcount, cur.lastrowid)
        except sqlite3.IntegrityError as exc:
            raise IntegrityError(*exc.args) from exc

    async def executemany(self, sql: str, seq: Iterable[Sequence[Any]]) -> None:
        try:
            await self.db.executemany(sql, [tuple(p) for p in seq])
        except sqlite3.IntegrityError as exc:
            raise IntegrityError(*exc.args) from exc

    async def insert_returning_id(self, sql: str, params: Sequence[Any] = ()) -> int | None:
        cur = await self.execute(sql, params)
        return cur.lastrowid if cur.rowcount == 1 else None


#: Connections not closed yet, stopped when the main thread ends (see ``_stop_at_exit``).
_OPEN: weakref.WeakSet[aiosqlite.Connection] = weakref.WeakSet()
_exit_watch: threading.Thread | None = None


def _stop_at_exit(db: aiosqlite.Connection) -> None:
    """Stop ``db``'s thread once the main thread has ended, if nobody closed it.

    aiosqlite's worker thread is not a daemon, so a storage left open (a crash on the way
    out, a start that failed half-way) kept the interpreter waiting for that thread forever
    at exit instead of exiting: a bot that should have been restarted hung. A daemon thread
    of ours waits for the main thread and calls each open connection's ``stop()`` (public:
    the connection closes after the calls already queued, nothing uncommitted is kept).
    """
    global _exit_watch
    _OPEN.add(db)
    if _exit_watch is None:

        def watch() -> None:
            threading.main_thread().join()
            for conn in list(_OPEN):
                conn.stop()

        _exit_watch = threading.Thread(target=watch, name="durak-sqlite-exit", daemon=True)
        _exit_watch.start()


async def _connect(path: str) -> aiosqlite.Connection:
    # isolation_level=None: we issue BEGIN/COMMIT ourselves; the sqlite3 module's implicit
    # transactions would interleave with ours.
    db = await aiosqlite.connect(path, isolation_level=None)
    _stop_at_exit(db)
    db.row_factory = sqlite3.Row
    try:
        await db.execute("PRAGMA busy_timeout = 5000")
    except BaseException:
        await _close(db)
        raise
    return db


async def _close(db: aiosqlite.Connection) -> None:
    _OPEN.discard(db)
    await db.close()


class SqliteDatabase(Database):
    """One SQLite file (or ``:memory:``). Create with ``await SqliteDatabase.open(path)``."""

    dialect = "sqlite"

    def __init__(self, db: aiosqlite.Connection) -> None:
        super().__init__()
        self._db = db
        self._conn = SqliteConnection(db)
        self._lock = asyncio.Lock()
        #: A second connection that checkpoints the WAL off the commit path (file databases
        #: in WAL mode only), and how many bytes of state were written since its last run.
        self._checkpointer: aiosqlite.Connection | None = None
        self._checkpoint_task: asyncio.Task[None] | None = None
        self._unchecked_bytes = 0

    @classmethod
    async def open(
        cls,
        path: str | os.PathLike[str],
        *,
        migrations_dir: Traversable = MIGRATIONS_DIR,
        target_version: int | None = None,
    ) -> Self:
        """Open (creating if needed) and migrate the database."""
        path_str = os.fspath(path)
        if path_str != ":memory:":
            Path(path_str).parent.mkdir(parents=True, exist_ok=True)
        db = cls(await _connect(path_str))
        try:
            await db._switch_to_wal()
            for pragma in ("PRAGMA synchronous = NORMAL", "PRAGMA foreign_keys = ON"):
                await db._db.execute(pragma)
            db.schema_version = await db._migrate(migrations_dir, target_version)
            if path_str != ":memory:" and await db.journal_mode() == "wal":
                await db._start_checkpointer(path_str)
        except BaseException:
            await db._close()
            raise
        return db

    async def _switch_to_wal(self) -> None:
        """``PRAGMA journal_mode = WAL``, retried while another connection is switching too.

        The switch needs the file to itself, and SQLite answers "database is locked" at once,
        without the busy timeout, when two connections that both opened the file try it at
        the same moment (two processes starting together): the test of that failed now and
        then. The other connection finishes within milliseconds, so a short retry is enough.
        """
        deadline = time.monotonic() + _WAL_SWITCH_SECONDS
        while True:
            try:
                await self._db.execute_fetchall("PRAGMA journal_mode = WAL")
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() >= deadline:
                    raise
            await asyncio.sleep(0.05)

    async def _migrate(self, migrations_dir: Traversable, target: int | None) -> int:
        """Apply each pending migration in its own ``BEGIN IMMEDIATE`` transaction with
        ``PRAGMA user_version``, reading the version inside that transaction: a second
        process starting at the same moment waits for the lock and then finds the migration
        applied instead of applying it twice."""
        migrations = load_migrations(migrations_dir)
        db = self._db
        while True:
            await db.execute("BEGIN IMMEDIATE")
            try:
                rows = list(await db.execute_fetchall("PRAGMA user_version"))
                current = int(rows[0][0])
                pending = pending_migrations(migrations, current, target)
                if not pending:
                    await db.rollback()
                    return current
                for statement in _statements(pending[0].sql):
                    await db.execute(statement)
                await db.execute(f"PRAGMA user_version = {pending[0].version}")
            except BaseException:
                await db.rollback()
                raise
            await db.commit()

    async def user_version(self) -> int:
        """The schema version recorded in the file."""
        cur = await self._conn.execute("PRAGMA user_version")
        row = await cur.fetchone()
        return int(row[0]) if row is not None else 0

    async def _start_checkpointer(self, path: str) -> None:
        """Move WAL checkpoints off the commit path.

        By default SQLite checkpoints inside whichever commit pushes the WAL past 1,000
        pages: that commit copies the pages into the database file and syncs it, which took
        20-200 ms, and every move queued behind it waited as long (the tail of
        bench/bot_load.py). Here commits never checkpoint; after every ~4 MB of game state
        a PASSIVE checkpoint runs on a second connection (with a thread of its own), which
        does not block the writer (WAL allows both at once).
        """
        await self._db.execute("PRAGMA wal_autocheckpoint = 0")
        # the WAL file is reused from its start after a full checkpoint; cap what it keeps
        await self._db.execute(f"PRAGMA journal_size_limit = {WAL_SIZE_LIMIT}")
        self._checkpointer = await _connect(path)

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
        rows = list(await self._checkpointer.execute_fetchall("PRAGMA wal_checkpoint(PASSIVE)"))
        return (0, 0) if not rows else (int(rows[0][1]), int(rows[0][2]))

    async def journal_mode(self) -> str:
        """Exposed for health checks/tests: WAL silently falls back on some filesystems."""
        async with self.read() as conn, conn.execute("PRAGMA journal_mode") as cur:
            row = await cur.fetchone()
        return str(row[0]) if row is not None else ""

    async def _close(self) -> None:
        if self._checkpoint_task is not None:
            await asyncio.wait([self._checkpoint_task])
        if self._checkpointer is not None:
            await _close(self._checkpointer)
            self._checkpointer = None
        async with self._lock:
            await _close(self._db)

    # ----------------------------------------------------------------- transactions

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Connection]:
        async with self._lock:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
            except BaseException:
                await self._db.rollback()
                raise
            else:
                await self._db.commit()
                self._wrote(PAGE_SIZE)  # at least a page: lobbies and results count too

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Connection]:
        async with self._lock:
            yield self._conn

    # ----------------------------------------------------------------- group commit

    async def _drain_states(self) -> None:
        """Commit queued moves batch by batch while the lock is ours.

        Moves queued while a batch is being committed go into the next batch at once, so a
        move waits for at most the commit in flight and its own. After
        ``_STATE_TRIP_SECONDS`` the lock is let go, so that lobbies and results waiting for
        it get their turn; the writer task (``Database._write_states``) then queues up for
        the lock again while moves remain.
        """
        async with self._lock:
            stop = time.monotonic() + _STATE_TRIP_SECONDS
            while self._state_queue and not self._state_closing.is_set():
                batch = take_batch(self._state_queue)
                # A task of its own, answered when it ends: if the writer is cancelled (at
                # shutdown) while aiosqlite's thread commits the batch, its moves still get
                # the answer the database gave, as they would with the writer alive.
                commit = asyncio.ensure_future(self._update_states(batch))
                commit.add_done_callback(functools.partial(self._answer, batch))
                try:
                    await asyncio.wait([commit])  # neither raises its error nor cancels it
                except asyncio.CancelledError:
                    await asyncio.wait([commit])  # the lock goes only with the connection free
                    raise
                if time.monotonic() >= stop:
                    return

    def _answer(self, batch: list[StateWrite], commit: asyncio.Future[list[bool]]) -> None:
        """Settle a batch from its commit (an error is reported to each of its moves; the
        next batch still gets its go)."""
        if commit.cancelled():
            self._settle(batch, StorageError("the database is closing"))
        elif (exc := commit.exception()) is not None:
            self._settle(batch, exc)
        else:
            self._settle(batch, commit.result())

    async def _update_states(self, batch: Sequence[StateWrite]) -> list[bool]:
        """Store a batch of moves in one transaction and say which were stored.

        One move is one ``UPDATE`` (its own transaction, autocommit). Several are one
        ``UPDATE ... FROM (VALUES ...) RETURNING id``: one statement is one transaction
        with no ``BEGIN``/``COMMIT`` round trips around it, and the returned ids say
        exactly which moves had a current version, so a stale move costs no second pass.
        (A single statement takes the write lock when it starts, with the busy timeout,
        just as ``BEGIN IMMEDIATE`` would.) Without ``RETURNING`` (SQLite < 3.35) the
        moves are written one by one inside ``BEGIN IMMEDIATE`` ... ``COMMIT``.
        """
        db = self._db
        if len(batch) == 1:
            cur = await db.execute(STATE_UPDATE, batch[0].params)
            return [cur.rowcount == 1]
        if _BATCH_STATEMENT:
            params = [p for w in batch for p in w.params]
            rows = await db.execute_fetchall(_batch_update_sql(len(batch)), params)
            stored = {int(r[0]) for r in rows}
            return [w.game_id in stored for w in batch]
        await db.execute("BEGIN IMMEDIATE")
        try:
            done = [(await db.execute(STATE_UPDATE, w.params)).rowcount == 1 for w in batch]
        except BaseException:
            await db.rollback()
            raise
        await db.commit()
        return done
