"""``engine.ai.evaluate``: the chance of not being the fool after each candidate move, from a
seat's own observation (for reviewing moves)."""

from __future__ import annotations

import dataclasses

import pytest

from engine import Action, Game, RuleSet
from engine.ai import evaluate


def test_a_proven_endgame_scores_one_and_zero() -> None:
    rules = dataclasses.replace(RuleSet.preset("podkidnoy"), all_out="last_defender_loses")
    g = Game.from_position(
        rules, hands=[["7d", "Ad"], ["7h"]], trump="d", table=[["Ah", None]], attacker=1, defender=0
    )
    ace, seven = Action.parse("0 defend Ah Ad"), Action.parse("0 defend Ah 7d")
    take = Action.parse("0 take")
    scores = evaluate(g.observation(0), [ace, seven, take], max_seconds=None)
    assert scores == {ace: 1.0, seven: 0.0, take: 0.0}


@pytest.mark.slow(sample=1)  # a self-play game: in make test, not make check
def test_sampled_scores_are_reproducible_and_rank_a_blunder_below() -> None:
    """Early in a deal: leading the lowest plain card keeps a better chance than leading the
    highest trump, and the same seed gives the same numbers."""
    g = Game.new(RuleSet.preset("podkidnoy"), seed=5)
    obs = g.observation(g.attacker)
    leads = [a for a in obs.legal_actions if len(a.cards) == 1]
    trump = obs.trump
    low = min((a for a in leads if a.cards[0].suit != trump), key=lambda a: a.cards[0].rank)
    high = max((a for a in leads if a.cards[0].suit == trump), key=lambda a: a.cards[0].rank)
    one = evaluate(obs, [low, high], max_seconds=None, max_iterations=150, seed=1)
    two = evaluate(obs, [low, high], max_seconds=None, max_iterations=150, seed=1)
    assert one == two
    assert set(one) == {low, high} and all(0.0 <= p <= 1.0 for p in one.values())
    assert one[low] > one[high]


def test_an_illegal_action_is_refused() -> None:
    g = Game.new(RuleSet.preset("podkidnoy"), seed=5)
    obs = g.observation(g.defender)  # nothing on the table: the defender cannot move
    with pytest.raises(ValueError):
        evaluate(obs, [Action.parse(f"{g.defender} take")], max_seconds=None)
