"""One lock per key (a lobby, a rematch, a tournament), held in memory only while in use.

A ``dict.setdefault(key, asyncio.Lock())`` per key keeps a lock for every lobby the bot ever
opened, for as long as the process lives. Here a key's lock is dropped when its last holder
or waiter leaves, so an idle or finished game keeps none; two callers of the same key still
always share one lock, because the lock is dropped only when nobody holds or awaits it.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Hashable
from contextlib import asynccontextmanager
from typing import Generic, TypeVar

__all__ = ["KeyedLocks"]

K = TypeVar("K", bound=Hashable)


class _Entry:
    __slots__ = ("lock", "users")

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        #: Callers holding the lock or waiting for it.
        self.users = 0


class KeyedLocks(Generic[K]):
    """``async with locks.hold(key):`` serialises the callers of one key."""

    def __init__(self) -> None:
        self._entries: dict[K, _Entry] = {}

    def __len__(self) -> int:
        """Keys in use now (held or awaited)."""
        return len(self._entries)

    @asynccontextmanager
    async def hold(self, key: K) -> AsyncIterator[None]:
        entry = self._entries.get(key)
        if entry is None:
            entry = self._entries[key] = _Entry()
        entry.users += 1
        try:
            async with entry.lock:
                yield
        finally:
            entry.users -= 1
            if not entry.users:
                del self._entries[key]
