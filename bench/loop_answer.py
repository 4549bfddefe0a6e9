"""CPU of a move click answered two ways: a deferred answer and an edit of the hand after the
move (``QUICK_ANSWER_SECONDS = 0``), or the hand after the move as the click's one answer
(the move applied within the budget), on the real bot under simcord.

Two-player Podkidnoy games, both hands open (so the other hand's live edit and the table's
edit follow every move, as in a real game); games alternate between the two ways, so the
machine's load falls on both alike. Each move click (``actor.click`` until simcord has
settled what it caused) is timed in process CPU (``time.process_time``: the bot and the
simulated Discord together), and, with ``--profile``, the bot's own share of it is taken
from a cProfile grouped as bench/loop_areas.py does (discord.py counted for the bot, simcord
apart). Prints figures, never asserts.

    .venv/bin/python bench/loop_answer.py [--games 8] [--moves 20] [--profile]
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import os
import pstats
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import simcord

import bot.surfaces.answers
from bench.loop_areas import IDLE, PLUMBING, SIM, areas
from bot.cardart.emojis import wanted_emojis
from tests.bot.conftest import build_world, make_bot
from tests.bot.helpers import acting_seat, message, move, service
from tests.bot.test_live_hands import seen
from tests.bot.test_play import start_game

PLAYERS = ["alice", "bob"]
WAYS = {"deferred + edit": 0.0, "one answer": 5.0}


@dataclass
class OpenGame:
    """A two-player game in a channel of its own with both hands open, as a bench plays it."""

    channel: Any
    world: dict[str, Any]
    session: Any
    hands: dict[int, int]

    def next_move(self) -> tuple[Any, Any] | None:
        """(the player to move, their hand message), or None once nobody can act."""
        session = self.session
        seat = acting_seat(session, range(session.game.n))
        if seat is None or session.finished:
            return None
        user = session.seats[seat].user_id
        actor = next(self.world[n] for n in PLAYERS if self.world[n].id == user)
        return actor, seen(self.channel, actor, self.hands[user])


async def open_game(env: Any, guild: Any, g: int) -> OpenGame:
    """Game ``g``: a channel and two players of its own, started, both hands shown."""
    channel = guild.create_text_channel(f"games-{g}")
    world = {"channel": channel}
    for name in PLAYERS:
        world[name] = guild.add_member(env.create_user(f"{name}{g}"))
    game_id = await start_game(world, PLAYERS)
    session = service(env).session(game_id)
    assert session is not None
    hands = {}
    for name in PLAYERS:
        table = message(channel, session.message_id or 0)
        shown = await world[name].click(table, custom_id=f"durak:show:{game_id}")
        assert shown.response is not None
        hands[world[name].id] = shown.response.message.id
    return OpenGame(channel, world, session, hands)


async def play(games: int, moves: int, profile: bool) -> None:
    cpu: dict[str, list[float]] = defaultdict(list)
    profiles = {way: cProfile.Profile() for way in WAYS}
    wanted_emojis()  # the card faces, drawn once per process before the bot starts
    with tempfile.TemporaryDirectory() as tmp:
        async with simcord.run(make_bot(Path(tmp) / "durak.db")) as env:
            guild = build_world(env)["guild"]
            for g in range(games):
                way = list(WAYS)[g % len(WAYS)]
                bot.surfaces.answers.QUICK_ANSWER_SECONDS = WAYS[way]
                game = await open_game(env, guild, g)
                session = game.session
                for _ in range(moves):
                    turn = game.next_move()
                    if turn is None:
                        break
                    actor, hand = turn
                    version = session.version
                    start = time.process_time()
                    if profile:
                        profiles[way].enable()
                    await move(actor, hand)
                    if profile:
                        profiles[way].disable()
                    if session.version == version + 1:
                        cpu[way].append(time.process_time() - start)
                await env.advance_time(2)
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"move clicks, process CPU (bot and simcord) in ms; load {load}")
    for way in WAYS:
        got = cpu[way]
        line = f"  {way:16} {len(got):4} moves  mean {statistics.fmean(got) * 1000:.3f}"
        line += f"  p50 {statistics.median(got) * 1000:.3f}"
        if profile:
            totals = areas(pstats.Stats(profiles[way]).stats)  # type: ignore[attr-defined]
            mine = sum(v for k, v in totals.items() if k not in {IDLE, SIM, PLUMBING})
            line += f"  profiled: bot {mine / len(got) * 1000:.3f}, simcord "
            line += f"{totals[SIM] / len(got) * 1000:.3f} per move"
        print(line)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("--games", type=int, default=8)
    p.add_argument("--moves", type=int, default=20, help="moves timed per game at most")
    p.add_argument("--profile", action="store_true", help="the bot's share from a cProfile")
    args = p.parse_args(argv)
    asyncio.run(play(args.games, args.moves, args.profile))


if __name__ == "__main__":
    main()
