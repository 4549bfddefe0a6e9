"""A second opinion on a player's moves: the ``hard`` player judges each decision of one seat
in a recorded game (engine/record.py), and suggests a move for a live one (hints).

Every judgement is made **from that seat's own observation at the time** (``game.observation``
of the position before the move): the sampled worlds deal the hidden cards at random, as the
``hard`` player does in play, so a review never "knows" a card the player could not see. For
each decision it estimates the chance of not being the fool

* **before** the move: the position's value with the rules-of-thumb (``normal``) move, what a
  reasonable player would have got from here;
* **after the move made**, and
* **after its preferred move** (the best of the candidates it compared).

The difference between the last two is the decision's cost; the costliest few are what a
review shows. All three come from the same sampled worlds and playout luck (so their
differences are less noisy than each value) and the search is seeded: the same record gives
the same review.

Everything that asks ``engine.ai`` for a chance goes through :func:`scores`, one small
adapter over the public search functions (``engine.ai.search``); ``USE_ENGINE_EVALUATE``
switches it to ``engine.ai.evaluate(obs, actions)``, the computer players' own judgement
(off for now: see the flag for why).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..actions import Action
from ..game import Game
from ..observation import Observation
from ..record import Record, RecordError
from .hard import candidates
from .policies import normal_policy
from .search import (
    EndgameSolver,
    Inference,
    NodeCapReached,
    blind_template,
    build_world,
    exact_world,
    face_down_world,
    is_blind,
    is_win,
    playout,
    sample_blind,
    sample_hands,
    world_template,
)
from .view import view_of_observation

__all__ = [
    "REVIEW_ITERATIONS",
    "Decision",
    "Review",
    "judge",
    "review_game",
    "scores",
    "suggest",
]

#: Sampled worlds per reviewed decision (each candidate is played out in every world). About
#: 0.2 CPU-s per decision with a handful of candidates: a 2-player game's ~25 real decisions
#: per seat review in a few seconds (bench/records.py --review prints it).
REVIEW_ITERATIONS = 48
#: Nodes the exact endgame search may visit before sampling takes over.
NODE_CAP = 6000
#: Ask ``engine.ai.evaluate`` (the ``hard`` player's own judgement, same sampled worlds and
#: luck for every action) instead of the search functions below: the switch the adapter is
#: for. Off for now: with the same playouts per action a 2-player review took 17-21 CPU-s
#: through it against ~5 s here (bench/records.py --review 2, loaded machine), over the
#: issue's 20 s.
USE_ENGINE_EVALUATE = False
#: A decision that costs less than this is not called a mistake (sampling noise).
MISTAKE_THRESHOLD = 0.05


def scores(
    obs: Observation, actions: list[Action], *, iterations: int, seed: int | str = 0
) -> dict[Action, float]:
    """The chance that ``obs.seat`` (or its team) is not the fool after each action, judged
    from ``obs`` alone: the adapter over ``engine.ai``'s search (see the module docstring).

    A position with nothing hidden (talon empty, two players) is solved exactly when the
    search is small enough (1.0 or 0.0); otherwise every action is played out by the
    ``normal`` policy in the same ``iterations`` sampled worlds with the same luck."""
    if USE_ENGINE_EVALUATE:
        from . import evaluate

        return evaluate(obs, actions, max_seconds=None, max_iterations=iterations, seed=seed)
    acts = list(dict.fromkeys(actions))
    rng = random.Random(seed)
    blind = is_blind(obs)
    exact = None if obs.face_down or blind else exact_world(obs)
    if exact is not None:
        try:
            out: dict[Action, float] = {}
            for a in acts:
                child = exact.copy()
                child.apply_unchecked(a)
                out[a] = 1.0 if EndgameSolver(obs.seat, NODE_CAP).wins(child) else 0.0
            return out
        except NodeCapReached:
            pass
    inference = Inference()
    inference.update(obs)
    voids = inference.void_masks(obs)
    template = blind_template(obs) if blind else world_template(obs)
    wins = dict.fromkeys(acts, 0.0)
    tries = dict.fromkeys(acts, 0)
    for _ in range(iterations):
        world: Game
        if exact is not None:
            world = exact
        elif blind:
            world = build_world(obs, template, *sample_blind(obs, rng))
        elif obs.face_down:
            world = face_down_world(obs, template, rng, voids)
        else:
            world = build_world(obs, template, *sample_hands(obs, rng, voids))
        legal = world.legal_actions(obs.seat)
        luck = rng.getrandbits(32)
        for a in acts:
            if a not in legal:
                continue
            g = world.copy()
            g.apply_unchecked(a)
            finished = playout(g, random.Random(luck))
            wins[a] += (1.0 if is_win(g, obs.seat) else 0.0) if finished else 0.5
            tries[a] += 1
    return {a: wins[a] / tries[a] if tries[a] else 0.5 for a in acts}


@dataclass(frozen=True, slots=True)
class Decision:
    """One judged decision of the reviewed seat."""

    #: The move's index in the record's moves (its position is the game before it).
    move: int
    seat: int
    played: Action
    preferred: Action
    before: float
    after_played: float
    after_preferred: float

    @property
    def cost(self) -> float:
        """How much the move made lowered the chance of not being the fool."""
        return max(0.0, self.after_preferred - self.after_played)

    @property
    def mistake(self) -> bool:
        return self.played != self.preferred and self.cost >= MISTAKE_THRESHOLD


@dataclass(frozen=True, slots=True)
class Review:
    """Every decision of one seat in one game that had a real choice."""

    seat: int
    decisions: tuple[Decision, ...]

    def costliest(self, count: int = 3) -> list[Decision]:
        """The ``count`` costliest mistakes, costliest first (fewer if there were fewer)."""
        mistakes = [d for d in self.decisions if d.mistake]
        return sorted(mistakes, key=lambda d: (-d.cost, d.move))[:count]


def judge(
    obs: Observation, played: Action, *, move: int = 0, iterations: int, seed: int | str = 0
) -> Decision | None:
    """The decision to play ``played`` where ``obs`` stood; None when there was no real
    choice (a single sensible move)."""
    v = view_of_observation(obs)
    cands = candidates(v)
    default = normal_policy(v, random.Random(f"{seed}:policy"))
    for a in (played, default):
        if a is not None and a not in cands:
            cands.append(a)
    if len(cands) < 2:
        return None
    values = scores(obs, cands, iterations=iterations, seed=seed)
    preferred = max(cands, key=lambda a: (values[a], a == default, a == played))
    before = values[default] if default is not None else values[preferred]
    return Decision(move, obs.seat, played, preferred, before, values[played], values[preferred])


def review_game(
    record: Record, seat: int, *, iterations: int = REVIEW_ITERATIONS, seed: int | str = 0
) -> Review:
    """Judge every decision ``seat`` made in ``record`` from its own observations."""
    game = record.initial_game()
    if not 0 <= seat < game.n:
        raise RecordError(f"seat {seat} is not a seat of this game")
    decisions: list[Decision] = []
    for i, m in enumerate(record.moves):
        action = m.action
        if action is None:
            continue
        if action.seat == seat and len(game.legal_actions(seat)) > 1:
            obs = game.observation(seat)
            decision = judge(obs, action, move=i, iterations=iterations, seed=f"{seed}:{i}")
            if decision is not None:
                decisions.append(decision)
        game.apply(action)
    return Review(seat, tuple(decisions))


def suggest(
    obs: Observation, *, iterations: int = REVIEW_ITERATIONS, seed: int | str = 0
) -> tuple[Action, float] | None:
    """The ``hard`` player's move for a live seat (a hint) and its chance of not being the
    fool afterwards; None when the seat has nothing to do."""
    v = view_of_observation(obs)
    if not v.acts:
        return None
    cands = candidates(v)
    default = normal_policy(v, random.Random(f"{seed}:policy"))
    if default is not None and default not in cands:
        cands.append(default)
    if len(cands) == 1:
        only = cands[0]
        return only, scores(obs, [only], iterations=max(8, iterations // 4), seed=seed)[only]
    values = scores(obs, cands, iterations=iterations, seed=seed)
    best = max(cands, key=lambda a: (values[a], a == default))
    return best, values[best]
