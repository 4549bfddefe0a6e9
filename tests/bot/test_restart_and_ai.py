"""Restart safety and computer seats."""

from __future__ import annotations

from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import pytest
import simcord

from bot.game.models import AI_DIFFICULTIES
from engine import Action, Observation
from engine.ai import make_player
from tests.bot.conftest import build_world, make_bot
from tests.bot.helpers import (
    acting_seat,
    add_computer,
    assert_no_leak,
    custom_ids,
    first_move_on,
    leave_running,
    message,
    message_text,
    play_out,
    service,
    start_against_computer,
)
from tests.bot.test_play import check_results, start_game
from tests.postgres import fresh_schema

PLAYERS = ["alice", "bob", "carol"]


async def _reference(db: Path) -> tuple[list[str], dict[str, Any], list[tuple[int, str]]]:
    async with simcord.run(make_bot(db)) as env:
        world = build_world(env)
        game_id = await start_game(world, PLAYERS)
        moves = await play_out(env, world["channel"], game_id, [world[n] for n in PLAYERS])
        session = service(env).session(game_id)
        assert session is not None
        results = [(r.seat, r.outcome) for r in await service(env).storage.game_results(game_id)]
        state = session.game.to_dict()
        await env.bot.close()
    return moves, state, results


@pytest.mark.slow(sample=2)  # whole games per case: make test runs a sample, CI all
@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
async def test_restart_mid_game_continues_to_the_same_end(tmp_path: Path, backend: str) -> None:
    """A whole game by clicks with a restart in the middle, on each backend, ends exactly as
    the same game played through without a restart on SQLite."""
    ref_moves, ref_state, ref_results = await _reference(tmp_path / "reference.db")
    async with AsyncExitStack() as stack:
        if backend == "postgresql":
            url = await stack.enter_async_context(fresh_schema())
            await _restart_mid_game(tmp_path / "unused.db", ref_moves, ref_state, ref_results, url)
            assert not (tmp_path / "unused.db").exists()
        else:
            await _restart_mid_game(tmp_path / "restarted.db", ref_moves, ref_state, ref_results)


async def _restart_mid_game(
    db: Path,
    ref_moves: list[str],
    ref_state: dict[str, Any],
    ref_results: list[tuple[int, str]],
    url: str | None = None,
) -> None:
    async with simcord.run(make_bot(db, database_url=url)) as env:
        assert env.bot.storage.dialect == ("sqlite" if url is None else "postgresql")
        world = build_world(env)
        channel = world["channel"]
        actors = [world[n] for n in PLAYERS]
        game_id = await start_game(world, PLAYERS)
        moves = await play_out(env, channel, game_id, actors, stop_after=len(ref_moves) // 2)
        session = service(env).session(game_id)
        assert session is not None and not session.finished
        version = session.version
        table_id = session.message_id or 0
        # The next player opens their hand before the restart ...
        seat = acting_seat(session, range(session.game.n))
        assert seat is not None
        actor = next(a for a in actors if a.id == session.seats[seat].user_id)
        shown = await actor.click(message(channel, table_id), custom_id=f"durak:show:{game_id}")
        assert shown.response is not None
        old_hand = shown.response.message

        await env.bot.close()
        await env.restart_bot(make_bot(db, database_url=url))

        restored = service(env).session(game_id)
        assert restored is not None and restored is not session
        assert restored.version == version
        assert restored.game.to_dict() == session.game.to_dict()
        assert [e.to_json() for e in restored.events] == [e.to_json() for e in session.events]
        assert custom_ids(message(channel, table_id), "durak:show:") == [f"durak:show:{game_id}"]
        # ... and clicks a move on it afterwards: the button still works.
        chosen, clicked = await first_move_on(actor, old_hand)
        assert clicked.response is not None and clicked.response.ephemeral
        assert not clicked.response.content
        assert restored.version == version + 1
        moves.append(f"{seat}:{chosen.split(':', 4)[4]}")
        moves += await play_out(env, channel, game_id, actors, spectator=world["eve"])

        assert moves == ref_moves
        assert restored.game.to_dict() == ref_state
        results = [(r.seat, r.outcome) for r in await service(env).storage.game_results(game_id)]
        assert results == ref_results
        await check_results(env, game_id)
        await env.bot.close()


class SpyFactory:
    """Wraps real computer players and records what they were given."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, Observation]] = []

    def __call__(self, kind: str, seed: int | str) -> Any:
        player = make_player(kind, seed)
        spy = self

        class Spy:
            def choose(self, obs: Observation) -> Action | None:
                spy.seen.append((kind, obs))
                return player.choose(obs)

        return Spy()


@pytest.mark.slow(sample=1)  # a whole game: in make test, not make check
async def test_game_against_a_computer(tmp_path: Path) -> None:
    spy = SpyFactory()
    bot = make_bot(tmp_path / "ai.db")
    bot._ai_factory = spy
    async with simcord.run(bot) as env:
        world = build_world(env)
        channel, alice = world["channel"], world["alice"]
        created = await alice.slash(channel, "durak new", seats=2)
        assert created.response is not None
        lobby_id = created.response.id
        await add_computer(alice, channel, lobby_id)
        assert "(computer, Easy)" in message_text(message(channel, lobby_id))
        await alice.click(message(channel, lobby_id), label="Start")
        game_id = int(custom_ids(message(channel, lobby_id), "durak:show:")[0].split(":")[2])
        session = service(env).session(game_id)
        assert session is not None
        computer = next(s.seat for s in session.seats if s.user_id is None)

        await play_out(env, channel, game_id, [alice], spectator=world["eve"])
        assert session.status == "finished"
        # The computer only ever saw its own seat's observation, and really played.
        assert spy.seen and {obs.seat for _, obs in spy.seen} == {computer}
        assert {kind for kind, _ in spy.seen} == {"easy"}
        assert any(e.seat == computer for e in session.events)
        rows = await service(env).storage.game_results(game_id)
        assert [(r.user_id, r.seat) for r in rows] == [(alice.id, 1 - computer)]
        assert_no_leak(channel, world["eve"], session)
        await env.bot.close()


async def test_computer_waits_for_the_configured_delay(tmp_path: Path) -> None:
    # Longer than simcord's settle timeout, so only advance_time() can fire it: the test
    # controls virtual time instead of sleeping.
    bot = make_bot(tmp_path / "delay.db", ai_delay_seconds=30.0)
    async with simcord.run(bot) as env:
        world = build_world(env)
        channel, alice = world["channel"], world["alice"]
        session = await start_against_computer(channel, alice, env)
        # Make sure the computer is to move: if alice leads, let her lead first.
        if session.seats[session.game.attacker].user_id == alice.id:
            await play_out(env, channel, 1, [alice], stop_after=1)
        computer = next(s.seat for s in session.seats if s.user_id is None)
        assert session.game.legal_actions(computer)
        version = session.version
        await env.advance_time(29.9)
        assert session.version == version
        await env.advance_time(0.2)
        assert session.version > version
        await env.bot.close()


@pytest.mark.slow(sample=1)  # a whole game: in make test, not make check
async def test_leaving_hands_the_seat_to_a_computer_and_counts_a_forfeit(
    simcord_env: simcord.Env, world: Any
) -> None:
    channel = world["channel"]
    game_id = await start_game(world, PLAYERS)
    await play_out(simcord_env, channel, game_id, [world[n] for n in PLAYERS], stop_after=3)
    svc = service(simcord_env)
    session = svc.session(game_id)
    assert session is not None
    left = await leave_running(world["carol"], channel)
    assert (
        left.response is not None
        and f"You left game #{game_id}, a **forfeit**" in left.response.content
    )
    assert await svc.game_for_user(world["carol"].id) is None
    carol_seat = next(s.seat for s in session.seats if s.user_id == world["carol"].id)
    # The computer that takes over plays at the server's default difficulty.
    assert session.seats[carol_seat].left and session.seats[carol_seat].computer == "normal"
    assert "left — the computer plays" in message_text(message(channel, session.message_id or 0))
    # carol can no longer act in it, but may open a new lobby elsewhere.
    shown = await world["carol"].click(
        message(channel, session.message_id or 0), custom_id=f"durak:show:{game_id}"
    )
    assert shown.response is not None and "You left this game" in shown.response.content

    await play_out(simcord_env, channel, game_id, [world["alice"], world["bob"]])
    rows = {r.user_id: r.outcome for r in await svc.storage.game_results(game_id)}
    assert rows[world["carol"].id] == "forfeit"
    assert set(rows) == {world[n].id for n in PLAYERS}


async def test_last_human_leaving_ends_the_game_as_a_forfeit(tmp_path: Path) -> None:
    async with simcord.run(make_bot(tmp_path / "cancel.db")) as env:
        world = build_world(env)
        channel, alice = world["channel"], world["alice"]
        created = await alice.slash(channel, "durak new", seats=3)
        lobby_id = created.response.id
        for difficulty in AI_DIFFICULTIES[:2]:
            await add_computer(alice, channel, lobby_id, difficulty)
        await alice.click(message(channel, lobby_id), label="Start")
        await play_out(env, channel, 1, [alice], stop_after=1)  # a move: the game counts
        await leave_running(alice, channel)
        svc = service(env)
        session = svc.session(1)
        assert session is not None and session.status == "finished"
        row = await svc.storage.get_game(1)
        assert row is not None and row.status == "finished"
        # Recorded, not cancelled: walking out on computers is a forfeit, i.e. being the fool.
        rows = await svc.storage.game_results(1)
        assert [(r.user_id, r.outcome, r.forfeit_reason) for r in rows] == [
            (alice.id, "forfeit", "left")
        ]
        table = message(channel, lobby_id)
        assert custom_ids(table) == []
        assert f"<@{alice.id}> left the game and is the fool (forfeit)" in message_text(table)
        assert "nobody else at the table is a person, so the game ends" in message_text(table)
        # Nothing keeps playing in the background.
        version = session.version
        await env.advance_time(30)
        assert session.version == version
        await env.bot.close()
