"""CPU of the event loop's renders of one move, apart from Discord: both hands of a
two-player Podkidnoy game and the table, each built (embed and components) and serialised as
discord.py sends them, in English and Russian, for every position of 100 two-player games
of random play a pass (1-20 moves each, each game's positions in order: what a render keeps
from one version of a game to the next counts, a repeat of the same position does not).

bench/bot_load.py measures the whole bot under load, where one run's event-loop figure moves
by 10-20 % with the machine's load; this one isolates the part the bot's own code decides
(rendering, views, i18n, observations), so a change to it can be compared in a few seconds.
It prints CPU time (``time.process_time``), never asserts.

    .venv/bin/python bench/loop_render.py [--repeats 3] [--profile tottime]
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import os
import pstats
import random
import sys
import time
from collections import deque
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.game.models import EVENTS_KEPT, GameSession, PublicEvent, SeatInfo, public_events
from bot.rendering.table import table_embed
from bot.surfaces.hand_views import hand_message
from bot.surfaces.lobby_views import table_view
from engine import Game, RuleSet


def sessions(count: int, seed: int = 1) -> list[GameSession]:
    """Running two-player games after 0-19 random moves (the moves of a game's first deals),
    each with the public events of its moves, as the table's and the hands' "last move"
    lines read them."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        game = Game.new(RuleSet.preset("podkidnoy", players=2), seed=i)
        events: deque[PublicEvent] = deque(maxlen=EVENTS_KEPT)
        for _ in range(rng.randrange(0, 20)):
            if game.result is not None:
                break
            events.extend(public_events(game.apply(rng.choice(game.all_legal_actions()))))
        if game.result is None:
            seats = [SeatInfo(0, "Alice", 100, None), SeatInfo(1, "Боб", 101, None)]
            session = GameSession(i, 10, 20, 30, 100, "podkidnoy", seats, game, i, game.version)
            session.events = events
            out.append(session)
    return out


def games_in_order(count: int, seed: int) -> list[list[GameSession]]:
    """Two-player games played at random for 1-20 moves, each as its positions in order (a
    session per version, with the events so far): a running bot renders each version of a
    game once, after the versions before it, and never a version of another pass's games,
    so what a render keeps from one version to the next counts, and nothing more."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        game = Game.new(RuleSet.preset("podkidnoy", players=2), seed=seed * count + i)
        seats = [SeatInfo(0, "Alice", 100, None), SeatInfo(1, "Боб", 101, None)]
        events: deque[PublicEvent] = deque(maxlen=EVENTS_KEPT)
        versions = []
        for _ in range(rng.randrange(1, 21)):
            events.extend(public_events(game.apply(rng.choice(game.all_legal_actions()))))
            if game.result is not None:
                break
            session = GameSession(
                seed * count + i,
                10,
                20,
                30,
                100,
                "podkidnoy",
                seats,
                game.copy(),
                i,
                game.version,
            )
            session.events = deque(events, maxlen=EVENTS_KEPT)
            versions.append(session)
        out.append(versions)
    return out


def one_pass(games: list[list[GameSession]]) -> int:
    """Render every position of ``games`` in order, in English and Russian; the moves."""
    moves = 0
    for versions in games:
        for locale in ("en", "ru"):
            for session in versions:
                for seat in (0, 1):
                    _, embed, view = hand_message(session, seat, locale)
                    view.to_components()
                    embed.to_dict()
                table_embed(session, locale).to_dict()
                table_view(session).to_components()
                moves += 1
    return moves


async def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--games", type=int, default=100, help="games a pass")
    p.add_argument("--profile", default="", help="print a cProfile sorted by this key")
    args = p.parse_args(argv)
    passes = [games_in_order(args.games, seed) for seed in range(args.repeats + 2)]
    one_pass(passes[0])  # warm: imports, caches a running bot has warm too
    start = time.process_time()
    moves = sum(one_pass(games) for games in passes[1:-1])
    per_move = (time.process_time() - start) / moves * 1000
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    print(
        f"{per_move:.3f} ms CPU per move: two hands and the table built and serialised "
        f"({moves} moves; load {load})"
    )
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        one_pass(passes[-1])
        profiler.disable()
        pstats.Stats(profiler).sort_stats(args.profile).print_stats(30)


if __name__ == "__main__":
    asyncio.run(main())
