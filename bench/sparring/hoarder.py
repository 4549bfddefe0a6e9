"""The trump hoarder: a sparring partner that plays the simple early rule issue 20 measured.

A public hobby program beat our ``hard`` two games in three with a handful of rules of thumb
for the early game and a small exact search for the end. This player follows those rules as
the issue states them, so that every change to our players is measured against that style:

* while the talon is long, take rather than spend a trump (or an ace) on a plain attack;
* beat with the cheapest card of the led suit;
* lead low non-trumps (a pair of them when it has one), never a trump while it has a plain;
* throw in plain cards, keep trumps and high cards for the end;
* once the talon is empty and two players are left, play exactly, with the same endgame
  solver ``hard`` uses (``engine.ai.search.EndgameSolver``; sharing ours keeps the end of
  the game equal, so the match-up measures the early game).

It reads only its own observation, through the same :class:`~engine.ai.view.View` as our
players. Variant actions it has no rule for (blind slots, take on trust) go to ``normal``.
"""

from __future__ import annotations

from engine import Action
from engine.actions import PA, PI, SH, TK, TR, A, D, T
from engine.ai.view import View, defence_plan

from .base import LONG_TALON, SparringPlayer, plan_policy


def _rank(card: int) -> int:
    return card % 13 + 2


def _long(v: View) -> bool:
    return v.talon_count > LONG_TALON


def _defend(v: View) -> Action:
    acts = v.acts
    take = next(a for a in acts if a.kind is TK)
    unbeaten = [a for a, d in v.table if d < 0]
    shows = [a for a in acts if a.kind is SH]
    if shows:
        return shows[0]
    plain_transfers = [
        a
        for a in acts
        if a.kind is TR and not any(v.is_trump(c) for c in a.cards) and _rank(a.cards[0]) <= 10
    ]
    if plain_transfers:
        return min(plain_transfers, key=lambda a: len(a.cards))
    plan = defence_plan(v, unbeaten)
    if plan is None:
        return take
    if _long(v) and any(v.is_trump(d) or _rank(d) == 14 for _, d in plan):
        return take  # while the talon is long a trump (or an ace) is worth more than a bout
    a, d = plan[0]
    for act in acts:
        if act.kind is D and act.cards[0] == a and act.cards[1] == d:
            return act
    return take


def _lead(v: View) -> Action:
    leads = [a for a in v.acts if a.kind is A]

    def key(a: Action) -> tuple[int, int, int]:
        c = a.cards[0]
        trump = any(v.is_trump(x) for x in a.cards)
        # plain before trump, low before high, and of one rank every plain card of it
        return (trump, _rank(c), -len(a.cards) if not trump else len(a.cards))

    return min(leads, key=key)


def _add(v: View) -> Action | None:
    adds = [a for a in v.acts if a.kind in (T, PI)]
    if not v.opponent(v.defender):
        adds = []
    cap = 10 if _long(v) else 13
    wanted = [a for a in adds if not v.is_trump(a.cards[0]) and _rank(a.cards[0]) <= cap]
    if v.talon_count == 0:
        wanted = [a for a in adds if not v.is_trump(a.cards[0]) or v.hand.bit_count() <= 2]
    if wanted:
        if not any(a.kind is PA for a in v.acts) and not v.taking:
            return None  # the defender answers first (the driver's contract)
        return min(wanted, key=lambda a: v.value(a.cards[0]))
    return next((a for a in v.acts if a.kind is PA), None)


#: The rules above, on one seat's view.
hoarder_policy = plan_policy(_defend, _lead, _add)


class Hoarder(SparringPlayer):
    """The trump hoarder as a player (``choose(obs)``), with the shared endgame solver."""

    kind = "hoarder"
    policy = staticmethod(hoarder_policy)


__all__ = ["LONG_TALON", "Hoarder", "hoarder_policy"]
