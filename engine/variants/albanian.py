"""Albanian fool: the talon lies in descending order, aces on top."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from .base import Deal, Variant, no_talon, standard_deal

if TYPE_CHECKING:
    from ..rules import RuleSet


def _rank(card: int) -> int:
    return card % 13


class Albanian(Variant):
    name = "albanian"
    title = "Albanian fool"
    rule_text = (
        "The Albanian Fool differs from the Simple, Thrown on or Transfer Fool only by the fact"
        " that the cards in the deck are laid according to the descending value order. It"
        " means that the upper cards of the deck are case, then go kings, queens, knaves, etc."
    )
    requires: ClassVar[dict[str, tuple[object, str]]] = {
        "severnyi": (False, "the talon's order is fixed by rank, not by a hidden last card"),
    }
    reading = (
        "'Case' is the catalogue's word for aces. The pack is shuffled and dealt as usual and"
        " the next card is turned up for trumps under the talon; the rest of the talon is then"
        " laid in descending order, aces on top, so players draw the highest cards left first."
        " Cards of one rank lie in the shuffled order of their suits, so nobody knows which"
        " suit comes next; everybody knows the order is by rank."
        " A deal that leaves no talon (six players, 36 cards) is refused: it would be the"
        " base game."
    )

    def problems(self, rules: RuleSet) -> list[str]:
        return super().problems(rules) + no_talon(self, rules, "there is no talon to lay in order")

    def arrange_talon(self, cards: list[int]) -> list[int]:
        return sorted(cards, key=_rank)  # bottom first: the lowest at the bottom, aces on top

    def deal(self, rules: RuleSet, deck: list[int], dealer: int) -> Deal:
        dealt = standard_deal(rules, deck, dealer)
        talon = dealt.talon
        if dealt.trump_index >= 0:  # the turned-up trump stays at the bottom
            talon = [talon[0], *self.arrange_talon(talon[1:])]
        return dealt._replace(talon=talon)


ALBANIAN = Albanian()
