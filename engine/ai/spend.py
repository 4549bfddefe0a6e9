"""``normal``'s judgement on the presets where the plain game's card economy is wrong.

The plain game's ``normal`` saves its trumps and aces while the talon lasts: it takes an attack
rather than beat it with one, and hands a taker any plain card. Three catalogue variants
change what those cards are worth, and there that economy loses to the beginner (``easy``,
who beats whenever it can); measured with ``bench/ai_strength.py --variants`` (normal's
not-fool rate minus easy's, 2 players, on two ranges of deals: trumpless 10000-10999 and
20000-20999, 2,000 seat-swapped games per figure; royal and big 10000-10499 and
20000-20499, 1,000 per figure; each rule below on its own and with the others):

- **trumpless** (no trumps): an ace is not a reserve that beats anything, only the top of
  its suit, and a card handed to a taker is a card it keeps (nothing can trump it later).
  Normal was even with easy (+1.5 / +0.1). Beating rather than taking, with piling only
  cards up to 10 on a taker: +7.2 / +7.6; leading the lowest single card rather than pairs
  while the talon lasts (a pair is seen at once and must be beaten in two suits; led singly,
  the second card can still follow as a throw-in once the beater is seen): +5.2 / +8.2; all
  three: +11.2 / +11.2; and throwing in jacks too at a defender who beats: +14.6 / +14.4
  (throw ranks 8, 10, 12, 13, 14 gave about 0, +11, +13, +8, +2).
- **royal** (the lowest rank is beaten only by an ace): the 6 is everybody's cheapest lead,
  so saving aces meant taking 6 after 6 into a hand that cannot beat with them. Normal was
  +8.4 / +5.6; beating whenever it can: +23.7 / +23.1; and not piling aces (the only
  answers to the 6s) on a taker: +29.3 / +29.1. (Keeping the trump part of the take rule and
  dropping only the aces: +18.4 / +18.5.)
- **big** (two packs: 18 trumps in play, a talon of 60 cards): trumps are not scarce and
  taking while the long talon lasts only piles cards up. Normal was +4.0 / +0.9; beating
  whenever it can: +39.3 / +39.5 (the take rule's cost test kept: +33.7 / +37.1).

Those figures are on the presets (the Thrown-in base game, no transfers); with transfers
royal and big keep the take rule's cost test (:data:`BEAT_WHEN_ABLE`). Every rule here is
gated on the variant, so Podkidnoy, Perevodnoy and every other preset play exactly as
before. These presets' playouts in ``hard`` go through ``search.playout`` with
``normal_policy`` (``fastplay`` is the plain game's only), so nothing needs restating there.
"""

from __future__ import annotations

from typing import Final

from .view import View

#: Variants where ``normal`` beats every attack it can while the talon lasts (never takes to
#: save a trump or an ace): their trumps or aces are not the reserve the plain game's are.
#: The value: whether also where transfers are allowed. On a Perevodnoy base (where the
#: plain game's ``normal`` already drops its early take rule and keeps only the cost test)
#: normal's lead over easy went from +32 to +42 points on trumpless, but from +37 to +28 on
#: royal and from +35 to +26 on big (600 seat-swapped games each, deals 0-299), so there
#: royal and big keep the plain game's cost test.
BEAT_WHEN_ABLE: Final = {"trumpless": True, "royal": False, "big": False}

#: Highest plain rank ``normal`` piles on a defender who takes, while the talon lasts, where
#: the plain game's (any plain card) would hand the taker what it should not have: an ace
#: (in trumpless fool the top of its suit, which nothing can trump later; in royal fool the
#: only answer to a lowest-rank card) or, in trumpless, any high card.
PILE_RANK: Final = {"trumpless": 10, "royal": 13}
#: Highest plain rank ``normal`` throws in at a defender who is beating, while the talon
#: lasts, where the plain game's (10, or 12 once the talon is nearly out) is wrong.
#: Trumpless: a jack is beaten only by a queen, king or ace of its suit, so throwing it in
#: draws the defender's top cards, and the defender cannot trump it; a queen or higher is
#: mostly left unbeaten and so handed to the taker with the whole table.
THROW_RANK: Final = {"trumpless": 11}


def never_takes(v: View) -> bool:
    """Whether ``normal`` beats rather than takes whenever it can beat (see the module and
    :data:`BEAT_WHEN_ABLE`)."""
    also_transfers = BEAT_WHEN_ABLE.get(v.rules.variant)
    return also_transfers is not None and (also_transfers or v.rules.transfer == "off")


def add_rank(v: View) -> int | None:
    """The highest plain rank thrown in (or piled on a taker) while the talon lasts, or
    None: the plain game's weights decide."""
    return (PILE_RANK if v.taking else THROW_RANK).get(v.rules.variant)


def singles_only(v: View) -> bool:
    """Trumpless fool: while the talon lasts, lead the lowest single card (see the module);
    a lead of several cards of a rank waits for the endgame."""
    return v.talon_count > 0 and v.rules.variant == "trumpless"


__all__ = ["BEAT_WHEN_ABLE", "PILE_RANK", "THROW_RANK", "add_rank", "never_takes", "singles_only"]
