"""Whole games played through button clicks, with hidden-information and result checks."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import simcord

from bot.storage import Storage
from tests.bot.helpers import (
    custom_ids,
    message,
    message_text,
    play_out,
    service,
)


async def start_game(world: dict[str, Any], players: list[str], **options: Any) -> int:
    channel = world["channel"]
    host = world[players[0]]
    created = await host.slash(channel, "durak new", seats=len(players), **options)
    assert created.response is not None
    lobby_id = created.response.id
    for name in players[1:]:
        joined = await world[name].click(message(channel, lobby_id), label="Join")
        assert joined.acknowledged and not joined.ephemeral
    await host.click(message(channel, lobby_id), label="Start")
    game_id = int(custom_ids(message(channel, lobby_id), "durak:show:")[0].split(":")[2])
    return game_id


def expected_outcome(result: Any, seat: int) -> str:
    if result.kind == "draw":
        return "draw"
    if result.kind == "fool":
        return "fool" if seat == result.fool else "win"
    if seat in result.losers:
        return "fool" if seat == result.fool else "lost_team"
    return "win"


async def check_results(env: simcord.Env, game_id: int) -> None:
    session = service(env).session(game_id)
    assert session is not None and session.status == "finished"
    result = session.game.result
    assert result is not None
    storage: Storage = service(env).storage
    rows = await storage.game_results(game_id)
    assert [(r.seat, r.user_id, r.outcome) for r in rows] == [
        (s.seat, s.user_id, expected_outcome(result, s.seat)) for s in session.seats
    ]
    row = await storage.get_game(game_id)
    assert row is not None and row.status == "finished" and row.version == session.version
    for s in session.seats:
        assert s.user_id is not None
        assert await storage.user_active_game(s.user_id) is None


async def test_two_player_game_by_clicks(simcord_env: simcord.Env, world: Any) -> None:
    channel = world["channel"]
    game_id = await start_game(world, ["alice", "bob"])
    moves = await play_out(
        simcord_env, channel, game_id, [world["alice"], world["bob"]], spectator=world["eve"]
    )
    assert len(moves) > 10
    await check_results(simcord_env, game_id)
    session = service(simcord_env).session(game_id)
    assert session is not None
    # The public table shows the end and no longer offers the hand button; the result is
    # announced in a separate message naming the fool (or the draw).
    table = message(channel, session.message_id or 0)
    assert custom_ids(table) == [] and "Result" in message_text(table)
    last = next(
        m
        for m in reversed(channel.history())
        if "is the fool" in (m.content or "") or "draw" in (m.content or "")
    )
    # The game is over, so the announcement shows the cards left in every hand, and says the
    # verdict once (no "Game over" twice, no "First out:" list).
    g = session.game
    for seat in range(g.n):
        for card in g.hand(seat):
            assert card.pretty() in last.content
    assert last.content.count("is the fool") + last.content.count("draw") == 1
    assert "Game over" not in message_text(table) and "First out" not in last.content
    # Every button is a DynamicItem routed by its custom id, so no hand keeps a view alive:
    # discord.py would give each ephemeral hand a 15-minute timeout task otherwise.
    timers = [t for t in asyncio.all_tasks() if "timeout_task_impl" in t.get_coro().__qualname__]
    assert timers == []


@pytest.mark.slow(sample=1)  # a whole game: in make test, not make check
async def test_four_player_game_by_clicks(simcord_env: simcord.Env, world: Any) -> None:
    names = ["alice", "bob", "carol", "dave"]
    game_id = await start_game(world, names, mode="podkidnoy")
    session = service(simcord_env).session(game_id)
    assert session is not None and session.game.n == 4
    moves = await play_out(
        simcord_env,
        world["channel"],
        game_id,
        [world[n] for n in names],
        spectator=world["eve"],
    )
    assert len(moves) > 20
    # Co-attackers threw in at some point: the table saw moves from more than two seats.
    assert len({m.split(":")[0] for m in moves}) >= 3
    await check_results(simcord_env, game_id)


async def test_pings_only_when_the_turn_becomes_yours(simcord_env: simcord.Env, world: Any) -> None:
    channel = world["channel"]
    # Whoever has no live hand counts as away at once (bot.surfaces.pings skips players who are
    # watching; tests/bot/test_live_hands.py covers that).
    simcord_env.bot.pings.watch_idle = 0
    game_id = await start_game(world, ["alice", "bob"])
    svc = service(simcord_env)
    session = svc.session(game_id)
    assert session is not None
    pings_before = [m for m in channel.history() if "<@" in (m.content or "")]
    await play_out(simcord_env, channel, game_id, [world["alice"], world["bob"]], stop_after=1)
    # The lead created an attack: one new ping, for the defender, and the leader's ping is
    # gone (a game shows at most one ping; the leader answered theirs by playing).
    pings = [m for m in channel.history() if "<@" in (m.content or "")]
    assert len(pings_before) == 1 and len(pings) == 1 and pings[0].id != pings_before[0].id
    defender = session.seats[session.game.defender]
    assert f"<@{defender.user_id}>" in pings[-1].content and "defend" in pings[-1].content
