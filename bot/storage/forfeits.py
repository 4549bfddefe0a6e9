"""Forfeits: the built-in lists per language and a guild's own edited list.

A guild's list is flagged in its settings row (``forfeits_customised``), so every edit is a
settings transaction and drops the cached settings, hence the settings base.
"""

from __future__ import annotations

import random

from ..i18n import SUPPORTED_LOCALES, catalog
from .dialect import Connection
from .rows import Forfeit
from .settings import GuildSettingsStorage

__all__ = ["DEFAULT_FORFEITS", "ForfeitStorage", "default_forfeits"]


def default_forfeits(locale: str) -> tuple[str, ...]:
    """The built-in dares in one language, from the catalogues (``forfeits.default.N``), so a
    translator edits them with every other text and each language has the same list."""
    texts = catalog(locale)
    count = sum(1 for key in texts if key.startswith("forfeits.default."))
    return tuple(texts[f"forfeits.default.{n}"] for n in range(1, count + 1))


DEFAULT_FORFEITS: dict[str, tuple[str, ...]] = {
    loc: default_forfeits(loc) for loc in SUPPORTED_LOCALES
}


class ForfeitStorage(GuildSettingsStorage):
    """Forfeit operations of :class:`~bot.storage.store.Storage`."""

    async def list_forfeits(self, guild_id: int, locale: str | None = None) -> list[Forfeit]:
        """The guild's forfeits in display order (1-based positions used by remove); a guild
        that never edited them gets the built-in list in ``locale``, the language of the
        message that shows them (None: the language the guild picked, else English)."""
        async with self._read() as conn:
            return await self._list_forfeits(conn, guild_id, locale)

    @classmethod
    async def _list_forfeits(
        cls, conn: Connection, guild_id: int, locale: str | None = None
    ) -> list[Forfeit]:
        async with conn.execute(
            "SELECT forfeits_customised, locale FROM guild_settings WHERE guild_id = ?",
            (guild_id,),
        ) as cur:
            row = await cur.fetchone()
        if row is None or not row["forfeits_customised"]:
            if locale not in DEFAULT_FORFEITS:
                locale = row["locale"] if row is not None else "en"
            return [Forfeit(None, text, True) for text in DEFAULT_FORFEITS[locale]]
        async with conn.execute(
            "SELECT id, text FROM forfeits WHERE guild_id = ? ORDER BY id", (guild_id,)
        ) as cur:
            return [Forfeit(r["id"], r["text"]) async for r in cur]

    @staticmethod
    async def _materialise_forfeits(
        conn: Connection, guild_id: int, ts: float, locale: str | None = None
    ) -> None:
        """Copy the defaults (in ``locale``, else the guild's picked language) into the table
        on the first edit, so editing one item keeps the rest and an emptied list stays
        empty instead of reverting to the defaults. From then on they stay as written."""
        locale = locale if locale in DEFAULT_FORFEITS else None
        await conn.execute(
            "INSERT INTO guild_settings (guild_id) VALUES (?) ON CONFLICT DO NOTHING", (guild_id,)
        )
        async with conn.execute(
            "SELECT forfeits_customised, locale FROM guild_settings WHERE guild_id = ?",
            (guild_id,),
        ) as cur:
            row = await cur.fetchone()
        assert row is not None
        if row["forfeits_customised"]:
            return
        await conn.executemany(
            "INSERT INTO forfeits (guild_id, text, created_at) VALUES (?, ?, ?)",
            [(guild_id, text, ts) for text in DEFAULT_FORFEITS[locale or row["locale"]]],
        )
        await conn.execute(
            "UPDATE guild_settings SET forfeits_customised = 1 WHERE guild_id = ?", (guild_id,)
        )

    async def add_forfeit(
        self, guild_id: int, text: str, *, now: float | None = None, locale: str | None = None
    ) -> Forfeit:
        """Append a forfeit (1-200 characters after trimming)."""
        text = text.strip()
        if not 1 <= len(text) <= 200:
            raise ValueError("forfeit text must be 1-200 characters")
        ts = self._now(now)
        async with self._settings_transaction(guild_id) as conn:
            await self._materialise_forfeits(conn, guild_id, ts, locale)
            forfeit_id = await conn.insert_returning_id(
                "INSERT INTO forfeits (guild_id, text, created_at) VALUES (?, ?, ?)",
                (guild_id, text, ts),
            )
            assert forfeit_id is not None
            return Forfeit(forfeit_id, text)

    async def remove_forfeit(
        self, guild_id: int, position: int, *, now: float | None = None, locale: str | None = None
    ) -> Forfeit | None:
        """Remove the forfeit at 1-based ``position`` of :meth:`list_forfeits`.

        Positions rather than ids because that is what users see and type, and defaults have
        no ids until first edited. Returns the removed forfeit, or None if out of range.
        """
        ts = self._now(now)
        async with self._settings_transaction(guild_id) as conn:
            await self._materialise_forfeits(conn, guild_id, ts, locale)
            items = await self._list_forfeits(conn, guild_id)
            if not 1 <= position <= len(items):
                return None
            victim = items[position - 1]
            await conn.execute("DELETE FROM forfeits WHERE id = ?", (victim.id,))
            return victim

    async def reset_forfeits(self, guild_id: int) -> None:
        """Forget the guild's edits and go back to the built-in list."""
        async with self._settings_transaction(guild_id) as conn:
            await conn.execute("DELETE FROM forfeits WHERE guild_id = ?", (guild_id,))
            await conn.execute(
                "UPDATE guild_settings SET forfeits_customised = 0 WHERE guild_id = ?",
                (guild_id,),
            )

    async def pick_forfeit(
        self, guild_id: int, rng: random.Random | None = None, *, locale: str | None = None
    ) -> str | None:
        """A random forfeit text (a built-in one in ``locale``), or None when the guild
        emptied its list (feature off)."""
        items = await self.list_forfeits(guild_id, locale)
        if not items:
            return None
        return (rng or random).choice(items).text
