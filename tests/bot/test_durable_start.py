"""A 503 at the start of a game does not lose the table (issue 17 §5).

With threads on, ``/durak new`` answers with a public "… is opening a Durak table…" notice,
starts a thread from it and posts the lobby there. When Discord refused the thread or the
lobby post once, no lobby appeared, the notice stayed for good and the host was told
nothing. Now each write is tried again at once (a single refusal costs nothing), and a
refusal that lasts leaves nothing half-made: the lobby is cancelled, a thread without its
table deleted, the notice removed, the host told privately. Faults come from simcord.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
import simcord

import bot.surfaces.delivery
import cogs.lobby
from bot.app import DurakBot
from tests.bot.conftest import make_bot
from tests.bot.helpers import message, service

THREAD_ROUTE = "/channels/*/messages/*/threads"
POST_ROUTE = "/channels/*/messages"


@pytest.fixture
def simcord_bot(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> DurakBot:
    # the retries pause without waiting in real time (simcord waits out short sleeps)
    monkeypatch.setattr(bot.surfaces.delivery, "PROMPT_BACKOFF_SECONDS", 0.0)
    return make_bot(db_path, default_threads=True)


def _notice_texts(channel: Any) -> list[str]:
    """The bot's public lines in the channel (not the system line of a new thread)."""
    return [
        m.content or ""
        for m in channel.history()
        if not m.flags.ephemeral and "Durak table" in (m.content or "")
    ]


@pytest.mark.parametrize("route", [THREAD_ROUTE, POST_ROUTE])
async def test_one_refusal_at_the_start_costs_nothing(
    simcord_env: simcord.Env, world: Any, route: str
) -> None:
    channel, alice, bob = world["channel"], world["alice"], world["bob"]
    simcord_env.inject_error("POST", route, status=503, times=1)
    created = await alice.slash(channel, "durak new", seats=2)
    assert not created.ephemeral
    (thread,) = channel.threads
    lobby = thread.history()[-1]
    assert lobby.embeds and "Join" in str(lobby.components)
    (notice,) = _notice_texts(channel)
    assert "opened a Durak table" in notice and f"<#{thread.id}>" in notice
    # the table works: bob joins, alice starts
    await bob.click(message(thread, lobby.id), label="Join")
    await alice.click(message(thread, lobby.id), label="Start")
    session = service(simcord_env).session(1)
    assert session is not None and session.status == "running"
    assert [r for r in simcord_env.http_requests if r.method == "POST" and "threads" in r.path]


@pytest.mark.parametrize("route", [THREAD_ROUTE, POST_ROUTE])
async def test_a_lasting_refusal_cleans_up_and_tells_the_host(
    simcord_env: simcord.Env, world: Any, route: str
) -> None:
    channel, alice = world["channel"], world["alice"]
    simcord_env.inject_error("POST", route, status=503, times=None)
    created = await alice.slash(channel, "durak new", seats=2)
    simcord_env.backend.faults.clear()
    # the public notice is gone, no thread is left without its table
    assert not [t for t in _notice_texts(channel) if "opening a Durak table" in t]
    assert not [t for t in channel.threads if t.history()]
    # the host was told, privately, and nothing was kept
    told = [f for f in created.followups if f.ephemeral]
    assert told and "could not open the table" in told[0].content
    lobbies = await service(simcord_env).storage.load_lobbies()
    assert not lobbies
    # the host can open a table again at once
    again = await alice.slash(channel, "durak new", seats=2)
    assert not again.ephemeral
    assert [t for t in channel.threads if t.history()]


async def test_a_bug_while_opening_cleans_up_like_a_refusal(
    simcord_env: simcord.Env, world: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    channel, alice = world["channel"], world["alice"]

    async def broken(*_args: Any) -> Any:
        raise RuntimeError("a bug in drawing the lobby")

    monkeypatch.setattr(cogs.lobby, "_send_lobby", broken)
    created = await alice.slash(channel, "durak new", seats=2)
    assert not [t for t in _notice_texts(channel) if "opening a Durak table" in t]
    told = [f for f in created.followups if f.ephemeral]
    assert told and "could not open the table" in told[0].content
    assert not await service(simcord_env).storage.load_lobbies()


async def test_a_restart_while_opening_corrects_the_notice(
    simcord_env: simcord.Env, world: Any, db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The process stops after the public notice and before the table is up (a crash, a
    deploy): the restarted bot cancels the lobby nobody can reach and says so in the notice,
    which would otherwise say "… is opening a Durak table…" for good."""
    channel, alice = world["channel"], world["alice"]

    async def stopped(*_args: Any) -> Any:
        raise asyncio.CancelledError  # what a shutdown does to a command in flight

    monkeypatch.setattr(cogs.lobby, "_send_lobby", stopped)
    await alice.slash(channel, "durak new", seats=2)
    assert [t for t in _notice_texts(channel) if "opening a Durak table" in t]
    (lobby,) = await service(simcord_env).storage.load_lobbies()
    assert lobby.table_message_id is None
    await simcord_env.bot.close()
    monkeypatch.undo()
    await simcord_env.restart_bot(make_bot(db_path, default_threads=True))
    await simcord_env.advance_time(1)
    (notice,) = _notice_texts(channel)
    assert "could not be opened: the bot restarted" in notice and "/durak new" in notice
    svc = service(simcord_env)
    assert not await svc.storage.load_lobbies()
    assert await svc.game_for_user(alice.id) is None
    again = await alice.slash(channel, "durak new", seats=2)
    assert not again.ephemeral
