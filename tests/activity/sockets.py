"""Helpers: a game of three humans on simcord with the Activity served, and a socket client."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import aiohttp
import simcord

from bot.activity.auth import LocalOAuth
from bot.app import DurakBot
from bot.game.models import GameSession
from engine import Card
from tests.bot.helpers import message, message_text, service


async def three_player_game(env: simcord.Env, world: dict[str, Any]) -> GameSession:
    """alice hosts a 24-card game for three (a short one); bob and carol join; it starts."""
    channel, alice = world["channel"], world["alice"]
    created = await alice.slash(channel, "durak new", seats=3, deck=24)
    lobby = created.response.id
    for name in ("bob", "carol"):
        await world[name].click(message(channel, lobby), label="Join")
    await alice.click(message(channel, lobby), label="Start")
    sessions = service(env).running_sessions()
    assert len(sessions) == 1
    return sessions[0]


async def serve_activity(bot: DurakBot) -> str:
    """The Activity on an ephemeral port, signing in through the local stand-in for Discord."""
    server = await bot.start_activity(oauth=LocalOAuth(), host="127.0.0.1", port=0)
    return f"http://127.0.0.1:{server.port}/"


class Client:
    """One browser's socket, without the browser."""

    def __init__(self, http: aiohttp.ClientSession, base: str) -> None:
        self.http, self.base = http, base
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.token = ""

    async def sign_in(
        self, user: Any, channel_id: int | None = None, timeout: float = 5.0
    ) -> dict[str, Any]:
        code = f"local:{user.id}:{user.name}"
        async with self.http.post(self.base + "api/token", json={"code": code}) as response:
            assert response.status == 200
            self.token = (await response.json())["session"]
        self.ws = await self.http.ws_connect(self.base + "ws")
        await self.send({"op": "hello", "channel_id": str(channel_id) if channel_id else None})
        return await self.receive(timeout)

    async def send(self, message: dict[str, Any], token: str | None = None) -> None:
        assert self.ws is not None
        await self.ws.send_str(
            json.dumps({"token": self.token if token is None else token} | message)
        )

    async def receive(self, timeout: float = 5.0) -> dict[str, Any]:
        assert self.ws is not None
        msg = await asyncio.wait_for(self.ws.receive(), timeout)
        if msg.type is not aiohttp.WSMsgType.TEXT:
            return {"op": "closed"}
        data: dict[str, Any] = json.loads(msg.data)
        return data

    async def frame(self, version: int, timeout: float = 5.0) -> dict[str, Any]:
        """The next frame of at least ``version`` (older ones, already in flight, skipped)."""
        while True:
            data = await self.receive(timeout)
            if data["op"] == "frame" and data["version"] >= version:
                return data


async def chat_table_shows(env: simcord.Env, channel: Any, message_id: int, card: str) -> Any:
    """The table message once it shows ``card`` attacked (``A♣ ←``), within a few seconds.

    The move came through the Activity's socket, not a simcord interaction, so simcord has no
    click to settle after: the table edit that follows runs in real time, and is waited for."""
    wanted = f"{Card.parse(card).pretty()} ←"
    for _ in range(100):
        await env.settle()
        table = message(channel, message_id)
        if wanted in message_text(table):
            return table
        await asyncio.sleep(0.05)
    raise AssertionError(f"the chat table never showed {wanted}:\n{message_text(table)}")
