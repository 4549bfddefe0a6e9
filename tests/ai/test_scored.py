"""``normal`` in the scoring variants (``engine/ai/scored.py``): positions where the count
calls for another move than the plain game's rules of thumb, each checked against the plain
game too (the same position under Podkidnoy keeps the old move)."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

from engine import Game, RuleSet
from engine.ai.policies import normal_policy
from engine.ai.scored import cannot_beat
from engine.ai.view import view_of_observation
from engine.cards import Card


def _normal(g: Game, seat: int) -> str:
    act = normal_policy(view_of_observation(g.observation(seat)), random.Random(0))
    return str(act)


def _game(preset: str, **position: Any) -> Game:
    return Game.from_position(RuleSet.preset(preset, players=2), **position)


#: Early in the deal (twelve cards in the talon) seat 1 leads the six of hearts at seat 0,
#: whose only card that beats it is the seven of trumps (clubs).
CHEAP_ATTACK: dict[str, Any] = {
    "hands": [["7c", "Ks", "Qd", "9d", "Ts", "6d"], ["Jh", "8s", "9s", "Js", "Kd", "7d"]],
    "trump_card": "Ac",
    "talon": ["Ac", "6c", "8c", "9c", "Tc", "Jc", "Qc", "Kc", "7s", "8d", "Td", "Ad"],
    "table": [["6h", None]],
    "attacker": 1,
    "defender": 0,
}


@pytest.mark.parametrize("preset", ["point", "epaulet"])
def test_scoring_defender_beats_a_cheap_attack_with_a_trump(preset: str) -> None:
    """The plain game takes a cheap attack early rather than spend a trump on it. In point
    fool that take throws away the point the bout would score; in epaulet fool it hands the
    attacker the pile to make pairs in (another six piled on is an epaulet). Beat it."""
    assert _normal(_game("podkidnoy", **CHEAP_ATTACK), 0) == "0 take"
    assert _normal(_game(preset, **CHEAP_ATTACK), 0) == "0 defend 6h/7c"


#: Seat 0 has beaten the seven of diamonds with the nine; seat 1 could throw in its nine.
BEATEN_SEVEN: dict[str, Any] = {
    "hands": [["7c", "Ks", "Qd", "Ts"], ["Jh", "8s", "9s", "Js", "Kd", "6d"]],
    "trump_card": "Ac",
    "talon": ["Ac", "6c", "8c", "9c", "Tc", "Jc", "Qc", "Kc", "7s", "8d", "Td", "Ad"],
    "table": [["7d", "9d"]],
    "attacker": 1,
    "defender": 0,
}


def test_point_attacker_throws_in_nothing_the_defender_may_beat() -> None:
    """The plain game throws a cheap card in (one card fewer to hold). In point fool every
    attack card beaten off is a point for the defender: say done."""
    assert _normal(_game("podkidnoy", **BEATEN_SEVEN), 1) == "1 throw 9s"
    assert _normal(_game("point", **BEATEN_SEVEN), 1) == "1 pass"


def test_point_leads_a_single_card() -> None:
    """The plain game leads a cheap pair (two cards shed at once); in point fool a beaten
    pair is two points for the defender, so it leads one six (seat 1 holds both)."""
    pair = {**CHEAP_ATTACK, "table": []}
    pair["hands"] = [CHEAP_ATTACK["hands"][0], ["6h", "6s", "8s", "Js", "Kd", "7d"]]
    assert _normal(_game("podkidnoy", **pair), 1) == "1 attack 6h 6s"
    assert _normal(_game("point", **pair), 1) in ("1 attack 6h", "1 attack 6s")


#: Seat 0 is taking the two eights and the nine of hearts (trumps: diamonds); seat 1 may
#: pile on its eight or its nine of clubs.
TAKING: dict[str, Any] = {
    "hands": [["7c", "Ks", "Qd", "Ts"], ["Jh", "8c", "9c", "Js", "Kh", "Qh"]],
    "trump_card": "Ad",
    "talon": ["Ad", "6c", "Tc", "Jc", "Qc", "Kc", "7s", "8d", "Td", "6d", "Kd"],
    "table": [["8h", "9h"], ["8s", None]],
    "attacker": 1,
    "defender": 0,
    "taking": True,
}


def test_epaulet_attacker_piles_the_card_that_makes_a_pair() -> None:
    """The plain game piles its cheapest card, the eight: a third eight, which would spoil
    the pair of eights already taken. In epaulet fool the nine makes a second pair."""
    assert _normal(_game("podkidnoy", **TAKING), 1) == "1 pile 8c"
    assert _normal(_game("epaulet", **TAKING), 1) == "1 pile 9c"


def test_cannot_beat_counts_what_the_seat_can_see() -> None:
    g = _game("point", **CHEAP_ATTACK)
    v = view_of_observation(g.observation(1))
    # the ace of trumps: nothing beats it
    assert cannot_beat(v, 0, int(Card.parse("Ac"))) == 1.0
    # the ace of spades: seat 1 cannot place 17 cards (seat 0's six and the talon less the
    # turned-up ace), 8 of them trumps; seat 0's six are a draw of those 17 without one
    assert cannot_beat(v, 0, int(Card.parse("As"))) == pytest.approx(
        math.comb(17 - 8, 6) / math.comb(17, 6)
    )
    # a beater seen going into seat 0's hand makes it certain that seat 0 can beat
    known = _game("point", **CHEAP_ATTACK, known=[["7c"], []])
    kv = view_of_observation(known.observation(1))
    assert cannot_beat(kv, 0, int(Card.parse("As"))) == 0.0
