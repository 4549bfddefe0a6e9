"""``hard``'s opponent model (``engine.ai.opponents``): it reads a taker from the table and
nothing else, leaves a ``normal``-like player alone, and a modelled taker takes in playouts
exactly where the model says (cheap attacks while the talon is long)."""

from __future__ import annotations

import random

import pytest

from bench.sparring.collector import Collector
from engine import Action, Game, Observation, RuleSet
from engine.actions import ActionKind
from engine.ai import Player, make_player
from engine.ai.arena import step
from engine.ai.fastplay import playout_plain
from engine.ai.opponents import OpponentModel, cheap_attack, taker

PEREVODNOY = RuleSet.preset("perevodnoy")
PODKIDNOY = RuleSet.preset("podkidnoy")


class _Watcher:
    """A ``normal`` player that feeds every observation it is asked with to a model."""

    kind = "normal"

    def __init__(self, model: OpponentModel) -> None:
        self.model = model
        self.inner = make_player("normal", 1)

    def choose(self, obs: Observation) -> Action | None:
        self.model.update(obs)
        return self.inner.choose(obs)


def _model_of(rules: RuleSet, opponent: type[Player] | None, deals: int) -> OpponentModel:
    model = OpponentModel()
    for seed in range(deals):
        other: Player = opponent(seed) if opponent is not None else make_player("normal", seed)
        g = Game.new(rules, seed=seed)
        players: list[Player] = [_Watcher(model), other]
        while step(g, players):
            pass
    return model


@pytest.mark.slow(sample=1)  # self-play games (~2 CPU s): in make test, not make check
def test_a_collector_is_read_as_a_taker_and_normal_is_not() -> None:
    collector = _model_of(PEREVODNOY, Collector, 3)
    assert collector.takes.get(1, 0) >= 3
    assert 1 in collector.hooks(2, transfers=True)
    assert 0 not in collector.hooks(2, transfers=True), "the seat does not model itself"
    normal = _model_of(PEREVODNOY, None, 3)
    assert normal.bouts(1) >= 3, "it saw enough bouts to judge"
    assert normal.hooks(2, transfers=True) == {}


def test_a_taker_takes_only_cheap_attacks_while_the_talon_is_long() -> None:
    def game(table: list[list[str | None]], talon: int) -> Game:
        deck = [f"{r}{s}" for s in "cdhs" for r in "6789TJQKA"]
        used = {c for pair in table for c in pair if c}
        hand1 = ["7d", "Kd", "8h", "Ah", "Js", "9s"]
        hand0 = ["6c", "8c", "9d", "Jd", "7h", "Qh"]
        rest = [c for c in deck if c not in used | set(hand1) | set(hand0) | {"As"}]
        bottom = ["As", *rest[len(rest) - talon + 1 :]]
        data = {
            "rules": PODKIDNOY.to_dict(),
            "trump": "s",
            "trump_card": "As",
            "trump_index": 0,
            "hands": [hand0, hand1],
            "talon": bottom,
            "table": table,
            "discard": rest[: len(rest) - talon + 1],
            "attacker": 0,
            "defender": 1,
            "first_attacker": 0,
            "bout_no": 3,
        }
        return Game.from_dict(data, settle=False)

    always = taker(1.0)
    rng = random.Random(0)
    cheap = game([["6d", None]], 10)
    assert cheap_attack(cheap.table, cheap.trump, len(cheap.talon))
    took = always(cheap, 1, rng)
    assert took is not None and took.kind is ActionKind.TAKE
    assert always(game([["Qd", None]], 10), 1, rng) is None, "a high card is not cheap"
    assert always(game([["6d", None]], 3), 1, rng) is None, "the talon is short"
    assert always(game([["Ts", None]], 10), 1, rng) is None, "a trump is not cheap"
    assert always(game([["6d", "8d"], ["6h", "9h"], ["7c", None]], 10), 1, rng) is None, (
        "five cards would go home"
    )
    # in a playout the modelled defender takes the cheap attack; without the model it beats
    a, b = cheap.copy(), cheap.copy()
    playout_plain(a, random.Random(1), max_steps=1, hooks={1: always})
    playout_plain(b, random.Random(1), max_steps=1)
    assert a.taking and not b.taking
