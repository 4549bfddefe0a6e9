"""Three fool: while the talon lasts, every lead is three cards."""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING

from ..actions import Action, ActionKind
from ..cards import CARDS
from .base import Variant, no_talon

if TYPE_CHECKING:
    from ..moves import GameMoves
    from ..rules import RuleSet


class Three(Variant):
    name = "three"
    title = "Three fool"
    rule_text = (
        "This game differs form the Simple Fool by the fact that the player should lead 3 cards"
        " at a time until the whole deck is out."
    )
    reading = (
        "While the talon lasts a lead is exactly three cards of any ranks (three of one rank"
        " would rarely be possible); when the limit of the bout or the defender's hand is"
        " lower, as many cards as it allows. Cards thrown in afterwards match any rank on the"
        " table, and a transfer matches any rank of the attack. Once the talon is out, leads"
        " are as in the base game. A deal that leaves no talon (six players with 36 cards,"
        " four with 24) is refused: every lead would be the base game's."
    )
    leads = True
    lead_error = (
        "lead_three",
        "in three fool you lead three cards while the talon lasts",
    )

    def problems(self, rules: RuleSet) -> list[str]:
        return super().problems(rules) + no_talon(self, rules, "no lead is ever three cards")

    def add_leads(self, g: GameMoves, seat: int, out: list[Action]) -> None:
        limit = g.lead_limit()
        hand = g.hands[seat]
        if limit <= 0 or not hand:
            return
        if not g.talon:
            g._add_leads(seat, out, plain=True)
            return
        cards = [CARDS[c] for c in range(52) if hand >> c & 1]
        k = min(3, limit, len(cards))
        out.extend(Action(seat, ActionKind.ATTACK, c) for c in combinations(cards, k))


THREE = Three()
