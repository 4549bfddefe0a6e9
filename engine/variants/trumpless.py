"""Trumpless fool: no suit is trumps, so a card is beaten only by a higher card of its suit."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from ..cards import NO_TRUMP
from .base import Deal, Variant, standard_deal

if TYPE_CHECKING:
    from ..rules import RuleSet


class Trumpless(Variant):
    name = "trumpless"
    title = "Trumpless fool"
    rule_text = (
        "The Trumpless Fool differs from the Simple, Thrown on or Transfer Fool only by the"
        " fact that the game is played with no trumps."
    )
    requires: ClassVar[dict[str, tuple[object, str]]] = {
        "trump_exchange": ("off", "there is no trump to exchange"),
        "severnyi": (False, "there are no trumps for Severnyi to change"),
        "pass_card": (False, "the pass card is a trump, and there are none"),
    }
    reading = (
        "No card is turned up. Nobody holds a trump, so the 'lowest trump' rule for the first"
        " lead falls back to the player on the dealer's left; there is no trump to exchange."
    )

    def deal(self, rules: RuleSet, deck: list[int], dealer: int) -> Deal:
        dealt = standard_deal(rules, deck, dealer)
        return Deal(dealt.hands, dealt.talon, -1, -1, -1)  # nothing is turned up

    def trump_suit(self, turned_up: int) -> int:
        return NO_TRUMP


TRUMPLESS = Trumpless()
