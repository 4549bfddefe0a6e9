"""The ``hard`` player in reverse fool: it samples its own unseen hand (it sees the others'),
searches what to try rather than which slot, and never peeks at its own cards."""

from __future__ import annotations

import random

import pytest

from engine import Game, RuleSet
from engine.actions import ActionKind
from engine.ai import make_player
from engine.ai.hard import HardPlayer
from engine.ai.search import blind_template, build_world, is_blind, sample_blind
from engine.ai.view import view_of_game, view_of_observation
from engine.cards import Card

from .test_players import _random_positions

REVERSE = RuleSet.preset("reverse")


def _mask(*names: str) -> int:
    m = 0
    for n in names:
        m |= 1 << int(Card.parse(n))
    return m


@pytest.mark.parametrize("players", [2, 3])
def test_blind_worlds_agree_with_what_the_seat_saw(players: int) -> None:
    rules = RuleSet.preset("reverse", players=players)
    rng = random.Random(2)
    checked = 0
    for g in _random_positions(rules, seed=11 + players, count=60)[::3]:
        for seat in range(g.n):
            obs = g.observation(seat)
            if not is_blind(obs):
                continue
            hands, talon = sample_blind(obs, rng)
            world = build_world(obs, blind_template(obs), hands, talon)
            world.check_invariants()
            for s in range(g.n):
                if s != seat:
                    assert world.hands[s] == g.hands[s], "the hands this seat sees stay put"
            mine = world.hands[seat]
            assert mine.bit_count() == obs.hand_sizes[seat]
            known = obs.known_masks[seat]
            assert mine & known == known, "cards the table saw go in stay in"
            assert mine & ~obs.unseen_mask == 0, "the own hand is drawn from the unseen cards"
            assert len(world.talon) == obs.talon_count
            assert world.discard == obs.discard_mask
            assert world.known[seat] == known
            if seat in (obs.defender, obs.attacker):
                assert world.legal_actions(seat) == list(obs.legal_actions)
            checked += 1
    assert checked > 10


def test_blind_sampler_varies_the_own_hand() -> None:
    obs = Game.new(REVERSE, seed=3).observation(0)
    rng = random.Random(0)
    assert len({sample_blind(obs, rng)[0][0] for _ in range(20)}) > 10


def test_playouts_see_what_a_blind_seat_sees() -> None:
    """The sampled worlds are played out with the rules of thumb on ``view_of_game``: in
    reverse fool that view must hide the seat's own hand as its real observation does."""
    for g in _random_positions(REVERSE, seed=5, count=40)[::4]:
        for seat in range(g.n):
            obs = g.observation(seat)
            real = view_of_observation(obs)
            sim = view_of_game(g, seat, list(obs.legal_actions))
            assert sim.hand == real.hand == 0
            assert sim.known == real.known
            assert sim.unseen == real.unseen


def _facing_a_long_shot() -> Game:
    """Seat 1 defends blind against the 8 of clubs with the talon gone: it sees seat 0's
    hand, so its own is exactly the three cards left, and only one of them (9c) beats."""
    g = Game.from_position(
        REVERSE,
        hands=[["Ks", "Qd"], ["9c", "6d", "7s"]],
        trump="h",
        table=[["8c", None]],
        attacker=0,
        defender=1,
    )
    g.vstate = {"slot_key": list(range(52))}
    return g


def test_hard_tries_a_long_shot_where_a_miss_costs_no_more_than_taking() -> None:
    """A blind card that does not beat ends the bout as a pick-up at once (nobody may pile
    on), so trying one is never worse than taking; the rules of thumb take below even odds,
    the search sees that trying wins whenever the card fits."""
    g = _facing_a_long_shot()
    obs = g.observation(1)
    assert obs.hand_mask == 0 and obs.unseen_mask == _mask("9c", "6d", "7s")
    normal = make_player("normal", seed=1).choose(obs)
    assert normal is not None and normal.kind is ActionKind.TAKE
    for seed in range(3):
        hard = HardPlayer(seed, max_iterations=150)
        choice = hard.choose(obs)
        assert choice is not None and choice.kind is ActionKind.BEAT_BLIND, choice
        assert choice in obs.legal_actions
        assert hard.last_method[0] == "sampling"


@pytest.mark.slow(sample=1)  # a self-play game: in make test, not make check
def test_hard_blind_choice_does_not_depend_on_the_own_hand() -> None:
    """Swap a card of the blind seat's hand with one of the talon: its observation is the
    same, and so, from the same seed, is its move (it cannot have peeked)."""
    for seed in (1, 6):
        g = Game.new(REVERSE, seed=seed)
        d = g.defender
        data = g.to_dict()
        mine, talon = data["hands"][d], data["talon"]
        x, y = mine[0], talon[-1]
        data["hands"][d] = [y if c == x else c for c in mine]
        data["talon"] = [x if c == y else c for c in talon]
        other = Game.from_dict(data)
        for game in (g, other):
            # the same lead in both, so the blind defender has something to decide
            game.apply(game.legal_actions(game.attacker)[0])
        assert g.table == other.table
        assert other.observation(d) == g.observation(d)
        a = HardPlayer(9, max_iterations=60).choose(g.observation(d))
        b = HardPlayer(9, max_iterations=60).choose(other.observation(d))
        assert a is not None and a == b
