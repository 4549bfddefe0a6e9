"""Drive a whole deal between computer players, deterministically.

The driver is the reference for how the bot and the terminal game ask players for moves: the
defender first (a defender facing unbeaten cards always answers), then the eligible attackers in
priority order, then every other seat (who can only exchange a trump). The first seat that
answers with an action has it applied; then everyone is asked again. Each player only ever sees
``game.observation(seat)``.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..game import Game, Result
from . import Player


class Stalled(RuntimeError):
    """Every seat chose to wait although the game was not over: a player broke its contract."""


def ask_order(game: Game) -> list[int]:
    """Seats in the order they are asked: defender, eligible attackers, then the rest."""
    order: list[int] = []
    if game.table:
        order.append(game.defender)
        order.extend(s for s in game.eligible_attackers() if s not in order)
    else:
        order.append(game.attacker)
    order.extend(s for s in range(game.n) if s not in order)
    return order


def step(game: Game, players: Sequence[Player]) -> bool:
    """Apply one move; False when the game is over. Raises :class:`Stalled` if nobody moves."""
    if game.result is not None:
        return False
    for seat in ask_order(game):
        if not game.legal_actions(seat):
            continue
        action = players[seat].choose(game.observation(seat))
        if action is None:
            continue
        game.apply(action)  # checked: a player returning an illegal move is a bug to surface
        return True
    raise Stalled(f"no seat moved in {game!r}")


def play_game(game: Game, players: Sequence[Player], max_steps: int = 10000) -> Result:
    """Play ``game`` to the end in place and return its result."""
    if len(players) != game.n:
        raise ValueError(f"{len(players)} players for {game.n} seats")
    for _ in range(max_steps):
        if not step(game, players):
            assert game.result is not None
            return game.result
    raise Stalled(f"the game did not finish in {max_steps} steps")
