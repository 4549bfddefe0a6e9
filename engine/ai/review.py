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
the same review. Each world's outcome is kept (:class:`Estimate`), so a difference comes with
its noise, twice the standard error of the world-by-world difference: a decision is called a
mistake only when its cost is above that noise (a close one is first judged again on more
worlds), and a hint says what the runner-up costs only beyond it (``engine.ai.reasons``).

Everything that asks ``engine.ai`` for a chance goes through :func:`estimate`, one small
adapter over the public search functions (``engine.ai.search``); ``USE_ENGINE_EVALUATE``
switches it to ``engine.ai.evaluate(obs, actions)``, the computer players' own judgement
(off for now: see the flag for why).
"""

from __future__ import annotations

import math
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
    "Advice",
    "Decision",
    "Estimate",
    "Review",
    "advise",
    "estimate",
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
#: A decision whose cost is within its noise is judged again with this many times the worlds
#: for just the two moves compared, before it is called too close to tell.
REFINE = 3
#: At most this many decisions of one review are judged again (the costliest first).
REFINED = 5
#: A decision that costs less than this is not called a mistake (sampling noise).
MISTAKE_THRESHOLD = 0.05


@dataclass(frozen=True, slots=True)
class Estimate:
    """The chance of not being the fool after each of several actions, with what it takes to
    say how far two of them can be told apart.

    ``samples[a]`` holds one outcome per sampled world (1 a win, 0 a loss, 0.5 a playout
    that went round in circles), ``None`` where ``a`` was not legal in that world. Every
    action is played out in the same worlds with the same luck, so the difference of two
    actions is measured world by world (a paired difference), which is far less noisy than
    either chance. An exact solve has no samples and no noise."""

    values: dict[Action, float]
    samples: dict[Action, tuple[float | None, ...]]
    exact: bool = False
    #: False when the outcomes are not world by world (``USE_ENGINE_EVALUATE``): the
    #: difference's noise is then that of two independent chances.
    paired: bool = True

    def noise(self, a: Action, b: Action) -> float:
        """How large a difference ``values[a] - values[b]`` can be by the luck of the
        sampling alone: twice the standard error of the paired difference (about 95% of
        estimates of a true difference of zero fall inside it), and never less than 3/n
        for n worlds (the rule of three: where every world agreed, a disagreement in up to
        3 in n could still have gone unseen). 0 for an exact solve."""
        if self.exact:
            return 0.0
        pa, pb = self.samples.get(a, ()), self.samples.get(b, ())
        if not self.paired:
            return 2.0 * math.sqrt(
                _variance(pa) / max(1, len(pa)) + _variance(pb) / max(1, len(pb))
            )
        diffs = [x - y for x, y in zip(pa, pb, strict=False) if x is not None and y is not None]
        n = len(diffs)
        if n < 2:
            return 1.0
        return max(2.0 * math.sqrt(_variance(diffs) / n), 3.0 / n)

    def merged(self, other: Estimate) -> Estimate:
        """This estimate and ``other`` (more worlds for the same actions) together."""
        if self.exact or other.exact:
            return other if other.exact else self
        samples = {a: self.samples.get(a, ()) + other.samples.get(a, ()) for a in self.values}
        return Estimate(_means(samples), samples, paired=self.paired and other.paired)


def _variance(xs: tuple[float | None, ...] | list[float]) -> float:
    """The sample variance of the outcomes that were played (1 for fewer than two: nothing
    can be told from them)."""
    seen = [x for x in xs if x is not None]
    if len(seen) < 2:
        return 1.0
    mean = sum(seen) / len(seen)
    return sum((x - mean) ** 2 for x in seen) / (len(seen) - 1)


def _means(samples: dict[Action, tuple[float | None, ...]]) -> dict[Action, float]:
    out: dict[Action, float] = {}
    for a, xs in samples.items():
        seen = [x for x in xs if x is not None]
        out[a] = sum(seen) / len(seen) if seen else 0.5
    return out


def estimate(
    obs: Observation, actions: list[Action], *, iterations: int, seed: int | str = 0
) -> Estimate:
    """The chance that ``obs.seat`` (or its team) is not the fool after each action, judged
    from ``obs`` alone: the adapter over ``engine.ai``'s search (see the module docstring).

    A position with nothing hidden (talon empty, two players) is solved exactly when the
    search is small enough (1.0 or 0.0); otherwise every action is played out by the
    ``normal`` policy in the same ``iterations`` sampled worlds with the same luck."""
    acts = list(dict.fromkeys(actions))
    if USE_ENGINE_EVALUATE:
        from . import evaluate

        values = evaluate(obs, acts, max_seconds=None, max_iterations=iterations, seed=seed)
        # no per-world outcomes: every world counted as independent (a wider noise)
        return Estimate(values, {a: _spread(values[a], iterations) for a in acts}, paired=False)
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
            return Estimate(out, {a: (v,) for a, v in out.items()}, exact=True)
        except NodeCapReached:
            pass
    inference = Inference()
    inference.update(obs)
    voids = inference.void_masks(obs)
    template = blind_template(obs) if blind else world_template(obs)
    samples: dict[Action, list[float | None]] = {a: [] for a in acts}
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
                samples[a].append(None)
                continue
            g = world.copy()
            g.apply_unchecked(a)
            finished = playout(g, random.Random(luck))
            samples[a].append((1.0 if is_win(g, obs.seat) else 0.0) if finished else 0.5)
    frozen = {a: tuple(xs) for a, xs in samples.items()}
    return Estimate(_means(frozen), frozen)


def _spread(p: float, n: int) -> tuple[float | None, ...]:
    """``n`` outcomes with mean ``p`` (whole wins and losses), for an estimate that came
    without its per-world outcomes."""
    wins = round(p * n)
    return (1.0,) * wins + (0.0,) * (n - wins)


def scores(
    obs: Observation, actions: list[Action], *, iterations: int, seed: int | str = 0
) -> dict[Action, float]:
    """:func:`estimate`'s chances alone."""
    return estimate(obs, actions, iterations=iterations, seed=seed).values


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
    #: How large ``after_preferred - after_played`` can come out by sampling luck alone
    #: (:meth:`Estimate.noise`; 0 when the position was solved exactly).
    noise: float = 0.0
    #: Sampled worlds behind the two figures (0: solved exactly).
    worlds: int = 0

    @property
    def cost(self) -> float:
        """How much the move made lowered the chance of not being the fool."""
        return max(0.0, self.after_preferred - self.after_played)

    @property
    def mistake(self) -> bool:
        """A difference worth showing: above the threshold and above the estimate's noise
        (a smaller one could be the luck of the sampled worlds)."""
        return (
            self.played != self.preferred
            and self.cost >= MISTAKE_THRESHOLD
            and self.cost > self.noise
        )


@dataclass(frozen=True, slots=True)
class Review:
    """Every decision of one seat in one game that had a real choice."""

    seat: int
    decisions: tuple[Decision, ...]

    def costliest(self, count: int = 3) -> list[Decision]:
        """The ``count`` costliest mistakes, costliest first (fewer if there were fewer)."""
        mistakes = [d for d in self.decisions if d.mistake]
        return sorted(mistakes, key=lambda d: (-d.cost, d.move))[:count]


@dataclass(slots=True)
class _Judged:
    """A decision while it is being judged: the estimate so far and the move it prefers."""

    move: int
    obs: Observation
    played: Action
    preferred: Action
    before: float
    found: Estimate

    @property
    def uncertain(self) -> bool:
        """Costly enough to show, but within its noise: worth more worlds."""
        values = self.found.values
        cost = values[self.preferred] - values[self.played]
        return self.preferred != self.played and MISTAKE_THRESHOLD <= cost <= self.found.noise(
            self.preferred, self.played
        )

    def refine(self, iterations: int, seed: int | str) -> None:
        """More worlds for just the two moves compared (``REFINE`` times as many)."""
        more = estimate(
            self.obs,
            [self.played, self.preferred],
            iterations=REFINE * iterations,
            seed=f"{seed}:refine",
        )
        self.found = self.found.merged(more)
        values = self.found.values
        if values[self.played] >= values[self.preferred]:
            self.preferred = self.played

    def decision(self) -> Decision:
        found, played, preferred = self.found, self.played, self.preferred
        values = found.values
        return Decision(
            self.move,
            self.obs.seat,
            played,
            preferred,
            self.before,
            values[played],
            values[preferred],
            found.noise(preferred, played) if preferred != played else 0.0,
            0 if found.exact else len(found.samples[played]),
        )


def _look(
    obs: Observation, played: Action, *, move: int, iterations: int, seed: int | str
) -> _Judged | None:
    v = view_of_observation(obs)
    cands = candidates(v)
    default = normal_policy(v, random.Random(f"{seed}:policy"))
    for a in (played, default):
        if a is not None and a not in cands:
            cands.append(a)
    if len(cands) < 2:
        return None
    found = estimate(obs, cands, iterations=iterations, seed=seed)
    values = found.values
    preferred = max(cands, key=lambda a: (values[a], a == default, a == played))
    before = values[default] if default is not None else values[preferred]
    return _Judged(move, obs, played, preferred, before, found)


def judge(
    obs: Observation, played: Action, *, move: int = 0, iterations: int, seed: int | str = 0
) -> Decision | None:
    """The decision to play ``played`` where ``obs`` stood; None when there was no real
    choice (a single sensible move). One too close to tell is judged again on more worlds."""
    judged = _look(obs, played, move=move, iterations=iterations, seed=seed)
    if judged is None:
        return None
    if judged.uncertain:
        judged.refine(iterations, seed)
    return judged.decision()


def review_game(
    record: Record, seat: int, *, iterations: int = REVIEW_ITERATIONS, seed: int | str = 0
) -> Review:
    """Judge every decision ``seat`` made in ``record`` from its own observations; then the
    ``REFINED`` costliest of those too close to tell are judged again on more worlds (the
    few a review could show: refining every one would cost twice the review)."""
    game = record.initial_game()
    if not 0 <= seat < game.n:
        raise RecordError(f"seat {seat} is not a seat of this game")
    judged: list[_Judged] = []
    for i, m in enumerate(record.moves):
        action = m.action
        if action is None:
            continue
        if action.seat == seat and len(game.legal_actions(seat)) > 1:
            obs = game.observation(seat)
            found = _look(obs, action, move=i, iterations=iterations, seed=f"{seed}:{i}")
            if found is not None:
                judged.append(found)
        game.apply(action)
    unsure = [j for j in judged if j.uncertain]
    unsure.sort(key=lambda j: j.found.values[j.played] - j.found.values[j.preferred])
    for j in unsure[:REFINED]:
        j.refine(iterations, f"{seed}:{j.move}")
    return Review(seat, tuple(j.decision() for j in judged))


@dataclass(frozen=True, slots=True)
class Advice:
    """A hint: the ``hard`` player's move, the runner-up and how they were judged."""

    best: Action
    #: The next best candidate (None when there was only one sensible move).
    second: Action | None
    estimate: Estimate

    @property
    def chance(self) -> float:
        return self.estimate.values[self.best]


def advise(
    obs: Observation, *, iterations: int = REVIEW_ITERATIONS, seed: int | str = 0
) -> Advice | None:
    """The ``hard`` player's move for a live seat and the runner-up; None when the seat has
    nothing to do."""
    v = view_of_observation(obs)
    if not v.acts:
        return None
    cands = candidates(v)
    default = normal_policy(v, random.Random(f"{seed}:policy"))
    if default is not None and default not in cands:
        cands.append(default)
    if len(cands) == 1:
        only = cands[0]
        return Advice(
            only, None, estimate(obs, [only], iterations=max(8, iterations // 4), seed=seed)
        )
    found = estimate(obs, cands, iterations=iterations, seed=seed)
    values = found.values
    ranked = sorted(cands, key=lambda a: (values[a], a == default), reverse=True)
    return Advice(ranked[0], ranked[1], found)


def suggest(
    obs: Observation, *, iterations: int = REVIEW_ITERATIONS, seed: int | str = 0
) -> tuple[Action, float] | None:
    """The ``hard`` player's move for a live seat (a hint) and its chance of not being the
    fool afterwards; None when the seat has nothing to do."""
    advice = advise(obs, iterations=iterations, seed=seed)
    return None if advice is None else (advice.best, advice.chance)
