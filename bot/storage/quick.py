"""The quick-match queue (migration 0010): who waits in which server, for which mode."""

from __future__ import annotations

from ..game.matchmaking import Waiting
from .core import StorageCore

__all__ = ["QuickStorage"]


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
                " joined_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (guild_id, user_id, mode, channel_id, name, rating, self._now(now)),
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
