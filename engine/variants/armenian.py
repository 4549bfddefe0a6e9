"""Armenian fool: the attacker may lead the top card of the talon instead of a card in hand."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from ..actions import Action, ActionKind, Event
from ..cards import CARDS
from .base import Variant, lead_limit, no_talon, plain_leads

if TYPE_CHECKING:
    from ..moves import GameMoves
    from ..rules import RuleSet

#: The lead from the talon of each seat, built once like the engine's own actions.
_TOP = tuple(Action(s, ActionKind.TOP) for s in range(6))


class Armenian(Variant):
    name = "armenian"
    title = "Armenian fool"
    rule_text = (
        "The Armenian Fool differs from the Simple, Thrown on or Transfer Fool only by the fact"
        " that a player can not only lead his own cards but with the card on top of the main"
        " deck as well."
    )
    requires: ClassVar[dict[str, tuple[object, str]]] = {
        "severnyi": (False, "the top card may be led, so the talon's last cards are not fixed"),
    }
    reading = (
        "Instead of leading from the hand, the attacker may turn over the top card of the talon"
        " and lead it ('top'): nobody, the attacker included, knows it before it is on the"
        " table. It is a lead of one card; the attacker and the others then throw in as usual."
        " The card comes from the talon, so the attacker's hand is unchanged and there is one"
        " card fewer to draw. When the turned-up trump is the last card of the talon it is the"
        " top card and may be led too; the trump exchange then closes, as the talon is out."
        " A deal that leaves no talon (six players, 36 cards) is refused: it would be the"
        " base game."
    )
    leads = True

    def problems(self, rules: RuleSet) -> list[str]:
        return super().problems(rules) + no_talon(self, rules, "there is never a top card to lead")

    def add_leads(self, g: GameMoves, seat: int, out: list[Action]) -> None:
        plain_leads(g, seat, out)
        if g.talon and lead_limit(g) > 0:
            out.append(_TOP[seat])

    def apply_own(self, g: GameMoves, action: Action) -> list[Event]:
        seat = action.seat
        card = g.talon.pop()
        if g.trump_index >= len(g.talon):  # it was the turned-up trump
            g.trump_index = -1
        if not g.talon:
            g._exchange_on = False
        ev = [Event("top", seat, (CARDS[card],), g.defender, 1, ())]
        # the card is led as if from the hand: the engine's own lead does the bookkeeping, and
        # the whole move counts as one action
        g.hands[seat] |= 1 << card
        g.version -= 1
        ev += g.apply_unchecked(Action(seat, ActionKind.ATTACK, (CARDS[card],)))
        return ev

    def explain_own(self, g: GameMoves, action: Action) -> tuple[str, str]:
        if action.kind is not ActionKind.TOP:
            return super().explain_own(g, action)
        if action.cards:
            return "malformed", "a lead from the talon names no card: nobody has seen it"
        if g.table:
            return "bout_running", "only a bout's first card may come from the talon"
        if action.seat != g.attacker:
            return "not_attacker", "it is not your turn to lead"
        if not g.talon:
            return "no_talon", "the talon is out: there is no top card to lead"
        return "too_many", "the defender holds no card to be attacked with"


ARMENIAN = Armenian()
