"""Heaped fool: the whole pack is dealt at once, and the holder of the weakest trump leads."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from .base import Deal, Variant, lowest_card_of, whole_deck_deal

if TYPE_CHECKING:
    from ..moves import GameMoves
    from ..result import Result
    from ..rules import RuleSet


class Heaped(Variant):
    name = "heaped"
    title = "Heaped fool"
    rule_text = (
        "The Heaped Fool differs from the Simple, Thrown on or Transfer Fool only by the fact"
        " that the whole  deck is dealt at once. The player who has the weaker trump leads."
    )
    requires: ClassVar[dict[str, tuple[object, str]]] = {
        "trump_exchange": ("off", "there is no talon, so no turned-up trump to exchange"),
        "severnyi": (False, "there is no talon whose last card could change trumps"),
    }
    reading = (
        "The pack is dealt round one card at a time from the dealer's left; the dealer's last"
        " card is turned up to show trumps and stays in the dealer's hand, seen by all (as"
        " pagat deals six players 36 cards). 'The weaker trump leads' is read for every deal,"
        " not only the first: the holder of the lowest trump always leads. The pack must divide"
        " evenly among the players (24 or 36 cards: 2, 3, 4 or 6 players; 52 cards: 2 or 4),"
        " because an uneven deal gives some players an extra card to get rid of."
    )

    def problems(self, rules: RuleSet) -> list[str]:
        out = super().problems(rules)
        if rules.deck_size % rules.players:
            out.append(
                f"{self.title}: {rules.deck_size} cards do not divide evenly among"
                f" {rules.players} players, so some would be dealt a card more than others"
                " (choose a pack that divides by the number of players)"
            )
        return out

    def deal(self, rules: RuleSet, deck: list[int], dealer: int) -> Deal:
        return whole_deck_deal(rules, deck, dealer)

    def opening_attacker(self, g: GameMoves, previous: Result | None) -> int | None:
        found = lowest_card_of(g, (g.trump,) * g.n)
        return None if found is None else found[1]


HEAPED = Heaped()
