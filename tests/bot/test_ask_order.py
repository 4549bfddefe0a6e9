"""The bot asks its computer seats in the engine's order (engine.ai.arena.ask_order).

The order used to exist three times; the bot's own copy asked the defender first even when
the table was empty, so a computer defender could exchange the trump before a computer
attacker led, a move the terminal game and the benchmarks (which play by the arena) never
see. These tests pin the bot to the engine's order.
"""

from __future__ import annotations

import pytest

from bot.game.models import GameSession, SeatInfo
from bot.game.turns import computers_to_ask, waiting_seats
from engine import Action, ActionKind, Game, Observation, RuleSet
from engine.ai import make_player
from engine.ai.arena import ask_order, play_game


def _session(game: Game, humans: tuple[int, ...] = ()) -> GameSession:
    seats = [
        SeatInfo(s, f"p{s}", 100 + s if s in humans else None, None if s in humans else "easy")
        for s in range(game.n)
    ]
    return GameSession(1, 1, 1, None, 1, "podkidnoy", seats, game, 0, 1)


class _Recorded:
    """A computer player that notes every move it makes (the arena applies each at once)."""

    def __init__(self, kind: str, seed: str, moves: list[Action]) -> None:
        self.kind = kind
        self._player = make_player(kind, seed)
        self._moves = moves

    def choose(self, obs: Observation) -> Action | None:
        choice = self._player.choose(obs)
        if choice is not None:
            self._moves.append(choice)
        return choice


def _bot_drive(game: Game, kind: str, seed: int) -> list[Action]:
    """Play ``game`` to the end as the bot's computer loop does: ask the seats of
    ``computers_to_ask`` in turn and apply the first move one of them makes."""
    players = [make_player(kind, f"{seed}:{s}") for s in range(game.n)]
    session = _session(game)
    moves: list[Action] = []
    while game.result is None:
        for seat in computers_to_ask(session):
            choice = players[seat].choose(game.observation(seat))
            if choice is not None:
                game.apply(choice)
                moves.append(choice)
                break
        else:
            raise AssertionError("every computer waited")
    return moves


def _lead_with_exchange(players: int) -> Game:
    """A podkidnoy position where the table is empty and a seat other than the attacker may
    exchange the trump (so the two orders would ask different seats first)."""
    for seed in range(200):
        game = Game.new(RuleSet.preset("podkidnoy", players=players), seed)
        rng_players = [make_player("easy", f"{seed}:{s}") for s in range(players)]
        for _ in range(400):
            if game.result is not None:
                break
            if game.phase == "lead" and any(
                a.kind is ActionKind.EXCHANGE
                for s in range(players)
                if s != game.attacker
                for a in game.legal_actions(s)
            ):
                return game
            for seat in ask_order(game):
                if not game.legal_actions(seat):
                    continue
                choice = rng_players[seat].choose(game.observation(seat))
                if choice is not None:
                    game.apply(choice)
                    break
    raise AssertionError("no lead with a trump exchange found")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_computers_are_asked_in_the_engines_order_on_an_empty_table(players: int) -> None:
    game = _lead_with_exchange(players)
    order = computers_to_ask(_session(game))
    assert order[0] == game.attacker  # the leader, not the defender who could exchange
    assert order == [s for s in ask_order(game) if game.legal_actions(s)]


def test_human_seats_are_never_asked() -> None:
    game = _lead_with_exchange(3)
    session = _session(game, humans=(game.attacker,))
    order = computers_to_ask(session)
    assert game.attacker not in order
    assert order == [s for s in ask_order(game) if s != game.attacker and game.legal_actions(s)]


# Whole games twice each (normal searches its two-handed ends exactly): make check plays one,
# make test a sample, a full sweep all sixteen.
@pytest.mark.slow(sample=4, check=1)
@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("players", [2, 3])
def test_a_game_of_computers_plays_as_in_the_arena(players: int, seed: int) -> None:
    """The same computers make the same moves, in the same order, in the bot's loop as in the
    engine's arena, so what bench/ measures with the arena is what the bot plays. (The
    ``normal`` player exchanges the trump whenever it is asked and may, so an order that asks
    a defender before the leader plays other moves.)"""
    rules = RuleSet.preset("podkidnoy", players=players)
    reference = Game.new(rules, seed)
    arena_moves: list[Action] = []
    play_game(reference, [_Recorded("normal", f"{seed}:{s}", arena_moves) for s in range(players)])
    game = Game.new(rules, seed)
    assert _bot_drive(game, "normal", seed) == arena_moves
    assert game.to_dict() == reference.to_dict()


def test_waiting_seats_follow_the_ask_order() -> None:
    game = _lead_with_exchange(4)
    assert waiting_seats(game) == [game.attacker]
    for seat in ask_order(game):
        action = next((a for a in game.legal_actions(seat) if a.kind is ActionKind.ATTACK), None)
        if action is not None:
            game.apply(action)
            break
    waited = waiting_seats(game)
    assert waited and waited[0] == game.defender
    assert waited == [s for s in ask_order(game) if s in waited]
