"""The SQLite backend the bot had before it moved to aiosqlite (kept for bench/bot_load.py's
``--sqlite-driver thread`` comparison only; the bot uses :mod:`bot.storage.sqlite`).

Design notes (the *why*):

* One connection, used only by one thread that this module owns (:class:`_DbThread`): the
  sqlite3 module blocks, the event loop must not. Owning the thread (rather than reaching
  into aiosqlite's private ``_execute``/``_conn``, which pinned it below 0.23) lets the
  group commit run a whole drain of the move queue inside the thread in one hand-over.
* An :class:`asyncio.Lock` serialises the connection. Every write is one transaction
  (``BEGIN IMMEDIATE`` ... ``COMMIT``): IMMEDIATE takes the write lock up front so a second
  process cannot make us fail half-way with BUSY. Reads share the lock so they never see
  another coroutine's uncommitted rows.
* WAL journal: readers (a backup, a stats tool) work during writes, and NORMAL sync is
  durable enough with WAL while much cheaper per action. Checkpoints run on a second
  connection off the commit path (see :meth:`ThreadSqliteDatabase._start_checkpointer`).
* Schema version in ``PRAGMA user_version``, set in the same transaction as each migration.
"""

from __future__ import annotations

import asyncio
import logging
import os
import queue
import re
import sqlite3
import threading
import time
from collections import deque
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Sequence
from contextlib import asynccontextmanager
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, Self, TypeVar

from bot.storage.backend import STATE_UPDATE, Database, StateWrite, take_batch
from bot.storage.dialect import Connection, Cursor, IntegrityError
from bot.storage.migrations import MIGRATIONS_DIR, load_migrations, pending_migrations

__all__ = ["ThreadSqliteDatabase"]

log = logging.getLogger(__name__)
T = TypeVar("T")
_SQL_COMMENT = re.compile(r"--[^\n]*")

#: Bytes of game state written between two WAL checkpoints: about SQLite's own default of
#: 1,000 pages, so the WAL stays a few megabytes.
CHECKPOINT_BYTES = 4 << 20
#: SQLite's default page size, the least one committed transaction adds to the WAL.
PAGE_SIZE = 4096
#: What an emptied WAL file may keep on disk (SQLite truncates it to this after a checkpoint).
WAL_SIZE_LIMIT = 64 << 20


# --------------------------------------------------------------------------- the thread


class _DbThread(threading.Thread):
    """The one thread that touches a sqlite3 connection; jobs run in submission order.

    A job is a function of the connection; its result (or exception) is handed back to the
    event loop that submitted it. Daemon, so a storage that was never closed cannot keep
    the interpreter from exiting.
    """

    def __init__(self, path: str, name: str) -> None:
        super().__init__(name=name, daemon=True)
        self._path = path
        self._jobs: queue.SimpleQueue[
            tuple[Callable[[sqlite3.Connection], Any], asyncio.Future[Any]] | None
        ] = queue.SimpleQueue()
        self._conn: sqlite3.Connection | None = None

    def run(self) -> None:
        while (job := self._jobs.get()) is not None:
            fn, future = job
            loop = future.get_loop()
            try:
                if self._conn is None:
                    # isolation_level=None: we issue BEGIN/COMMIT ourselves; the sqlite3
                    # module's implicit transactions would interleave with ours.
                    self._conn = sqlite3.connect(
                        self._path, isolation_level=None, check_same_thread=False
                    )
                    self._conn.row_factory = sqlite3.Row
                result = fn(self._conn)
            except BaseException as exc:
                loop.call_soon_threadsafe(_resolve, future, None, exc)
            else:
                loop.call_soon_threadsafe(_resolve, future, result, None)
        if self._conn is not None:
            self._conn.close()

    async def call(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``fn(connection)`` in this thread and wait for its result."""
        if not self.is_alive():
            raise sqlite3.ProgrammingError("the database is closed")
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._jobs.put((fn, future))
        return await future

    async def stop(self) -> None:
        """Close the connection after the jobs already queued, and end the thread."""
        if self.is_alive():
            self._jobs.put(None)
            await asyncio.get_running_loop().run_in_executor(None, self.join)


def _resolve(future: asyncio.Future[Any], result: Any, exc: BaseException | None) -> None:
    if future.done():  # the waiter was cancelled; the job ran anyway
        return
    if exc is not None:
        future.set_exception(exc)
    else:
        future.set_result(result)


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


def _run(conn: sqlite3.Connection, sql: str, params: Sequence[Any]) -> Cursor:
    try:
        cur = conn.execute(sql, params)
    except sqlite3.IntegrityError as exc:
        raise IntegrityError(*exc.args) from exc
    try:
        rows = cur.fetchall()
        return Cursor(rows, cur.rowcount, cur.lastrowid)
    finally:
        cur.close()  # an unconsumed cursor keeps its statement active (COMMIT would fail)


def _run_many(conn: sqlite3.Connection, sql: str, seq: list[Sequence[Any]]) -> None:
    try:
        conn.executemany(sql, seq).close()
    except sqlite3.IntegrityError as exc:
        raise IntegrityError(*exc.args) from exc


class SqliteConnection(Connection):
    """:class:`Connection` over the database thread."""

    dialect = "sqlite"
    for_update = ""  # BEGIN IMMEDIATE already holds the database's write lock

    def __init__(self, thread: _DbThread) -> None:
        self._thread = thread

    async def _execute(self, sql: str, params: tuple[Any, ...]) -> Cursor:
        return await self._thread.call(lambda conn: _run(conn, sql, params))

    async def executemany(self, sql: str, seq: Iterable[Sequence[Any]]) -> None:
        rows = list(seq)
        await self._thread.call(lambda conn: _run_many(conn, sql, rows))

    async def insert_returning_id(self, sql: str, params: Sequence[Any] = ()) -> int | None:
        cur = await self.execute(sql, params)
        return cur.lastrowid if cur.rowcount == 1 else None

    async def call(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``fn`` with the raw sqlite3 connection in the database thread."""
        return await self._thread.call(fn)


# --------------------------------------------------------------------------- group commit


#: ``UPDATE ... FROM`` arrived in SQLite 3.33 (2020); older libraries write moves one by one.
_UPDATE_FROM = sqlite3.sqlite_version_info >= (3, 33, 0)


def _batch_update_sql(rows: int) -> str:
    """``STATE_UPDATE`` for ``rows`` games in one statement (parameters as ``state_params``)."""
    values = ", ".join(["(?, ?, ?, ?, ?, ?, ?, ?)"] * rows)
    return (
        "UPDATE games SET state_json = v.column1, version = v.column2, turn_deadline = v.column3,"
        " timer_strikes = COALESCE(v.column4, games.timer_strikes), turn_reminded = 0,"
        " updated_at = v.column5, record = games.record || COALESCE(v.column6, '')"
        f" FROM (VALUES {values}) AS v"
        " WHERE games.id = v.column7 AND games.version = v.column8 AND games.status = 'running'"
    )


def _update_states(conn: sqlite3.Connection, batch: Sequence[StateWrite]) -> list[bool]:
    """Runs in the database thread and stores a batch of moves in one transaction.

    The moves go into one statement, because each statement costs the database thread a
    fresh turn at the GIL, which a busy event loop hands over only every few milliseconds:
    a batch written row by row took over 100 ms under load. When that statement changes
    fewer rows than the batch holds, some version was stale: the transaction is rolled back
    and every move is written alone, so that each gets its own answer.
    """
    if len(batch) == 1:  # autocommit: the statement is its own transaction
        return [conn.execute(STATE_UPDATE, batch[0].params).rowcount == 1]
    conn.execute("BEGIN IMMEDIATE")
    try:
        if _UPDATE_FROM:
            params = [p for w in batch for p in w.params]
            if conn.execute(_batch_update_sql(len(batch)), params).rowcount == len(batch):
                conn.commit()
                return [True] * len(batch)
            conn.rollback()
            conn.execute("BEGIN IMMEDIATE")
        stored = [conn.execute(STATE_UPDATE, w.params).rowcount == 1 for w in batch]
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
#: How long opening the database retries switching it to WAL (see ``_switch_to_wal``).
_WAL_SWITCH_SECONDS = 10.0

_Settle = Callable[[list[StateWrite], "list[bool] | BaseException"], None]


def _drain_queue(
    conn: sqlite3.Connection,
    queue: deque[StateWrite],
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
        batch = take_batch(queue)
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


# --------------------------------------------------------------------------- the database


class ThreadSqliteDatabase(Database):
    """One SQLite file (or ``:memory:``). Create with ``await ThreadSqliteDatabase.open(path)``."""

    dialect = "sqlite"

    def __init__(self, thread: _DbThread) -> None:
        super().__init__()
        self._thread = thread
        self._conn = SqliteConnection(thread)
        self._lock = asyncio.Lock()
        #: A second connection that checkpoints the WAL off the commit path (file databases
        #: in WAL mode only), and how many bytes of state were written since its last run.
        self._checkpointer: _DbThread | None = None
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
        thread = _DbThread(path_str, "durak-sqlite")
        thread.start()
        db = cls(thread)
        try:
            await db._conn.execute("PRAGMA busy_timeout = 5000")
            await db._switch_to_wal()
            for pragma in ("PRAGMA synchronous = NORMAL", "PRAGMA foreign_keys = ON"):
                await db._conn.execute(pragma)
            db.schema_version = await db._migrate(migrations_dir, target_version)
            if path_str != ":memory:" and await db.journal_mode() == "wal":
                await db._start_checkpointer(path_str)
        except BaseException:
            await thread.stop()
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
                await self._conn.execute("PRAGMA journal_mode = WAL")
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

        def apply_next(conn: sqlite3.Connection) -> tuple[int, bool]:
            conn.execute("BEGIN IMMEDIATE")
            try:
                current = int(conn.execute("PRAGMA user_version").fetchone()[0])
                pending = pending_migrations(migrations, current, target)
                if not pending:
                    conn.rollback()
                    return current, True
                for statement in _statements(pending[0].sql):
                    conn.execute(statement)
                conn.execute(f"PRAGMA user_version = {pending[0].version}")
            except BaseException:
                conn.rollback()
                raise
            conn.commit()
            return pending[0].version, False

        while True:
            version, done = await self._thread.call(apply_next)
            if done:
                return version

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
        a PASSIVE checkpoint runs on a second connection in its own thread, which does not
        block the writer (WAL allows both at once).
        """
        await self._conn.execute("PRAGMA wal_autocheckpoint = 0")
        # the WAL file is reused from its start after a full checkpoint; cap what it keeps
        await self._conn.execute(f"PRAGMA journal_size_limit = {WAL_SIZE_LIMIT}")
        checkpointer = _DbThread(path, "durak-sqlite-checkpoint")
        checkpointer.start()
        try:
            await checkpointer.call(lambda conn: conn.execute("PRAGMA busy_timeout = 5000").close())
        except BaseException:
            await checkpointer.stop()
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

        def run(conn: sqlite3.Connection) -> tuple[int, int]:
            row = conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
            return (0, 0) if row is None else (int(row[1]), int(row[2]))

        return await self._checkpointer.call(run)

    async def journal_mode(self) -> str:
        """Exposed for health checks/tests: WAL silently falls back on some filesystems."""
        async with self.read() as conn, conn.execute("PRAGMA journal_mode") as cur:
            row = await cur.fetchone()
        return str(row[0]) if row is not None else ""

    async def _close(self) -> None:
        if self._checkpoint_task is not None:
            await asyncio.wait([self._checkpoint_task])
        if self._checkpointer is not None:
            await self._checkpointer.stop()
            self._checkpointer = None
        async with self._lock:
            await self._thread.stop()

    # ----------------------------------------------------------------- transactions

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Connection]:
        async with self._lock:
            await self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
            except BaseException:
                await self._conn.execute("ROLLBACK")
                raise
            else:
                await self._conn.execute("COMMIT")
                self._wrote(PAGE_SIZE)  # at least a page: lobbies and results count too

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Connection]:
        async with self._lock:
            yield self._conn

    async def _drain_states(self) -> None:
        """One trip of the database thread through the move queue (``_drain_queue``)."""
        loop = asyncio.get_running_loop()

        def settle(batch: list[StateWrite], result: list[bool] | BaseException) -> None:
            loop.call_soon_threadsafe(self._settle, batch, result)

        queue, wake, closing = self._state_queue, self._state_wake, self._state_closing
        async with self._lock:
            await self._thread.call(lambda conn: _drain_queue(conn, queue, wake, settle, closing))
