"""A player's past games and two players' record against each other, as the Discord side
shows them (``/durak history``, ``/durak profile vs``)."""

from __future__ import annotations

from dataclasses import dataclass

from ..storage.history import HeadToHead, HistoryEntry
from .core import _ServiceCore

__all__ = ["HISTORY_PAGE_SIZE", "HistoryPage", "_HistoryQueries"]

#: Games on one page of ``/durak history``: each is an embed line and two buttons, and a
#: message holds five rows of buttons (one kept for paging).
HISTORY_PAGE_SIZE = 4


@dataclass(frozen=True)
class HistoryPage:
    """One page of a player's games, newest first; ``page`` is clamped into range (the list
    may have grown or shrunk since the buttons were drawn)."""

    user_id: int
    entries: tuple[HistoryEntry, ...]
    page: int
    pages: int
    total: int


class _HistoryQueries(_ServiceCore):
    """Reads of past games."""

    async def history_page(
        self, guild_id: int, user_id: int, page: int, *, size: int = HISTORY_PAGE_SIZE
    ) -> HistoryPage:
        """Page ``page`` (0-based) of the finished games ``user_id`` played here."""
        _, total = await self.storage.player_games(guild_id, user_id, offset=0, limit=0)
        pages = max(1, -(-total // size))
        page = min(max(page, 0), pages - 1)
        entries, total = await self.storage.player_games(
            guild_id, user_id, offset=page * size, limit=size
        )
        return HistoryPage(user_id, tuple(entries), page, pages, total)

    async def head_to_head(self, guild_id: int, user_a: int, user_b: int) -> HeadToHead:
        """Every game here the two played together, oldest first."""
        return await self.storage.head_to_head(guild_id, user_a, user_b)
