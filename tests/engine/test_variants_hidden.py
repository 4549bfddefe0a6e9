"""The catalogue's scoring and hidden-information variants (docs/variants.md, the 'scoring'
and 'hidden information' families).

Each test quotes the catalogue sentence it checks. The random-game property tests of
test_properties.py (card conservation, every game ends, illegal actions refused, observations
independent of hidden cards) run over these presets at every player count they allow; the tests
here check what makes each variant different.
"""

from __future__ import annotations

import random

import pytest

from engine import Game, RuleError, RuleSet
from engine.ai import make_player
from engine.ai.arena import play_game
from engine.cards import Card, mask_of

from .helpers import finish_bout, play


def cards(*names: str) -> int:
    return mask_of(int(Card.parse(c)) for c in names)


# ------------------------------------------------------------------ round

ROUND = RuleSet.preset("round")


def test_round_is_for_two_players_only() -> None:
    """ "each time the card is burn or taken, the computer and the player exchange their own
    cards": there must be exactly one other hand to exchange with."""
    assert ROUND.players == 2
    for n in (3, 4, 5, 6):
        with pytest.raises(RuleError, match="exactly two"):
            RuleSet.preset("round", players=n)
    with pytest.raises(RuleError, match="exactly two"):
        RuleSet.preset("perevodnoy", players=3).with_variant("round")


def test_round_players_exchange_hands_after_a_beaten_bout() -> None:
    """ "The Round Fool differs from the Simple, Thrown on or Transfer Fool only by the fact
    that each time the card is burn or taken, the computer and the player exchange their own
    cards." """
    hands = [["6c", "7d", "Ks"], ["8c", "9s", "Jd", "Qd"]]
    g = Game.from_position(ROUND, hands, trump="h", talon=["6h", "7h", "8h", "9h", "Th"])
    play(g, "0 attack 6c", "1 defend 6c/8c")
    events = finish_bout(g)
    kinds = [e.kind for e in events]
    assert kinds.index("beaten") < kinds.index("swap_hands") < kinds.index("draw")
    # seat 0 now holds what seat 1 kept (9s Jd Qd) and refills from the talon first
    assert g.hands[0] & cards("9s", "Jd", "Qd") == cards("9s", "Jd", "Qd")
    assert g.hands[1] & cards("7d", "Ks") == cards("7d", "Ks")
    g.check_invariants()
    # roles stay with the people: the defender beat off, so seat 1 leads
    assert (g.attacker, g.defender) == (1, 0)


def test_round_exchange_after_a_pick_up_hands_the_pile_over() -> None:
    """ "... each time the card is burn or taken ... exchange their own cards." """
    hands = [["6c", "Ks"], ["8d", "9s"]]
    g = Game.from_position(ROUND, hands, trump="h", talon=["6h", "7h"])
    play(g, "0 attack 6c", "1 take")
    finish_bout(g)
    # seat 1 took 6c; the hands were exchanged before the refill
    assert g.hands[0] & cards("6c", "8d", "9s") == cards("6c", "8d", "9s")
    # the picked-up card is public knowledge and follows the cards to seat 0
    assert g.public_observation().known_masks[0] == cards("6c")


def test_round_each_player_remembers_the_hand_it_gave_away() -> None:
    """Whoever hands their cards over knows them; the channel does not."""
    hands = [["6c", "7d", "Ks"], ["8c", "9s", "Jd", "Qd"]]
    g = Game.from_position(ROUND, hands, trump="h", talon=["6h", "7h", "8h", "9h", "Th"])
    play(g, "0 attack 6c", "1 defend 6c/8c")
    finish_bout(g)
    gave0, gave1 = cards("7d", "Ks"), cards("9s", "Jd", "Qd")
    assert g.observation(0).known_masks[1] == gave0
    assert g.observation(1).known_masks[0] == gave1
    assert g.public_observation().known_masks == (0, 0)
    # a card played from the given hand is no longer counted as held
    play(g, "1 attack 7d")
    assert g.observation(0).known_masks[1] == cards("Ks")


def test_round_no_exchange_once_a_player_is_out() -> None:
    """With the talon out, whoever has got rid of their cards has won: no exchange then."""
    hands = [["6c"], ["8c", "9s"]]
    g = Game.from_position(ROUND, hands, trump="h", talon=[])
    events = play(g, "0 attack 6c", "1 defend 6c/8c")
    events += finish_bout(g)
    assert "swap_hands" not in [e.kind for e in events]
    assert g.result is not None and g.result.fool == 1


@pytest.mark.parametrize("kind", ["normal", "hard"])
def test_round_computer_players_finish(kind: str) -> None:
    for seed in range(2 if kind == "hard" else 20):
        g = Game.new(ROUND, seed)
        players = [make_player(kind, seed=seed, max_iterations=4) for _ in range(2)]
        assert play_game(g, players).kind in ("fool", "draw")
        g.check_invariants()


def _random_finish(g: Game, seed: int) -> Game:
    rng = random.Random(seed)
    while g.result is None:
        g.apply(rng.choice(g.all_legal_actions()))
        g.check_invariants()
    return g


def test_round_random_games_keep_every_card() -> None:
    for seed in range(40):
        g = _random_finish(Game.new(ROUND, seed), seed)
        assert not g.talon and not g.table


# ------------------------------------------------------------------ every variant here

HIDDEN = ["round"]


def _counts(name: str) -> list[int]:
    out = []
    for n in range(2, 7):
        try:
            RuleSet.preset(name, players=n)
        except RuleError:
            continue
        out.append(n)
    return out


@pytest.mark.parametrize("name", HIDDEN)
def test_illegal_actions_are_refused_and_change_nothing(name: str) -> None:
    from engine import Action, IllegalAction

    from .test_properties import garbage

    for n in _counts(name):
        g = Game.new(RuleSet.preset(name, players=n), seed=n)
        rng = random.Random(n)
        while g.result is None:
            legal_now = g.all_legal_actions()
            move = rng.choice(legal_now)
            bad = [garbage(rng, n) for _ in range(4)]
            bad.append(Action((move.seat + 1) % n, move.kind, move.cards))
            for x in bad:
                if x in legal_now:
                    continue
                before = g.to_dict()
                with pytest.raises(IllegalAction) as info:
                    g.apply(x)
                assert info.value.code and str(info.value)
                assert g.to_dict() == before
            g.apply(move)
            g.check_invariants()
