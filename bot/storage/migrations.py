"""The numbered schema migrations both backends apply (``bot/migrations/NNNN_name.sql``).

Each backend records the applied version its own way (SQLite: ``PRAGMA user_version``;
PostgreSQL: a ``schema_migrations`` table) and applies each file in one transaction with
that record, so an interrupted upgrade rolls back cleanly and is retried on the next start.
The files are written in SQLite's dialect; :func:`bot.storage.dialect.postgres_ddl` maps
their types for PostgreSQL.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from importlib.resources import files
from importlib.resources.abc import Traversable

from .rows import StorageError

__all__ = ["MIGRATIONS_DIR", "Migration", "load_migrations", "pending_migrations"]

#: The schema ships inside the package and is read through importlib.resources, so it is found
#: wherever the package is installed (site-packages, a zip, a Docker image) and never depends on
#: the working directory or on a data/ folder next to the code (which, as a Docker volume,
#: would keep serving the migrations of the first image forever).
MIGRATIONS_DIR: Traversable = files("bot").joinpath("migrations")

_MIGRATION_NAME = re.compile(r"^(\d{4})_[A-Za-z0-9_]+\.sql$")


@dataclass(frozen=True, slots=True)
class Migration:
    """A numbered SQL script from ``bot/migrations``."""

    version: int
    name: str
    sql: str


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


def pending_migrations(
    migrations: Sequence[Migration], current: int, target: int | None
) -> list[Migration]:
    """What takes a database at ``current`` to ``target`` (default: the latest).

    A database newer than this code is refused rather than touched: an older build writing
    into a newer schema is how data gets lost after a rollback.
    """
    latest = migrations[-1].version if migrations else 0
    if current > latest:
        raise StorageError(
            f"database schema version {current} is newer than this code supports ({latest}); "
            "refusing to touch it"
        )
    target = latest if target is None else target
    return [m for m in migrations if current < m.version <= target]
