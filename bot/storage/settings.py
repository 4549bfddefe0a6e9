"""Guild settings: the row each server configures, and the short-lived cache of it that
spares every move a trip to the database."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import fields, replace
from typing import Any

from .core import AI_DIFFICULTIES, StorageCore, _dumps
from .dialect import Connection
from .rows import GuildSettings, Row

__all__ = ["LOCALES", "GuildSettingsStorage"]

LOCALES: frozenset[str] = frozenset({"en", "ru"})


def _settings_from_row(row: Row, default_threads: bool = True) -> GuildSettings:
    allowed = row["allowed_channel_ids"]
    keys = set(row.keys())  # asyncpg gives an iterator, read once
    threads_explicit = bool(row["threads_explicit"]) if "threads_explicit" in keys else False
    return GuildSettings(
        guild_id=row["guild_id"],
        locale=row["locale"],
        default_preset=row["default_preset"],
        default_options=json.loads(row["default_options"]),
        turn_timer_seconds=row["turn_timer_seconds"],
        use_threads=bool(row["use_threads"]) if threads_explicit else default_threads,
        default_ai_difficulty=row["default_ai_difficulty"],
        allowed_channel_ids=None if allowed is None else tuple(int(c) for c in json.loads(allowed)),
        locale_explicit=(bool(row["locale_explicit"]) if "locale_explicit" in keys else False),
        pictures=(bool(row["table_pictures"]) if "table_pictures" in keys else True),
        threads_explicit=threads_explicit,
        local_ranks=(bool(row["local_ranks"]) if "local_ranks" in keys else True),
        spectator_delay=bool(row["spectator_delay"]) if "spectator_delay" in keys else False,
        quick_computer_seconds=(
            int(row["quick_computer_seconds"]) if "quick_computer_seconds" in keys else 0
        ),
    )


_SETTINGS_FIELDS = frozenset(f.name for f in fields(GuildSettings)) - {"guild_id"}


def _validate_settings(settings: GuildSettings) -> None:
    """Reject bad values with a readable message before SQLite's CHECK gives a cryptic one."""
    if settings.locale not in LOCALES:
        raise ValueError(f"locale must be one of {sorted(LOCALES)}, got {settings.locale!r}")
    if settings.default_ai_difficulty not in AI_DIFFICULTIES:
        raise ValueError(f"unknown AI difficulty {settings.default_ai_difficulty!r}")
    if settings.turn_timer_seconds < 0:
        raise ValueError("turn_timer_seconds must be >= 0")
    if settings.quick_computer_seconds < 0:
        raise ValueError("quick_computer_seconds must be >= 0")


class GuildSettingsStorage(StorageCore):
    """Guild settings operations of :class:`~bot.storage.store.Storage`."""

    async def get_guild_settings(self, guild_id: int) -> GuildSettings:
        """Settings of a guild; defaults (not persisted) if it never changed anything."""
        cached = self._settings_rows.get(guild_id)
        now = self._monotonic()
        if cached is not None and now - cached[0] < self.settings_lifetime:
            return self._settings_of(guild_id, cached[1])
        async with self._read() as conn:
            row = await self._settings_row(conn, guild_id)
        self._settings_rows[guild_id] = (now, row)
        return self._settings_of(guild_id, row)

    @asynccontextmanager
    async def _settings_transaction(self, guild_id: int) -> AsyncIterator[Connection]:
        """A transaction that writes the guild's settings row: read it afresh next time.
        Forgotten before (SQLite: a read waiting for the lock then sees the new row) and after
        (PostgreSQL reads do not wait: one in flight meanwhile may have kept the old row)."""
        self._settings_rows.pop(guild_id, None)
        try:
            async with self._transaction() as conn:
                yield conn
        finally:
            self._settings_rows.pop(guild_id, None)

    @staticmethod
    async def _settings_row(conn: Connection, guild_id: int) -> Any:
        async with conn.execute(
            "SELECT * FROM guild_settings WHERE guild_id = ?", (guild_id,)
        ) as cur:
            return await cur.fetchone()

    async def _get_settings(self, conn: Connection, guild_id: int) -> GuildSettings:
        return self._settings_of(guild_id, await self._settings_row(conn, guild_id))

    def _settings_of(self, guild_id: int, row: Any) -> GuildSettings:
        """The settings a row says (the defaults of now when there is no row)."""
        if row is None:
            return GuildSettings(
                guild_id=guild_id,
                turn_timer_seconds=self.default_turn_timer_seconds,
                use_threads=self.default_use_threads,
            )
        return _settings_from_row(row, self.default_use_threads)

    async def update_guild_settings(self, guild_id: int, **changes: Any) -> GuildSettings:
        """Change some settings (keyword names = GuildSettings fields) and return the result.

        Read-modify-write happens in one transaction so two admins editing different fields at
        once do not overwrite each other.
        """
        unknown = set(changes) - _SETTINGS_FIELDS
        if unknown:
            raise ValueError(f"unknown guild settings: {sorted(unknown)}")
        if "locale" in changes and "locale_explicit" not in changes:
            changes["locale_explicit"] = True
        if "use_threads" in changes and "threads_explicit" not in changes:
            changes["threads_explicit"] = True
        if changes.get("allowed_channel_ids") is not None:
            changes["allowed_channel_ids"] = tuple(int(c) for c in changes["allowed_channel_ids"])
        async with self._settings_transaction(guild_id) as conn:
            settings = replace(await self._get_settings(conn, guild_id), **changes)
            _validate_settings(settings)
            allowed = settings.allowed_channel_ids
            await conn.execute(
                "INSERT INTO guild_settings (guild_id, locale, default_preset, default_options,"
                " turn_timer_seconds, use_threads, default_ai_difficulty, allowed_channel_ids,"
                " locale_explicit, table_pictures, threads_explicit, local_ranks, spectator_delay,"
                " quick_computer_seconds)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET locale = excluded.locale,"
                " default_preset = excluded.default_preset,"
                " default_options = excluded.default_options,"
                " turn_timer_seconds = excluded.turn_timer_seconds,"
                " use_threads = excluded.use_threads,"
                " default_ai_difficulty = excluded.default_ai_difficulty,"
                " allowed_channel_ids = excluded.allowed_channel_ids,"
                " locale_explicit = excluded.locale_explicit,"
                " table_pictures = excluded.table_pictures,"
                " threads_explicit = excluded.threads_explicit,"
                " local_ranks = excluded.local_ranks,"
                " spectator_delay = excluded.spectator_delay,"
                " quick_computer_seconds = excluded.quick_computer_seconds",
                (
                    guild_id,
                    settings.locale,
                    settings.default_preset,
                    _dumps(settings.default_options),
                    settings.turn_timer_seconds,
                    int(settings.use_threads),
                    settings.default_ai_difficulty,
                    None if allowed is None else _dumps(list(allowed)),
                    int(settings.locale_explicit),
                    int(settings.pictures),
                    int(settings.threads_explicit),
                    int(settings.local_ranks),
                    int(settings.spectator_delay),
                    settings.quick_computer_seconds,
                ),
            )
        return settings
