"""The storage suite's PostgreSQL schema, reused by every test of a process and emptied
before each (tests/postgres.py ``emptied_schema``), is what a new schema just migrated
would be: the same rows (the migrations' own included) and every sequence at the same
point, whatever the test before it wrote."""

from __future__ import annotations

from typing import Any

from bot.storage import Storage
from tests.postgres import emptied_schema, fresh_schema


async def _state(url: str) -> dict[str, Any]:
    """Every row of every table and every sequence's position, of the URL's schema."""
    import asyncpg

    schema = url.rsplit("search_path=", 1)[1]
    conn = await asyncpg.connect(url.split("?", 1)[0])
    try:
        tables = await conn.fetch(
            "SELECT tablename FROM pg_tables WHERE schemaname = $1 ORDER BY 1", schema
        )
        state: dict[str, Any] = {}
        for row in tables:
            name = row["tablename"]
            if name == "schema_migrations":  # applied_at is the time of migrating
                rows = await conn.fetch(f"SELECT version FROM {schema}.{name} ORDER BY 1")
            else:
                rows = await conn.fetch(f"SELECT * FROM {schema}.{name}")
            state[name] = sorted(repr(tuple(r.values())) for r in rows)
        sequences = await conn.fetch(
            "SELECT sequencename, last_value FROM pg_sequences WHERE schemaname = $1 ORDER BY 1",
            schema,
        )
        state["sequences"] = [(s["sequencename"], s["last_value"]) for s in sequences]
        return state
    finally:
        await conn.close()


async def test_an_emptied_postgresql_schema_is_a_freshly_migrated_one() -> None:
    import asyncpg

    async with fresh_schema() as url:
        async with await Storage.open(url):
            pass
        fresh = await _state(url)

    reused = await emptied_schema()
    schema = reused.rsplit("search_path=", 1)[1]
    conn = await asyncpg.connect(reused.split("?", 1)[0])
    try:  # a test's leftovers: rows in every table that takes a default row, sequences on
        for seq in await conn.fetch(
            "SELECT sequencename FROM pg_sequences WHERE schemaname = $1", schema
        ):
            await conn.fetchval(f"SELECT nextval('{schema}.\"{seq['sequencename']}\"')")
        for table in await conn.fetch(
            "SELECT tablename FROM pg_tables WHERE schemaname = $1", schema
        ):
            name = table["tablename"]
            try:
                async with conn.transaction():
                    await conn.execute(f"INSERT INTO {schema}.{name} DEFAULT VALUES")
            except asyncpg.PostgresError:
                pass  # a table with required columns: the sequences above stand for it
    finally:
        await conn.close()
    dirty = await _state(reused)
    assert dirty != fresh

    assert await emptied_schema() == reused
    assert await _state(reused) == fresh
