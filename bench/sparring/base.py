"""What every rules-of-thumb sparring partner shares: a plan on one seat's view, and the
same exact endgame as ``hard`` once nothing is hidden.

The plans differ only in the early game (that is what the league measures: which style of
spending, keeping and transferring cards beats ours while the talon lasts). Once the talon
is empty and two players are left, a member plays exactly with the endgame solver ``hard``
uses, in the same small search as ``normal`` (``engine.ai.endgame``, node cap like a hobby
program's); a member that cannot finish the search within the cap plays its plan. Sharing
the search keeps the end equal, so a match-up says who reached the end in the better
position.

A member reads only its own observation, through the same :class:`~engine.ai.view.View` our
players use, so it cannot peek (``tests/bench/test_sparring.py`` checks it).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from engine import Action, Observation
from engine.actions import EX, PA, PI, SH, TK, TR, A, D, T
from engine.ai.endgame import NODE_CAP as ENDGAME_NODE_CAP
from engine.ai.endgame import exact_choice
from engine.ai.policies import normal_policy
from engine.ai.view import View, view_of_observation

#: "The talon is long": more cards than this left to draw (the issue's boundary too).
LONG_TALON = 4
#: Nodes the endgame search ("can I avoid being the fool") may visit before the member falls
#: back to its plan: ``normal``'s cap (small, like a hobby program's; ``hard`` has a larger
#: one). A module global so that ``bench/tune_judgement.py`` can lower it for both sides.
NODE_CAP = ENDGAME_NODE_CAP

Policy = Callable[[View, random.Random], Action | None]
#: The moves a plan has rules for; anything else (a variant's blind slots, take on trust)
#: is left to ``normal``.
PLAIN_KINDS = frozenset({A, T, D, TR, SH, TK, PI, PA})


def plan_policy(
    defend: Callable[[View], Action],
    lead: Callable[[View], Action],
    add: Callable[[View], Action | None],
) -> Policy:
    """A plan's three parts as one policy: the turned-up trump is always exchanged (it is
    worth more than the lowest trump), a defender's turn goes to ``defend``, a lead to
    ``lead``, throwing in and passing to ``add``."""

    def policy(v: View, rng: random.Random) -> Action | None:
        acts = v.acts
        if not acts:
            return None
        kinds = {a.kind for a in acts}
        if EX in kinds:
            return next(a for a in acts if a.kind is EX)
        if kinds - PLAIN_KINDS:
            return normal_policy(v, rng)
        if TK in kinds:
            return defend(v)
        if A in kinds:
            return lead(v)
        return add(v)

    return policy


def rank(card: int) -> int:
    """2..14 (ace high)."""
    return card % 13 + 2


def long_talon(v: View) -> bool:
    return v.talon_count > LONG_TALON


class SparringPlayer:
    """A plan (``policy``) as a player (``choose(obs)``), with the shared exact endgame."""

    kind = "sparring"
    policy: Policy

    def __init__(self, seed: int | str = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, obs: Observation) -> Action | None:
        v = view_of_observation(obs)
        return exact_choice(obs, v, type(self).policy(v, self.rng), NODE_CAP)


__all__ = [
    "LONG_TALON",
    "NODE_CAP",
    "PLAIN_KINDS",
    "Policy",
    "SparringPlayer",
    "long_talon",
    "plan_policy",
    "rank",
]
