"""``normal``'s judgement for Round fool (variant ``round``): the two players exchange hands
after every bout.

What a player keeps goes to the other player at the end of the bout, so the plain game's
economy is upside down:

* **Spend the best card, not the cheapest.** A defender's unspent cards are the hand the
  attacker holds next, so it beats with the most valuable card that does the job, and it never
  takes merely to save a trump (the trump it saves is handed over).
* **The endgame is a race of ranks.** With the talon out (two players: every unseen card is
  in the other hand) a beaten-off bout hands the attacker's rest to the defender, who then
  leads from it; the attacking hand stays the attacking hand and changes holders every bout.
  If every lead is a whole rank and is beaten off, the player who leads the last rank of it
  wins, so an attacker wants to leave a rest with an *even* number of ranks (or none): then
  the other player leads first from it and it is the attacker who leads its last rank. The
  lead prefers, in order: emptying the hand; an even number of ranks left; cards the other
  hand cannot beat; the cheapest. Throw-ins at a defender who is beating follow the same
  count (a card goes in only if the hand is then empty or keeps an even number of ranks); at
  a defender who takes, the plain rule stands (the pile comes back with the hand).

How they were found (variants of the policy played against easy on the duplicate deals of
``bench/ai_strength.py``, 400 seat-swapped games on deals 0-199, not-fool rates normal /
easy): the plain judgement 44.8% / 60.0%; the best beater and no take while the talon lasts
54.2% / 50.7%; plus the endgame's even ranks for the lead and the throw-ins 65.0% / 42.2%
(leaving out any one of the four rules cost 6 to 16 points); on fresh deals 5000-5199,
63.7% / 41.5%. Against ``easy`` with its own rule here (:func:`going_out`): 63.5% / 43.8%
and 62.7% / 42.5%. Tried and dropped: leading the strongest card or group while the talon
lasts, throwing in everything, taking in the endgame when both hands have an even number of
ranks.
"""

from __future__ import annotations

from ..actions import A, Action
from .view import View


def active(v: View) -> bool:
    """Whether the view's game is Round fool."""
    return v.rules.variant == "round"


def _ranks(mask: int) -> int:
    """How many distinct ranks the cards of ``mask`` hold."""
    r = 0
    while mask:
        low = mask & -mask
        r |= 1 << ((low.bit_length() - 1) % 13)
        mask ^= low
    return r.bit_count()


def endgame_lead(v: View) -> Action:
    """With the talon out: empty the hand if a lead can; else leave an even number of ranks;
    then prefer cards the defender cannot beat, then the cheapest on average."""
    defender = v.beaters[v.defender]
    possible = v.possible(v.defender)
    best: Action | None = None
    best_key: tuple[bool, bool, bool, float] | None = None
    for a in v.acts:
        if a.kind is not A:
            continue
        led = 0
        for c in a.cards:
            led |= 1 << c
        rest = v.hand & ~led
        safe = all(not defender[c] & possible for c in a.cards)
        cheap = -sum(v.value(c) for c in a.cards) / len(a.cards)
        key = (not rest, _ranks(rest) % 2 == 0, safe, cheap)
        if best_key is None or key > best_key:
            best, best_key = a, key
    assert best is not None
    return best


def endgame_add(v: View, card: int) -> bool:
    """With the talon out, at a defender who is beating: throw ``card`` in only if the hand is
    then empty or keeps an even number of ranks."""
    rest = v.hand & ~(1 << card)
    return not rest or _ranks(rest) % 2 == 0


def going_out(v: View) -> Action | None:
    """``easy``'s one rule here: with the talon out, lead the whole hand when one lead can.

    The player holding the empty hand when a bout ends is out; otherwise the hand (and any
    chance of going out with it) goes over to the other player. Without it, ``easy`` (the
    plain game's lowest single card) was no better than random play in Round fool
    (deals 0-399, 800 games, not-fool easy / random: 51.4% / 53.0%; with it 54.8% / 49.8%;
    deals 5000-5399: 54.2% / 50.2% and 58.9% / 45.6%)."""
    if v.talon_count:
        return None
    size = v.hand.bit_count()
    for a in v.acts:
        if a.kind is A and len(a.cards) == size:
            return a
    return None


__all__ = ["active", "endgame_add", "endgame_lead", "going_out"]
