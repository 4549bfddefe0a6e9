"""Drive a whole deal between computer players, deterministically.

The driver is the reference for how the bot and the terminal game ask players for moves: the
defender first (a defender facing unbeaten cards always answers), then the eligible attackers in
priority order, then every other seat (who can only exchange a trump). The first seat that
answers with an action has it applied; then everyone is asked again. Each player only ever sees
``game.observation(seat)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..actions import PA, Action
from ..game import Game, Result

if TYPE_CHECKING:  # a type only: make_player imports the players, and they import this
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


def actor(g: Game) -> tuple[int, list[Action]]:
    """Who must move next under the arena's convention, and their legal actions."""
    if g.table:
        d = g.defender
        if not g.taking and any(p[1] < 0 for p in g.table):
            acts = g.legal_actions(d)
            if acts:  # (take on trust: not while a face-down card awaits its verdict)
                return d, acts
        for s in g.eligible_attackers():
            acts = g.legal_actions(s)
            if acts and any(a.kind is PA for a in acts):
                return s, acts
        return -1, []
    return g.attacker, g.legal_actions(g.attacker)


def next_to_move(g: Game) -> tuple[int, list[Action]]:
    """``actor``, and where it names nobody (only co-attackers holding throw-ins are left)
    the first eligible attacker with a legal action; ``(-1, [])`` if there is none."""
    seat, acts = actor(g)
    if seat < 0:
        for s in g.eligible_attackers():
            acts = g.legal_actions(s)
            if acts:
                return s, acts
    return seat, acts


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
