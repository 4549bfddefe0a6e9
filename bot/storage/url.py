"""``DATABASE_URL``: which engine, and where.

``sqlite:///data/durak.db`` (relative path: three slashes), ``sqlite:////var/lib/durak.db``
(absolute: four), ``sqlite:///:memory:``; ``postgresql://user:password@host:5432/db`` (or
``postgres://``). A bare path still means an SQLite file, which is what ``DATABASE_PATH``
always was.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Literal

__all__ = ["DEFAULT_DATABASE_URL", "DatabaseUrl", "parse_database_url"]

DEFAULT_DATABASE_URL = "sqlite:///data/durak.db"
_POSTGRES_SCHEMES = ("postgresql://", "postgres://")


@dataclass(frozen=True, slots=True)
class DatabaseUrl:
    """A parsed database URL: ``path`` for SQLite, ``url`` (as given) for PostgreSQL."""

    dialect: Literal["sqlite", "postgresql"]
    url: str
    path: str = ""

    def redacted(self) -> str:
        """The URL without its password, for logs and messages."""
        if self.dialect != "postgresql" or "@" not in self.url:
            return self.url
        scheme, rest = self.url.split("://", 1)
        credentials, host = rest.rsplit("@", 1)
        user = credentials.split(":", 1)[0]
        return f"{scheme}://{user}:***@{host}" if ":" in credentials else self.url


def parse_database_url(target: str | os.PathLike[str]) -> DatabaseUrl:
    """Parse a URL or a plain SQLite path; ValueError with a readable message otherwise."""
    text = os.fspath(target)
    if text.startswith(_POSTGRES_SCHEMES):
        return DatabaseUrl("postgresql", text)
    if text.startswith("sqlite:"):
        if not text.startswith("sqlite:///"):
            raise ValueError(
                f"an SQLite URL needs three slashes before a relative path "
                f"(sqlite:///data/durak.db), got {text!r}"
            )
        path = text.removeprefix("sqlite:///")
        if not path:
            raise ValueError(f"the SQLite URL {text!r} names no file")
        return DatabaseUrl("sqlite", text, path)
    if "://" in text:
        scheme = text.split("://", 1)[0]
        raise ValueError(f"unsupported database {scheme!r}: use sqlite:///path or postgresql://...")
    return DatabaseUrl("sqlite", f"sqlite:///{text}", text)
