"""Every computer player keeps the contract of ``engine.ai``: legal moves only, never a stalling
``None``, reproducible under a seed, and whole games finish under every preset."""

from __future__ import annotations

import random

import pytest

from engine import PRESETS, Game, RuleError, RuleSet
from engine.actions import ActionKind
from engine.ai import PLAYER_KINDS, make_player
from engine.ai.arena import play_game
from engine.observation import Observation

FAST_KINDS = [k for k in PLAYER_KINDS if k != "hard"]


def _rule_sets() -> list[RuleSet]:
    out = []
    for base in PRESETS.values():
        counts = [base.players] if base.teams != "none" else [2, 3, 4, 5, 6]
        for n in counts:
            try:  # every count the rules allow (Severnyi needs a talon, double-trump 2-4 ...)
                out.append(base.replace(players=n) if n != base.players else base)
            except RuleError:
                continue
    return out


RULE_SETS = _rule_sets()


def _must_act(obs: Observation) -> bool:
    kinds = {a.kind for a in obs.legal_actions}
    if not obs.legal_actions:
        return False
    if obs.phase == "lead":
        return obs.seat == obs.attacker
    if obs.seat == obs.defender and not obs.taking and any(d is None for _, d in obs.table):
        return True
    return ActionKind.PASS in kinds


def _random_positions(rules: RuleSet, seed: int, count: int) -> list[Game]:
    """Positions reached by random play: varied, and reachable (so internally consistent)."""
    rng = random.Random(seed)
    g = Game.new(rules, seed)
    out = []
    while g.result is None and len(out) < count:
        out.append(g.copy())
        acts = g.all_legal_actions()
        g.apply(acts[rng.randrange(len(acts))])
    return out


@pytest.mark.slow
@pytest.mark.parametrize("kind", FAST_KINDS)
@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: f"{r.players}p-{r.transfer}-{r.teams}")
def test_only_legal_moves_and_never_stalls(kind: str, rules: RuleSet) -> None:
    player = make_player(kind, seed=7)
    for g in _random_positions(rules, seed=rules.players, count=60):
        for seat in range(g.n):
            obs = g.observation(seat)
            choice = player.choose(obs)
            if choice is None:
                assert not _must_act(obs), f"{kind} waited when it had to act: {obs}"
            else:
                assert choice in obs.legal_actions


@pytest.mark.parametrize("kind", FAST_KINDS)
def test_same_seed_same_choices(kind: str) -> None:
    rules = RuleSet.preset("perevodnoy", players=3)
    positions = _random_positions(rules, seed=3, count=80)
    runs = []
    for _ in range(2):
        p = make_player(kind, seed="abc")
        runs.append([p.choose(g.observation(s)) for g in positions for s in range(g.n)])
    assert runs[0] == runs[1]


@pytest.mark.slow
@pytest.mark.parametrize("kind", FAST_KINDS)
@pytest.mark.parametrize("preset", list(PRESETS))
def test_arena_games_finish(kind: str, preset: str) -> None:
    rules = RuleSet.preset(preset)
    for seed in range(3):
        g = Game.new(rules, seed)
        players = [make_player(kind, seed=seed * 10 + s) for s in range(g.n)]
        result = play_game(g, players)
        assert result is g.result and result.kind in ("fool", "team", "draw")
        g.check_invariants()


def test_arena_games_are_reproducible() -> None:
    rules = RuleSet.preset("podkidnoy", players=4)
    results = []
    for _ in range(2):
        g = Game.new(rules, 11)
        kinds = ["random", "easy", "normal", "random"]
        players = [make_player(k, seed=s) for s, k in enumerate(kinds)]
        play_game(g, players)
        results.append(g.to_dict())
    assert results[0] == results[1]


def test_unknown_kind_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown player kind"):
        make_player("grandmaster")


#: ``test_normal_beats_random``'s deals, in blocks: ``make test`` plays the first block, a full
#: sweep all of them. Each block is a test of its own because normal's exact end (its search
#: once nothing is hidden, which against a random player's big hands often runs to its node
#: cap) makes these games cost about a quarter of a CPU second each.
BLOCKS, BLOCK_DEALS = 8, 25


@pytest.mark.slow(sample=BLOCKS)  # self-play games: one block in make test, all in a full sweep
@pytest.mark.parametrize("block", range(BLOCKS))
def test_normal_beats_random(block: int) -> None:
    """Over seat-alternated 2-player deals, normal is the fool far less than half the time."""
    fools = 0
    for i in range(block * BLOCK_DEALS, (block + 1) * BLOCK_DEALS):
        rules = RuleSet.preset("perevodnoy" if i % 2 else "podkidnoy")
        g = Game.new(rules, seed=1000 + i)
        normal_seat = i % 2
        players = [make_player("random", seed=i), make_player("random", seed=i)]
        players[normal_seat] = make_player("normal", seed=i)
        result = play_game(g, players)
        fools += result.fool == normal_seat
    assert fools < 0.35 * BLOCK_DEALS
