"""The ``hard`` player: its sampler never contradicts what the seat saw, its endgame solver
finds the textbook win, and its search keeps the player contract."""

from __future__ import annotations

import dataclasses
import random

import pytest

from engine import PRESETS, Action, Game, RuleSet
from engine.actions import ActionKind
from engine.ai import make_player
from engine.ai.arena import play_game
from engine.ai.hard import HardPlayer, candidates
from engine.ai.search import (
    EndgameSolver,
    Inference,
    build_world,
    exact_world,
    sample_hands,
    world_template,
)
from engine.ai.view import view_of_observation
from engine.cards import BEATERS, Card

from .test_players import RULE_SETS, _must_act, _random_positions


def _check_world(obs_game: Game, seat: int, world: Game) -> None:
    obs = obs_game.observation(seat)
    world.check_invariants()
    assert world.hands[seat] == obs.hand_mask, "own hand must be kept"
    for s in range(obs.n):
        assert world.hands[s].bit_count() == obs.hand_sizes[s], "hand sizes must match"
        if s != seat:
            known = obs.known_masks[s]
            assert world.hands[s] & known == known, "publicly known cards stay with their seat"
            assert not world.hands[s] & obs.hand_mask, "own cards never go to others"
            assert not world.hands[s] & obs.discard_mask, "the discard is never dealt"
    assert len(world.talon) == obs.talon_count
    if obs.trump_card_in_talon and obs.trump_card is not None:  # (hidden: invisible fool)
        assert world.talon[world.trump_index] == obs.trump_card
    assert world.discard == obs.discard_mask
    assert world.seat_trump(seat) == obs.trump  # the seat's own suit (double-trump fool)
    assert [(a, None if d < 0 else d) for a, d in world.table] == list(obs.table)
    assert world.attacker == obs.attacker and world.defender == obs.defender
    # the leader's and the defender's options depend only on public facts and their own hand
    # (a co-attacker's may not: whether it must wait depends on hidden cards of earlier seats)
    if seat in (obs.defender, obs.attacker) and not any(
        a.kind is ActionKind.EXCHANGE for a in obs.legal_actions
    ):
        assert world.legal_actions(seat) == list(obs.legal_actions)


@pytest.mark.slow(sample=4, check=5)  # a sweep: 2-6 seats in make check, a sample in make test
@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: f"{r.players}p-{r.transfer}-{r.teams}")
def test_sampled_worlds_agree_with_the_observation(rules: RuleSet) -> None:
    rng = random.Random(5)
    for g in _random_positions(rules, seed=rules.players + 40, count=40)[::4]:
        for seat in range(g.n):
            obs = g.observation(seat)
            if obs.face_down or (obs.hand_sizes[seat] and not obs.hand_mask):
                continue  # a defence face down; a blind hand has its own sampler (test_hard_blind)
            hands, talon = sample_hands(obs, rng)
            _check_world(g, seat, build_world(obs, world_template(obs), hands, talon))


def test_sampler_varies_the_hidden_cards() -> None:
    g = Game.new(RuleSet.preset("podkidnoy", players=3), seed=2)
    obs = g.observation(0)
    rng = random.Random(1)
    seen = {tuple(sample_hands(obs, rng)[0]) for _ in range(20)}
    assert len(seen) > 10


def test_void_inference_is_recorded_and_honoured() -> None:
    """A defender who takes a lone 7 of clubs with the talon empty holds no higher club and
    no trump (hearts) among its unknown cards; samples respect that while they can."""
    rules = RuleSet.preset("podkidnoy", players=3)
    g = Game.from_position(
        rules,
        hands=[["8c", "Ks"], ["Td", "Jd", "Qs", "6d"], ["9c", "Ah", "6s", "7d"]],
        trump="h",
        table=[["7c", None]],
        attacker=0,
        defender=1,
        taking=True,
    )
    obs = g.observation(0)
    inf = Inference()
    inf.update(obs)
    void = BEATERS[obs.trump][Card.parse("7c")]
    assert inf.voids == {1: void}
    voids = inf.void_masks(obs)
    rng = random.Random(3)
    for _ in range(30):
        hands, talon = sample_hands(obs, rng, voids)
        assert not hands[1] & void
        assert not talon
        _check_world(g, 0, build_world(obs, world_template(obs), hands, talon))
    # a new deal forgets the belief
    g2 = Game.new(rules, seed=9)
    inf.update(g2.observation(0))
    assert inf.voids == {}


def test_unsatisfiable_beliefs_are_dropped_not_fatal() -> None:
    g = Game.new(RuleSet.preset("podkidnoy"), seed=4)
    obs = g.observation(0)
    everything = obs.unseen_mask
    hands, _ = sample_hands(obs, random.Random(0), {1: everything})
    assert hands[1].bit_count() == obs.hand_sizes[1]


LEAD_BOTH_NINES = {
    "hands": [["9c", "9s", "Qd"], ["9h", "Qs", "Ad"]],
    "trump": "h",
    "attacker": 0,
    "defender": 1,
}


def test_solver_finds_lead_both_nines() -> None:
    """perevodnoy-durak.txt: A (♣9 ♠9 ♢Q) leads against B (♡9 ♠Q ♢A), hearts trumps.

    Leading both nines wins (B cannot transfer onto a one-card hand; beating them leaves B's
    ♢A alone against A's ♢Q). Leading the ♢Q loses. The text also says a single nine loses,
    but under the engine's rules it does not: after B transfers with ♡9 and A picks up, A
    beats B's next lead with ♡9 and then leads ♣9, ♠9, ♢Q one at a time, going out first. The
    solver must agree with both facts.
    """
    g = Game.from_position(RuleSet.preset("perevodnoy"), **LEAD_BOTH_NINES)  # type: ignore[arg-type]
    world = exact_world(g.observation(0))
    assert world is not None
    both = Action.parse("0 attack 9c 9s")
    queen = Action.parse("0 attack Qd")
    wins = EndgameSolver(0).winning_moves(world, world.legal_actions(0))
    assert both in wins
    assert queen not in wins
    # and B, to move after the queen, has a winning reply
    after = world.copy()
    after.apply(queen)
    assert not EndgameSolver(0).wins(after)
    assert EndgameSolver(1).wins(after)
    player = make_player("hard", seed=0, max_iterations=4)
    assert player.choose(g.observation(0)) in wins


def test_hard_converts_the_win_to_the_end() -> None:
    g = Game.from_position(RuleSet.preset("perevodnoy"), **LEAD_BOTH_NINES)  # type: ignore[arg-type]
    for seed in range(3):
        game = g.copy()
        result = play_game(
            game,
            [
                make_player("hard", seed, max_iterations=8),
                make_player("hard", seed + 1, max_iterations=8),
            ],
        )
        assert 0 not in result.losers


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: f"{r.players}p-{r.transfer}-{r.teams}")
def test_hard_only_legal_moves_and_never_stalls(rules: RuleSet) -> None:
    player = make_player("hard", seed=3, max_iterations=6)
    for g in _random_positions(rules, seed=rules.players + 7, count=40)[::5]:
        for seat in range(g.n):
            obs = g.observation(seat)
            choice = player.choose(obs)
            if choice is None:
                assert not _must_act(obs)
            else:
                assert choice in obs.legal_actions


@pytest.mark.slow(sample=1)  # self-play games: in make test, not make check
def test_hard_is_deterministic_under_a_seed() -> None:
    rules = RuleSet.preset("perevodnoy", players=3)
    positions = _random_positions(rules, seed=8, count=30)
    runs = []
    for _ in range(2):
        p = make_player("hard", seed=42, max_iterations=10)
        runs.append([p.choose(g.observation(s)) for g in positions for s in range(g.n)])
    assert runs[0] == runs[1]


@pytest.mark.slow
@pytest.mark.parametrize("preset", list(PRESETS))
def test_hard_arena_games_finish(preset: str) -> None:
    rules = RuleSet.preset(preset)
    g = Game.new(rules, 1)
    players = [
        make_player("hard" if s % 2 == 0 else "normal", seed=s, max_iterations=4)
        for s in range(g.n)
    ]
    result = play_game(g, players)
    assert result.kind in ("fool", "team", "draw")


def test_hard_searches_only_forced_decisions() -> None:
    g = Game.new(RuleSet.preset("podkidnoy"), seed=3)
    p = make_player("hard", seed=0, max_iterations=12)
    assert isinstance(p, HardPlayer)
    p.choose(g.observation(g.attacker))
    assert p.last_method[0] == "sampling" and p.last_method[1] <= 12 + 40
    assert p.choose(g.observation(g.defender)) is None  # nothing to do while the lead is awaited


def test_a_dearer_beater_is_not_pruned_when_it_is_the_only_win() -> None:
    """Issue 20: trump ♦, talon empty, hard holds 7♦ A♦, the other holds 7♥ and leads A♥,
    and running out of cards as the last defender loses. Beating with 7♦ lets 7♥ be thrown
    in, A♦ must beat it and hard is the fool; beating with A♦ wins. The search must see the
    ace (a beater of another rank is not a duplicate) and the solver must find it."""
    rules = dataclasses.replace(RuleSet.preset("podkidnoy"), all_out="last_defender_loses")
    g = Game.from_position(
        rules, hands=[["7d", "Ad"], ["7h"]], trump="d", table=[["Ah", None]], attacker=1, defender=0
    )
    obs = g.observation(0)
    ace = Action.parse("0 defend Ah Ad")
    seven = Action.parse("0 defend Ah 7d")
    assert {ace, seven} <= set(candidates(view_of_observation(obs)))
    world = exact_world(obs)
    assert world is not None
    assert EndgameSolver(0).winning_moves(world, list(obs.legal_actions)) == [ace]
    for seed in range(3):
        assert make_player("hard", seed=seed, max_iterations=8).choose(obs) == ace
