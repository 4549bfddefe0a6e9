"""The cost of spectators: one game watched by N members, against the same game unwatched.

A two-player game is played to its end through the real bot on simcord (the simulated
Discord the tests use) at the bot's own timing: live hand debounce and interval, spectator
interval (``bot.surfaces.live_hands.WATCH_INTERVAL``) and table edit interval, all in real
time. Every spectator opens their view with the table's Watch button (a real click); the
moves are then made through ``GameService.act`` (the path a click takes after its
acknowledgement) one every ``--gap`` seconds, so the figures are the spectators' own, not the
players' clicks. The same seed is played once with no spectator and once with ``--watchers``.

Printed per run: moves, spectator edits (PATCH requests on the spectators' interaction
tokens) per move and per second (mean over the game, and the busiest one-second window),
table edits per second, and process CPU time per move (``time.process_time``; it includes
simcord's handling of every request, which a real Discord does on its own machines, so it is
an upper bound of the bot's share). The difference between the two runs is what the
spectators cost.

Why the rate is bounded: a spectator's view is edited through that spectator's own
interaction token, and interaction webhooks are not counted against the bot's global rate
limit (Discord: "Interaction endpoints are not bound to the bot's Global Rate Limit"); each
token has a small bucket of its own. Each spectator's edits are coalesced to at most one
per WATCH_INTERVAL (1.5 s), so N spectators cost at most N / 1.5 edits a second however fast
the game moves (a computer answering at once, several throw-ins), each well inside its own
token's bucket; all spectator edits of the process share one pace (WATCH_RATE, 40 a second,
under Discord's advice of 50 requests a second for a bot), so the crowd of a table, due at
once after a move, goes out spread over a few seconds instead of as one burst; and the render
is shared by every spectator of a version (one embed per version and language), so the
bot's CPU per spectator edit is the request alone.

    .venv/bin/python bench/spectators.py [--watchers 100] [--gap 0.5] [--seed 7]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import simcord

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.simcord_shortcuts import card_faces_drawn_once
from bot.app import DurakBot
from bot.config import Config
from bot.game.service import GameService
from bot.surfaces.live_hands import WATCH_INTERVAL, WATCH_RATE


@dataclass
class Run:
    watchers: int
    moves: int
    seconds: float
    spectator_edits: int
    busiest_second: int
    table_edits: int
    cpu: float


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


def _next_move(service: GameService, game_id: int, rng: random.Random) -> tuple[int, object]:
    session = service.session(game_id)
    assert session is not None
    g = session.game
    for seat in [g.defender, *g.eligible_attackers(), *range(g.n)]:
        actions = g.legal_actions(seat)
        if actions:
            user = session.seats[seat].user_id
            assert user is not None
            return user, rng.choice(actions)
    raise RuntimeError("nobody can move")


async def run(watchers: int, gap: float, seed: int) -> Run:
    with tempfile.TemporaryDirectory(prefix="durak-watch-") as tmp:
        bot = DurakBot(_config(Path(tmp) / "durak.db"), sync="global", seed_factory=lambda: seed)
        async with simcord.run(bot, check_errors=False) as env:
            guild = env.create_guild("Bench")
            channel = guild.create_text_channel("games")
            alice, bob = (guild.add_member(env.create_user(n)) for n in ("alice", "bob"))
            crowd = [guild.add_member(env.create_user(f"w{i}")) for i in range(watchers)]
            created = await alice.slash(channel, "durak new", seats=2)
            assert created.response is not None
            lobby = created.response.id
            table = next(m for m in channel.history() if m.id == lobby)
            await bob.click(table, label="Join")
            await alice.click(next(m for m in channel.history() if m.id == lobby), label="Start")
            service = bot.service
            assert isinstance(service, GameService)
            game_id = 1
            table = next(m for m in channel.history() if m.id == lobby)
            for member in crowd:
                await member.click(table, custom_id=f"durak:watch:{game_id}:new")
            assert bot.live_hands is not None and bot.live_hands.watching(game_id) == watchers
            await asyncio.sleep(2 * WATCH_INTERVAL)  # the opening edits settle
            tokens = {
                f"/{hand.interaction.token}/"
                for hand in bot.live_hands._games.get(game_id, {}).values()
                if hand.watching
            }

            def spectator_edits() -> int:
                return sum(
                    1
                    for r in env.http_requests
                    if r.method == "PATCH" and any(t in r.path for t in tokens)
                )

            def table_edits() -> int:
                return bot.publisher.table_edits if bot.publisher else 0

            rng = random.Random(seed)
            before, tables_before = spectator_edits(), table_edits()
            samples: list[tuple[float, int]] = []
            cpu0, wall0 = time.process_time(), time.perf_counter()
            moves = 0
            session = service.session(game_id)
            while session is not None and not session.finished:
                user, action = _next_move(service, game_id, rng)
                await service.act(game_id, user, session.version, action)  # type: ignore[arg-type]
                moves += 1
                await asyncio.sleep(gap)
                samples.append((time.perf_counter(), spectator_edits()))
                session = service.session(game_id)
            await asyncio.sleep(2 * WATCH_INTERVAL)  # the last coalesced edits
            cpu, seconds = time.process_time() - cpu0, time.perf_counter() - wall0
            samples.append((time.perf_counter(), spectator_edits()))
            busiest = 0
            for i, (t0, n0) in enumerate(samples):
                later = [n for t, n in samples[i:] if t - t0 <= 1.0]
                busiest = max(busiest, later[-1] - n0)
            result = Run(
                watchers,
                moves,
                seconds,
                spectator_edits() - before,
                busiest,
                table_edits() - tables_before,
                cpu,
            )
            await bot.close()
            return result


def report(runs: Sequence[Run]) -> None:
    print(
        f"spectator interval {WATCH_INTERVAL} s per spectator (coalesced), at most "
        f"{WATCH_RATE:.0f} spectator edits/s per process; table 1 s"
    )
    print(
        f"{'watchers':>8} {'moves':>5} {'secs':>6} {'spec edits':>10} {'/move':>6} "
        f"{'/s mean':>7} {'/s peak':>7} {'table/s':>7} {'CPU ms/move':>11}"
    )
    for r in runs:
        print(
            f"{r.watchers:>8} {r.moves:>5} {r.seconds:>6.1f} {r.spectator_edits:>10} "
            f"{r.spectator_edits / max(r.moves, 1):>6.1f} {r.spectator_edits / r.seconds:>7.1f} "
            f"{r.busiest_second:>7} {r.table_edits / r.seconds:>7.2f} "
            f"{1000 * r.cpu / max(r.moves, 1):>11.1f}"
        )
    if len(runs) == 2 and runs[1].moves:
        base, watched = runs
        extra = 1000 * (watched.cpu / watched.moves - base.cpu / max(base.moves, 1))
        per_edit = 1000 * (watched.cpu - base.cpu) / max(watched.spectator_edits, 1)
        print(
            f"{watched.watchers} spectators cost {extra:.1f} ms of CPU per move "
            f"({per_edit:.2f} ms per spectator edit, simcord's side included)"
        )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--watchers", type=int, default=100)
    parser.add_argument("--gap", type=float, default=0.5, help="seconds between moves")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    with card_faces_drawn_once(True):
        runs = [asyncio.run(run(n, args.gap, args.seed)) for n in (0, args.watchers)]
    report(runs)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
