"""A real PostgreSQL server for the tests, when one is reachable.

``TEST_DATABASE_URL`` names it (default: ``LOCAL_URL``, the role and database that
``.ci/run`` creates). Each test gets a schema of its own in that database (``?search_path=``),
dropped afterwards, so tests never see each other's rows and a run leaves nothing behind; a
test that only needs an empty database at the latest schema (the storage suite's
``storage``) gets its process's one migrated schema, emptied before each test.
Without a server the PostgreSQL tests are skipped, with the reason, and the run ends with a
one-line summary saying so (tests/conftest.py); ``REQUIRE_POSTGRES=1`` (set by ``.ci/run``)
turns that skip into a failure, so CI cannot pass without having tested PostgreSQL.
"""

from __future__ import annotations

import asyncio
import atexit
import os
import uuid
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager, suppress
from functools import cache
from graphlib import CycleError, TopologicalSorter
from typing import Any

import pytest

from bot.storage.url import parse_database_url

LOCAL_URL = "postgresql://durak:durak@127.0.0.1:5432/durak_test"


def base_url() -> str:
    return os.environ.get("TEST_DATABASE_URL", "").strip() or LOCAL_URL


def required() -> bool:
    return os.environ.get("REQUIRE_POSTGRES", "").strip() not in ("", "0")


@cache
def unavailable_reason() -> str | None:
    """None when the server answers; otherwise why not (asked once per test run)."""
    try:
        import asyncpg
    except ImportError:
        return "asyncpg is not installed"

    async def probe() -> None:
        conn = await asyncpg.connect(base_url(), timeout=3)
        await conn.close()

    try:  # in a thread of its own: the caller may be running an event loop already
        with ThreadPoolExecutor(1) as pool:
            pool.submit(asyncio.run, probe()).result()
    except Exception as exc:
        redacted = parse_database_url(base_url()).redacted()
        return f"no PostgreSQL at {redacted} ({type(exc).__name__}: {exc})"
    return None


def skip_unless_available() -> None:
    reason = unavailable_reason()
    if reason is not None:
        if required():
            pytest.fail(f"REQUIRE_POSTGRES is set but {reason}")
        pytest.skip(f"{reason}; set TEST_DATABASE_URL or start one (see .ci/run)")


def _with_search_path(url: str, schema: str) -> str:
    return f"{url}{'&' if '?' in url else '?'}search_path={schema}"


@asynccontextmanager
async def fresh_schema() -> AsyncIterator[str]:
    """A database URL whose tables live in a new, empty schema, dropped on exit."""
    import asyncpg

    skip_unless_available()
    schema = f"test_{uuid.uuid4().hex[:16]}"
    conn = await asyncpg.connect(base_url())
    try:
        await conn.execute(f"CREATE SCHEMA {schema}")
        try:
            yield _with_search_path(base_url(), schema)
        finally:
            await conn.execute(f"DROP SCHEMA {schema} CASCADE")
    finally:
        await conn.close()


async def emptied_schema() -> str:
    """The URL of this process's schema at the latest version, with no rows but those the
    migrations wrote and every sequence where the migrations left it: what a new schema
    would be after :class:`Storage` migrated it, without the dozens of round trips (and
    the server's CPU) of migrating one per test. Nothing else differs: the tests that
    create, migrate and reopen a database use :func:`fresh_schema`."""
    import asyncpg

    skip_unless_available()
    url, reset = _process_schema()
    conn = await asyncpg.connect(base_url())
    try:
        await conn.execute(reset)  # one round trip, in one transaction (simple protocol)
    finally:
        await conn.close()
    return url


@cache
def _process_schema() -> tuple[str, str]:
    """Create and migrate this process's schema (once), keep a copy of the rows the
    migrations wrote, and return its URL and the SQL that puts it back to that state."""
    schema = f"test_{uuid.uuid4().hex[:16]}"
    seed = f"{schema}_seed"  # the migrations' own rows, beside the schema, not in it
    atexit.register(_drop_schemas, schema, seed)
    with ThreadPoolExecutor(1) as pool:  # the caller is running an event loop already
        return pool.submit(asyncio.run, _migrate_schema(schema, seed)).result()


async def _migrate_schema(schema: str, seed: str) -> tuple[str, str]:
    import asyncpg

    from bot.storage import Storage

    url = _with_search_path(base_url(), schema)
    conn = await asyncpg.connect(base_url())
    try:
        await conn.execute(f"CREATE SCHEMA {schema}; CREATE SCHEMA {seed}")
        async with await Storage.open(url):
            pass
        tables = [
            r["relname"]
            for r in await conn.fetch(
                "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
                " WHERE n.nspname = $1 AND c.relkind IN ('r', 'p')"
                " AND c.relname <> 'schema_migrations'",
                schema,
            )
        ]
        links = await conn.fetch(
            "SELECT child.relname AS child, parent.relname AS parent FROM pg_constraint k"
            " JOIN pg_class child ON child.oid = k.conrelid"
            " JOIN pg_class parent ON parent.oid = k.confrelid"
            " JOIN pg_namespace n ON n.oid = k.connamespace"
            " WHERE k.contype = 'f' AND n.nspname = $1",
            schema,
        )
        seeded = [
            t for t in tables if await conn.fetchval(f'SELECT EXISTS (SELECT FROM {schema}."{t}")')
        ]
        for table in seeded:
            await conn.execute(f'CREATE TABLE {seed}."{table}" AS TABLE {schema}."{table}"')
        sequences = await conn.fetch(
            "SELECT sequencename, start_value, last_value FROM pg_sequences WHERE schemaname = $1",
            schema,
        )
    finally:
        await conn.close()
    return url, _reset_sql(schema, seed, tables, links, seeded, sequences)


def _reset_sql(
    schema: str,
    seed: str,
    tables: list[str],
    links: list[Any],
    seeded: list[str],
    sequences: list[Any],
) -> str:
    """One transaction: delete every row (a table before the tables it references), put
    back the migrations' rows, and set every sequence where the migrations left it."""
    before: dict[str, set[str]] = {t: set() for t in tables}
    for link in links:
        if link["child"] != link["parent"] and link["parent"] in before:
            before[link["parent"]].add(link["child"])  # its referrers are emptied first
    try:
        order = list(TopologicalSorter(before).static_order())
        empty = [f'DELETE FROM {schema}."{t}"' for t in order]
    except CycleError:
        order = tables
        empty = ["TRUNCATE " + ", ".join(f'{schema}."{t}"' for t in tables) + " CASCADE"]
    refill = [  # a referenced table before its referrers
        f'INSERT INTO {schema}."{t}" OVERRIDING SYSTEM VALUE SELECT * FROM {seed}."{t}"'
        for t in reversed(order)
        if t in seeded
    ]
    rewind = [
        f"SELECT setval('{schema}.\"{s['sequencename']}\"', "
        + (
            f"{s['last_value']}, true)"
            if s["last_value"] is not None
            else f"{s['start_value']}, false)"
        )
        for s in sequences
    ]
    return "; ".join(["BEGIN", *empty, *refill, *rewind, "COMMIT"])


def _drop_schemas(*schemas: str) -> None:
    """At the process's exit: leave nothing behind (the server may be gone by then)."""

    async def drop() -> None:
        import asyncpg

        conn = await asyncpg.connect(base_url(), timeout=3)
        try:
            await conn.execute("; ".join(f"DROP SCHEMA IF EXISTS {s} CASCADE" for s in schemas))
        finally:
            await conn.close()

    with suppress(Exception):  # nothing to report to at exit; a leftover schema is harmless
        asyncio.run(drop())
