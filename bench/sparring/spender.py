"""The spender: a sparring partner that beats everything it can.

The opposite of the collector and the hoarder, and a style strong players meet in people who
hate to take: every attack it can beat it beats, trumps and aces included, whatever the
talon holds, because a pick-up is a bout lost. Its plan:

* **defending**: beat every card on the table with the cheapest cards that do (a trump as
  soon as nothing plainer beats); only when it cannot beat, transfer (or show a pass card)
  with the cheapest cards that may, else take;
* **leading**: its single lowest card (plain before trump), keeping nothing back;
* **throwing in**: every plain card it may, cheapest first, at a defender who beats or
  takes; trumps only once the talon is empty;
* once the talon is empty and two players are left, the shared exact endgame
  (:mod:`bench.sparring.base`).

Variant actions it has no rule for (blind slots, take on trust) go to ``normal``.
"""

from __future__ import annotations

from engine import Action
from engine.actions import PA, PI, SH, TK, TR, A, D, T
from engine.ai.view import View, defence_plan

from .base import SparringPlayer, plan_policy


def _defend(v: View) -> Action:
    acts = v.acts
    unbeaten = [a for a, d in v.table if d < 0]
    plan = defence_plan(v, unbeaten)
    if plan is not None:
        a, d = plan[0]
        for act in acts:
            if act.kind is D and act.cards[0] == a and act.cards[1] == d:
                return act
    passes = [a for a in acts if a.kind in (TR, SH)]
    if passes:
        return min(passes, key=lambda a: (sum(map(v.value, a.cards)), len(a.cards)))
    return next(a for a in acts if a.kind is TK)


def _lead(v: View) -> Action:
    leads = [a for a in v.acts if a.kind is A and len(a.cards) == 1]
    return min(leads, key=lambda a: v.value(a.cards[0]))


def _add(v: View) -> Action | None:
    adds = [a for a in v.acts if a.kind in (T, PI)]
    if not v.opponent(v.defender):
        adds = []
    wanted = [a for a in adds if not v.is_trump(a.cards[0]) or v.talon_count == 0]
    if wanted:
        if not any(a.kind is PA for a in v.acts) and not v.taking:
            return None  # the defender answers first (the driver's contract)
        return min(wanted, key=lambda a: v.value(a.cards[0]))
    return next((a for a in v.acts if a.kind is PA), None)


#: The plan above, on one seat's view.
spender_policy = plan_policy(_defend, _lead, _add)


class Spender(SparringPlayer):
    """The spender as a player (``choose(obs)``), with the shared exact endgame."""

    kind = "spender"
    policy = staticmethod(spender_policy)


__all__ = ["Spender", "spender_policy"]
