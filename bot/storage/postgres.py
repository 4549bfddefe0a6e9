"""The PostgreSQL backend (asyncpg): for several bot processes sharing one database.

Design notes (the *why*):

* A connection pool instead of one serialised connection: transactions of different games
  run side by side, and two processes (two shard ranges) share the database. Nothing relies
  on the in-process lock: each write transaction locks the rows it read before changing
  them (``SELECT ... FOR UPDATE``, see :attr:`PostgresConnection.for_update`) and every
  write of a game's state checks the stored version in its UPDATE.
* Durability as SQLite's default here: see :data:`SYNCHRONOUS_COMMIT`.
* READ COMMITTED (PostgreSQL's default) is enough with those row locks, and never fails a
  transaction with a serialisation error the caller would have to retry.
* Group commit: the queued moves of many games go into one ``UPDATE ... FROM unnest(...)
  RETURNING id`` (one round trip, one transaction); the returned ids say exactly which
  moves were stored, so a stale move needs no second pass.
* Migrations: the same numbered files as SQLite, types mapped by
  :func:`bot.storage.dialect.postgres_ddl`; the applied versions are rows of
  ``schema_migrations``, and an advisory lock makes two processes starting at once apply
  each migration once.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from importlib.resources.abc import Traversable
from typing import Any, Self

import asyncpg

from .backend import Database, StateWrite, take_batch
from .dialect import Connection, Cursor, IntegrityError, postgres_ddl, postgres_sql
from .migrations import MIGRATIONS_DIR, load_migrations, pending_migrations
from .notify import Notifier

__all__ = ["POOL_SIZE", "SYNCHRONOUS_COMMIT", "PostgresConnection", "PostgresDatabase"]

#: Connections per process: enough for the lobby/results transactions of a busy process to
#: overlap while the group commit holds one; PostgreSQL's default limit is 100 in all.
POOL_SIZE = 8
#: A commit returns once it is in the write-ahead log in memory; the log reaches the disk
#: within ~0.6 s (three ``wal_writer_delay``). So a crash of the database's machine may lose
#: the last fraction of a second of moves - never half of one, never the order - which is
#: what SQLite's default here (WAL, ``synchronous = NORMAL``) promises too. Waiting for the
#: disk instead cost each move's commit 4 ms at best and up to 160 ms (p99) on the busy
#: 2-core development machine (bench/bot_load.py). "on" gives the stricter guarantee.
SYNCHRONOUS_COMMIT = "off"
#: pg_advisory_lock key held while migrating ("DURAK" in ASCII).
_MIGRATION_LOCK = 0x4455_5241_4B
_RETURNS_ROWS = ("SELECT", "WITH", "VALUES", "SHOW", "TABLE")

#: Group commit of moves: one statement for the whole batch (parameters: one array per
#: column of ``backend.state_params``, in its order).
_BATCH_UPDATE = (
    "UPDATE games AS g SET state_json = v.state_json, version = v.new_version,"
    " turn_deadline = v.deadline, timer_strikes = COALESCE(v.strikes, g.timer_strikes),"
    " turn_reminded = 0, updated_at = v.ts, record = g.record || COALESCE(v.line, '')"
    " FROM unnest($1::text[], $2::bigint[], $3::float8[], $4::text[], $5::float8[],"
    " $6::text[], $7::bigint[], $8::bigint[])"
    " AS v(state_json, new_version, deadline, strikes, ts, line, id, expected)"
    " WHERE g.id = v.id AND g.version = v.expected AND g.status = 'running'"
    " RETURNING g.id"
)
_FLOAT_COLUMNS = (2, 4)  # deadline, ts: float8 arrays refuse Python ints


def _rowcount(status: str) -> int:
    """``"UPDATE 3"`` / ``"INSERT 0 1"`` -> the number of rows; -1 when the status has none."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else -1


class PostgresConnection(Connection):
    """:class:`Connection` over one pooled asyncpg connection."""

    dialect = "postgresql"
    for_update = " FOR UPDATE"

    def __init__(self, conn: asyncpg.Connection) -> None:
        self.raw = conn

    async def _execute(self, sql: str, params: tuple[Any, ...]) -> Cursor:
        query = postgres_sql(sql)
        try:
            head = query.lstrip().split(None, 1)[0].upper() if query.strip() else ""
            if head in _RETURNS_ROWS or " RETURNING " in query.upper():
                rows = await self.raw.fetch(query, *params)
                return Cursor(rows, len(rows))
            status = await self.raw.execute(query, *params)
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise IntegrityError(str(exc)) from exc
        return Cursor((), _rowcount(status))

    async def executemany(self, sql: str, seq: Iterable[Sequence[Any]]) -> None:
        try:
            await self.raw.executemany(postgres_sql(sql), [tuple(p) for p in seq])
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise IntegrityError(str(exc)) from exc

    async def insert_returning_id(self, sql: str, params: Sequence[Any] = ()) -> int | None:
        try:
            value = await self.raw.fetchval(postgres_sql(sql) + " RETURNING id", *params)
        except asyncpg.IntegrityConstraintViolationError as exc:
            raise IntegrityError(str(exc)) from exc
        return None if value is None else int(value)


class PostgresDatabase(Database):
    """A PostgreSQL database; create with ``await PostgresDatabase.open(url)``."""

    dialect = "postgresql"

    def __init__(self, pool: asyncpg.Pool, url: str = "") -> None:
        super().__init__()
        self.pool = pool
        #: Where it is, for a connection of its own (:meth:`notifier`).
        self.url = url

    @classmethod
    async def open(
        cls,
        url: str,
        *,
        migrations_dir: Traversable = MIGRATIONS_DIR,
        target_version: int | None = None,
        pool_size: int = POOL_SIZE,
    ) -> Self:
        """Connect and migrate. ``url`` is a libpq URL (``postgresql://user:pass@host/db``);
        other query parameters become server settings (e.g. ``?search_path=x``)."""
        pool = await asyncpg.create_pool(
            url,
            min_size=1,
            max_size=pool_size,
            # No timers per idle connection or per cached statement (asyncpg's defaults close
            # or forget them after 300 s): the bot's few statements are worth keeping, and
            # every pending timer keeps simcord's settle (tests, bench) waiting for it.
            max_inactive_connection_lifetime=0,
            max_cached_statement_lifetime=0,
            server_settings={
                "application_name": "durak-bot",
                "synchronous_commit": SYNCHRONOUS_COMMIT,
            },
        )
        db = cls(pool, url)
        try:
            db.schema_version = await db._migrate(migrations_dir, target_version)
        except BaseException:
            await pool.close()
            raise
        return db

    async def _migrate(self, migrations_dir: Traversable, target: int | None) -> int:
        migrations = load_migrations(migrations_dir)
        async with self.pool.acquire() as conn:
            await conn.execute("SELECT pg_advisory_lock($1)", _MIGRATION_LOCK)
            try:
                await conn.execute(
                    "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY,"
                    " name TEXT NOT NULL, applied_at DOUBLE PRECISION NOT NULL)"
                )
                current = int(
                    await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_migrations")
                )
                for migration in pending_migrations(migrations, current, target):
                    async with conn.transaction():
                        await conn.execute(postgres_ddl(migration.sql))
                        await conn.execute(
                            "INSERT INTO schema_migrations (version, name, applied_at)"
                            " VALUES ($1, $2, $3)",
                            migration.version,
                            migration.name,
                            time.time(),
                        )
                    current = migration.version
            finally:
                await conn.execute("SELECT pg_advisory_unlock($1)", _MIGRATION_LOCK)
        return current

    async def _close(self) -> None:
        await self.pool.close()

    def notifier(self) -> Notifier:
        """``LISTEN/NOTIFY`` between the processes sharing this database (bot/storage/notify.py),
        on a connection of its own; call ``start`` on it."""
        return Notifier(self.url)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Connection]:
        async with self.pool.acquire() as conn, conn.transaction():
            yield PostgresConnection(conn)

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Connection]:
        async with self.pool.acquire() as conn:
            yield PostgresConnection(conn)

    async def _drain_states(self) -> None:
        """Commit batches on one connection until the queue is empty; a failed batch is
        reported to its moves and the next batch still gets its go. If no connection can be
        had (the server restarts, say), the queued moves fail with that error and the next
        move tries again: the writer itself never gives up."""
        try:
            async with self.pool.acquire() as conn:
                while self._state_queue and not self._state_closing.is_set():
                    await self._write_batch(conn, take_batch(self._state_queue))
        except Exception as exc:
            while self._state_queue:
                self._settle([self._state_queue.popleft()], exc)

    async def _write_batch(self, conn: asyncpg.Connection, batch: list[StateWrite]) -> None:
        columns: list[list[Any]] = [list(c) for c in zip(*(w.params for w in batch), strict=True)]
        for i in _FLOAT_COLUMNS:
            columns[i] = [None if x is None else float(x) for x in columns[i]]
        try:
            rows = await conn.fetch(_BATCH_UPDATE, *columns)
        except Exception as exc:
            self._settle(batch, exc)
            return
        stored = {int(r[0]) for r in rows}
        self._settle(batch, [w.game_id in stored for w in batch])
