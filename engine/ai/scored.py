"""``normal``'s judgement in the scoring variants: point fool and epaulet fool.

The plain game's rules of thumb aim at not being left holding cards: keep trumps, take a
cheap attack rather than spend one, give a defender every cheap card. In the scoring variants
the deal is decided by a count (``engine/variants/point.py``, ``epaulet.py``; the ordinary
result only breaks ties), and some of those habits work against it:

* **Point fool** scores every attack card a defender beats off to that defender. So a
  defender beats whenever it can (a take scores nothing), and an attacker gives away as few
  points as it can: it leads its lowest single card and throws nothing in at a defender who is
  beating (each card thrown in and beaten is a point for the defender). Throwing in only what
  the defender probably cannot beat (so that the whole bout is taken and scores nothing) was
  measured too, and lost: the taker keeps defending, and gets the cards to do it with. Leading
  the card hardest to beat lost for the same reason.
* **Epaulet fool** gives the attacker an epaulet for each rank of which exactly two cards are
  in a pile the defender takes. A defender beats whenever it can (a take hands the attacker
  whatever pairs it can pile up); the principal attacker leads what the defender probably
  cannot beat (pairs first: taken, a pair is an epaulet), piles onto a taker the one card that
  makes a pair of a rank on the table (never the third, which would spoil it), and throws in at
  a defender who is beating a card it probably cannot beat when the take would bring a pair.
  Otherwise it throws in as in the plain game (that still brings the deal's end nearer).

Everything reads only the seat's :class:`~engine.ai.view.View`: the chance that a defender
cannot beat a card is counted from the cards this seat cannot place, as ``_judge`` of take on
trust does. It is cheap (no loops over the unseen cards), because ``normal`` is also the
playout policy of ``hard``'s search.

How the choices were found: ``bench/ai_strength.py --variants --only "<preset> 2p: normal vs
easy" --deals 200`` (deals 0-199, 400 seat-swapped games), one rule changed at a time; the
figures are in docs/ai.md.
"""

from __future__ import annotations

import random
from typing import Final

from ..actions import PA, PI, TK, TR, A, Action, D, T
from .view import View, defence_plan

#: the variants this module plays
SCORED: Final = frozenset({"point", "epaulet"})


class Plain:
    """Returned by :func:`add` where the plain game's rule is the right one."""


PLAIN: Final = Plain()


def cannot_beat(v: View, d: int, card: int) -> float:
    """The chance that seat ``d`` holds nothing that beats ``card``, as this seat sees it.

    A beater known to be in that hand makes it 0; none that could be there makes it 1;
    otherwise the hand's unknown cards are a random draw from the cards this seat cannot
    place (hypergeometric, as ``_judge`` counts)."""
    beaters = v.beaters[d][card]
    known = v.known[d]
    if beaters & known:
        return 0.0
    maybe = beaters & v.unseen
    if not maybe:
        return 1.0
    pool = v.unseen.bit_count()
    held = min(v.hand_sizes[d] - known.bit_count(), pool)
    b = maybe.bit_count()
    none = 1.0
    for i in range(held):
        none *= max(0, pool - b - i) / (pool - i)
    return none


def _rank_counts(v: View) -> list[int]:
    """How many cards of each rank (index ``card % 13``) lie on the table."""
    counts = [0] * 13
    for a, d in v.table:
        counts[a % 13] += 1
        if d >= 0:
            counts[d % 13] += 1
    return counts


# ---------------------------------------------------------------------------- defending


def defend(v: View, rng: random.Random) -> Action:
    """Beat whenever possible, each card with its cheapest beater: a take scores nothing
    (point) or hands the attacker pairs (epaulet)."""

    acts = v.acts
    plan = defence_plan(v, [a for a, d in v.table if d < 0])
    if plan is not None:
        a, d = plan[0]
        for act in acts:
            if act.kind is D and act.cards[0] == a and act.cards[1] == d:
                return act
    transfers = [act for act in acts if act.kind is TR]
    if transfers and plan is None:
        # passed on, the attack is someone else's to beat or take: better than taking it
        return min(transfers, key=lambda act: sum(map(v.value, act.cards)))
    return next(act for act in acts if act.kind is TK)


# ---------------------------------------------------------------------------- attacking


def lead(v: View, rng: random.Random) -> Action:
    """Point: the lowest single card (a beaten lead scores its cards to the defender).
    Epaulet: the lead the defender is least likely to beat (a pair scores extra: taken, it
    is an epaulet), the cheaper among equals."""
    leads = [a for a in v.acts if a.kind is A]
    if v.rules.variant == "point":
        singles = [a for a in leads if len(a.cards) == 1] or leads
        return min(singles, key=lambda a: v.value(a.cards[0]))
    d = v.defender
    best = leads[0]
    best_score = -1e9
    for a in leads:
        cards = a.cards
        k = len(cards)
        p = 1.0
        for c in cards:
            p *= cannot_beat(v, d, c)
        score = p * 10 - sum(map(v.value, cards)) / k / 10
        score += 2 if k == 2 else -1 if k > 2 else 0
        if score > best_score:
            best, best_score = a, score
    return best


def add(v: View, rng: random.Random) -> Action | Plain | None:
    """Throw in or pile on where the count gains by it; :data:`PLAIN` where the plain game's
    rule is right (point: piling onto a taker; epaulet: a throw-in that brings no pair)."""
    passes = [a for a in v.acts if a.kind is PA]
    if v.rules.variant == "point":
        if v.taking:
            return PLAIN  # a take scores nothing: shed cards as in the plain game
        return passes[0] if passes else None  # every card beaten is a point for the defender
    adds = [a for a in v.acts if a.kind in (T, PI)]
    if not adds or not v.opponent(v.defender):
        return PLAIN
    counts = _rank_counts(v)
    principal = v.seat == v.attacker  # the epaulets are the principal attacker's
    if v.taking:
        # 1 -> 2 of a rank makes an epaulet for the principal attacker, 2 -> 3 spoils one
        want = 1 if principal else 2
        made = [a for a in adds if counts[a.cards[0] % 13] == want]
        if made:
            return min(made, key=lambda a: v.value(a.cards[0]))
        return passes[0] if passes else None
    if principal:
        pairs = sum(1 for n in counts if n == 2)
        best: Action | None = None
        best_gain = 0.5
        for a in adds:
            c = a.cards[0]
            n = counts[c % 13]
            gain = cannot_beat(v, v.defender, c) * (pairs + (n == 1) - (n == 2))
            if gain >= best_gain:
                best, best_gain = a, gain
        if best is not None:
            return best  # taken, the table brings pairs; beaten, the card is gone anyway
    return PLAIN


__all__ = ["PLAIN", "SCORED", "Plain", "add", "cannot_beat", "defend", "lead"]
