"""``normal``'s exact end (issue 31, ``engine.ai.endgame``): once nothing is hidden it plays
a move the solver proves, where its rule of thumb would lose."""

from __future__ import annotations

import random

from engine import Action, Game, RuleSet
from engine.ai import make_player
from engine.ai.policies import normal_policy
from engine.ai.view import view_of_observation

HANDS = [["9s", "Qs", "As"], ["Ts", "Js", "Ks"]]


def _position(talon: list[str]) -> Game:
    """Three trumps each, the attacker to lead; ``talon`` the cards still to draw."""
    pack = [r + s for s in "cdhs" for r in "6789TJQKA"]
    left = {c for h in HANDS for c in h} | set(talon)
    discard = [c for c in pack if c not in left]
    return Game.from_position(
        RuleSet.preset("podkidnoy"),
        HANDS,
        trump="s",
        talon=talon,
        attacker=0,
        defender=1,
        discard=discard,
    )


def test_the_solver_overrules_a_losing_rule_once_nothing_is_hidden() -> None:
    """The rule leads the unbeatable ace and is left with 9 and Q against T, J, K: beaten
    twice, then the defender's king is the last card. Leading the nine or the queen wins."""
    obs = _position([]).observation(0)
    rule = normal_policy(view_of_observation(obs), random.Random(0))
    assert rule == Action.parse("0 attack As")
    assert make_player("normal", seed=0).choose(obs) in {
        Action.parse("0 attack 9s"),
        Action.parse("0 attack Qs"),
    }


def test_with_cards_left_to_draw_the_rule_decides() -> None:
    """Two cards in the talon (the six of trumps turned up under it): the hands are not
    known, so there is nothing to prove."""
    obs = _position(["6s", "7h"]).observation(0)
    v = view_of_observation(obs)
    assert make_player("normal", seed=0).choose(obs) == normal_policy(v, random.Random(0))


def test_on_a_catalogue_variant_the_rule_decides_to_the_end() -> None:
    """The search is gated on the plain game, where the league measured it."""
    g = _position([])
    rules = g.rules.to_dict()
    rules["variant"] = "poker"
    obs = Game.from_dict({**g.to_dict(), "rules": rules}).observation(0)
    v = view_of_observation(obs)
    assert make_player("normal", seed=0).choose(obs) == normal_policy(v, random.Random(0))
