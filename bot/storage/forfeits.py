"""Forfeits: the built-in lists per language and a guild's own edited list.

A guild's list is flagged in its settings row (``forfeits_customised``), so every edit is a
settings transaction and drops the cached settings, hence the settings base.
"""

from __future__ import annotations

import random

from .dialect import Connection
from .rows import Forfeit
from .settings import GuildSettingsStorage

__all__ = ["DEFAULT_FORFEITS", "ForfeitStorage"]

DEFAULT_FORFEITS: dict[str, tuple[str, ...]] = {
    "en": (
        "Change your nickname to “Fool” for an hour.",
        "Compliment every player of this game.",
        "Tell a joke in the chat.",
        "Use only emoji in your next five messages.",
        "Set a profile status chosen by the winner for one hour.",
        "Sing (or type out) a verse of any song.",
        "Write a three-line poem about the trump suit.",
    ),
    "ru": (
        "Смени ник на «Дурак» на один час.",
        "Сделай комплимент каждому игроку этой партии.",
        "Расскажи анекдот в чате.",
        "Следующие пять сообщений пиши только эмодзи.",
        "Поставь статус, который выберет победитель, на один час.",
        "Спой (или напиши) куплет любой песни.",
        "Сочини трёхстишие про козырную масть.",
    ),
}


class ForfeitStorage(GuildSettingsStorage):
    """Forfeit operations of :class:`~bot.storage.store.Storage`."""

    async def list_forfeits(self, guild_id: int) -> list[Forfeit]:
        """The guild's forfeits in display order (1-based positions used by remove)."""
        async with self._read() as conn:
            return await self._list_forfeits(conn, guild_id)

    @classmethod
    async def _list_forfeits(cls, conn: Connection, guild_id: int) -> list[Forfeit]:
        async with conn.execute(
            "SELECT forfeits_customised, locale FROM guild_settings WHERE guild_id = ?",
            (guild_id,),
        ) as cur:
            row = await cur.fetchone()
        if row is None or not row["forfeits_customised"]:
            locale = row["locale"] if row is not None else "en"
            return [Forfeit(None, text, True) for text in DEFAULT_FORFEITS[locale]]
        async with conn.execute(
            "SELECT id, text FROM forfeits WHERE guild_id = ? ORDER BY id", (guild_id,)
        ) as cur:
            return [Forfeit(r["id"], r["text"]) async for r in cur]

    @staticmethod
    async def _materialise_forfeits(conn: Connection, guild_id: int, ts: float) -> None:
        """Copy the defaults into the table on the first edit, so editing one item keeps the
        rest and an emptied list stays empty instead of reverting to the defaults."""
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
            [(guild_id, text, ts) for text in DEFAULT_FORFEITS[row["locale"]]],
        )
        await conn.execute(
            "UPDATE guild_settings SET forfeits_customised = 1 WHERE guild_id = ?", (guild_id,)
        )

    async def add_forfeit(self, guild_id: int, text: str, *, now: float | None = None) -> Forfeit:
        """Append a forfeit (1-200 characters after trimming)."""
        text = text.strip()
        if not 1 <= len(text) <= 200:
            raise ValueError("forfeit text must be 1-200 characters")
        ts = self._now(now)
        async with self._settings_transaction(guild_id) as conn:
            await self._materialise_forfeits(conn, guild_id, ts)
            forfeit_id = await conn.insert_returning_id(
                "INSERT INTO forfeits (guild_id, text, created_at) VALUES (?, ?, ?)",
                (guild_id, text, ts),
            )
            assert forfeit_id is not None
            return Forfeit(forfeit_id, text)

    async def remove_forfeit(
        self, guild_id: int, position: int, *, now: float | None = None
    ) -> Forfeit | None:
        """Remove the forfeit at 1-based ``position`` of :meth:`list_forfeits`.

        Positions rather than ids because that is what users see and type, and defaults have
        no ids until first edited. Returns the removed forfeit, or None if out of range.
        """
        ts = self._now(now)
        async with self._settings_transaction(guild_id) as conn:
            await self._materialise_forfeits(conn, guild_id, ts)
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

    async def pick_forfeit(self, guild_id: int, rng: random.Random | None = None) -> str | None:
        """A random forfeit text, or None when the guild emptied its list (feature off)."""
        items = await self.list_forfeits(guild_id)
        if not items:
            return None
        return (rng or random).choice(items).text
