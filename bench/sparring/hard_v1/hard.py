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

import random
import time

from engine import Game, Observation
from engine.actions import Action, ActionKind

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


def _playout_score(world: Game, action: Action, seed: int, seat: int) -> float:
    """One sampled world's verdict on ``action``: 1 won, 0 lost, 0.5 when the playout hit
    its move limit. The same ``seed`` for every candidate of a world, so that they are
    compared on the same luck."""
    g = world.copy()
    g.apply_unchecked(action)
    if playout(g, random.Random(seed)):
        return 1.0 if is_win(g, seat) else 0.0
    return 0.5


def candidates(v: View) -> list[Action]:
    """The moves worth comparing: dominated variants (a 3-card lead when a pair would do, the
    second-cheapest trump to beat the same card) are dropped to spend playouts on real choices.
    """
    acts = v.acts
    keep: list[Action] = []
    best_beat: dict[tuple[int, bool], Action] = {}
    biggest: dict[tuple[ActionKind, int, bool], Action] = {}
    for a in acts:
        if a.kind is D:
            att, dfn = a.cards
            k = (int(att), v.is_trump(dfn))
            cur = best_beat.get(k)
            if cur is None or v.value(dfn) < v.value(cur.cards[1]):
                best_beat[k] = a
        elif a.kind in (A, TR):
            if len(a.cards) == 1:
                keep.append(a)
            else:
                has_trump = any(v.is_trump(c) for c in a.cards)
                k2 = (a.kind, a.cards[0] % 13, has_trump)
                cur2 = biggest.get(k2)
                if cur2 is None or len(a.cards) > len(cur2.cards):
                    biggest[k2] = a
        else:
            keep.append(a)
    keep.extend(best_beat.values())
    keep.extend(biggest.values())
    return keep


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
    ) -> None:
        self.rng = random.Random(seed)
        self.max_seconds = max_seconds
        self.max_iterations = max_iterations
        self.node_cap = node_cap
        self.inference = Inference()
        #: what the last search did, for benchmarks and tests: ("policy"|"solver"|"sampling", n)
        self.last_method: tuple[str, int] = ("policy", 0)

    def choose(self, obs: Observation) -> Action | None:
        self.inference.update(obs)
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
        if exact is not None:
            nodes = 0
            try:
                for target in (2, 1):  # an outright win if there is one, else at least a draw
                    solver = EndgameSolver(obs.seat, self.node_cap, target=target)
                    wins = solver.winning_moves(exact, cands)
                    nodes += solver.nodes
                    if wins:
                        self.last_method = ("solver", nodes)
                        return default if default in wins else wins[0]
            except NodeCapReached:
                pass
            else:
                self.last_method = ("solver", nodes)
            return self._sample(obs, cands, default, exact)
        return self._sample(obs, cands, default, None)

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
            if deadline is not None and rounds and time.thread_time() >= deadline:
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

    def _budget(self) -> tuple[int, float | None]:
        iters = self.max_iterations
        if iters is None:
            iters = DEFAULT_ITERATIONS if self.max_seconds is None else 10**9
        deadline = None if self.max_seconds is None else time.thread_time() + self.max_seconds
        return iters, deadline

    def _sample(
        self,
        obs: Observation,
        cands: list[Action],
        default: Action | None,
        exact: Game | None,
    ) -> Action:
        iters, deadline = self._budget()
        template = world_template(obs)
        voids = self.inference.void_masks(obs)
        wins = [0.0] * len(cands)
        tries = [0] * len(cands)
        done = 0
        rounds = 0
        while done < iters:
            if deadline is not None and rounds and time.thread_time() >= deadline:
                break
            rounds += 1
            if exact is not None:
                world = exact
            elif obs.face_down:
                world = face_down_world(obs, template, self.rng, voids)
            else:
                hands, talon = sample_hands(obs, self.rng, voids)
                world = build_world(obs, template, hands, talon)
            legal = world.legal_actions(obs.seat)
            seed = self.rng.getrandbits(32)
            for i, a in enumerate(cands):
                if a not in legal:
                    continue
                wins[i] += _playout_score(world, a, seed, obs.seat)
                tries[i] += 1
                done += 1
        self.last_method = ("sampling", done)
        best = -1.0
        choice = default if default is not None else cands[0]
        for i, a in enumerate(cands):
            if not tries[i]:
                continue
            # the rules-of-thumb move wins ties: it is right more often than chance
            score = wins[i] / tries[i] + (0.02 if a == default else 0.0)
            if score > best:
                best, choice = score, a
        return choice
