"""The quick-match queue (migration 0010): who waits in which server, for which mode, and
the computer offered to whoever waited long enough (migration 0014)."""

from __future__ import annotations

from dataclasses import dataclass

from ..game.matchmaking import Waiting
from .core import StorageCore

__all__ = ["QueuedOffer", "QuickStorage"]


@dataclass(frozen=True, slots=True)
class QueuedOffer:
    """A waiting player owed a computer offer: in their own language, about their mode;
    ``claimed`` when an earlier send was claimed but never finished (sent again)."""

    user_id: int
    mode: str
    channel_id: int
    name: str
    locale: str
    claimed: bool


class _Gone(Exception):
    """A table's player is no longer waiting: the transaction is rolled back."""


class QuickStorage(StorageCore):
    """Queue operations of :class:`~bot.storage.store.Storage`."""

    async def queue_toggle(
        self,
        guild_id: int,
        user_id: int,
        *,
        mode: str,
        channel_id: int,
        name: str,
        rating: int,
        locale: str = "en",
        now: float | None = None,
    ) -> bool:
        """Put the player in the queue (True), or take them out if they were in it (False):
        one transaction, so a double click cannot leave two rows."""
        async with self._transaction() as conn:
            async with conn.execute(
                "DELETE FROM quick_queue WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
            ) as cur:
                removed = cur.rowcount
            if removed:
                return False
            await conn.execute(
                "INSERT INTO quick_queue (guild_id, user_id, mode, channel_id, name, rating,"
                " joined_at, locale) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (guild_id, user_id, mode, channel_id, name, rating, self._now(now), locale),
            )
        return True

    async def queue_leave(self, guild_id: int, user_id: int) -> bool:
        async with (
            self._transaction() as conn,
            conn.execute(
                "DELETE FROM quick_queue WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
            ) as cur,
        ):
            return bool(cur.rowcount)

    async def queue(self, guild_id: int) -> list[tuple[Waiting, int, str]]:
        """Everyone waiting here: (player, channel they asked in, name), oldest first."""
        async with (
            self._read() as conn,
            conn.execute(
                "SELECT user_id, mode, rating, joined_at, channel_id, name FROM quick_queue"
                " WHERE guild_id = ? ORDER BY joined_at, user_id",
                (guild_id,),
            ) as cur,
        ):
            return [
                (Waiting(int(r[0]), str(r[1]), int(r[2]), float(r[3])), int(r[4]), str(r[5]))
                async for r in cur
            ]

    async def queue_take(self, guild_id: int, user_ids: list[int]) -> bool:
        """Take a table's players out of the queue; False (and nothing taken) if one of them
        already left or was seated by another process."""
        try:
            async with self._transaction() as conn:
                for user_id in user_ids:
                    async with conn.execute(
                        "DELETE FROM quick_queue WHERE guild_id = ? AND user_id = ?",
                        (guild_id, user_id),
                    ) as cur:
                        if cur.rowcount != 1:
                            raise _Gone
        except _Gone:
            return False
        return True

    async def queue_guilds(self) -> list[int]:
        """The servers where someone is waiting (what the pairing loop visits)."""
        async with (
            self._read() as conn,
            conn.execute("SELECT DISTINCT guild_id FROM quick_queue ORDER BY guild_id") as cur,
        ):
            return [int(r[0]) async for r in cur]

    async def queue_offers_due(
        self, guild_id: int, wait: float, now: float | None = None
    ) -> list[QueuedOffer]:
        """Who is owed a computer offer here: waiting at least ``wait`` seconds and not
        offered one yet, or claimed by a send that never finished; oldest first."""
        async with (
            self._read() as conn,
            conn.execute(
                "SELECT user_id, mode, channel_id, name, locale, offered_at FROM quick_queue"
                " WHERE guild_id = ? AND offer_message_id IS NULL"
                " AND (offered_at IS NOT NULL OR joined_at <= ?)"
                " ORDER BY joined_at, user_id",
                (guild_id, self._now(now) - wait),
            ) as cur,
        ):
            return [
                QueuedOffer(int(r[0]), str(r[1]), int(r[2]), str(r[3]), str(r[4]), r[5] is not None)
                async for r in cur
            ]

    async def queue_claim_offer(
        self, guild_id: int, user_id: int, now: float | None = None
    ) -> bool:
        """Mark the offer as being sent; False when it was claimed already or the player is
        gone (so one wait gets one offer, whoever else looks at the queue)."""
        async with (
            self._transaction() as conn,
            conn.execute(
                "UPDATE quick_queue SET offered_at = ? WHERE guild_id = ? AND user_id = ?"
                " AND offered_at IS NULL",
                (self._now(now), guild_id, user_id),
            ) as cur,
        ):
            return bool(cur.rowcount)

    async def queue_offer_sent(self, guild_id: int, user_id: int, message_id: int) -> None:
        """The offer reached Discord as ``message_id`` (0: refused for good): not sent again."""
        async with self._transaction() as conn:
            await conn.execute(
                "UPDATE quick_queue SET offer_message_id = ? WHERE guild_id = ? AND user_id = ?",
                (message_id, guild_id, user_id),
            )

    async def queue_entry(self, guild_id: int, user_id: int) -> tuple[str, int, str] | None:
        """One waiting player's (mode, channel they asked in, name), or None."""
        async with (
            self._read() as conn,
            conn.execute(
                "SELECT mode, channel_id, name FROM quick_queue WHERE guild_id = ? AND user_id = ?",
                (guild_id, user_id),
            ) as cur,
        ):
            row = await cur.fetchone()
        return None if row is None else (str(row[0]), int(row[1]), str(row[2]))
