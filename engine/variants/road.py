"""Road fool: the whole pack is dealt; the dealer's last card shows trumps and stays his."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from .base import Deal, Variant, whole_deck_deal

if TYPE_CHECKING:
    from ..moves import GameMoves
    from ..result import Result
    from ..rules import RuleSet


class Road(Variant):
    name = "road"
    title = "Road fool"
    rule_text = (
        "The whole deck is divided between all of the players. The dealer opens the last card"
        " and shows it. It is the trump which he keeps to himself. The one whose trump has a"
        " weaker value or the winner of the previous game leads."
    )
    reading = (
        "The dealer's last card is shown to everybody (it fixes trumps) and stays in the"
        " dealer's hand ('keeps to himself'); there is no talon, so nothing is drawn and no"
        " trump is exchanged. The holder of the lowest trump leads the first deal; later deals"
        " are led by the previous deal's winner, the first player who went out."
    )
    requires: ClassVar[dict[str, tuple[object, str]]] = {
        "trump_exchange": ("off", "the whole pack is dealt, so no trump lies under a talon"),
        "severnyi": (False, "Severnyi needs a talon, and the whole pack is dealt"),
    }

    def deal(self, rules: RuleSet, deck: list[int], dealer: int) -> Deal:
        return whole_deck_deal(rules, deck, dealer)

    def opening_attacker(self, g: GameMoves, previous: Result | None) -> int | None:
        if previous is not None and previous.finish_order:
            winner = previous.finish_order[0]
            if 0 <= winner < g.n and g.hands[winner]:
                return winner
        return None


ROAD = Road()
