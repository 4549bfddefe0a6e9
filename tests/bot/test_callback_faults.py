"""A whole game while Discord refuses a tenth of the interaction callbacks (500, 503, 429):
every click is still answered, and every move counts (the same game as without faults).

The faults are drawn per callback from a seeded random source, so a run is deterministic:
each click's callback is refused with probability 1/10, and each of its retries again."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
import simcord

import bot.surfaces.callbacks
import bot.surfaces.delivery
from tests.bot.conftest import build_world, make_bot
from tests.bot.helpers import play_out, service
from tests.bot.test_play import start_game

PLAYERS = ["alice", "bob"]
STATUSES = (500, 503, 429)


class FlakyDiscord:
    """Stands in for a player: before each of their clicks, Discord is told to refuse that
    click's callback as many times in a row as the draws say (each 1 in 10)."""

    def __init__(self, actor: Any, env: simcord.Env, rng: random.Random, log: list[int]) -> None:
        self._actor, self._env, self._rng, self._log = actor, env, rng, log

    def __getattr__(self, name: str) -> Any:
        return getattr(self._actor, name)

    def _refuse_some(self) -> None:
        refusals = 0
        while self._rng.random() < 0.1:
            refusals += 1
        if refusals:
            status = self._rng.choice(STATUSES)
            self._log.append(status)
            self._env.inject_error(
                "POST", "/interactions/*/*/callback", status=status, times=refusals
            )

    async def click(self, *args: Any, **kwargs: Any) -> simcord.InteractionResult:
        self._refuse_some()
        result = await self._actor.click(*args, **kwargs)
        assert result.acknowledged, "a click was left unanswered"
        return result

    async def select(self, *args: Any, **kwargs: Any) -> simcord.InteractionResult:
        self._refuse_some()
        result = await self._actor.select(*args, **kwargs)
        assert result.acknowledged, "a choice was left unanswered"
        return result


async def _game(db: Path, faults: int | None) -> tuple[list[str], list[int], Any]:
    """The moves of the reference game (``faults`` None) or of the same game under faults
    drawn from seed ``faults``, the refusals injected, and the final result."""
    injected: list[int] = []
    async with simcord.run(make_bot(db)) as env:
        world = build_world(env)
        game_id = await start_game(world, PLAYERS, deck=24)
        actors = [world[n] for n in PLAYERS]
        if faults is not None:
            rng = random.Random(faults)
            actors = [FlakyDiscord(a, env, rng, injected) for a in actors]
        moves = await play_out(env, world["channel"], game_id, actors)
        session = service(env).session(game_id) or await service(env).ended_session(game_id)
        assert session is not None
        result = session.game.result
        env.backend.faults.clear()
        await env.bot.close()
    return moves, injected, result


#: The reference game's moves and result, played once per test process for every seed.
_reference: list[tuple[list[str], Any]] = []


@pytest.mark.slow(sample=3)  # whole games, one seed per case: make test runs seed 1, CI all
@pytest.mark.parametrize("seed", [1, 2, 3])
async def test_a_tenth_of_the_callbacks_refused_loses_no_click_and_no_move(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    # pauses between tries cost nothing here (simcord would wait them out in real time)
    monkeypatch.setattr(bot.surfaces.callbacks, "PAUSES", (0.0,) * 4)
    monkeypatch.setattr(bot.surfaces.delivery, "PROMPT_BACKOFF_SECONDS", 0.0)
    if not _reference:
        played, _, outcome = await _game(tmp_path / "reference.db", None)
        _reference.append((played, outcome))
    reference, outcome = _reference[0]
    moves, injected, result = await _game(tmp_path / f"faults-{seed}.db", seed)
    assert injected and set(injected) <= set(STATUSES), injected
    assert moves == reference, f"seed {seed}: the game went differently"
    assert result == outcome
