"""The collector: a sparring partner that plays the plan of the program that beat ``hard``.

Issue 31 read ``hard``'s lost games against a public hobby program and found a plan strong
human players use too: take cheap attacks early, keep trumps, collect cards of one rank, and
near the end of the talon lead pairs and triples with a trump in reserve, so that the
defender spends trumps on the set and is then thrown more. The collector plays exactly that:

* **defending while the talon is long** (more than ``LONG_TALON`` cards): an attack of plain
  cards no higher than ``CHEAP_RANK``, bringing home at most ``TAKE_MAX_CARDS`` cards, it
  passes it on with one low plain card where transfers are allowed (a transfer costs no
  trump and brings nothing home); otherwise it *takes* when taking builds a rank it already
  holds, or when beating it would cost a trump or a card of ``DEAR_RANK`` and up; else it
  beats with the cheapest cards that do;
* **defending late**: beats with the cheapest cards that do (trumps too), else transfers,
  else takes;
* **leading while the talon is long**: its lowest plain card that belongs to no set (the
  sets are what it is building), else its lowest plain set, a trump only when it has
  nothing else;
* **leading late**: its biggest plain set (a pair or a triple, lowest rank first) as long as
  it keeps a trump in reserve outside the lead; else as early;
* **throwing in while the talon is long**: only lone plain cards up to ``CHEAP_RANK``
  (never a card of a set, never a trump); **late**: any plain card, trumps only once the
  talon is empty and it holds two cards or fewer;
* once the talon is empty and two players are left, the shared exact endgame
  (:mod:`bench.sparring.base`).

Variant actions it has no rule for (blind slots, take on trust) go to ``normal``.
"""

from __future__ import annotations

from engine import Action
from engine.actions import PA, PI, SH, TK, TR, A, D, T
from engine.ai.view import View, defence_plan
from engine.cards import bits

from .base import SparringPlayer, long_talon, plan_policy, rank

#: Highest plain rank it counts as a cheap attack (taken early) or throws in early.
CHEAP_RANK = 10
#: Beating with a plain card of this rank or higher counts as dear as a trump while early.
DEAR_RANK = 13
#: Most cards it brings home by taking a cheap attack early.
TAKE_MAX_CARDS = 4


def plain_counts(v: View) -> dict[int, int]:
    """How many plain (non-trump) cards of each rank the hand holds."""
    out: dict[int, int] = {}
    for c in bits(v.hand):
        if not v.is_trump(c):
            out[rank(c)] = out.get(rank(c), 0) + 1
    return out


def _cards_home(v: View) -> int:
    return sum(1 if d < 0 else 2 for _, d in v.table)


def _defend(v: View) -> Action:
    acts = v.acts
    take = next(a for a in acts if a.kind is TK)
    unbeaten = [a for a, d in v.table if d < 0]
    shows = [a for a in acts if a.kind is SH]
    if shows:
        return shows[0]  # a shown trump is kept: the plan's whole point
    transfers = [a for a in acts if a.kind is TR]
    plan = defence_plan(v, unbeaten)
    counts = plain_counts(v)
    if long_talon(v):
        cheap = all(not v.is_trump(a) and rank(a) <= CHEAP_RANK for a in unbeaten)
        if cheap and _cards_home(v) <= TAKE_MAX_CARDS:
            lone = [
                a
                for a in transfers
                if len(a.cards) == 1
                and not v.is_trump(a.cards[0])
                and rank(a.cards[0]) <= CHEAP_RANK
            ]
            if lone:
                return min(lone, key=lambda a: v.value(a.cards[0]))
            if any(counts.get(rank(a), 0) for a in unbeaten):
                return take  # builds a rank it holds
            if plan is None or any(v.is_trump(d) or rank(d) >= DEAR_RANK for _, d in plan):
                return take  # a trump (or a high card) is worth more than a cheap bout
    if plan is not None:
        a, d = plan[0]
        for act in acts:
            if act.kind is D and act.cards[0] == a and act.cards[1] == d:
                return act
    if transfers:
        return min(transfers, key=lambda a: sum(map(v.value, a.cards)))
    return take


def _lead(v: View) -> Action:
    leads = [a for a in v.acts if a.kind is A]
    counts = plain_counts(v)
    plain = [a for a in leads if not any(v.is_trump(c) for c in a.cards)]
    if not long_talon(v):
        trumps = [c for c in bits(v.hand) if v.is_trump(c)]
        sets = [a for a in plain if len(a.cards) >= 2 and len(a.cards) == counts[rank(a.cards[0])]]
        if trumps and sets:
            return max(sets, key=lambda a: (len(a.cards), -rank(a.cards[0])))
    lone = [a for a in plain if len(a.cards) == 1 and counts[rank(a.cards[0])] == 1]
    if lone:
        return min(lone, key=lambda a: rank(a.cards[0]))
    whole = [a for a in plain if len(a.cards) == counts[rank(a.cards[0])]]
    if whole:
        return min(whole, key=lambda a: (rank(a.cards[0]), -len(a.cards)))
    if plain:
        return min(plain, key=lambda a: (rank(a.cards[0]), -len(a.cards)))
    return min(leads, key=lambda a: (sum(map(v.value, a.cards)), len(a.cards)))


def _wanted(v: View, card: int, counts: dict[int, int]) -> bool:
    if v.is_trump(card):
        return v.talon_count == 0 and v.hand.bit_count() <= 2
    if long_talon(v):
        return rank(card) <= CHEAP_RANK and counts.get(rank(card), 0) <= 1
    return True


def _add(v: View) -> Action | None:
    adds = [a for a in v.acts if a.kind in (T, PI)]
    if not v.opponent(v.defender):
        adds = []
    counts = plain_counts(v)
    wanted = [a for a in adds if _wanted(v, a.cards[0], counts)]
    if wanted:
        if not any(a.kind is PA for a in v.acts) and not v.taking:
            return None  # the defender answers first (the driver's contract)
        return min(wanted, key=lambda a: v.value(a.cards[0]))
    return next((a for a in v.acts if a.kind is PA), None)


#: The plan above, on one seat's view.
collector_policy = plan_policy(_defend, _lead, _add)


class Collector(SparringPlayer):
    """The collector as a player (``choose(obs)``), with the shared exact endgame."""

    kind = "collector"
    policy = staticmethod(collector_policy)


__all__ = ["CHEAP_RANK", "DEAR_RANK", "TAKE_MAX_CARDS", "Collector", "collector_policy"]
