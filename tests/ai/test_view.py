"""The fast path of ``view_of_game`` (plain games, run on every playout move) must build the
same view as the general path and as the seat's own observation."""

from __future__ import annotations

import pytest

from engine import RuleSet
from engine.ai.view import _view_of_game, view_of_game, view_of_observation

from .test_players import RULE_SETS, _random_positions


@pytest.mark.slow(sample=8, check=5)  # a sweep: 2-6 seats in make check, a sample in make test
@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: f"{r.players}p-{r.transfer}-{r.teams}")
def test_fast_view_equals_the_general_one(rules: RuleSet) -> None:
    for seed in range(3):
        for g in _random_positions(rules, seed=seed + 11, count=200):
            for seat in range(g.n):
                acts = g.legal_actions(seat)
                fast = view_of_game(g, seat, acts)
                assert fast == _view_of_game(g, seat, acts)
                if g.rules.variant == "none":
                    obs = view_of_observation(g.observation(seat))
                    assert fast.unseen == obs.unseen and fast.hand == obs.hand
