"""Click-to-other-screen latency of the Activity: N two-player games at once, every move sent
from one seat's socket and timed until the other seat's socket has the new frame; and the
bot's CPU per Activity move.

The real bot runs on simcord (the simulated Discord the tests use) at its own timing (table
edits coalesced to one a second per game); the Activity's endpoint listens on 127.0.0.1 and
each player is an aiohttp WebSocket client signed in through the local stand-in for Discord
(bot/activity/auth.py ``LocalOAuth``), so a move takes the path of a browser's: JSON over a
real socket, the session token checked, ``GameService.act`` (lock, version check, commit),
then one frame per socket of the game. No browser: its drawing is not the bot's latency,
and 100 Chromium pages would measure the machine's memory instead.

The players run in a process of their own (``--role players``), so the bot's process CPU
(``time.process_time`` over the moves) is the bot's and simcord's, not the clients' JSON
and sockets; simcord stands in for Discord's side of every table edit, so its share is
included (an upper bound of the bot's own). Every game plays its moves one after another
(a seat moves once the other seat saw the last move), all games at once; the first
``--warm-up`` moves of each game are played but not timed. The players think (``--think``,
mean seconds per move, exponential: the games' moves arrive as a Poisson stream, as
people's do); ``--think 0`` has every game move as soon as it sees the last move, which
saturates the bot: its latency is then the CPU of 50 games' moves queued one behind another,
a throughput figure.

Robust on a loaded machine: simcord's settle timeout is generous for the setup, a move that
gets no frame within ``--patience`` seconds is counted (and its game stops) rather than
ending the run, and the load average is printed with the figures (times taken on a busy
machine measure the machine; CPU time is the steadier figure). ``--nice -10`` (root) lets
the bench's processes have the CPU before the machine's other work, for a figure nearer a
quiet machine's on a shared one; it says so beside the figures.

``--processes 2`` (PostgreSQL: ``--database-url``, else ``TEST_DATABASE_URL``; a fresh schema
is made and dropped): a second process runs no game, only the Activity's endpoint and its
relay (bot/activity/relay.py). Each game's first seat is on the bot's process, its second on
the other one, so every move crosses the database once: half from the relay's process (its
move relayed to the game, the frame back to the local seat) and half to it (the frame
relayed). Both processes' CPU is printed.

    .venv/bin/python bench/activity_latency.py [--games 50] [--moves 40] [--processes 2]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import aiohttp

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

#: Moves a seat prefers among its legal ones, so games run long enough to be measured.
PREFERENCE = ["defend", "attack", "throw", "pass", "take", "transfer", "pile"]
#: Mean seconds a player takes for a move (exponential, so moves of the games arrive as a
#: Poisson stream): a quick player at the table. ``--think 0`` saturates the bot instead,
#: every game moving as soon as it sees the last move.
THINK_SECONDS = 1.5
#: Seconds simcord may take to settle one step of the setup (50 lobbies on a busy machine).
SETUP_SETTLE = 60.0


# ----------------------------------------------------------------- the players' process


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

    async def until(self, version: int, patience: float) -> bool:
        async with self.seen:
            try:
                await asyncio.wait_for(
                    self.seen.wait_for(lambda: self.frame.get("version", -1) >= version), patience
                )
            except TimeoutError:
                return False
        return True


async def _sign_in(http: aiohttp.ClientSession, base: str, user: list[Any]) -> Seat:
    code = f"local:{user[0]}:{user[1]}"
    async with http.post(base + "api/token", json={"code": code}) as response:
        token = (await response.json())["session"]
    seat = Seat(await http.ws_connect(base + "ws"), token)
    await seat.ws.send_str(json.dumps({"op": "hello", "token": token}))
    return seat


async def _play(
    seats: list[Seat], spec: dict[str, Any], rng: random.Random, latencies: list[float]
) -> tuple[int, int]:
    """(moves made, moves whose frame never came)."""
    rank = {k: i for i, k in enumerate(PREFERENCE)}
    moves, warm_up, patience, think = (
        spec["moves"],
        spec["warm_up"],
        float(spec["patience"]),
        float(spec["think"]),
    )
    made = 0
    while made < moves:
        if think > 0:
            await asyncio.sleep(rng.expovariate(1 / think))
        mover = next((s for s in seats if s.frame.get("moves")), None)
        if mover is None or mover.frame.get("result"):
            break
        other = next(s for s in seats if s is not mover)
        move = min(mover.frame["moves"], key=lambda m: rank.get(m["kind"], 99))
        version = mover.frame["version"]
        started = time.perf_counter()
        act = {"op": "act", "token": mover.token, "version": version, "action": move["send"]}
        await mover.ws.send_str(json.dumps(act))
        if not await other.until(version + 1, patience):
            return made, 1
        if made >= warm_up:
            latencies.append(time.perf_counter() - started)
        if not await mover.until(version + 1, patience):
            return made, 1
        made += 1
    return made, 0


async def players(spec: dict[str, Any]) -> None:
    """Sign in, say ``ready``, wait for ``go`` on stdin, play, print ``result {...}``."""
    loop = asyncio.get_running_loop()
    patience = float(spec["patience"])
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=None)) as http:
        tables = []
        for game in spec["games"]:
            tables.append([await _sign_in(http, base, user) for base, user in game])
        listeners = [asyncio.create_task(s.listen()) for t in tables for s in t]
        for table in tables:
            for seat in table:
                if not await seat.until(0, patience):
                    raise SystemExit("a seat got no first frame")
        print("ready", flush=True)
        await loop.run_in_executor(None, sys.stdin.readline)
        latencies: list[float] = []
        wall = time.perf_counter()
        outcomes = await asyncio.gather(
            *(
                _play(t, spec, random.Random(spec["seed"] + i), latencies)
                for i, t in enumerate(tables)
            )
        )
        wall = time.perf_counter() - wall
        for task in listeners:
            task.cancel()
    made = sum(m for m, _ in outcomes)
    stuck = sum(s for _, s in outcomes)
    result = {"latencies": latencies, "made": made, "stuck": stuck, "wall": wall}
    print("result " + json.dumps(result))


# ----------------------------------------------------------------- the relay's process


async def relay_process(url: str) -> None:
    """Another bot process on the same database: no game, the Activity and its relay.
    Prints ``port N``; answers ``cpu`` on stdin with its process CPU; stops at end of input."""
    from bot.activity.auth import LocalOAuth, SessionSigner
    from bot.activity.relay import relay_for
    from bot.activity.server import ActivityServer
    from bot.game.service import GameService
    from bot.sharding import ShardScope
    from bot.storage import Storage

    storage = await Storage.open(url)
    service = GameService(storage, shards=ShardScope.of([1], 2))
    server = ActivityServer(service, LocalOAuth(), SessionSigner("bench"), "0", "127.0.0.1", 0)
    server.hub.relay = relay_for(server.hub)
    await server.start()
    print(f"port {server.port}", flush=True)
    loop = asyncio.get_running_loop()
    while line := await loop.run_in_executor(None, sys.stdin.readline):
        if line.strip() == "cpu":
            print(f"cpu {time.process_time()}", flush=True)
    await server.stop()
    await storage.close()


# ----------------------------------------------------------------- the bot's process


class Child:
    """A process of this script, spoken to by lines."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc

    @classmethod
    async def start(cls, *args: str) -> Child:
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            __file__,
            *args,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            limit=64 * 1024 * 1024,
        )
        return cls(proc)

    async def say(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line.encode() + b"\n")
        await self.proc.stdin.drain()

    async def hear(self, prefix: str) -> str:
        assert self.proc.stdout is not None
        while True:
            line = (await self.proc.stdout.readline()).decode()
            if not line:
                raise SystemExit(f"a child process ended before saying {prefix!r}")
            if line.startswith(prefix):
                return line[len(prefix) :].strip()

    async def end(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        await self.proc.wait()


def _config(db: Path, url: str | None) -> Any:
    from bot.config import Config

    return Config(
        discord_token=None,
        database_path=db,
        database_url=url,
        dev_guild_id=None,
        log_level="WARNING",
        ai_delay_seconds=0.0,
        table_edit_interval=0.0,  # the setup's; the moves run at the bot's own 1 s
        default_turn_timer_seconds=0,
        shard_count=1,
        default_threads=False,
    )


async def run(args: argparse.Namespace, url: str | None) -> None:
    import simcord

    from bench.simcord_shortcuts import identity_callback_records, timers_follow_the_clock
    from bot.activity.auth import LocalOAuth
    from bot.app import DurakBot
    from bot.metrics import ACTIVITY_MOVE_SECONDS

    load = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="durak-activity-") as tmp:
        bot = DurakBot(
            _config(Path(tmp) / "durak.db", url), sync="global", seed_factory=lambda: args.seed
        )
        async with simcord.run(bot, settle_timeout=SETUP_SETTLE, check_errors=False) as env:
            guild = env.create_guild("Bench")
            pairs = []
            for g in range(args.games):
                channel = guild.create_text_channel(f"t{g}")
                a, b = (guild.add_member(env.create_user(f"p{g}{x}")) for x in "ab")
                created = await a.slash(channel, "durak new", seats=2)
                lobby = created.response.id
                await b.click(next(m for m in channel.history() if m.id == lobby), label="Join")
                await a.click(next(m for m in channel.history() if m.id == lobby), label="Start")
                pairs.append((a, b))
            server = await bot.start_activity(oauth=LocalOAuth(), host="127.0.0.1", port=0)
            base_a = f"http://127.0.0.1:{server.port}/"
            other = None
            base_b = base_a
            if args.processes == 2:
                assert url is not None
                other = await Child.start("--role", "relay", "--database-url", url)
                base_b = f"http://127.0.0.1:{await other.hear('port ')}/"
            spec = {
                "games": [[[base_a, [a.id, a.name]], [base_b, [b.id, b.name]]] for a, b in pairs],
                "moves": args.moves,
                "warm_up": args.warm_up,
                "patience": args.patience,
                "think": args.think,
                "seed": args.seed,
            }
            clients = await Child.start("--role", "players")
            await clients.say(json.dumps(spec))
            publisher = bot.publisher
            assert publisher is not None
            # the bot's own table-edit pace from here (the setup ran with 0: under simcord
            # each pending sleep of the setup makes it settle the whole bot)
            publisher.interval = publisher.delivery.interval = _bots_own_edit_interval()
            frames = _meter_frames()
            with identity_callback_records(True), timers_follow_the_clock(env, True):
                await clients.hear("ready")
                cpu_b0 = float(await _ask_cpu(other)) if other is not None else 0.0
                cpu, frames[0] = time.process_time(), 0.0
                await clients.say("go")
                result = json.loads(await clients.hear("result "))
                cpu = time.process_time() - cpu
                result["frames_cpu"] = frames[0]
                cpu_b = float(await _ask_cpu(other)) - cpu_b0 if other is not None else 0.0
            await clients.end()
            if other is not None:
                await other.end()
            await bot.close()
    _report(args, result, cpu, cpu_b, load, _mean_seconds(ACTIVITY_MOVE_SECONDS), url)


def _meter_frames() -> list[float]:
    """CPU seconds the bot spends building frames (a seat's observation to JSON), summed in
    the list's one element: the Activity's own share of a move, beside the table's."""
    import bot.activity.relay as relay
    import bot.activity.server as server

    spent = [0.0]
    build = server.frame_text

    def metered(*args: Any) -> str:
        started = time.process_time()
        try:
            return build(*args)
        finally:
            spent[0] += time.process_time() - started

    server.frame_text = relay.frame_text = metered
    return spent


def _bots_own_edit_interval() -> float:
    """TABLE_EDIT_INTERVAL as the bot has it when nobody sets it."""
    from bot.config import config_from_mapping

    return config_from_mapping({}).table_edit_interval


async def _ask_cpu(child: Child | None) -> str:
    assert child is not None
    await child.say("cpu")
    return await child.hear("cpu ")


def _report(
    args: argparse.Namespace,
    result: dict[str, Any],
    cpu: float,
    cpu_b: float,
    load: tuple[float, float, float],
    acted: float,
    url: str | None,
) -> None:
    made, stuck, wall = result["made"], result["stuck"], result["wall"]
    ms = sorted(x * 1000 for x in result["latencies"])
    where = "PostgreSQL" if url else "SQLite"
    after = os.getloadavg()
    pace = (
        f"a move every {args.think:g} s per game on average (Poisson)"
        if args.think > 0
        else "every game moves as soon as it sees the last move"
    )
    print(
        f"{args.games} games at once, {pace}, {args.processes} process(es), {where}; load average "
        f"{load[0]:.1f} before, {after[0]:.1f} after (2 cores here: above 2 the CPU is shared)"
        + (f"; niceness {args.nice}" if args.nice else "")
    )
    print(f"{made} Activity moves in {wall:.1f} s ({made / wall:.0f}/s), {stuck} never answered")
    if len(ms) >= 2:
        q = statistics.quantiles(ms, n=100, method="inclusive")
        print(
            f"click to the other seat's frame ({len(ms)} timed): p50 {q[49]:.1f} ms, "
            f"p90 {q[89]:.1f} ms, p99 {q[98]:.1f} ms, max {ms[-1]:.1f} ms"
        )
    print(
        f"bot process CPU per move (simcord's side of Discord included): {cpu / made * 1000:.2f} ms"
    )
    print(f"  of which building the frames sent: {result['frames_cpu'] / made * 1000:.2f} ms")
    if args.processes == 2:
        print(f"relay process CPU per move: {cpu_b / made * 1000:.2f} ms")
    sockets = "the bot process's sockets" if args.processes == 2 else "the sockets"
    print(f"wall time of a move from {sockets} in the bot, mean: {acted * 1000:.1f} ms")


def _mean_seconds(histogram: Any) -> float:
    samples = {s.name: s.value for m in histogram.collect() for s in m.samples}
    count = samples.get("durak_activity_move_seconds_count", 0.0)
    return samples.get("durak_activity_move_seconds_sum", 0.0) / count if count else 0.0


async def _fresh_schema(url: str) -> tuple[str, str]:
    import asyncpg

    schema = f"bench_{uuid.uuid4().hex[:12]}"
    conn = await asyncpg.connect(url)
    await conn.execute(f"CREATE SCHEMA {schema}")
    await conn.close()
    return schema, f"{url}{'&' if '?' in url else '?'}search_path={schema}"


async def _drop_schema(url: str, schema: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(url)
    await conn.execute(f"DROP SCHEMA {schema} CASCADE")
    await conn.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--moves", type=int, default=40, help="moves per game at most")
    parser.add_argument("--warm-up", type=int, default=2, help="first moves of a game untimed")
    parser.add_argument("--patience", type=float, default=60.0, help="seconds to wait a frame")
    parser.add_argument(
        "--think",
        type=float,
        default=THINK_SECONDS,
        help="mean seconds a player takes for a move (0: every game moves as fast as it can)",
    )
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--processes", type=int, choices=(1, 2), default=1)
    parser.add_argument("--database-url", default="", help="PostgreSQL (default: SQLite)")
    parser.add_argument(
        "--nice",
        type=int,
        default=0,
        help="run at this niceness (children too); below 0 needs root: on a shared busy "
        "machine the bot then gets the CPU it asks for first, nearer a quiet machine's figure",
    )
    parser.add_argument("--role", choices=("bot", "players", "relay"), default="bot")
    args = parser.parse_args()
    if args.nice and args.role == "bot":
        os.setpriority(os.PRIO_PROCESS, 0, args.nice)
    if args.role == "players":
        asyncio.run(players(json.loads(sys.stdin.readline())))
        return
    if args.role == "relay":
        asyncio.run(relay_process(args.database_url))
        return
    from bench.simcord_shortcuts import card_faces_drawn_once

    base = args.database_url or (
        os.environ.get("TEST_DATABASE_URL", "") if args.processes == 2 else ""
    )
    if args.processes == 2 and not base:
        raise SystemExit("--processes 2 needs PostgreSQL: --database-url or TEST_DATABASE_URL")
    with card_faces_drawn_once(True):
        if not base:
            asyncio.run(run(args, None))
            return
        schema, url = asyncio.run(_fresh_schema(base))
        try:
            asyncio.run(run(args, url))
        finally:
            asyncio.run(_drop_schema(base, schema))


if __name__ == "__main__":
    main()
