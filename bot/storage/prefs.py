"""A player's own preferences (table ``player_prefs``), which follow them across servers."""

from __future__ import annotations

from .core import StorageCore
from .rows import PlayerPrefs

__all__ = ["PlayerPrefsStorage"]


class PlayerPrefsStorage(StorageCore):
    """Player preference operations of :class:`~bot.storage.store.Storage`."""

    async def get_player_prefs(self, user_id: int) -> PlayerPrefs:
        """A user's own preferences (defaults, not persisted, if never changed)."""
        async with (
            self._read() as conn,
            conn.execute("SELECT pings FROM player_prefs WHERE user_id = ?", (user_id,)) as cur,
        ):
            row = await cur.fetchone()
        return PlayerPrefs(user_id) if row is None else PlayerPrefs(user_id, bool(row["pings"]))

    async def set_player_prefs(
        self, user_id: int, *, pings: bool, now: float | None = None
    ) -> PlayerPrefs:
        async with self._transaction() as conn:
            await conn.execute(
                "INSERT INTO player_prefs (user_id, pings, updated_at) VALUES (?, ?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET pings = excluded.pings,"
                " updated_at = excluded.updated_at",
                (user_id, int(pings), self._now(now)),
            )
        return PlayerPrefs(user_id, pings)
