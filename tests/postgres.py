"""A real PostgreSQL server for the tests, when one is reachable.

``TEST_DATABASE_URL`` names it (default: ``LOCAL_URL``, the role and database that
``.ci/run`` creates). Each test gets a schema of its own in that database (``?search_path=``),
dropped afterwards, so tests never see each other's rows and a run leaves nothing behind.
Without a server the PostgreSQL tests are skipped, with the reason, and the run ends with a
one-line summary saying so (tests/conftest.py); ``REQUIRE_POSTGRES=1`` (set by ``.ci/run``)
turns that skip into a failure, so CI cannot pass without having tested PostgreSQL.
"""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from functools import cache

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
