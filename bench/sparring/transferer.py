"""The transferer: a sparring partner that passes every attack on that it can.

Where transfers are allowed (Perevodnoy, pass card) a common and annoying human style is to
transfer at every chance: the attack goes to the next player with more cards on it, the
transferer keeps its hand, and the one it passed to must now beat a bigger bout. Its plan:

* **defending**: transfer (or show a pass card) whenever a transfer is legal, with the
  cheapest cards that may (fewest trumps, lowest ranks; a shown trump is kept, so it comes
  first); when it cannot transfer, defend like ``normal``;
* **everything else** (leading, throwing in, the turned-up trump) like ``normal``, so the
  match-up measures the transfers alone; on Podkidnoy it *is* ``normal``, which makes that
  table a control;
* once the talon is empty and two players are left, the shared exact endgame
  (:mod:`bench.sparring.base`).
"""

from __future__ import annotations

import random

from engine import Action
from engine.actions import SH, TK, TR
from engine.ai.policies import normal_policy
from engine.ai.view import View

from .base import SparringPlayer


def transferer_policy(v: View, rng: random.Random) -> Action | None:
    """The plan above, on one seat's view."""
    acts = v.acts
    shows = [a for a in acts if a.kind is SH]
    if shows:
        return shows[0]
    transfers = [a for a in acts if a.kind is TR]
    if transfers and any(a.kind is TK for a in acts):
        return min(
            transfers,
            key=lambda a: (
                sum(v.is_trump(c) for c in a.cards),
                sum(map(v.value, a.cards)),
                len(a.cards),
            ),
        )
    return normal_policy(v, rng)


class Transferer(SparringPlayer):
    """The transferer as a player (``choose(obs)``), with the shared exact endgame."""

    kind = "transferer"
    policy = staticmethod(transferer_policy)


__all__ = ["Transferer", "transferer_policy"]
