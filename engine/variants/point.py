"""Point fool: the winner is whoever beat off the most of the opponents' cards."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from .base import Variant
from .scoring import settle_by_score

if TYPE_CHECKING:
    from ..actions import Event
    from ..moves import GameMoves
    from ..result import Result


class Point(Variant):
    name = "point"
    title = "Point fool"
    rule_text = (
        "The Point Fool differs from the Simple, Thrown on or Transfer Fool only by the fact that"
        " the winner is the one who beats off the larger number of the opponent’s cards."
    )
    reading = (
        "The deal is played out as usual. A bout beaten off scores its attack cards (the cards"
        " of the opponents, not the defender's own beating cards) to the player who beat it off"
        " (after transfers, the last defender). Once the deal is over the seats are ranked by"
        " their points: with two players the one with fewer points is the fool; with three or"
        " more the fool is the one with the fewest, the others placed by points. Equal points"
        " are separated by the ordinary result (the one left holding cards loses; of those who"
        " went out, the later one); equal points after an ordinary draw stay a draw. Played by"
        " individuals: points are a player's own."
    )
    requires: ClassVar[dict[str, tuple[object, str]]] = {
        "teams": ("none", "points are counted for each player, not for partnerships"),
    }
    bout_end = True
    settles = True

    def on_bout_end(
        self, g: GameMoves, taken: bool, cards: int, last: int, ev: list[Event]
    ) -> None:
        if taken:
            return
        points = list(g.vstate.get("points") or [0] * g.n)
        points[g.defender] += cards.bit_count() // 2  # every pair: an attack card and its beater
        g.vstate = {**g.vstate, "points": points}

    def public_state(self, g: GameMoves) -> dict[str, Any]:
        # the points are public (everyone saw each bout beaten off); sampled worlds need them
        return {"points": list(g.vstate.get("points") or [0] * g.n)}

    def settle(self, g: GameMoves) -> Result | None:
        points = g.vstate.get("points") or [0] * g.n
        return settle_by_score(g, lambda s: (points[s],))


POINT = Point()
