"""Beaten-off fool: every second beaten-off bout is shuffled back into the talon."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, ClassVar

from ..actions import Event
from ..cards import CARDS, bits
from .base import Deal, Variant, no_talon, standard_deal

if TYPE_CHECKING:
    from ..moves import GameMoves
    from ..rules import RuleSet


class BeatenOff(Variant):
    name = "beaten-off"
    title = "Beaten-off fool"
    rule_text = (
        "The Beaten-off Fool differs from the Simple, Thrown on or Transfer Fool only by the"
        " fact that every second round of the burned cards goes to the main deck where they are"
        " shuffled with the others and afterwards taken by the player or the computer."
    )
    requires: ClassVar[dict[str, tuple[object, str]]] = {
        "severnyi": (False, "a reshuffled talon has no fixed hidden last card"),
    }
    reading = (
        "Beaten-off bouts are counted from the start of the deal; the cards of the second,"
        " fourth, sixth ... are not discarded but put into the talon and shuffled with the"
        " face-down cards there, before the refill, so players may draw them again. The"
        " turned-up trump stays where it lies, at the bottom. Once the talon is out there is no"
        " 'main deck' to return them to, and every bout is discarded as usual. The shuffle is"
        " the game's own: seeded from the deal, so a replayed game shuffles alike. The table"
        " sees which cards went back (they were face up), not where they lie. A lowest trump"
        " that goes back has no original holder any more: where only the original holder may"
        " exchange it (the default), nobody may; where any holder may, whoever draws it may."
        " A deal that leaves no talon (six players, 36 cards) is refused: it would be the"
        " base game."
    )
    bout_end = True

    def problems(self, rules: RuleSet) -> list[str]:
        return super().problems(rules) + no_talon(self, rules, "no bout can go back into a talon")

    def deal(self, rules: RuleSet, deck: list[int], dealer: int) -> Deal:
        dealt = standard_deal(rules, deck, dealer)
        # the reshuffles' seed comes from the deal's own shuffle: no global random
        seed = random.Random(",".join(map(str, deck))).getrandbits(48)
        return dealt._replace(vstate={"beaten": 0, "seed": seed})

    def public_state(self, g: GameMoves) -> dict[str, Any]:
        return {"beaten": g.vstate.get("beaten", 0)}

    def on_bout_end(
        self, g: GameMoves, taken: bool, cards: int, last: int, ev: list[Event]
    ) -> None:
        if taken:
            return
        count = g.vstate.get("beaten", 0) + 1
        g.vstate = {**g.vstate, "beaten": count}
        if count % 2 or not g.talon:
            return
        g.discard &= ~cards
        talon = g.talon
        keep = g.trump_index + 1  # the turned-up trump (index 0) stays at the bottom
        hidden = talon[keep:] + [int(c) for c in bits(cards)]
        random.Random(f"{g.vstate.get('seed', 0)}:{count}").shuffle(hidden)
        g.talon = talon[:keep] + hidden
        if cards >> g._low & 1:
            # Kept in the position (lowest_origin), so a saved game decides exchanges alike.
            g.lowest_origin = -1
            g._exchange_on = g.rules.trump_exchange != "off"
        back = tuple(CARDS[c] for c in bits(cards))
        ev.append(Event("reshuffle", g.defender, back, -1, len(back), ()))


BEATEN_OFF = BeatenOff()
