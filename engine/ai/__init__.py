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

from collections.abc import Sequence
from typing import Final, Protocol, runtime_checkable

from ..actions import Action
from ..observation import Observation

PLAYER_KINDS: Final = ("random", "easy", "normal", "hard")

#: The think budget of a computer player in the bot, per move: at most this many seconds of
#: one core (CPU time of the thinking thread) and at most this many playouts. The bot and
#: ``bench/ai_strength.py`` both use exactly these (:func:`bot_player`), so the strength and
#: think times the bench prints are the bot's. Issue 20 asks for p95 <= 0.5 s and max <= 1 s.
BOT_MAX_SECONDS: Final = 0.3
BOT_MAX_ITERATIONS: Final = 500


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


def evaluate(
    obs: Observation,
    actions: Sequence[Action],
    *,
    max_seconds: float | None = BOT_MAX_SECONDS,
    max_iterations: int | None = BOT_MAX_ITERATIONS,
    seed: int | str = 0,
) -> dict[Action, float]:
    """The chance of not being the fool after each of ``actions`` (legal in ``obs``), as the
    ``hard`` player judges it from ``obs`` alone (its seat's own observation; it never peeks).

    Meant for reviewing a move: ``evaluate(obs, [played, *obs.legal_actions])`` gives the
    played move's chance next to the best one's. ``max_iterations`` is playouts per action;
    leave ``max_seconds`` as ``None`` for a reproducible answer. Scores of different actions
    come from the same sampled worlds and playout luck, so their *difference* is less noisy
    than each score (about +-0.05 at a few hundred playouts); a proven endgame gives 1.0/0.0.
    """
    from .hard import HardPlayer

    hard = HardPlayer(seed, max_seconds=max_seconds, max_iterations=max_iterations)
    return hard.evaluate(obs, actions)


def bot_player(kind: str, seed: int | str = 0) -> Player:
    """A computer player of ``kind`` with the bot's think budget (see :data:`BOT_MAX_SECONDS`)."""
    return make_player(kind, seed, max_seconds=BOT_MAX_SECONDS, max_iterations=BOT_MAX_ITERATIONS)


__all__ = [
    "BOT_MAX_ITERATIONS",
    "BOT_MAX_SECONDS",
    "PLAYER_KINDS",
    "Player",
    "bot_player",
    "evaluate",
    "make_player",
]
