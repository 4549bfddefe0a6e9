"""What ``hard`` reads of its opponents' style, and how its playouts then play those seats.

``hard``'s playouts model every seat as ``normal``. Against a player who takes cheap attacks
to keep its trumps (issue 31's collector, or the public program it was written from) that
is wrong in a way that matters: the search expects the opponent to spend trumps on cheap
attacks and so undervalues what it will meet at the end of the talon. This module infers one
trait from what the table saw and nothing else:

* **how often a seat takes a cheap attack while the talon is long**: each bout in which an
  opponent first answers an attack of plain cards no higher than ``CHEAP_RANK`` while more
  than ``LONG_TALON`` cards are left to draw is one opportunity; it *took* if the bout shows
  it taking, it *beat* if the table shows its defence. A transfer is neither (the bout moves
  on to another defender).

The playouts already play ``normal``, which takes some of these bouts itself (``NORMAL_TAKE``:
about a third on Podkidnoy, where its take rule is on, almost none where transfers are allowed;
counted with this module by a ``normal`` seat watching ``normal``). The estimate is smoothed
towards that rate by ``PRIOR_WEIGHT`` pseudo-bouts, and what a seat takes *beyond* it, ``extra
= (rate - normal) / (1 - normal)``, is the model: after at least ``MIN_BOUTS`` opportunities a
seat with ``extra`` above ``MIN_EXTRA`` is a taker, and in a playout, facing a cheap attack
while the talon is long with at most ``TAKE_MAX_CARDS`` cards to bring home, it takes with
chance ``extra`` and otherwise plays ``normal`` (which may take too: together they take at
about the rate seen). A seat that takes less than ``normal`` is left to ``normal``. Everything
read is public (the table, counts, whose turn it is), so the model cannot peek: the same
observations give the same model whatever the hidden cards are.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..actions import Action
from ..game import Game
from ..observation import Observation
from ..tables import _TAKE

#: "The talon is long": more cards than this left to draw (issue 31's boundary).
LONG_TALON = 4
#: Highest plain rank that counts as a cheap attack.
CHEAP_RANK = 10
#: Most cards a modelled taker brings home by taking a cheap attack.
TAKE_MAX_CARDS = 4
#: Opportunities seen before a seat may be modelled at all.
MIN_BOUTS = 3
#: ``normal``'s own share of taken cheap bouts, without and with transfers (see the module).
NORMAL_TAKE = (0.35, 0.05)
#: How many bouts the belief "it plays like ``normal``" is worth.
PRIOR_WEIGHT = 2.0
#: A seat is modelled as a taker once it takes this much beyond ``normal`` (see the module).
MIN_EXTRA = 0.15

#: A playout's decision for a defending seat: an action, or ``None`` to let ``normal`` decide.
DefendHook = Callable[[Game, int, random.Random], Action | None]


def _cheap(card: int, trump: int) -> bool:
    return card // 13 & 3 != trump and card % 13 + 2 <= CHEAP_RANK


def cheap_attack(table: Sequence[Sequence[int]], trump: int, talon_count: int) -> bool:
    """An attack a collector takes rather than beats: the talon is long, every unbeaten card
    is a plain card no higher than ``CHEAP_RANK``, and at most ``TAKE_MAX_CARDS`` would go
    home."""
    if talon_count <= LONG_TALON:
        return False
    unbeaten = [a for a, d in table if d < 0]
    if not unbeaten or not all(_cheap(a, trump) for a in unbeaten):
        return False
    home = sum(1 if d < 0 else 2 for _, d in table)
    return home <= TAKE_MAX_CARDS


@dataclass
class OpponentModel:
    """Per opponent seat, the cheap-attack bouts seen and how many it took (see the module)."""

    takes: dict[int, int] = field(default_factory=dict)
    beats: dict[int, int] = field(default_factory=dict)
    seen: set[tuple[int, int, int, int]] = field(default_factory=set)

    def update(self, obs: Observation) -> None:
        """Read one observation; a bout is counted once, at the first sight of the answer."""
        if obs.rules.variant != "none":
            return  # variants change what a cheap attack is; the plain game only
        s = obs.defender
        if s == obs.seat or not obs.table or obs.talon_count <= LONG_TALON:
            return
        if obs.rules.teams != "none" and (s - obs.seat) % 2 == 0:
            return  # a partner: its style is not the opponents'
        key = (obs.deal_no, obs.dealer, obs.bout_no, s)
        if key in self.seen:
            return
        t = obs.trump
        attacks = [int(a) for a, _ in obs.table]
        if obs.taking:
            table = [(int(a), -1 if d is None else int(d)) for a, d in obs.table]
            # what it faced when it chose: the cards it left unbeaten
            if cheap_attack(table, t, obs.talon_count):
                self.takes[s] = self.takes.get(s, 0) + 1
            self.seen.add(key)
        elif any(d is not None for _, d in obs.table):
            if _cheap(attacks[0], t):
                self.beats[s] = self.beats.get(s, 0) + 1
            self.seen.add(key)

    def bouts(self, seat: int) -> int:
        return self.takes.get(seat, 0) + self.beats.get(seat, 0)

    def extra_take(self, seat: int, transfers: bool) -> float:
        """How much more often than ``normal`` the seat takes a cheap attack while the talon
        is long (0 when it takes no more), from the smoothed rate."""
        base = NORMAL_TAKE[transfers]
        n = self.bouts(seat)
        rate = (self.takes.get(seat, 0) + base * PRIOR_WEIGHT) / (n + PRIOR_WEIGHT)
        return max(0.0, (rate - base) / (1 - base))

    def hooks(self, n: int, transfers: bool) -> dict[int, DefendHook]:
        """The playout decisions of the seats modelled as takers (none for the rest)."""
        out: dict[int, DefendHook] = {}
        for s in range(n):
            if self.bouts(s) >= MIN_BOUTS:
                extra = self.extra_take(s, transfers)
                if extra > MIN_EXTRA:
                    out[s] = taker(extra)
        return out


def taker(rate: float) -> DefendHook:
    """A defender that takes a cheap attack while the talon is long with chance ``rate``
    (the rest of the time, and everywhere else, ``normal`` decides)."""

    def decide(g: Game, seat: int, rng: random.Random) -> Action | None:
        cheap = not g.taking and cheap_attack(g.table, g.trump, len(g.talon))
        return _TAKE[seat] if cheap and rng.random() < rate else None

    return decide


__all__ = [
    "CHEAP_RANK",
    "LONG_TALON",
    "MIN_BOUTS",
    "MIN_EXTRA",
    "NORMAL_TAKE",
    "DefendHook",
    "OpponentModel",
    "cheap_attack",
    "taker",
]
