"""Move an SQLite database into PostgreSQL when a bot outgrows one process.

    durak-bot migrate-db --from sqlite:///data/durak.db --to postgresql://durak:pw@host/durak

Both ends are first brought to the latest schema (the same numbered migrations), then every
table of the SQLite file is copied, parents before children (foreign keys), in one PostgreSQL
transaction: a failed copy leaves the target as empty as it was. The target must be empty so
that nothing is ever merged by accident; the id sequences are moved past the copied ids so
the next lobby does not collide with an old one. Stop the bot first: a game played during
the copy would be missing from it.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from .postgres import PostgresDatabase
from .rows import StorageError
from .sqlite import SqliteDatabase
from .store import Storage
from .url import parse_database_url

__all__ = ["copy_database", "main"]

#: Rows read from SQLite and sent with one COPY.
CHUNK_ROWS = 5000
#: How a value read from SQLite becomes what the PostgreSQL column takes (asyncpg is strict).
_CONVERT: dict[str, Callable[[Any], Any]] = {
    "bigint": int,
    "integer": int,
    "smallint": int,
    "double precision": float,
    "real": float,
    "text": str,
}


async def _sqlite_tables(db: SqliteDatabase) -> list[str]:
    """The SQLite file's tables, every table after the tables its foreign keys point to."""
    async with db.read() as conn:
        cur = await conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            " ORDER BY name"
        )
        names = [str(r[0]) for r in await cur.fetchall()]
        parents: dict[str, set[str]] = {}
        for name in names:
            cur = await conn.execute(f'PRAGMA foreign_key_list("{name}")')
            parents[name] = {str(r["table"]) for r in await cur.fetchall()} - {name}
    ordered: list[str] = []
    while len(ordered) < len(names):
        ready = [n for n in names if n not in ordered and parents[n] <= set(ordered)]
        if not ready:
            raise StorageError(f"circular foreign keys among {sorted(set(names) - set(ordered))}")
        ordered += ready
    return ordered


async def copy_database(
    source: str, target: str, *, report: Callable[[str], None] = print
) -> dict[str, int]:
    """Copy ``source`` (SQLite) into the empty ``target`` (PostgreSQL); rows per table."""
    if parse_database_url(source).dialect != "sqlite":
        raise StorageError("--from must be an SQLite database (sqlite:///path)")
    if parse_database_url(target).dialect != "postgresql":
        raise StorageError("--to must be a PostgreSQL database (postgresql://...)")
    async with await Storage.open(source) as src, await Storage.open(target) as dst:
        src_db, dst_db = src.database, dst.database
        assert isinstance(src_db, SqliteDatabase) and isinstance(dst_db, PostgresDatabase)
        tables = await _sqlite_tables(src_db)
        counts: dict[str, int] = {}
        async with dst_db.pool.acquire() as pg, pg.transaction():
            columns: dict[str, dict[str, str]] = {}
            for row in await pg.fetch(
                "SELECT table_name, column_name, data_type FROM information_schema.columns"
                " WHERE table_schema = current_schema()"
            ):
                columns.setdefault(row["table_name"], {})[row["column_name"]] = row["data_type"]
            for table in tables:
                if table not in columns:
                    raise StorageError(f"table {table} of the SQLite file is not in the target")
                if await pg.fetchval(f'SELECT EXISTS (SELECT 1 FROM "{table}")'):
                    raise StorageError(
                        f"the target is not empty (table {table} has rows): migrate into a "
                        "new, empty database"
                    )
            for table in tables:
                counts[table] = await _copy_table(src_db, pg, table, columns[table])
                report(f"{table}: {counts[table]} rows")
            for row in await pg.fetch(
                "SELECT table_name, column_name FROM information_schema.columns"
                " WHERE table_schema = current_schema() AND is_identity = 'YES'"
            ):
                table, column = row["table_name"], row["column_name"]
                await pg.execute(
                    f"SELECT setval(pg_get_serial_sequence('\"{table}\"', '{column}'),"
                    f' COALESCE((SELECT MAX("{column}") FROM "{table}"), 0) + 1, false)'
                )
    return counts


async def _copy_table(
    src: SqliteDatabase, pg: Any, table: str, target_types: dict[str, str]
) -> int:
    async with src.read() as conn:
        cur = await conn.execute(f'PRAGMA table_info("{table}")')
        names = [str(r["name"]) for r in await cur.fetchall()]
    missing = [n for n in names if n not in target_types]
    if missing:
        raise StorageError(f"columns {missing} of {table} are not in the target")
    convert = [_CONVERT.get(target_types[n], lambda v: v) for n in names]
    select = ", ".join(f'"{n}"' for n in names)
    copied = 0
    while True:
        async with src.read() as conn:
            cur = await conn.execute(
                f'SELECT {select} FROM "{table}" ORDER BY rowid LIMIT ? OFFSET ?',
                (CHUNK_ROWS, copied),
            )
            rows = await cur.fetchall()
        if not rows:
            return copied
        records = [
            tuple(None if row[i] is None else f(row[i]) for i, f in enumerate(convert))
            for row in rows
        ]
        await pg.copy_records_to_table(table, records=records, columns=names)
        copied += len(rows)


def main(argv: Sequence[str] | None = None) -> int:
    """``durak-bot migrate-db``: 0 when copied, 2 with one line saying what is wrong."""
    parser = argparse.ArgumentParser(
        prog="durak-bot migrate-db",
        description="Copy the bot's SQLite database into an empty PostgreSQL database.",
    )
    parser.add_argument(
        "--from",
        dest="source",
        default="sqlite:///data/durak.db",
        help="the SQLite database (default: sqlite:///data/durak.db)",
    )
    parser.add_argument(
        "--to", dest="target", required=True, help="the PostgreSQL database, postgresql://..."
    )
    args = parser.parse_args(argv)
    try:
        source = parse_database_url(args.source)
    except ValueError as exc:
        print(f"migrate-db: {exc}", file=sys.stderr)
        return 2
    if source.dialect == "sqlite" and not Path(source.path).is_file():
        print(f"migrate-db: there is no SQLite database at {source.path}", file=sys.stderr)
        return 2
    try:
        counts = asyncio.run(copy_database(args.source, args.target))
    except (StorageError, ValueError, OSError) as exc:
        print(f"migrate-db: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:  # asyncpg's errors: authentication, unknown database, ...
        print(f"migrate-db: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 2
    total = sum(counts.values())
    where = parse_database_url(args.target).redacted()
    print(f"copied {total} rows in {len(counts)} tables into {where}; set DATABASE_URL to it")
    return 0
