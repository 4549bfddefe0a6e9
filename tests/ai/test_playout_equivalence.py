"""hard's playouts are a pure speed-up: they play exactly the moves of the reference playout.

The reference below is the playout as it was before the fast path (issue 20, "speed of a
playout"): every seat asks ``normal_policy`` on its own ``View`` of the sampled world and the
engine applies the move. Whatever the fast path does instead (policy on the world's state,
no view object, no list of legal actions), it must leave the same game behind with the same
random state, and ``hard`` must choose the same moves and give the same scores at the same
playouts and seed.
"""

from __future__ import annotations

import random

import pytest

from engine import PRESETS, Game, RuleSet
from engine.actions import Action
from engine.ai import hard as hard_module
from engine.ai import search
from engine.ai.arena import actor, next_to_move
from engine.ai.hard import HardPlayer
from engine.ai.policies import normal_policy
from engine.ai.search import build_world, sample_hands, world_template
from engine.ai.view import view_of_game
from engine.state import GameState

from .test_players import _must_act, _random_positions


def reference_playout(
    g: Game, rng: random.Random, max_steps: int = 600, hooks: dict[int, object] | None = None
) -> bool:
    """The playout before the fast path, kept as the definition of what a playout plays
    (every seat ``normal``: modelled opponents' styles are tested in ``test_opponents``)."""
    assert not hooks, "the cases here model no opponent"
    for _ in range(max_steps):
        if g.result is not None:
            return True
        seat, acts = actor(g)
        if seat < 0:
            for s in g.eligible_attackers():
                acts = g.legal_actions(s)
                if acts:
                    seat = s
                    break
            if seat < 0:
                raise AssertionError(f"nobody can move in {g!r}")
        choice = normal_policy(view_of_game(g, seat, acts), rng)
        if choice is None:
            choice = acts[0]
        g.apply_unchecked(choice)
    return g.result is not None


def _rules() -> list[RuleSet]:
    """Every preset at its own size, and the plain ones (where the fast path applies) at
    several more sizes."""
    out = []
    for name, base in PRESETS.items():
        out.append(base)
        if base.variant == "none" and base.teams == "none" and not base.severnyi:
            out += [RuleSet.preset(name, players=n) for n in (3, 4, 6)]
    return out


RULES = _rules()


def _worlds(rules: RuleSet, count: int) -> list[Game]:
    """Reachable games, and worlds sampled from a seat's observation of them after one move of
    that seat, as ``hard`` plays them (a sampled world is built with ``settle=False``, so it
    may hold a bout that is complete there)."""
    rng = random.Random(rules.players * 7 + len(rules.variant))
    out: list[Game] = []
    for g in _random_positions(rules, seed=rules.players + 3, count=count * 2)[1::2]:
        out.append(g)
        seat = rng.randrange(g.n)
        obs = g.observation(seat)
        if obs.face_down or (obs.hand_sizes[seat] and not obs.hand_mask):
            continue  # take on trust, reverse: worlds built their own way
        hands, talon = sample_hands(obs, rng)
        world = build_world(obs, world_template(obs), hands, talon)
        acts = world.legal_actions(seat)
        if acts:
            world.apply_unchecked(acts[rng.randrange(len(acts))])
            out.append(world)
    return out


@pytest.mark.slow(sample=4, check=1)  # a sweep: one case in make check, a sample in make test
@pytest.mark.parametrize(
    "rules", RULES, ids=lambda r: f"{r.variant}-{r.players}p-{r.transfer}-{r.teams}"
)
def test_playout_plays_the_reference_moves(rules: RuleSet) -> None:
    # the catalogue variants keep the general path: a few worlds show the dispatch is right
    for i, world in enumerate(_worlds(rules, 12 if rules.variant == "none" else 3)):
        if world.result is not None:
            continue
        for seed, long_game in ((i, False), (i + 1000, True)):
            a, b = world.copy(), world.copy()
            if long_game:  # past LONG_GAME the policy breaks cycles at random
                a.version = b.version = 401
            ra, rb = random.Random(seed), random.Random(seed)
            finished = search.playout(a, ra)
            assert finished == reference_playout(b, rb)
            assert a.to_dict() == b.to_dict(), f"playouts differ from {world!r}"
            assert ra.getstate() == rb.getstate(), "the policy drew other random numbers"


HARD_PRESETS = [
    ("podkidnoy", 2),
    ("podkidnoy", 4),
    ("perevodnoy", 2),
    ("perevodnoy", 3),
    ("perevodnoy-kiev", 2),
    ("perevodnoy-pass-card", 3),
    ("prostoy", 2),
    ("severnyi", 2),
    ("teams-2v2", 4),
    ("durak-online", 3),
    ("round", 2),
]


@pytest.mark.slow(sample=3, check=1)  # a sweep: one case in make check, a sample in make test
@pytest.mark.parametrize("preset,players", HARD_PRESETS)
def test_hard_chooses_and_scores_as_with_the_reference(
    preset: str, players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules = RuleSet.preset(preset, players=players)
    cases = []
    for g in _random_positions(rules, seed=players * 13 + 1, count=60)[2::9]:
        for seat in range(g.n):
            obs = g.observation(seat)
            if _must_act(obs) and len(obs.legal_actions) > 1:
                cases.append(obs)
    cases = cases[:6]
    assert cases

    def run() -> list[tuple[Action | None, tuple[str, int], dict[Action, float]]]:
        out = []
        for k, obs in enumerate(cases):
            p = HardPlayer(seed=k, max_iterations=20)
            choice = p.choose(obs)
            method = p.last_method
            scores = HardPlayer(seed=k, max_iterations=5).evaluate(obs, obs.legal_actions)
            out.append((choice, method, scores))
        return out

    fast = run()
    monkeypatch.setattr(hard_module, "playout", reference_playout)
    assert fast == run()


@pytest.mark.parametrize(
    "rules", [r for r in RULES if r.variant == "none"], ids=lambda r: f"{r.players}p-{r.transfer}"
)
def test_cheap_worlds_equal_worlds_built_from_the_template(rules: RuleSet) -> None:
    """``Worlds`` copies its first world for the later samples: every slot of such a world must
    be what :func:`build_world` (``Game.from_dict``) makes of the same sampled cards."""
    rng = random.Random(rules.players)
    checked = 0
    for g in _random_positions(rules, seed=rules.players + 9, count=40)[::5]:
        seat = rng.randrange(g.n)
        obs = g.observation(seat)
        template = world_template(obs)
        worlds = search.Worlds(obs, template)
        for _ in range(4):
            hands, talon = sample_hands(obs, rng)
            fast = worlds.build(hands, talon)
            slow = build_world(obs, template, hands, talon)
            for name in GameState.__slots__:
                assert getattr(fast, name) == getattr(slow, name), name
            checked += 1
    assert checked


@pytest.mark.slow(sample=4, check=1)  # a sweep: one case in make check, a sample in make test
@pytest.mark.parametrize(
    "rules", RULES, ids=lambda r: f"{r.variant}-{r.players}p-{r.transfer}-{r.teams}"
)
def test_the_solver_tries_normals_move_first(rules: RuleSet) -> None:
    """The endgame solver's move ordering (``search.normal_first``, through ``fastplay`` on the
    plain game) puts first what ``normal`` plays, or the first legal action where it waits:
    the same search tree as asking ``normal_policy`` on a view at every node."""
    for world in _worlds(rules, 12):
        if world.result is not None:
            continue
        seat, acts = next_to_move(world)
        expected = normal_policy(view_of_game(world, seat, acts), random.Random(0))
        solver = search.EndgameSolver(seat)
        got = solver.order(world, seat, acts)
        assert got[0] == (expected if expected is not None else acts[0]), f"{world!r}"
        assert sorted(got) == sorted(acts)
