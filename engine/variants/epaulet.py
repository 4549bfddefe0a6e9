"""Epaulet fool: the winner is whoever made the opponents take the most pairs ("epaulets")."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from ..cards import RANK_MASK
from .base import Variant
from .scoring import settle_by_score

if TYPE_CHECKING:
    from ..actions import Event
    from ..moves import GameMoves
    from ..result import Result


class Epaulet(Variant):
    name = "epaulet"
    title = "Epaulet fool"
    rule_text = (
        "This game differs from the Simple, Thrown up or the transfer Fool only by the fact that"
        " the winner is the one who collects more “epaulet” sets of senior cards. In case the"
        " number of the sets is the same, the winner is the one whose “epaulets” consist of the"
        " cards of a stronger value. An “epaulet’ is the situation in which the opponent takes"
        " 2 cards equal in value, not 3 or 4."
    )
    reading = (
        "The deal is played out as usual. When a defender takes the table, every rank of which"
        " exactly two cards are in what they take (attack and beating cards alike; three or four"
        " of a rank are no epaulet) is an epaulet for the player who attacked them (the principal"
        " attacker, after transfers the one who transferred last): the attack speaks for the"
        " co-attackers who threw in, as it does when it says 'done'. At the end the seats are"
        " ranked by their number of epaulets; equal numbers by the stronger epaulets (the"
        " highest rank first, then the next); the lowest is the fool ('senior cards' is read as"
        " this tie-break, not as a limit on which ranks count). Still equal: the ordinary result"
        " decides, as in point fool. Played by individuals."
    )
    requires: ClassVar[dict[str, tuple[object, str]]] = {
        "teams": ("none", "epaulets are collected by each player, not by partnerships"),
    }
    bout_end = True
    settles = True

    def on_bout_end(
        self, g: GameMoves, taken: bool, cards: int, last: int, ev: list[Event]
    ) -> None:
        if not taken:
            return
        pairs = [r for r in range(14, 1, -1) if (cards & RANK_MASK[r]).bit_count() == 2]
        if not pairs:
            return
        won = [list(x) for x in g.vstate.get("epaulets") or [[] for _ in range(g.n)]]
        won[g.attacker] = sorted([*won[g.attacker], *pairs], reverse=True)
        g.vstate = {**g.vstate, "epaulets": won}

    def public_state(self, g: GameMoves) -> dict[str, Any]:
        # everyone saw the pile taken: public, and sampled worlds need it
        won = g.vstate.get("epaulets") or [[] for _ in range(g.n)]
        return {"epaulets": [list(x) for x in won]}

    def settle(self, g: GameMoves) -> Result | None:
        won = g.vstate.get("epaulets") or [[] for _ in range(g.n)]
        return settle_by_score(g, lambda s: (len(won[s]), *won[s]))


EPAULET = Epaulet()
