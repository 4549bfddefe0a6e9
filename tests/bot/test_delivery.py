"""Nothing the channel should see is lost: Discord failures on the writes after a committed
change are retried (also across a restart) until delivered or obsolete
(bot/surfaces/delivery.py)."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord

from bot.surfaces.delivery import BACKOFF_MAX_SECONDS, Delivery, Obsolete, backoff_delay
from tests.bot.conftest import build_world, make_bot
from tests.bot.helpers import custom_ids, message, message_text, play_out, service
from tests.bot.test_play import start_game

PLAYERS = ["alice", "bob"]


# --------------------------------------------------------------------------- unit: Delivery


class FakeTransport:
    """Fails each kind as scripted (a list of exceptions, consumed in order), records sends."""

    def __init__(self) -> None:
        self.sent: list[tuple[Any, ...]] = []
        self.fail: dict[str, list[BaseException]] = {}

    def _maybe_fail(self, kind: str) -> None:
        queue = self.fail.get(kind)
        if queue:
            raise queue.pop(0)

    async def deliver_table(self, game_id: int) -> None:
        self._maybe_fail("table")
        self.sent.append(("table", game_id))

    async def deliver_result(self, game_id: int) -> None:
        self._maybe_fail("result")
        self.sent.append(("result", game_id))

    async def deliver_ping(self, game_id: int, seat: int, kind: str, version: int) -> None:
        self._maybe_fail("ping")
        self.sent.append(("ping", game_id, seat, kind, version))

    async def deliver_reminder(
        self, game_id: int, seat: int, version: int, deadline: float
    ) -> None:
        self._maybe_fail("remind")
        self.sent.append(("remind", game_id, seat, version))


class _Response:
    def __init__(self, status: int) -> None:
        self.status = status
        self.reason = "injected"


def http_error(status: int) -> discord.HTTPException:
    if status >= 500:
        return discord.DiscordServerError(_Response(status), "injected")  # type: ignore[arg-type]
    return discord.HTTPException(_Response(status), "injected")  # type: ignore[arg-type]


class Sleeper:
    """Records requested delays; the waits themselves are instant."""

    def __init__(self) -> None:
        self.delays: list[float] = []

    async def __call__(self, delay: float) -> None:
        self.delays.append(delay)
        await asyncio.sleep(0)


async def _drain(delivery: Delivery) -> None:
    for _ in range(200):
        await asyncio.sleep(0)
        if not delivery._games:
            return
    raise AssertionError(f"delivery did not finish: {delivery._games}")


def test_backoff_doubles_up_to_a_cap_and_honours_retry_after() -> None:
    assert [backoff_delay(n) for n in (1, 2, 3, 4)] == [1.0, 2.0, 4.0, 8.0]
    assert backoff_delay(40) == BACKOFF_MAX_SECONDS
    assert backoff_delay(1, retry_after=7.5) == 7.5


async def test_transient_failures_are_retried_with_backoff_in_order() -> None:
    transport, sleeper = FakeTransport(), Sleeper()
    transport.fail["table"] = [http_error(503), http_error(502)]
    transport.fail["result"] = [OSError("connection reset")]
    delivery = Delivery(transport, lambda: None, sleep=sleeper)
    delivery.owe_result(1, 9)
    delivery.owe_table(1, 9)
    await _drain(delivery)
    assert transport.sent == [("table", 1), ("result", 1)]
    # two failed tables, then one failed result: the backoff grows per game, then resets
    assert sleeper.delays == [1.0, 2.0, 1.0]


async def test_permanent_failures_are_dropped_not_retried(caplog: pytest.LogCaptureFixture) -> None:
    transport, sleeper = FakeTransport(), Sleeper()
    transport.fail["ping"] = [http_error(403)]
    delivery = Delivery(transport, lambda: None, sleep=sleeper)
    delivery.owe_ping(1, 0, "defend", 4)
    delivery.owe_table(1, 4)
    with caplog.at_level(logging.WARNING, logger="bot.surfaces.delivery"):
        await _drain(delivery)
    assert transport.sent == [("table", 1)]
    assert sleeper.delays == []
    assert [r.exc_info for r in caplog.records] == [None]  # one line, no traceback


async def test_a_newer_obligation_supersedes_an_older_one() -> None:
    transport, sleeper = FakeTransport(), Sleeper()
    transport.fail["ping"] = [http_error(503)]
    delivery = Delivery(transport, lambda: None, sleep=sleeper)
    delivery.owe_ping(1, 0, "defend", 4)
    await asyncio.sleep(0)  # the first attempt fails; the worker backs off
    delivery.owe_ping(1, 1, "lead", 7)
    await _drain(delivery)
    assert transport.sent == [("ping", 1, 1, "lead", 7)]


async def test_obsolete_obligations_are_dropped() -> None:
    transport, sleeper = FakeTransport(), Sleeper()
    transport.fail["remind"] = [Obsolete()]
    delivery = Delivery(transport, lambda: None, sleep=sleeper)
    delivery.owe_reminder(1, 0, 3, 100.0)
    await _drain(delivery)
    assert transport.sent == [] and sleeper.delays == []
    assert delivery.pending(1) == []


# --------------------------------------------------------------------------- simcord


@pytest.fixture
def slow_backoff(monkeypatch: pytest.MonkeyPatch) -> None:
    """Retries wait longer than simcord's settle timeout, so they happen only when the test
    advances the virtual clock (a shorter wait would be waited out in real time)."""
    monkeypatch.setattr("bot.surfaces.delivery.BACKOFF_SECONDS", 10.0)


async def _moves_to_the_end(db: Path) -> int:
    """How many clicks the reference game takes (the same seed and clicks every time)."""
    async with simcord.run(make_bot(db)) as env:
        world = build_world(env)
        game_id = await start_game(world, PLAYERS, deck=24)
        moves = await play_out(env, world["channel"], game_id, [world[n] for n in PLAYERS])
        await env.bot.close()
    return len(moves)


def _fail_channel_writes(env: simcord.Env, channel_id: int, status: int = 503) -> None:
    """Every message post or edit in the channel fails until the faults are cleared."""
    env.inject_error("PATCH", f"/channels/{channel_id}/messages/*", status=status, times=None)
    env.inject_error("POST", f"/channels/{channel_id}/messages", status=status, times=None)


async def _finish_under_faults(env: simcord.Env, total: int) -> tuple[dict[str, Any], int, int]:
    """Play to one move before the end (of ``total``), break the channel writes, make the
    final move."""
    world = build_world(env)
    channel = world["channel"]
    actors = [world[n] for n in PLAYERS]
    game_id = await start_game(world, PLAYERS, deck=24)
    await play_out(env, channel, game_id, actors, stop_after=total - 1)
    session = service(env).session(game_id)
    assert session is not None and not session.finished and session.message_id is not None
    _fail_channel_writes(env, channel.id)
    await play_out(env, channel, game_id, actors)
    assert session.finished
    return world, game_id, session.message_id


def _announced(channel: Any) -> list[discord.Message]:
    return [m for m in channel.history() if not m.flags.ephemeral and "fool" in m.content.lower()]


@pytest.mark.slow(sample=1)  # a whole game: in make test, not make check
@pytest.mark.usefixtures("slow_backoff")
async def test_final_writes_failing_with_503_are_delivered_later(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    db = tmp_path / "durak.db"
    total = await _moves_to_the_end(tmp_path / "reference.db")
    async with simcord.run(make_bot(db)) as env:
        with caplog.at_level(logging.WARNING, logger="bot.surfaces.delivery"):
            world, game_id, table_id = await _finish_under_faults(env, total)
        channel = world["channel"]
        # Discord refused: the table still shows the running game, no result yet ...
        assert custom_ids(message(channel, table_id), "durak:show:") == [f"durak:show:{game_id}"]
        assert _announced(channel) == []
        delivery = env.bot.publisher.delivery
        assert delivery.pending(game_id) == ["table", "result"]
        owed = {(r.game_id, r.kind) for r in await service(env).storage.outbox_pending()}
        assert owed == {(game_id, "table"), (game_id, "result")}
        # ... each failure is one log line, not a traceback
        assert caplog.records and all(r.exc_info is None for r in caplog.records)
        # Discord recovers: the next retry (after at most the backoff cap) delivers both.
        env.backend.faults.clear()
        await env.advance_time(BACKOFF_MAX_SECONDS)
        assert custom_ids(message(channel, table_id)) == []
        assert "Show my hand" not in message_text(message(channel, table_id))
        assert len(_announced(channel)) == 1
        assert delivery.pending(game_id) == []
        assert await service(env).storage.outbox_pending() == []
        await env.bot.close()


@pytest.mark.slow(sample=1)  # a whole game and a restart: in make test, not make check
@pytest.mark.usefixtures("slow_backoff")
async def test_final_writes_owed_when_the_bot_restarts_are_delivered_after_it(
    tmp_path: Path,
) -> None:
    db = tmp_path / "durak.db"
    total = await _moves_to_the_end(tmp_path / "reference.db")
    async with simcord.run(make_bot(db)) as env:
        world, game_id, table_id = await _finish_under_faults(env, total)
        channel = world["channel"]
        await env.bot.close()
        # Still failing after the restart: nothing is lost, nothing delivered yet.
        await env.restart_bot(make_bot(db))
        assert custom_ids(message(channel, table_id), "durak:show:") == [f"durak:show:{game_id}"]
        assert len(await service(env).storage.outbox_pending()) == 2
        # Then a second restart with Discord healthy: both go out at once.
        await env.bot.close()
        env.backend.faults.clear()
        await env.restart_bot(make_bot(db))
        assert custom_ids(message(channel, table_id)) == []
        (result,) = _announced(channel)
        assert "fool" in result.content.lower()
        assert await service(env).storage.outbox_pending() == []
        # A further restart owes nothing: no second announcement.
        await env.bot.close()
        await env.restart_bot(make_bot(db))
        assert len(_announced(channel)) == 1
        await env.bot.close()


@pytest.mark.usefixtures("slow_backoff")
async def test_a_ping_whose_turn_passed_is_not_delivered(tmp_path: Path) -> None:
    async with simcord.run(make_bot(tmp_path / "durak.db")) as env:
        world = build_world(env)
        channel = world["channel"]
        actors = [world[n] for n in PLAYERS]
        game_id = await start_game(world, PLAYERS, deck=24)
        await env.advance_time(1)
        pings_before = len([m for m in channel.history() if m.content.startswith("<@")])
        env.inject_error("POST", f"/channels/{channel.id}/messages", status=503, times=None)
        # Moves go on while pings fail; every refused ping's turn passes.
        await play_out(env, channel, game_id, actors, stop_after=6)
        env.backend.faults.clear()
        await env.advance_time(BACKOFF_MAX_SECONDS)
        session = service(env).session(game_id)
        assert session is not None
        pings = [m for m in channel.history() if m.content.startswith("<@")][pings_before:]
        # At most the current turn's ping arrives late, never one for a turn that passed.
        assert len(pings) <= 1
        if pings:
            waited = (
                session.game.attacker if session.game.phase == "lead" else session.game.defender
            )
            assert f"<@{session.seats[waited].user_id}>" in pings[0].content
        await env.bot.close()


def _pings(channel: Any) -> list[discord.Message]:
    return [m for m in channel.history() if not m.flags.ephemeral and m.content.startswith("<@")]


@pytest.mark.usefixtures("slow_backoff")
def everyone_away(env: simcord.Env) -> None:
    """Ping as if nobody were watching the table (the quiet channel's policy, bot.surfaces.pings,
    would otherwise skip players who just clicked or hold a live hand)."""
    env.bot.pings.watch_idle = 0
    env.bot.pings.watch_live = 0


@pytest.mark.slow(sample=1)  # a restart mid-game: in make test, not make check
async def test_a_ping_owed_at_a_restart_is_delivered_after_it_once(tmp_path: Path) -> None:
    db = tmp_path / "durak.db"
    async with simcord.run(make_bot(db)) as env:
        world = build_world(env)
        channel = world["channel"]
        everyone_away(env)
        env.inject_error("POST", f"/channels/{channel.id}/messages", status=503, times=None)
        game_id = await start_game(world, PLAYERS)
        session = service(env).session(game_id)
        assert session is not None and session.owed_ping is not None
        seat = session.owed_ping[0]
        assert _pings(channel) == []  # the lead ping was refused
        await env.bot.close()
        env.backend.faults.clear()
        await env.restart_bot(make_bot(db))
        everyone_away(env)
        (ping,) = _pings(channel)
        assert f"<@{session.seats[seat].user_id}>" in ping.content
        restored = service(env).session(game_id)
        assert restored is not None and restored.owed_ping is None
        # Delivered and then a move stored that: the next restart owes nothing.
        await play_out(env, channel, game_id, [world[n] for n in PLAYERS], stop_after=1)
        # One turn ping is visible at a time (the quiet channel replaces the previous one).
        visible = [p.content for p in _pings(channel)]
        assert len(visible) == 1
        posts = sum(1 for r in env.http_requests if r.method == "POST")
        await env.bot.close()
        await env.restart_bot(make_bot(db))
        assert [p.content for p in _pings(channel)] == visible  # nothing owed, nothing re-sent
        assert sum(1 for r in env.http_requests if r.method == "POST") == posts
        await env.bot.close()


# --------------------------------------------------------------------------- prompt_retry


def _http_error(status: int) -> discord.HTTPException:
    response = type("R", (), {"status": status, "reason": "x"})()
    return discord.HTTPException(response, "refused")  # type: ignore[arg-type]


async def test_prompt_retry_tries_a_transient_failure_again_and_stops_at_a_permanent_one() -> None:
    from bot.surfaces.delivery import prompt_retry

    sleeper = Sleeper()
    calls: list[int] = []

    async def flaky() -> str:
        calls.append(1)
        if len(calls) < 3:
            raise _http_error(503)
        return "ok"

    assert await prompt_retry(flaky, sleep=sleeper) == "ok"
    assert len(calls) == 3 and sleeper.delays == [0.25, 0.5]

    async def gone() -> str:
        calls.append(1)
        raise _http_error(404)

    calls.clear()
    with pytest.raises(discord.HTTPException):
        await prompt_retry(gone, sleep=sleeper)
    assert len(calls) == 1  # a 404 is final: no retry can fix it


async def test_prompt_retry_gives_up_rather_than_pass_its_deadline() -> None:
    from bot.surfaces.delivery import prompt_retry

    sleeper = Sleeper()

    async def down() -> str:
        raise _http_error(503)

    loop = asyncio.get_running_loop()
    with pytest.raises(discord.HTTPException):
        await prompt_retry(down, deadline=loop.time() + 0.1, sleep=sleeper)
    assert sleeper.delays == []  # the first pause would already end past the deadline


async def test_a_table_edit_knows_when_a_newer_one_is_owed() -> None:
    """What the picture thread asks before drawing a queued table edit's picture."""
    seen: list[tuple[bool, bool]] = []

    class Transport(FakeTransport):
        async def deliver_table(self, game_id: int) -> None:
            if not seen:  # while version 1 is being delivered, version 2 becomes owed
                before = delivery.owes_newer_table(game_id, 1)
                delivery.owe_table(game_id, 2)
                seen.append((before, delivery.owes_newer_table(game_id, 1)))
            else:
                seen.append((delivery.owes_newer_table(game_id, 2), False))
            await super().deliver_table(game_id)

    delivery = Delivery(Transport(), lambda: None, sleep=Sleeper())
    assert not delivery.owes_newer_table(7, 0)
    delivery.owe_table(7, 1)
    while delivery.owed():
        await asyncio.sleep(0)
    assert seen == [(False, True), (False, False)]
