"""``normal``'s judgement for Simple Durak (Prostoy: ``throw_in == "none"``).

In the simple fool the lead is the whole attack: nobody throws in, and after a pick-up the same
attacker leads again. Two of the plain game's rules of thumb are wrong there:

* **Taking to save a trump.** In Podkidnoy a defender takes a cheap attack early rather than
  beat it with a trump, because beating invites throw-ins and the trump is worth more later.
  Here a beat costs exactly one card per attack card, nothing follows it, and beating wins the
  lead; taking keeps the other player leading at you bout after bout. So the defender beats
  whenever it can (``take_talon`` is off).
* **Keeping pairs.** Several cards of one rank led together are the only way to shed more than
  one card a bout, and the defender must beat every one of them or take them all; there is no
  later throw-in to keep the pair for. So a lead of two or more plain cards of a rank scores
  ``GROUP_BONUS`` more per extra card.

How they were found (``bench/ai_strength.py --variants --only "prostoy 2p: normal vs easy"``,
400 seat-swapped games; not-fool rates normal / easy): before, 56.8% / 65.2% on deals 0-199
and 59.2% / 57.8% on deals 5000-5199. Beating instead of taking alone: 70.0% / 48.5% and
68.5% / 50.2%; with the group bonus as well (tried 4, 8, 16, 24, 32; 16 and up about equal)
74.5% / 44.0% and 71.8% / 48.5%.

``hard``'s playouts on this preset run through ``fastplay`` (its variant is "none"), which
restates the same two rules; ``tests/ai/test_playout_equivalence.py`` holds them together.
"""

from __future__ import annotations

from ..rules import RuleSet

#: the extra score of a lead per plain card beyond the first, on top of the plain game's
GROUP_BONUS = 16.0
#: the take rule's talon length where nobody throws in: 99 = never take to save a trump
TAKE_TALON = 99


def simple(rules: RuleSet) -> bool:
    """Whether ``rules`` play the simple fool: the lead is the whole attack."""
    return rules.throw_in == "none"


__all__ = ["GROUP_BONUS", "TAKE_TALON", "simple"]
