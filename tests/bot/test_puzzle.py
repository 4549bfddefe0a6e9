"""``/durak puzzle`` end to end on simcord: solve today's puzzle by its buttons, see the
streak on the profile, a stale button answered, yesterday's solution revealed.

Generating a day's puzzle costs seconds of CPU (bench/puzzle_generation.py), so the test
hands the service a puzzle proved from a quick seed (tests/ai/test_puzzles.py proves the
generator); the service takes it as the puzzle of today and of yesterday.
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from bot.game import puzzles as service_puzzles
from bot.game.errors import ServiceError
from engine.ai.arena import next_to_move
from engine.puzzles import _prove, rules_for, solution_line
from tests.bot.helpers import custom_ids, service

SEED = "t/podkidnoy/0"


def quick_puzzle(day: dt.date) -> Any:
    p = next(_prove(rules_for("podkidnoy"), SEED, day, "podkidnoy"))
    return dataclasses.replace(p, day=day)


async def test_solve_todays_puzzle_by_buttons_and_see_the_streak(
    simcord_env: Any, world: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    svc = service(simcord_env)
    alice, channel = world["alice"], world["channel"]
    today = svc.puzzle_today()
    yesterday = today - dt.timedelta(days=1)
    p = quick_puzzle(today)
    tomorrow = today + dt.timedelta(days=1)
    cache = {d: dataclasses.replace(p, day=d) for d in (yesterday, today, tomorrow)}
    monkeypatch.setattr(service_puzzles, "_cache", cache)
    day = f"{today:%Y%m%d}"

    opened = await alice.slash(channel, "durak puzzle")
    assert opened.ephemeral
    msg = opened.response.message
    assert "Exactly one of your moves" in (msg.embeds[0].description or "")
    assert [a.filename for a in msg.attachments] == ["puzzle.png"]
    assert custom_ids(msg, "durak:pz:")[0] == f"durak:pz:{day}:0:0"

    # the puzzle's line: a click at each of the player's choices, the rest is played by
    # the bot (the defence, and moves the player can make only one way)
    g = p.game()
    clicks = 0
    line = solution_line(p)
    for step, a in enumerate(line):
        mover, acts = next_to_move(g)
        if mover == p.seat and len(acts) > 1:
            clicked = await alice.click(msg, custom_id=f"durak:pz:{day}:{step}:{acts.index(a)}")
            assert clicked.response is not None
            msg = clicked.response.message
            clicks += 1
        g.apply(a)
    text = msg.embeds[0].description or ""
    assert "Solved: your opponent is the fool." in text, text
    assert "Solved days in a row: 1 (best: 1) · solved in all: 1" in text
    assert custom_ids(msg, "durak:pz:") == []  # nothing left to play
    assert clicks == p.depth

    # a button of an earlier step (an older message, a double click) is refused
    with pytest.raises(ServiceError) as refused:
        await svc.puzzle_move(channel.guild.id, alice.id, day, 0, 0)
    assert refused.value.key == "puzzle.error.stale"
    for other_day, key in (
        ("20000101", "puzzle.error.day_over"),
        ("20261399", "puzzle.error.stale"),
    ):
        with pytest.raises(ServiceError) as refused:
            await svc.puzzle_move(channel.guild.id, alice.id, other_day, 0, 0)
        assert refused.value.key == key
    with pytest.raises(ServiceError) as early:
        await svc.puzzle_solution(day)  # today's solution: not before the day is over
    assert early.value.key == "puzzle.error.not_yet"

    revealed = await alice.click(msg, custom_id=f"durak:pzsol:{yesterday:%Y%m%d}")
    assert revealed.ephemeral
    assert (revealed.response.embeds[0].title or "").startswith("Solution of daily puzzle #")

    profile = await alice.slash(channel, "durak profile")
    description = profile.response.embeds[0].description or ""
    assert "Daily puzzles solved: 1 · days in a row: 1 (best: 1)" in description
    attempt = await svc.storage.puzzle_attempt(channel.guild.id, alice.id, today)
    assert attempt is not None and attempt.status == "solved"
    assert attempt.moves == tuple(str(a) for a in line)


async def test_serving_a_day_computes_the_next_in_advance_once(
    simcord_env: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    svc = service(simcord_env)
    computed: list[dt.date] = []

    def fake_daily_puzzle(day: dt.date) -> Any:
        computed.append(day)
        return quick_puzzle(day)

    monkeypatch.setattr(service_puzzles, "daily_puzzle", fake_daily_puzzle)
    monkeypatch.setattr(service_puzzles, "_cache", {})
    monkeypatch.setattr(service_puzzles, "_computing", {})
    svc.puzzle_executor = ThreadPoolExecutor(1)
    today = svc.puzzle_today()
    tomorrow = today + dt.timedelta(days=1)
    first, second = await asyncio.gather(svc.puzzle_of(today), svc.puzzle_of(today))
    assert first is second and first.day == today
    assert svc._puzzle_ahead is not None
    await svc._puzzle_ahead
    assert computed == [today, tomorrow]  # each day once, tomorrow before anyone asks
    assert (await svc.puzzle_of(tomorrow)).day == tomorrow
    assert computed == [today, tomorrow]
    await svc.stop_puzzles()
    assert svc.puzzle_executor is None
