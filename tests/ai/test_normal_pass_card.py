"""``normal`` with pagat's pass card (Perevodnoy, ``pass_card``): it shows a trump of the
attack's rank to pass the attack on only where it would otherwise take. Showing whenever it
could (the old rule) left it level with ``easy`` on that preset: a shown trump hands the attack
back in a two-player game, and in the endgame that is a bout the defender could have won."""

from __future__ import annotations

from typing import Any

from engine import Action, Game, RuleSet
from engine.ai import make_player

TALON = ["7d", "8d", "9d", "Td", "Qd", "Kd", "6c", "8c", "9c", "Tc", "6d", "Qh"]

#: A seven of hearts led; the defender holds the seven of trumps (spades) and the nine of
#: hearts, the cheapest beater.
CHEAP_BEAT = {
    "hands": [["Jc", "Qc", "Kc", "Ac"], ["7s", "9h", "Jd", "Ad", "6h"]],
    "talon": TALON,
    "table": [["7h", None]],
}
#: Two sevens led; only trumps beat them, and spending two (the seven and the eight of spades)
#: on sevens is worth a take: the show passes them on instead.
DEAR_BEAT = {
    "hands": [["Jc", "Qc", "Kc", "Ac"], ["7s", "8s", "Jd", "Ad", "6h"]],
    "talon": TALON,
    "table": [["7h", None], ["7c", None]],
}


def _normal(position: dict[str, Any]) -> Action | None:
    rules = RuleSet.preset("perevodnoy-pass-card")
    g = Game.from_position(rules, trump="s", attacker=0, defender=1, **position)
    return make_player("normal", seed=0).choose(g.observation(1))


def test_it_beats_cheaply_rather_than_show_its_trump() -> None:
    """(The old normal showed the seven of spades and got the seven of hearts back to beat.)"""
    assert _normal(CHEAP_BEAT) == Action.parse("1 defend 7h 9h")


def test_it_shows_its_trump_instead_of_taking() -> None:
    assert _normal(DEAR_BEAT) == Action.parse("1 show 7s")
