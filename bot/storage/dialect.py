"""The one connection API the storage's SQL is written against, and what differs per engine.

Every query of the storage (:mod:`bot.storage.store` and its area modules) is written once,
in the SQL both SQLite and PostgreSQL understand, with ``?`` placeholders, and run through a
:class:`Connection` whose calls look like aiosqlite's (``async with conn.execute(sql, params)
as cur``, ``await cur.fetchone()``, ``cur.rowcount``), so a method written for SQLite usually
runs on PostgreSQL unchanged. The differences are kept here, small and explicit:

* placeholders: ``?`` becomes ``$1, $2, ...`` for PostgreSQL (:func:`numbered_placeholders`);
* ``INSERT OR IGNORE`` (SQLite only) becomes ``INSERT ... ON CONFLICT DO NOTHING``;
* a new row's id: ``cur.lastrowid`` exists on SQLite only, so inserts that need the id call
  :meth:`Connection.insert_returning_id` (``RETURNING id`` on PostgreSQL);
* locking: a write transaction on SQLite locks the whole database (``BEGIN IMMEDIATE``),
  on PostgreSQL only the rows it locks, so reads that a write depends on add
  :attr:`Connection.for_update` (``" FOR UPDATE"`` there, nothing on SQLite);
* constraint violations surface as :class:`IntegrityError` from both engines;
* migrations: the numbered files are written in SQLite's types and :func:`postgres_ddl`
  maps them (64-bit integers for Discord ids, double precision for timestamps, identity
  columns for ``INTEGER PRIMARY KEY``).

Things with no portable spelling (``PRAGMA``, SQLite's date functions, ``INSERT OR
REPLACE``) do not belong in the storage's area modules; the PostgreSQL half of the storage
test suite is what catches them.
"""

from __future__ import annotations

import re
import sqlite3
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Awaitable, Coroutine, Generator, Iterable, Sequence
from functools import lru_cache
from types import TracebackType
from typing import Any, Literal

from .rows import Row, StorageError

__all__ = [
    "Connection",
    "Cursor",
    "DialectName",
    "IntegrityError",
    "numbered_placeholders",
    "postgres_ddl",
    "postgres_sql",
]

DialectName = Literal["sqlite", "postgresql"]


class IntegrityError(sqlite3.IntegrityError):
    """A constraint refused a write (unique key, foreign key, CHECK), on either engine.

    It derives from ``sqlite3.IntegrityError`` so code written against the SQLite backend
    (``except sqlite3.IntegrityError``) also catches PostgreSQL's violations. Note that on
    PostgreSQL a failed statement aborts the whole transaction: prefer ``ON CONFLICT DO
    NOTHING`` and a look at ``rowcount`` over catching this and carrying on.
    """


class Cursor:
    """The finished result of one statement: every row already fetched (results here are
    small), so the cursor holds no statement open on the database."""

    def __init__(self, rows: Sequence[Row], rowcount: int, lastrowid: int | None = None) -> None:
        self.rows = rows
        #: Rows changed by an INSERT/UPDATE/DELETE (rows returned by a SELECT on PostgreSQL).
        self.rowcount = rowcount
        self._lastrowid = lastrowid
        self._next = 0

    @property
    def lastrowid(self) -> int | None:
        """SQLite only; portable code uses :meth:`Connection.insert_returning_id`."""
        if self._lastrowid is None:
            raise StorageError("lastrowid is SQLite-only: use conn.insert_returning_id()")
        return self._lastrowid

    async def fetchone(self) -> Row | None:
        if self._next >= len(self.rows):
            return None
        self._next += 1
        return self.rows[self._next - 1]

    async def fetchall(self) -> list[Row]:
        rest = list(self.rows[self._next :])
        self._next = len(self.rows)
        return rest

    def __aiter__(self) -> AsyncIterator[Row]:
        return self._iterate()

    async def _iterate(self) -> AsyncIterator[Row]:
        while (row := await self.fetchone()) is not None:
            yield row


class _Statement(Awaitable[Cursor]):
    """What ``conn.execute`` returns: await it for the cursor, or use it as
    ``async with conn.execute(...) as cur`` (aiosqlite's two spellings)."""

    def __init__(self, run: Coroutine[Any, Any, Cursor]) -> None:
        self._run = run

    def __await__(self) -> Generator[Any, None, Cursor]:
        return self._run.__await__()

    async def __aenter__(self) -> Cursor:
        return await self._run

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        return None


class Connection(ABC):
    """A connection inside one transaction (or one read) of a storage backend."""

    #: Which engine; for the rare query that must differ (keep those few and commented).
    dialect: DialectName
    #: Appended to a SELECT whose rows the transaction goes on to change.
    for_update: str = ""

    def execute(self, sql: str, params: Sequence[Any] = ()) -> _Statement:
        """Run one statement with ``?`` placeholders; the cursor holds all its rows."""
        return _Statement(self._execute(sql, tuple(params)))

    @abstractmethod
    async def _execute(self, sql: str, params: tuple[Any, ...]) -> Cursor: ...

    @abstractmethod
    async def executemany(self, sql: str, seq: Iterable[Sequence[Any]]) -> None:
        """Run one statement once per parameter tuple."""

    @abstractmethod
    async def insert_returning_id(self, sql: str, params: Sequence[Any] = ()) -> int | None:
        """Run an INSERT into a table with an ``id INTEGER PRIMARY KEY`` and return the new
        id; None when its ``ON CONFLICT DO NOTHING`` left the row out."""


# --------------------------------------------------------------------------- PostgreSQL


_INSERT_OR_IGNORE = re.compile(r"^\s*INSERT\s+OR\s+IGNORE\s+INTO\b", re.IGNORECASE)


@lru_cache(maxsize=1024)
def numbered_placeholders(sql: str) -> str:
    """``?`` -> ``$1, $2, ...`` outside quoted strings, identifiers and comments."""
    out: list[str] = []
    n = 0
    i = 0
    while i < len(sql):
        ch = sql[i]
        if ch in "'\"":
            end = i + 1
            while end < len(sql):
                if sql[end] == ch:
                    if end + 1 < len(sql) and sql[end + 1] == ch:  # doubled quote
                        end += 2
                        continue
                    break
                end += 1
            out.append(sql[i : end + 1])
            i = end + 1
        elif sql.startswith("--", i):
            end = sql.find("\n", i)
            end = len(sql) if end < 0 else end
            out.append(sql[i:end])
            i = end
        elif ch == "?":
            n += 1
            out.append(f"${n}")
            i += 1
        else:
            out.append(ch)
            i += 1
    return "".join(out)


@lru_cache(maxsize=1024)
def postgres_sql(sql: str) -> str:
    """A statement of the storage's area modules as PostgreSQL wants it."""
    if _INSERT_OR_IGNORE.match(sql):
        sql = _INSERT_OR_IGNORE.sub("INSERT INTO", sql, count=1).rstrip().rstrip(";")
        sql += " ON CONFLICT DO NOTHING"
    return numbered_placeholders(sql)


#: SQLite type names of the migrations -> PostgreSQL's. Order matters: the primary-key rule
#: first. ``INTEGER PRIMARY KEY`` assigns the next id when none is given in SQLite (it is
#: the rowid), which an identity column does in PostgreSQL; every other INTEGER becomes
#: BIGINT because Discord ids are 64-bit, and REAL becomes DOUBLE PRECISION because
#: PostgreSQL's REAL has 24 bits of mantissa (a unix timestamp would lose its minutes).
_DDL_TYPES: tuple[tuple[re.Pattern[str], str], ...] = (
    (
        re.compile(r"\bINTEGER\s+PRIMARY\s+KEY(\s+AUTOINCREMENT)?\b", re.IGNORECASE),
        "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY",
    ),
    (re.compile(r"\bINTEGER\b", re.IGNORECASE), "BIGINT"),
    (re.compile(r"\bREAL\b", re.IGNORECASE), "DOUBLE PRECISION"),
    (re.compile(r"\bBLOB\b", re.IGNORECASE), "BYTEA"),
)
_SQL_COMMENT = re.compile(r"--[^\n]*")


def postgres_ddl(sql: str) -> str:
    """A migration file as PostgreSQL runs it (see ``_DDL_TYPES``); comments are dropped so
    that a word like "integer" in prose is never rewritten into something misleading."""
    sql = _SQL_COMMENT.sub("", sql)
    for pattern, replacement in _DDL_TYPES:
        sql = pattern.sub(replacement, sql)
    return sql
