"""The Activity over two processes on PostgreSQL (bot/activity/relay.py): the real bot on
simcord runs the game (process A); a second service with its own storage, endpoint and
``LISTEN`` connection on the same database runs no game (process B, another shard's), and
the sockets that reach it still play."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import simcord

from bot.activity.auth import LocalOAuth, SessionSigner
from bot.activity.relay import join_parts, relay_for, split_message
from bot.activity.server import ActivityServer
from bot.game.models import GameSession
from bot.game.service import GameService
from bot.i18n import t
from bot.sharding import ShardScope
from bot.storage import Storage
from bot.storage.notify import MAX_PAYLOAD, Notifier
from tests.activity.sockets import Client, chat_table_shows, serve_activity, three_player_game
from tests.bot.conftest import build_world, make_bot
from tests.postgres import fresh_schema

#: Seconds a relayed message may take here: two trips through PostgreSQL on a machine that
#: may be running eight test suites at once.
RELAYED = 20.0


def test_a_long_message_travels_in_pieces_cut_between_characters() -> None:
    text = '{"t":"frame"}\n' + "Ёжик в тумане ♠ " * 700  # > 8000 bytes, mostly 2-byte letters
    parts = split_message(text, "ab12", 7)
    assert len(parts) > 2 and all(len(p.encode()) <= MAX_PAYLOAD for p in parts)
    store: dict[tuple[str, int], list[str]] = {}
    got = [join_parts(store, *_head_body(p)) for p in parts]
    assert got[:-1] == [None] * (len(parts) - 1) and got[-1] == text and not store
    # a lost piece: that message never completes, and leaves nothing behind
    got = [join_parts(store, *_head_body(p)) for p in parts[:1] + parts[2:]]
    assert got == [None] * (len(parts) - 1) and not store
    assert split_message("short", "ab12", 8) == ["short"]


async def test_notify_postgresql_listens_again_after_its_connection_is_cut() -> None:
    """The server drops the listening connection (a restart, a network cut): it is opened
    again, the owner is told (the relay then asks again for what it follows), and messages
    flow again. Another schema's channels are not heard."""
    import asyncpg

    async with fresh_schema() as url, fresh_schema() as elsewhere:
        heard: list[str] = []
        back = asyncio.Event()
        listener, sender, stranger = Notifier(url), Notifier(url), Notifier(elsewhere)
        await listener.start(["x"], lambda name, payload: heard.append(payload), back.set)
        await sender.start([], lambda name, payload: None)
        await stranger.start([], lambda name, payload: None)
        try:
            stranger.send("x", "not for you")
            sender.send("x", "one")
            await _until(lambda: "one" in heard)
            conn = listener._conn
            assert conn is not None
            killer = await asyncpg.connect(url)
            await killer.execute("SELECT pg_terminate_backend($1)", conn.get_server_pid())
            await killer.close()
            await asyncio.wait_for(back.wait(), 10)
            sender.send("x", "two")
            await _until(lambda: "two" in heard)
            assert heard == ["one", "two"]
        finally:
            for notifier in (listener, sender, stranger):
                await notifier.close()


async def _until(condition: Callable[[], bool]) -> None:
    for _ in range(200):
        if condition():
            return
        await asyncio.sleep(0.025)
    raise AssertionError("not within 5 s")


def _head_body(payload: str) -> tuple[dict[str, Any], str]:
    head, _, body = payload.partition("\n")
    return json.loads(head), body


@pytest.mark.slow(sample=1)  # a game on simcord: in make test, not make check
async def test_relay_postgresql_a_socket_on_another_process_plays(db_path: Path) -> None:
    async with fresh_schema() as url:
        bot = make_bot(db_path, database_url=url)
        async with simcord.run(bot) as env, aiohttp.ClientSession() as http:
            world = build_world(env)
            base_a = await serve_activity(bot)
            assert bot.activity_server is not None and bot.activity_server.hub.relay is not None
            # process B: the same database, none of the game's shard, its own endpoint
            storage_b = await Storage.open(url)
            service_b = GameService(storage_b, shards=ShardScope.of([1], 2))
            server_b = ActivityServer(
                service_b, LocalOAuth(), SessionSigner("b"), "0", "127.0.0.1", 0
            )
            server_b.hub.relay = relay_for(server_b.hub)
            await server_b.start()
            base_b = f"http://127.0.0.1:{server_b.port}/"
            try:
                # a socket on B waits in the channel; the game starts on A; it joins
                early = Client(http, base_b)
                assert (await early.sign_in(world["alice"], world["channel"].id))["op"] == "idle"
                session = await three_player_game(env, world)
                joined = await early.receive(RELAYED)
                assert joined["op"] == "frame" and joined["game_id"] == session.game_id
                assert joined["seat"] == session.seat_of(world["alice"].id)
                await _play_through_b(http, env, world, session, base_a, base_b)
            finally:
                await server_b.stop()
                await storage_b.close()
            await bot.close()


async def _play_through_b(
    http: aiohttp.ClientSession,
    env: simcord.Env,
    world: dict[str, Any],
    session: GameSession,
    base_a: str,
    base_b: str,
) -> None:
    game = session.game
    users = [world[n] for n in ("alice", "bob", "carol")]
    by_seat = {session.seat_of(u.id): u for u in users}
    attacker, defender = by_seat[game.attacker], by_seat[game.defender]
    refusals = {t(f"activity.refused.{k}", "en") for k in ("stale", "malformed", "illegal")}
    on_b, on_a = Client(http, base_b), Client(http, base_a)
    watcher_b = Client(http, base_b)
    first = await on_b.sign_in(
        attacker, timeout=RELAYED
    )  # the frame comes from A, through the database
    assert first["op"] == "frame" and first["game_id"] == session.game_id
    assert first["seat"] == game.attacker
    assert set(first["hand"]) == {str(c) for c in game.observation(game.attacker).hand}
    defending = await on_a.sign_in(defender)
    public = await watcher_b.sign_in(world["eve"], world["channel"].id, RELAYED)
    assert public["seat"] == -1 and public["hand"] == [] and public["moves"] == []
    version = session.version
    hands = [game.hands[s] for s in range(game.n)]

    # forged from B: refused by A as on one process, in the same words; nothing changes
    lead = next(m["send"] for m in first["moves"] if m["kind"] == "attack")
    not_held = defending["hand"][0]
    forged = [
        {"op": "act", "version": version, "action": f"{game.defender} take"},  # other seat
        {"op": "act", "version": version - 1, "action": lead},  # stale
        {"op": "act", "version": version, "action": f"{game.attacker} attack {not_held}"},
    ]
    for bad in forged:
        await on_b.send(bad)
        answer = await on_b.receive(RELAYED)
        assert answer["op"] == "refused" and answer["text"] in refusals, (bad, answer)
        assert (await on_b.receive(RELAYED))["version"] == version  # the true table again
    assert session.version == version
    assert [session.game.hands[s] for s in range(game.n)] == hands

    # a real move from B: applied once, by A; every screen hears it
    await on_b.send({"op": "act", "version": version, "action": lead})
    mine = await on_b.frame(version + 1, RELAYED)
    assert mine["version"] == version + 1 == session.version
    card = mine["table"][0][0]
    assert card not in mine["hand"] and len(mine["table"]) == 1
    seen = await on_a.frame(version + 1)
    assert seen["table"] == mine["table"] and not set(seen["hand"]) & set(mine["hand"])
    watched = await watcher_b.frame(version, RELAYED)  # spectators may be a move behind
    assert watched["hand"] == [] and watched["moves"] == []
    await chat_table_shows(env, world["channel"], session.message_id or 0, card)

    # a move made on A (the defender's socket there) reaches B's socket
    answer = next(m["send"] for m in seen["moves"] if m["kind"] in ("defend", "take"))
    await on_a.send({"op": "act", "version": version + 1, "action": answer})
    after = await on_b.frame(version + 2, RELAYED)
    there = await on_a.frame(version + 2)
    assert after["version"] == version + 2 == session.version
    assert after["table"] == there["table"] and after["table"] != mine["table"]
