"""Chukchi fool: six cards each, then the talon with its trump card leaves the game unseen."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from .base import OUT_OF_PLAY, Deal, Variant, card_list, no_talon, standard_deal

if TYPE_CHECKING:
    from ..rules import RuleSet


class Chukchi(Variant):
    name = "chukchi"
    title = "Chukchi fool"
    rule_text = (
        "The Chukchi  Fool differs from the Simple, Thrown on or Transfer Fool only by the fact"
        " that each of the players gets 6 cards. The deck with a trump is removed from the game"
        " and then the game follows the rules of the Simple, Thrown on or Transfer Fool."
    )
    requires: ClassVar[dict[str, tuple[object, str]]] = {
        "trump_exchange": ("off", "the turned-up trump leaves the game with the talon"),
        "severnyi": (False, "there is no talon whose last card could change trumps"),
    }
    reading = (
        "The dealer deals six cards each and turns up the next card, so that everybody sees"
        " trumps; then the talon, the turned-up trump with it, is put out of play. Nobody sees"
        " the talon's cards (they never join the discard, which is face up), nobody draws, and"
        " the game is played out with the dealt cards alone. A pack that leaves no talon after"
        " the deal has no trump card to turn up and remove, so it is refused."
    )

    def problems(self, rules: RuleSet) -> list[str]:
        return super().problems(rules) + no_talon(
            self, rules, "there is no talon to turn a trump from and remove"
        )

    def deal(self, rules: RuleSet, deck: list[int], dealer: int) -> Deal:
        dealt = standard_deal(rules, deck, dealer)
        # the talon as it lay, bottom first, the turned-up trump included, leaves the game
        away = {OUT_OF_PLAY: card_list(dealt.talon)}
        return Deal(dealt.hands, [], -1, dealt.trump_card, -1, away)


CHUKCHI = Chukchi()
