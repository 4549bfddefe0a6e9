"""Round fool: after every bout the two players exchange hands."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..actions import Event
from .base import Variant

if TYPE_CHECKING:
    from ..moves import GameMoves
    from ..rules import RuleSet


class Round(Variant):
    name = "round"
    title = "Round fool"
    rule_text = (
        "The Round Fool differs from the Simple, Thrown on or Transfer Fool only by the fact that"
        " each time the card is burn or taken, the computer and the player exchange their own"
        " cards."
    )
    reading = (
        "Two players only: 'the computer and the player' exchange, and with three or more there"
        " is no single other hand to exchange with, so other counts are refused. The exchange"
        " comes when the bout is beaten off or taken, before the refill; roles stay with the"
        " people (who leads next is decided as in the base game), only the cards change hands."
        " When the talon is out and a player has just emptied their hand the game is over and"
        " nobody exchanges: the one who got rid of their cards has won, as in every fool."
        " A hand goes over whole: whoever receives the hand holding the lowest trump may"
        " exchange it."
        " Whoever hands a hand over knows it: each player sees which of the cards they gave are"
        " still in the other's hand; the table (and the channel) learns only what was public."
    )
    bout_end = True
    observes = True

    def problems(self, rules: RuleSet) -> list[str]:
        out = super().problems(rules)
        if rules.players != 2:
            out.append(
                f"{self.title}: the two players exchange hands after every bout, so it is played"
                f" by exactly two (not {rules.players})"
            )
        return out

    def on_bout_end(
        self, g: GameMoves, taken: bool, cards: int, last: int, ev: list[Event]
    ) -> None:
        hands = g.hands
        if not g.talon and not (hands[0] and hands[1]):
            return  # someone has gone out with the talon empty: the game ends here
        hands[0], hands[1] = hands[1], hands[0]
        # public knowledge follows the cards; what each gave away is its own private knowledge
        g.known[0], g.known[1] = g.known[1], g.known[0]
        if g.lowest_origin >= 0:
            g.lowest_origin = 1 - g.lowest_origin  # the hand goes over whole, with its rights
        g.vstate = {**g.vstate, "gave": [hands[1], hands[0]]}
        ev.append(Event("swap_hands", 0, (), 1, hands[0].bit_count() + hands[1].bit_count()))

    def observe(self, g: GameMoves, seat: int, fields: dict[str, object]) -> None:
        gave = g.vstate.get("gave")
        if seat < 0 or not gave:
            return
        other = 1 - seat
        known = list(fields["known_masks"])  # type: ignore[call-overload]
        # the cards this seat handed over and that are still in the other hand (a card that
        # left it since went through the table, in public view)
        known[other] |= gave[seat] & g.hands[other]
        fields["known_masks"] = tuple(known)


ROUND = Round()
