"""The ``hard`` player in take on trust fool: with a defence lying face down it samples the
hidden card as the defender would have laid it, and judges from its own observation only."""

from __future__ import annotations

import random

import pytest

from engine import Game, RuleSet
from engine.actions import ActionKind
from engine.ai import make_player
from engine.ai.hard import HardPlayer
from engine.ai.search import Inference, face_down_world, world_template
from engine.cards import Card

from ..engine.helpers import play
from .test_players import _random_positions

TRUST = RuleSet.preset("take-on-trust")
ACCEPT, CHALLENGE = ActionKind.ACCEPT, ActionKind.CHALLENGE


def _face_down_positions(players: int) -> list[Game]:
    rules = RuleSet.preset("take-on-trust", players=players)
    out: list[Game] = []
    for seed in range(12):
        out += [
            g
            for g in _random_positions(rules, seed=seed, count=80)
            if g.vstate.get("down") and g.result is None
        ]
    return out


@pytest.mark.parametrize("players", [2, 3])
def test_face_down_worlds_agree_with_what_the_seat_saw(players: int) -> None:
    rng = random.Random(4)
    positions = _face_down_positions(players)
    assert len(positions) > 5
    for g in positions[:40]:
        for seat in range(g.n):
            obs = g.observation(seat)
            assert obs.face_down
            world = face_down_world(obs, world_template(obs), rng, Inference().void_masks(obs))
            world.check_invariants()
            assert world.observation(seat).table == obs.table  # face-down cards stay unseen
            assert world.hands[seat] == obs.hand_mask
            for s in range(g.n):
                assert world.hands[s].bit_count() == obs.hand_sizes[s]
                assert world.hands[s] & obs.known_masks[s] == obs.known_masks[s]
            assert len(world.talon) == obs.talon_count
            assert world.vstate.get("pending", -1) == -1 or obs.judging >= 0
            if seat in (obs.defender, obs.attacker):
                assert world.legal_actions(seat) == list(obs.legal_actions)


ALL_HIGH_SPADES = ["6c", "8s", "9s", "Ts", "Js", "Qs", "Ks", "As"]
ALL_BUT_THE_TEN = ["6c", "8s", "9s", "Js", "Qs", "Ks", "As"]


def _judging(defender_hand: list[str], conceal: str, attacker: list[str] = ALL_HIGH_SPADES) -> Game:
    """Seat 0 led the 8 of spades; seat 1 laid ``conceal`` on it face down."""
    hands = [attacker, defender_hand]
    g = Game.from_position(TRUST, hands, trump="h", talon=["6d"])  # the rest: discarded
    play(g, "0 attack 8s", f"1 conceal 8s/{conceal}")
    return g


def test_hard_challenges_a_sure_lie() -> None:
    """It holds every spade above the 8 and the trumps are gone: nothing can beat its 8."""
    obs = _judging(["8c", "7s", "Kd"], "7s").observation(0)
    choice = HardPlayer(1, max_iterations=60).choose(obs)
    assert choice is not None and choice.kind is CHALLENGE


def test_hard_accepts_a_sure_truth() -> None:
    """Every card it cannot see beats the 6 of clubs except one, and the defender holds three
    of them: it surely held a beater, so the card is true and a challenge would only make the
    challenger take the table."""
    hands = [["6c", "Ks", "Qd", "Jd"], ["7c", "8c", "9c"]]
    g = Game.from_position(TRUST, hands, trump="h", talon=["6d"])
    play(g, "0 attack 6c", "1 conceal 6c/9c")
    obs = g.observation(0)
    assert obs.unseen_mask.bit_count() == 4
    choice = HardPlayer(2, max_iterations=80).choose(obs)
    assert choice is not None and choice.kind is ACCEPT


def test_hard_verdict_does_not_depend_on_the_face_down_card() -> None:
    """A lie and the truth look the same to the judge, and so (same seed) is its verdict."""
    hands = ["Ts", "7d", "Kd", "8c"]
    lie = _judging(hands, "7d", ALL_BUT_THE_TEN)
    truth = _judging(hands, "Ts", ALL_BUT_THE_TEN)
    assert lie.observation(0) == truth.observation(0)
    assert lie.hands[1] != truth.hands[1]
    for seed in range(3):
        a = HardPlayer(seed, max_iterations=60).choose(lie.observation(0))
        b = HardPlayer(seed, max_iterations=60).choose(truth.observation(0))
        assert a is not None and a == b and a.kind in (ACCEPT, CHALLENGE)


def test_the_judged_card_is_sampled_as_a_defender_lays_it() -> None:
    """A defender holding a beater lays the cheapest one; one holding none bluffs with its
    cheapest card, and such worlds are kept less often."""
    g = _judging(["Ts", "7d", "Kd", "8c"], "7d", ALL_BUT_THE_TEN)
    obs = g.observation(0)
    rng = random.Random(0)
    template = world_template(obs)
    laid = []
    for _ in range(200):
        w = face_down_world(obs, template, rng)
        laid.append(w.table[0][1])
    ts = laid.count(int(Card.parse("Ts")))
    # the only spade above the 8 it cannot see is the 10: held (4 of the 5 unseen cards)
    # in most worlds, and then it is the card laid
    assert ts > 150
    assert set(laid) <= {int(Card.parse(c)) for c in ("Ts", "7d", "Kd", "8c", "6d")}


def test_hard_challenges_a_last_card_where_accepting_loses_outright() -> None:
    """The defender lays its last card face down on the 6 of clubs; the talon holds one
    unseen card and the turned-up 6 of hearts. Accepting ends the bout, the attacker (three
    cards) draws the whole talon and the defender goes out: the attacker is the fool for
    certain. Challenging wins the table back whenever the card is a lie. The rules of thumb
    accept (of the two cards it cannot see, one beats: an even chance the defender holds
    it); the search challenges, from what it can see alone."""
    hands = [["6c", "Ah", "Kh", "Qh"], ["7s"]]
    g = Game.from_position(TRUST, hands, "6h", talon=["6h", "7c"])  # the rest: discarded
    play(g, "0 attack 6c", "1 conceal 6c/7s")
    obs = g.observation(0)
    assert obs.unseen_mask == _mask("7s", "7c") and obs.hand_sizes[1] == 0
    normal = make_player("normal", seed=0).choose(obs)
    assert normal is not None and normal.kind is ACCEPT
    for seed in range(3):
        choice = HardPlayer(seed, max_iterations=120).choose(obs)
        assert choice is not None and choice.kind is CHALLENGE
    # and the challenge does win it: the defender takes, the attacker goes on with the trumps
    play(g, "0 challenge")
    assert g.hands[1] == _mask("6c", "7s")


def _mask(*names: str) -> int:
    m = 0
    for n in names:
        m |= 1 << int(Card.parse(n))
    return m
