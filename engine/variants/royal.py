"""Royal fool: a card of the lowest rank is beaten only by an ace (its own suit's or trumps')."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..cards import ACE, BEATERS, LOWEST_RANK
from .base import Variant

if TYPE_CHECKING:
    from ..moves import GameMoves

_TABLES: dict[tuple[int, int], tuple[int, ...]] = {}


def royal_table(trump: int, deck_size: int) -> tuple[int, ...]:
    """``BEATERS[trump]`` with the lowest rank's beaters cut down to the two aces."""
    key = (trump, deck_size)
    got = _TABLES.get(key)
    if got is None:
        low = LOWEST_RANK[deck_size]
        table = list(BEATERS[trump])
        for suit in range(4):
            card = suit * 13 + low - 2
            aces = 1 << (suit * 13 + ACE - 2)
            if 0 <= trump <= 3:
                aces |= 1 << (trump * 13 + ACE - 2)
            table[card] = aces
        got = _TABLES[key] = tuple(table)
    return got


class Royal(Variant):
    name = "royal"
    title = "Royal fool"
    rule_text = (
        "The Royal Fool differs from the Simple, Thrown on or Transfer Fool only by the fact that"
        " the weakest cards maybe only beaten by an ace. The trump ace beats any of the weaker"
        " cards."
    )
    reading = (
        "The weakest cards are those of the pack's lowest rank (6 in 36 cards, 9 in 24, 2 in"
        " 52). Each is beaten by the ace of its own suit or by the trump ace, and by nothing"
        " else; a lowest-rank trump, only by the trump ace. They still beat other cards as usual."
    )

    def beat_tables(self, g: GameMoves, trump: int) -> tuple[tuple[int, ...], ...]:
        return (royal_table(trump, g.rules.deck_size),) * g.n


ROYAL = Royal()
