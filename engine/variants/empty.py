"""Empty fool: a player draws from the talon only once their hand is empty."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .base import Variant, no_talon

if TYPE_CHECKING:
    from ..moves import GameMoves
    from ..rules import RuleSet


class Empty(Variant):
    name = "empty"
    title = "Empty fool"
    rule_text = (
        "The Empty Fool differs from the Simple, Thrown on or Transfer Fool only by the fact"
        " that the player draws the cards from the deck only when he has run out of his own"
        " ones."
    )
    reading = (
        "Drawing still happens where the base game draws, after each bout and in the same"
        " order, but only a player whose hand is empty draws, and then a full hand (six cards,"
        " or what the talon has left). A player who holds even one card draws nothing. Running"
        " out while the talon lasts is therefore not going out: that player draws a fresh hand."
        " A deal that leaves no talon (six players, 36 cards) is refused: it would be the"
        " base game."
    )
    draws = True

    def problems(self, rules: RuleSet) -> list[str]:
        return super().problems(rules) + no_talon(
            self, rules, "nobody ever draws and the rule never applies"
        )

    def draw_need(self, g: GameMoves, seat: int) -> int:
        return 0 if g.hands[seat] else g.rules.hand_size


EMPTY = Empty()
