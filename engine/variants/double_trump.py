"""Double-trump fool: every player has a trump suit of their own."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from ..cards import BEATERS
from .base import Variant, lowest_card_of

if TYPE_CHECKING:
    from ..moves import GameMoves
    from ..result import Result
    from ..rules import RuleSet


def seat_suits(trump: int, n: int, dealer: int) -> tuple[int, ...]:
    """The turned-up suit belongs to the dealer's left; each next seat clockwise takes the
    next suit in the order clubs, diamonds, hearts, spades (round again after spades)."""
    out = [0] * n
    for j in range(n):
        out[(dealer + 1 + j) % n] = (trump + j) % 4
    return tuple(out)


class DoubleTrump(Variant):
    name = "double-trump"
    title = "Double-trump fool"
    rule_text = (
        "This game differs from the other variant of the game by the fact that each player has"
        " got his own trump. The opponents trump is no trump for the player and he cat beat it"
        " with his own trump or another card of a stronger value."
    )
    reading = (
        "The catalogue does not say how the trumps are chosen. Here the turned-up card's suit"
        " is the trump of the player on the dealer's left, and each next player clockwise takes"
        " the next suit (clubs, diamonds, hearts, spades), so 2 to 4 players each have a"
        " different suit. A defender beats with their own suit: any card of it beats a card of"
        " another suit, and a card of their suit is beaten only by a higher one of it. The"
        " holder of the lowest card of their own trump leads the first deal."
    )
    requires: ClassVar[dict[str, tuple[object, str]]] = {
        "trump_exchange": ("off", "whose lowest trump would be exchanged is not defined"),
        "severnyi": (False, "Severnyi changes the one trump suit, and here there are several"),
        "pass_card": (False, "a pass card shows the trump of the rank, and trumps differ by seat"),
    }

    def problems(self, rules: RuleSet) -> list[str]:
        out = super().problems(rules)
        if rules.players > 4:
            out.append(f"{self.title}: four suits give at most four players a trump of their own")
        return out

    def seat_trumps(self, g: GameMoves) -> tuple[int, ...]:
        return seat_suits(g.trump, g.n, g.dealer)

    def beat_tables(self, g: GameMoves, trump: int) -> tuple[tuple[int, ...], ...]:
        return tuple(BEATERS[s] for s in seat_suits(trump, g.n, g.dealer))

    def opening_attacker(self, g: GameMoves, previous: Result | None) -> int | None:
        if previous is not None or g.rules.first_lead != "lowest_trump":
            return None
        best = lowest_card_of(g, self.seat_trumps(g))
        return None if best is None else best[1]


DOUBLE_TRUMP = DoubleTrump()
