"""Trump fool: the last beaten-off card changes places with the turned-up trump."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from ..actions import Event
from ..cards import CARDS
from .base import Variant, no_talon

if TYPE_CHECKING:
    from ..moves import GameMoves
    from ..rules import RuleSet


class TrumpFool(Variant):
    name = "trump-fool"
    title = "Trump fool"
    rule_text = (
        "The Trump Fool differs from the Simple, Thrown on or Transfer Fool only by the fact"
        " that the last burned card changes places with the trump and the game continues with"
        " a new trump."
    )
    reading = (
        "When a bout is beaten off, the card that beat the last attack card on the table goes"
        " face up under the talon in place of the turned-up trump, which goes to the discard;"
        " its suit is trumps from then on. This happens while the turned-up card is still"
        " under the talon; once it has been drawn, trumps stay as they are."
        " A deal that leaves no talon (six players with 36 cards, four with 24) is refused:"
        " there is no turned-up trump to exchange, so it would be the base game."
    )
    bout_end = True
    requires: ClassVar[dict[str, tuple[object, str]]] = {
        "trump_exchange": ("off", "the turned-up trump changes every bout"),
        "severnyi": (False, "trumps already change every bout"),
    }

    def problems(self, rules: RuleSet) -> list[str]:
        return super().problems(rules) + no_talon(
            self, rules, "there is no turned-up trump to exchange"
        )

    def on_bout_end(
        self, g: GameMoves, taken: bool, cards: int, last: int, ev: list[Event]
    ) -> None:
        if taken or last < 0 or g.trump_index < 0:
            return
        old = g.trump_card
        g.discard = (g.discard & ~(1 << last)) | (1 << old)
        g.talon[g.trump_index] = last
        g.trump_card = last
        g._set_trump(last // 13)
        ev.append(Event("trump_change", g.defender, (CARDS[last],)))


TRUMP_FOOL = TrumpFool()
