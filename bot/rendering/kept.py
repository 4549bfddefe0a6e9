"""Texts a render keeps by what they are made of.

Each move the bot draws the mover's hand, the other hands and the table, and most of their
lines are the same as the version before (the table's last few events, the names, the
cards left in a hand that did not move) or the same as in the other renders of the move (the
cards on the table, in every hand and on the table). A text kept by everything it is made
of is written once and looked up after that; the key must hold every input of the text,
so a kept text is never stale, only unused.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

V = TypeVar("V")


class Kept(Generic[V]):
    """A bounded memo: ``get(key, build)`` is ``build()`` the first time a key is asked.
    Emptied whole when full: the keys a running bot asks again are those of the games moving
    now, which come back at once, and dropping the rest costs no bookkeeping per hit."""

    __slots__ = ("_items", "limit")

    def __init__(self, limit: int) -> None:
        self._items: dict[Hashable, V] = {}
        self.limit = limit

    def get(self, key: Hashable, build: Callable[[], V]) -> V:
        try:
            return self._items[key]
        except KeyError:
            pass
        value = build()
        if len(self._items) >= self.limit:
            self._items.clear()
        self._items[key] = value
        return value
