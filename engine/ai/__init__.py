"""Computer players for Durak.

A player is asked for a move with an :class:`~engine.observation.Observation` only: the type of
``choose`` makes it impossible to hand a player the true ``Game`` (and so another seat's hand).
Every player owns a private ``random.Random(seed)``, so a game between computer players is
reproducible from its seeds; the only clock read anywhere is the optional ``max_seconds`` think
budget of the ``hard`` player, which tests leave off (they bound work with ``max_iterations``).

``choose`` returns one of ``obs.legal_actions``, or ``None`` for "wait". Waiting is returned only
when it is harmless: never by the defender facing unbeaten cards, never by the attacker who must
lead, never when PASS is offered. A driver that asks the defender first, then the eligible
attackers in priority order, then everyone else, therefore always makes progress (see
:func:`engine.ai.arena.play_game`).
"""

from __future__ import annotations

from typing import Final, Protocol, runtime_checkable

from ..actions import Action
from ..observation import Observation

PLAYER_KINDS: Final = ("random", "easy", "normal", "hard")


@runtime_checkable
class Player(Protocol):
    """Anything that picks a move from what one seat can see."""

    kind: str

    def choose(self, obs: Observation) -> Action | None:
        """One of ``obs.legal_actions``, or ``None`` to wait (only when waiting is harmless)."""
        ...


def make_player(
    kind: str,
    seed: int | str = 0,
    *,
    max_seconds: float | None = None,
    max_iterations: int | None = None,
) -> Player:
    """A computer player of ``kind`` (one of :data:`PLAYER_KINDS`).

    ``max_seconds`` and ``max_iterations`` bound the ``hard`` player's thinking per move (the
    other kinds do not search and ignore them). Leave ``max_seconds`` unset where results must
    be reproducible: a time budget makes the amount of search depend on the machine.
    """
    from .players import EasyPlayer, NormalPlayer, RandomPlayer

    if kind == "random":
        return RandomPlayer(seed)
    if kind == "easy":
        return EasyPlayer(seed)
    if kind == "normal":
        return NormalPlayer(seed)
    if kind == "hard":
        from .hard import HardPlayer

        return HardPlayer(seed, max_seconds=max_seconds, max_iterations=max_iterations)
    raise ValueError(f"unknown player kind {kind!r}; kinds are {', '.join(PLAYER_KINDS)}")


__all__ = ["PLAYER_KINDS", "Player", "make_player"]
