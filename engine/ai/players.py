"""The players that decide by rules of thumb: ``random``, ``easy`` and ``normal``."""

from __future__ import annotations

import random

from ..actions import Action
from ..observation import Observation
from .endgame import exact_choice
from .policies import easy_policy, normal_policy, random_policy
from .view import view_of_observation


class _PolicyPlayer:
    kind = "policy"

    def __init__(self, seed: int | str = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, obs: Observation) -> Action | None:
        return self._decide(obs)

    def _decide(self, obs: Observation) -> Action | None:
        raise NotImplementedError


class RandomPlayer(_PolicyPlayer):
    """Uniformly random legal moves: the baseline every other player must beat clearly."""

    kind = "random"

    def _decide(self, obs: Observation) -> Action | None:
        return random_policy(view_of_observation(obs), self.rng)


class EasyPlayer(_PolicyPlayer):
    """A beginner: lowest card first, takes when it cannot beat."""

    kind = "easy"

    def _decide(self, obs: Observation) -> Action | None:
        return easy_policy(view_of_observation(obs), self.rng)


class NormalPlayer(_PolicyPlayer):
    """Expert rules of thumb with card counting, and on the plain game a small exact search
    once nothing is hidden (:mod:`engine.ai.endgame`).

    The search is gated on the plain game (no catalogue variant), where the sparring league
    measured it; on the variants ``normal`` plays its rules to the end (with the search
    there, a small ``--variants`` sample had ``hard`` level with or behind ``normal`` on
    several of them, docs/benchmarks.md)."""

    kind = "normal"

    def _decide(self, obs: Observation) -> Action | None:
        v = view_of_observation(obs)
        move = normal_policy(v, self.rng)
        if v.rules.variant != "none":
            return move
        return exact_choice(obs, v, move)
