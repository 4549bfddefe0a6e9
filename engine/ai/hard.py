"""The ``hard`` player: information-set search by determinization.

For a move it must make, it samples worlds consistent with its observation (see ``search``),
plays every candidate move out in each world with the ``normal`` policy for all seats, and picks
the candidate that avoided being the fool most often (partners' wins count as its own in team
games). Candidates share each sampled world and playout seed, so their comparison is not
drowned in deal-to-deal noise. With the talon empty and two players left it solves the position
exactly instead.

Moves it may skip (throwing in before the defender has answered, an exchange that is not
urgent) are left to the ``normal`` rules: searching them would cost time for little gain.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence

from ..actions import Action, ActionKind
from ..game import Game
from ..observation import Observation
from .opponents import DefendHook, OpponentModel
from .policies import normal_policy
from .search import (
    EndgameSolver,
    Inference,
    NodeCapReached,
    Worlds,
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
from .view import View, view_of_observation

A, T, D, TR, PI = (
    ActionKind.ATTACK,
    ActionKind.THROW,
    ActionKind.DEFEND,
    ActionKind.TRANSFER,
    ActionKind.PILE,
)

#: Playouts per move when no budget is given; tuned so a move takes well under a second.
DEFAULT_ITERATIONS = 240
#: Exact-search nodes before the endgame solver gives up and sampling takes over.
DEFAULT_NODE_CAP = 12000
#: The wall-clock limit of a move, in multiples of its CPU budget (see ``_Deadline``).
WALL_FACTOR = 4.0
#: Sampling rounds (worlds) before a candidate may be dropped or chosen over the default.
MIN_ROUNDS = 16
#: A candidate is dropped when it trails the best by more than this many standard errors.
DROP_Z = 2.0
#: The rules-of-thumb move is left only for one better by more than this many standard errors.
KEEP_Z = 1.5


def _playout_score(
    world: Game,
    action: Action,
    seed: int,
    seat: int,
    hooks: dict[int, DefendHook] | None = None,
) -> float:
    """One sampled world's verdict on ``action``: 1 won, 0 lost, 0.5 when the playout hit
    its move limit. The same ``seed`` for every candidate of a world, so that they are
    compared on the same luck; ``hooks``: the opponents' modelled styles."""
    g = world.copy()
    g.apply_unchecked(action)
    if playout(g, random.Random(seed), hooks=hooks):
        return 1.0 if is_win(g, seat) else 0.0
    return 0.5


def candidates(v: View) -> list[Action]:
    """The moves worth comparing by sampling.

    Only true duplicates are dropped: leads or transfers of the same rank, number of cards and
    trump content (which of two plain nines is led changes little next to how many). Every
    defence is kept: the beater's rank decides what can be thrown in next and its suit what
    is left to beat with, so the dearer beater can be the only winning one (issue 20: with
    7♦ A♦ against a lone 7♥ under an A♥ lead, beating with the 7 loses, with the ace wins).
    """
    keep: list[Action] = []
    seen: set[tuple[ActionKind, int, int, bool]] = set()
    for a in v.acts:
        if a.kind in (A, TR) and len(a.cards) > 1:
            has_trump = any(v.is_trump(c) for c in a.cards)
            k = (a.kind, a.cards[0] % 13, len(a.cards), has_trump)
            if k in seen:
                continue
            seen.add(k)
        keep.append(a)
    return keep


class _Deadline:
    """A think budget in seconds of one core: CPU time of the thinking thread, so that a busy
    machine (or the bot's other threads) does not cut the search short, with a wall-clock
    limit of ``WALL_FACTOR`` times the budget so that on a loaded machine a person does not
    wait much longer than planned (the bench's figures are CPU time, which this bounds)."""

    def __init__(self, seconds: float) -> None:
        self.cpu = time.thread_time() + seconds
        self.wall = time.perf_counter() + WALL_FACTOR * seconds

    def passed(self) -> bool:
        return time.thread_time() >= self.cpu or time.perf_counter() >= self.wall


class HardPlayer:
    """Determinized Monte Carlo search with the ``normal`` policy as the playout policy."""

    kind = "hard"

    def __init__(
        self,
        seed: int | str = 0,
        *,
        max_seconds: float | None = None,
        max_iterations: int | None = None,
        node_cap: int = DEFAULT_NODE_CAP,
        model_opponents: bool = False,
    ) -> None:
        self.rng = random.Random(seed)
        self.max_seconds = max_seconds
        self.max_iterations = max_iterations
        self.node_cap = node_cap
        self.inference = Inference()
        #: the opponents' style, read from this seat's observations (``engine.ai.opponents``);
        #: off unless asked for: against the league it has not yet measured better (issue 31,
        #: docs/benchmarks.md), so the bot's ``hard`` plays every seat as ``normal``
        self.model_opponents = model_opponents
        self.opponents = OpponentModel()
        #: what the last search did, for benchmarks and tests: ("policy"|"solver"|"sampling", n)
        self.last_method: tuple[str, int] = ("policy", 0)

    def choose(self, obs: Observation) -> Action | None:
        self.inference.update(obs)
        self.opponents.update(obs)
        v = view_of_observation(obs)
        if not v.acts:
            return None
        default = normal_policy(v, self.rng)
        self.last_method = ("policy", 0)
        if not v.must_act():
            return default
        if is_blind(obs):
            return self._blind(obs, v, default)
        cands = candidates(v)
        if default is not None and default not in cands:
            cands.append(default)
        if len(cands) == 1:
            return cands[0]
        # a defence face down (take on trust) is hidden even when the hands are not
        exact = None if obs.face_down else exact_world(obs)
        iters, deadline = self._budget()
        if exact is not None:
            # the solver proves, so it looks at every legal move, not a pruned list. First the
            # moves that avoid being the fool (what counts), then among those an outright win
            # (where a draw is possible); both share one node cap and the think budget
            stop = None if deadline is None else deadline.passed
            try:
                solver = EndgameSolver(obs.seat, self.node_cap, target=1, stop=stop)
                safe = solver.winning_moves(exact, list(v.acts))
                nodes = solver.nodes
            except NodeCapReached:
                safe = []
                nodes = -1
            if safe:
                best = safe
                if len(safe) > 1 and exact.rules.all_out == "draw":
                    try:
                        solver = EndgameSolver(
                            obs.seat, max(0, self.node_cap - nodes), target=2, stop=stop
                        )
                        best = solver.winning_moves(exact, safe) or safe
                        nodes += solver.nodes
                    except NodeCapReached:
                        pass
                self.last_method = ("solver", nodes)
                return default if default in best else best[0]
            if nodes >= 0:
                self.last_method = ("solver", nodes)
            return self._sample(obs, cands, default, exact, iters, deadline)
        return self._sample(obs, cands, default, None, iters, deadline)

    def evaluate(self, obs: Observation, actions: Sequence[Action]) -> dict[Action, float]:
        """The chance that ``obs.seat`` (or its team) is not the fool after each of
        ``actions``, judged from that seat's own observation only.

        For reviewing a person's moves: every action is scored on the same sampled worlds
        with the same playout luck (so two actions' scores are comparable even when each is
        noisy), within this player's budget. With nothing hidden (talon empty, two players)
        the exact solver is tried first: a proven result is 1.0 or 0.0. Actions must be legal
        in ``obs``; a blind seat (reverse fool) samples its own hand, as in play.
        """
        legal = set(obs.legal_actions)
        for a in actions:
            if a not in legal:
                raise ValueError(f"{a} is not a legal action of seat {obs.seat}")
        acts = list(dict.fromkeys(actions))
        self.inference.update(obs)
        iters, deadline = self._budget()
        out: dict[Action, float] = {}
        exact = None if obs.face_down or is_blind(obs) else exact_world(obs)
        if exact is not None:
            stop = None if deadline is None else deadline.passed
            try:
                for a in acts:
                    child = exact.copy()
                    child.apply_unchecked(a)
                    solver = EndgameSolver(obs.seat, self.node_cap, stop=stop)
                    out[a] = 1.0 if solver.wins(child) else 0.0
                return out
            except NodeCapReached:
                out = {}
        blind = is_blind(obs)
        template = blind_template(obs) if blind else world_template(obs)
        worlds = Worlds(obs, template)
        voids = self.inference.void_masks(obs)
        wins = dict.fromkeys(acts, 0.0)
        tries = dict.fromkeys(acts, 0)
        done = rounds = 0
        while done < iters * len(acts):
            if deadline is not None and rounds and deadline.passed():
                break
            rounds += 1
            if exact is not None:
                world = exact
            elif blind:
                world = build_world(obs, template, *sample_blind(obs, self.rng))
            elif obs.face_down:
                world = face_down_world(obs, template, self.rng, voids)
            else:
                world = worlds.build(*sample_hands(obs, self.rng, voids))
            in_world = world.legal_actions(obs.seat)
            seed = self.rng.getrandbits(32)
            for a in acts:
                if a in in_world:
                    wins[a] += _playout_score(world, a, seed, obs.seat)
                    tries[a] += 1
                    done += 1
            if not any(a in in_world for a in acts):
                done += 1  # (no progress possible in this world; do not spin)
        self.last_method = ("sampling", done)
        return {a: wins[a] / tries[a] if tries[a] else 0.5 for a in acts}

    def _blind(self, obs: Observation, v: View, default: Action | None) -> Action | None:
        """Reverse fool: search over *what* to try, not which slot.

        Every slot of the seat's own hand looks the same from where it sits (the slot order is
        secret), so the real choices are: lead, beat this attack card, transfer, throw in,
        take, or stop adding. Each sampled world deals the seat a hand consistent with what it
        saw (the other hands it sees in full), and every choice is tried there with the same
        random slot, that is with the same unknown card, and played out. The winning choice
        is then played with a slot drawn at random. Even with the talon gone (the hand is
        known as a set) the slot order is not, so the exact solver is never used here.
        """
        groups: dict[tuple[ActionKind, int], list[Action]] = {}
        for a in v.acts:
            target = int(a.cards[0]) if a.kind is ActionKind.BEAT_BLIND else -1
            groups.setdefault((a.kind, target), []).append(a)
        if len(groups) == 1:
            return default if default is not None else v.acts[0]
        keys = list(groups)
        iters, deadline = self._budget()
        template = blind_template(obs)
        size = obs.hand_sizes[obs.seat]
        wins = [0.0] * len(keys)
        tries = [0] * len(keys)
        done = rounds = 0
        while done < iters:
            if deadline is not None and rounds and deadline.passed():
                break
            rounds += 1
            hands, talon = sample_blind(obs, self.rng)
            world = build_world(obs, template, hands, talon)
            legal = world.legal_actions(obs.seat)
            slot = self.rng.randrange(size)
            seed = self.rng.getrandbits(32)
            for i, key in enumerate(keys):
                acts = groups[key]
                a = acts[slot] if len(acts) == size else acts[0]
                if a not in legal:
                    continue
                wins[i] += _playout_score(world, a, seed, obs.seat)
                tries[i] += 1
                done += 1
        self.last_method = ("sampling", done)
        default_key = None
        if default is not None:
            t = int(default.cards[0]) if default.kind is ActionKind.BEAT_BLIND else -1
            default_key = (default.kind, t)
        best, choice = -1.0, keys[0]
        for i, key in enumerate(keys):
            if tries[i]:
                score = wins[i] / tries[i] + (0.02 if key == default_key else 0.0)
                if score > best:
                    best, choice = score, key
        if choice == default_key:
            return default
        acts = groups[choice]
        return acts[self.rng.randrange(len(acts))]

    def _budget(self) -> tuple[int, _Deadline | None]:
        iters = self.max_iterations
        if iters is None:
            iters = DEFAULT_ITERATIONS if self.max_seconds is None else 10**9
        deadline = None if self.max_seconds is None else _Deadline(self.max_seconds)
        return iters, deadline

    def _sample(
        self,
        obs: Observation,
        cands: list[Action],
        default: Action | None,
        exact: Game | None,
        iters: int,
        deadline: _Deadline | None,
    ) -> Action:
        """Compare the candidates on shared sampled worlds and leave the rules-of-thumb move
        only for one that beats it by more than the noise.

        Every candidate is played out in the same world with the same playout seed, so each
        world gives a *paired* difference against the default move. Candidates clearly worse
        than the best so far are dropped (later playouts go to the real contenders), the search
        stops once only the default is left, and at the end the best candidate replaces the
        default only if its mean difference exceeds ``KEEP_Z`` standard errors (issue 20: at
        a few hundred playouts the scores of sensible and wasteful moves differ by 1-3 points,
        inside the noise, so "the highest score" alone picks noise).
        """
        template = world_template(obs)
        worlds = Worlds(obs, template)
        voids = self.inference.void_masks(obs)
        hooks = (
            self.opponents.hooks(obs.n, obs.rules.transfer != "off")
            if self.model_opponents
            else None
        )
        base = cands.index(default) if default is not None and default in cands else 0
        k = len(cands)
        n = [0] * k  # worlds where both the candidate and the default were legal
        sd = [0.0] * k  # sum of paired differences against the default
        sq = [0.0] * k  # sum of their squares
        alive = list(range(k))
        done = rounds = 0
        while done < iters and len(alive) > 1:
            if deadline is not None and rounds and deadline.passed():
                break
            rounds += 1
            if exact is not None:
                world = exact
            elif obs.face_down:
                world = face_down_world(obs, template, self.rng, voids)
            else:
                world = worlds.build(*sample_hands(obs, self.rng, voids))
            legal = world.legal_actions(obs.seat)
            seed = self.rng.getrandbits(32)
            if cands[base] not in legal:
                done += 1  # (only a co-attacker's options can differ); a skip still counts,
                continue  # so that a default illegal in every world cannot spin for ever
            ref = _playout_score(world, cands[base], seed, obs.seat, hooks)
            done += 1
            for i in alive:
                if i == base or cands[i] not in legal:
                    continue
                d = _playout_score(world, cands[i], seed, obs.seat, hooks) - ref
                n[i] += 1
                sd[i] += d
                sq[i] += d * d
                done += 1
            if rounds >= MIN_ROUNDS and rounds % 4 == 0:
                alive = self._prune(alive, base, n, sd, sq)
        self.last_method = ("sampling", done)
        best, choice = 0.0, base
        for i in alive:
            if i == base or n[i] < MIN_ROUNDS:
                continue
            mean = sd[i] / n[i]
            if mean > best and mean > KEEP_Z * _se(n[i], sd[i], sq[i]):
                best, choice = mean, i
        return cands[choice]

    @staticmethod
    def _prune(
        alive: list[int], base: int, n: list[int], sd: list[float], sq: list[float]
    ) -> list[int]:
        """Drop candidates whose difference to the default is clearly below the best one's."""
        stats = {i: (sd[i] / n[i], _se(n[i], sd[i], sq[i])) for i in alive if i != base and n[i]}
        stats[base] = (0.0, 0.0)
        top = max(stats.values(), key=lambda ms: ms[0])
        keep = []
        for i in alive:
            if i not in stats:
                keep.append(i)
                continue
            mean, se = stats[i]
            if i == base or mean + DROP_Z * (se + top[1]) >= top[0]:
                keep.append(i)
        return keep


def _se(n: int, s: float, sq: float) -> float:
    """Standard error of a mean of ``n`` paired differences (sum ``s``, sum of squares ``sq``);
    a floor keeps a handful of identical outcomes from looking certain."""
    if n < 2:
        return 1.0
    var = max(0.0, (sq - s * s / n) / (n - 1))
    return float(math.sqrt(max(var, 0.05) / n))
