"""``normal`` on trumpless, royal and big fool (``engine/ai/spend.py``): positions where the
plain game's card economy (take rather than spend a trump or an ace; lead low pairs; throw in
only up to tens) is wrong, and the plain game, where the same positions keep the old moves."""

from __future__ import annotations

from typing import Any

from engine import Action, Game, RuleSet
from engine.ai import make_player

#: Ten cards in the talon: long enough for every "while the talon lasts" rule.
TALON = ["7h", "8h", "9h", "Th", "Qh", "Kh", "7d", "8d", "9c", "6s"]

#: The attacker to lead, holding a pair of sixes and nothing else of a rank.
LEAD = {
    "hands": [["6c", "6d", "9s", "Ks", "Qd", "8s"], ["7c", "8c", "Tc", "Jc", "Ac", "As"]],
    "talon": TALON,
}
#: The defender beat the 6 of hearts with the jack; the attacker may throw in its jack.
THROW = {
    "hands": [["Js", "8c", "Qd", "Kd", "9d"], ["8s", "Tc", "Jc", "Ac", "As"]],
    "talon": TALON,
    "table": [["6h", "Jh"]],
}
#: A 6 of hearts led; the defender's only answer is its ace of hearts (spades are trumps).
SIX = {
    "hands": [["7s", "8s", "Qd", "Kd", "9d"], ["Ah", "7c", "8c", "Jd", "Td", "Jc"]],
    "talon": TALON[:-1],
    "table": [["6h", None]],
}
#: An ace of hearts led; the defender's only answer is the 9 of trumps (spades).
ACE = {
    "hands": [["7s", "8s", "Qd", "Kd", "9d"], ["9s", "7c", "8c", "Jd", "Td", "Jc"]],
    "table": [["Ah", None]],
}


def _normal(preset: str, seat: int, trump: str, position: dict[str, Any]) -> Action | None:
    g = Game.from_position(RuleSet.preset(preset), trump=trump, attacker=0, defender=1, **position)
    return make_player("normal", seed=0).choose(g.observation(seat))


def test_trumpless_leads_a_single_card_while_the_talon_lasts() -> None:
    """Without trumps a pair must be beaten in two suits at once and is more often taken, and
    a card the defender takes is its to keep (nothing trumps it later). Led singly, the
    other six can still follow as a throw-in once the beater is seen. (The old normal led
    both sixes.)"""
    assert _normal("trumpless", 0, "-", LEAD) == Action.parse("0 attack 6c")


def test_trumpless_throws_in_a_jack_at_a_defender_who_beats() -> None:
    """A jack is beaten only by the queen, king or ace of its suit and nothing trumps it, so
    throwing it in draws one of the defender's top cards. (The old normal threw in only up
    to tens and passed.)"""
    assert _normal("trumpless", 0, "-", THROW) == Action.parse("0 throw Js")


def test_royal_beats_a_six_with_its_ace() -> None:
    """Royal fool: a 6 is beaten only by an ace, and a 6 is everybody's cheapest lead.
    Saving the ace means taking 6 after 6 into a hand that can beat nothing with them.
    (The old normal counted the ace as a trump to save and took.)"""
    assert _normal("royal", 1, "s", SIX) == Action.parse("1 defend 6h Ah")


def test_big_beats_with_a_trump_while_the_talon_is_long() -> None:
    """Big fool: two packs put 18 trumps in play, so one is not worth taking for, and taking
    while a 60-card talon lasts only piles cards up. (The old normal took.)"""
    talon = TALON + [c + "'" for c in TALON]  # the second pack's twins
    assert _normal("big", 1, "s", {**ACE, "talon": talon}) == Action.parse("1 defend Ah 9s")


def test_the_plain_game_keeps_its_economy() -> None:
    """The same positions on Podkidnoy: the rules above are gated on the variant."""
    assert _normal("podkidnoy", 0, "h", LEAD) == Action.parse("0 attack 6c 6d")
    assert _normal("podkidnoy", 0, "h", THROW) == Action.parse("0 pass")
    assert _normal("podkidnoy", 1, "s", SIX) == Action.parse("1 take")
    assert _normal("podkidnoy", 1, "s", {**ACE, "talon": TALON}) == Action.parse("1 take")
