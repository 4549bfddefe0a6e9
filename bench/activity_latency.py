"""Click-to-other-screen latency of the Activity: N two-player games at once, every move sent
from one seat's socket and timed until the other seat's socket has the new frame.

The real bot runs on simcord (the simulated Discord the tests use) at its own timing (table
edits coalesced to one a second per game); the Activity's endpoint listens on 127.0.0.1 and
each player is an aiohttp WebSocket client signed in through the local stand-in for Discord
(bot/activity/auth.py ``LocalOAuth``), so a move takes the path of a browser's: JSON over a
real socket, the session token checked, ``GameService.act`` (lock, version check, commit to
SQLite), then one frame per socket of the game. No browser: its drawing is not the bot's
latency, and 100 Chromium pages would measure the machine's memory instead.

Every game plays its moves one after another as fast as the answers come (a seat sends its
next move once the other seat saw the last one), all games at once, so the figures are under
N games' worth of simultaneous moves. Printed: moves, latency p50/p90/p99/max, moves a
second, and the process's CPU time per move (``time.process_time``; it includes the
clients, simcord's handling of the table edits, and the JSON on both ends, so it is an upper
bound of the bot's own share).

    .venv/bin/python bench/activity_latency.py [--games 50] [--moves 40] [--seed 7]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp
import simcord

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.simcord_shortcuts import card_faces_drawn_once
from bot.activity.auth import LocalOAuth
from bot.app import DurakBot
from bot.config import Config
from bot.metrics import ACTIVITY_MOVE_SECONDS

#: Moves a seat prefers among its legal ones, so games run long enough to be measured.
PREFERENCE = ["defend", "attack", "throw", "pass", "take", "transfer", "pile"]


def _config(db: Path) -> Config:
    return Config(
        discord_token=None,
        database_path=db,
        dev_guild_id=None,
        log_level="WARNING",
        ai_delay_seconds=0.0,
        table_edit_interval=1.0,
        default_turn_timer_seconds=0,
        shard_count=1,
        default_threads=False,
    )


class Seat:
    def __init__(self, ws: aiohttp.ClientWebSocketResponse, token: str) -> None:
        self.ws, self.token = ws, token
        self.frame: dict[str, Any] = {}
        self.seen = asyncio.Condition()

    async def listen(self) -> None:
        async for msg in self.ws:
            data = json.loads(msg.data)
            if data.get("op") == "frame":
                async with self.seen:
                    self.frame = data
                    self.seen.notify_all()

    async def until(self, version: int) -> None:
        async with self.seen:
            await self.seen.wait_for(lambda: self.frame.get("version", -1) >= version)


async def _sign_in(http: aiohttp.ClientSession, base: str, user: Any) -> Seat:
    async with http.post(base + "api/token", json={"code": f"local:{user.id}:{user.name}"}) as r:
        token = (await r.json())["session"]
    seat = Seat(await http.ws_connect(base + "ws"), token)
    await seat.ws.send_str(json.dumps({"op": "hello", "token": token}))
    return seat


async def _play(seats: list[Seat], moves: int, latencies: list[float]) -> int:
    made = 0
    while made < moves:
        frame = next((s.frame for s in seats if s.frame.get("moves")), None)
        if frame is None or frame.get("result"):
            break
        mover = next(s for s in seats if s.frame.get("moves"))
        other = next(s for s in seats if s is not mover)
        rank = {k: i for i, k in enumerate(PREFERENCE)}
        move = min(mover.frame["moves"], key=lambda m: rank.get(m["kind"], 99))
        version = mover.frame["version"]
        started = time.perf_counter()
        message = {"op": "act", "token": mover.token, "version": version, "action": move["send"]}
        await mover.ws.send_str(json.dumps(message))
        await asyncio.wait_for(other.until(version + 1), 30)
        latencies.append(time.perf_counter() - started)
        await mover.until(version + 1)
        made += 1
    return made


async def run(games: int, moves: int, seed: int) -> None:
    with tempfile.TemporaryDirectory(prefix="durak-activity-") as tmp:
        bot = DurakBot(_config(Path(tmp) / "durak.db"), sync="global", seed_factory=lambda: seed)
        async with simcord.run(bot, check_errors=False) as env:
            guild = env.create_guild("Bench")
            pairs = []
            for g in range(games):
                channel = guild.create_text_channel(f"t{g}")
                a, b = (guild.add_member(env.create_user(f"p{g}{x}")) for x in "ab")
                created = await a.slash(channel, "durak new", seats=2)
                lobby = created.response.id
                await b.click(next(m for m in channel.history() if m.id == lobby), label="Join")
                await a.click(next(m for m in channel.history() if m.id == lobby), label="Start")
                pairs.append((a, b))
            server = await bot.start_activity(oauth=LocalOAuth(), host="127.0.0.1", port=0)
            base = f"http://127.0.0.1:{server.port}/"
            latencies: list[float] = []
            async with aiohttp.ClientSession() as http:
                tables = [[await _sign_in(http, base, u) for u in pair] for pair in pairs]
                listeners = [asyncio.create_task(s.listen()) for t in tables for s in t]
                for table in tables:
                    for seat in table:
                        await seat.until(0)
                cpu, wall = time.process_time(), time.perf_counter()
                made = await asyncio.gather(*(_play(t, moves, latencies) for t in tables))
                cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
                for task in listeners:
                    task.cancel()
            await bot.close()
    acted = _mean_seconds(ACTIVITY_MOVE_SECONDS)
    total = sum(made)
    ms = sorted(x * 1000 for x in latencies)
    q = statistics.quantiles(ms, n=100, method="inclusive")
    print(f"{games} games at once, {total} Activity moves in {wall:.1f} s ({total / wall:.0f}/s)")
    print(
        f"click to the other seat's frame: p50 {q[49]:.1f} ms, p90 {q[89]:.1f} ms,"
        f" p99 {q[98]:.1f} ms, max {ms[-1]:.1f} ms"
    )
    print(f"process CPU per move (bot, clients and simcord): {cpu / total * 1000:.2f} ms")
    print(f"of which in GameService.act (lock, checks, commit): mean {acted * 1000:.1f} ms")


def _mean_seconds(histogram: Any) -> float:
    samples = {s.name: s.value for m in histogram.collect() for s in m.samples}
    count = samples.get("durak_activity_move_seconds_count", 0.0)
    return samples.get("durak_activity_move_seconds_sum", 0.0) / count if count else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--moves", type=int, default=40, help="moves per game at most")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    with card_faces_drawn_once(True):
        asyncio.run(run(args.games, args.moves, args.seed))


if __name__ == "__main__":
    main()
