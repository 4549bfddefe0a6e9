"""Table pictures over whole six-seat games: the picture thread's CPU per move, and the bytes.

Issue 30's aim for the table picture: a six-player table at <= 2 ms of CPU per move on
average over a game (redraws and encoding together) and no picture over 40 KB. This plays
``--games`` seeded games of each six-seat preset (``bot.pictures.samples.sample_game``: a
seeded random policy, every other game in Russian), builds the scene after every move (on
this thread, not timed: the bot builds it on the event loop) and times what the bot's
picture thread does with it: ``Painter.png`` (the layers that changed redrawn, only the PNG
bands they cross deflated again, nothing at all when nothing visible changed), by
``time.thread_time``.

One painter draws every game, as the bot's one picture thread does, one game after another;
``--at-once N`` interleaves the moves of N games at a time instead (a move of each in turn,
as many tables being played at once are drawn), which is what the painter's caches (games'
last pictures, drawn boxes, panels' parts) must hold. Its caches start warm:
one game of each preset in each language is drawn first, untimed, so the card faces of both
languages are in memory as they are in a bot that has drawn a few tables (a face missing
costs ~25 ms once per process; bench/render.py counts that in its first game). ``--cold``
times from an empty process instead.

Printed per preset and over all: moves, CPU per move mean / p50 / p90 / p99 / max, the share
of pictures drawn whole, in part, or not at all, and the PNG's mean and largest size; then
whether the aim is met, and the machine's load averages beside the figures (the machine is
shared: CPU time is inflated by a busy machine, wall time more so). It prints, never asserts.

``--seats N`` plays N-seat games instead (the aim is not judged then): bench/bot_load's games
have two seats, a hundred at once, so ``--seats 2 --at-once 100`` draws about what its
picture thread draws (without the thread's own work around the painter).

    .venv/bin/python bench/picture_game.py [--games 4] [--at-once N] [--cold] [--profile KEY]
        [--seats N]
"""

from __future__ import annotations

import argparse
import cProfile
import itertools
import os
import pstats
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.pictures import table_scene
from bot.pictures.painter import Costs, Painter
from bot.pictures.samples import sample_game
from bot.pictures.scene import Scene

#: The six-seat presets of the aim: throw-ins only, and transfers.
PRESETS = ("podkidnoy", "perevodnoy")
SEATS = 6
AIM_MS, AIM_KB = 2.0, 40.0
#: Seeds of the warm-up games (never timed), apart from the timed ones.
_WARM_SEED = 1000


def _scenes(preset: str, seed: int, seats: int = SEATS) -> list[Scene]:
    """The scene after every move of one seeded game; odd seeds in Russian. The game's id is
    its seed, so seeds of different presets must differ."""
    locale = "ru" if seed % 2 else "en"
    return [table_scene(s) for s in sample_game(preset, seats, seed=seed, locale=locale)]


def _interleaved(games: list[list[Scene]], at_once: int) -> list[Scene]:
    """The scenes of ``games``, ``at_once`` games at a time, a move of each in turn."""
    order: list[Scene] = []
    for first in range(0, len(games), at_once):
        group = games[first : first + at_once]
        for moves in itertools.zip_longest(*group):
            order += [scene for scene in moves if scene is not None]
    return order


def _quantile(xs: list[float], q: float) -> float:
    ordered = sorted(xs)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _line(label: str, times: list[float], sizes: list[int]) -> str:
    ms = [t * 1000 for t in times]
    return (
        f"{label:<12} {len(ms):5d} moves  CPU per move mean {statistics.fmean(ms):5.2f} ms"
        f"  p50 {_quantile(ms, 0.5):5.2f}  p90 {_quantile(ms, 0.9):5.2f}"
        f"  p99 {_quantile(ms, 0.99):5.2f}  max {max(ms):6.2f}"
        f"  PNG mean {statistics.fmean(sizes) / 1024:4.1f} KB, max {max(sizes) / 1024:4.1f} KB"
    )


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=4, help="games per preset")
    p.add_argument("--at-once", type=int, default=1, help="games whose moves are interleaved")
    p.add_argument("--cold", action="store_true", help="no warm-up game: caches start empty")
    p.add_argument("--profile", metavar="KEY", help="cProfile the timed part, sorted by KEY")
    p.add_argument(
        "--seats",
        type=int,
        default=SEATS,
        help="seats per game (the aim is for six; "
        "bench/bot_load's games have two: --seats 2 --at-once 100 is close to its picture thread)",
    )
    args = p.parse_args(argv)
    load_start = os.getloadavg()
    count = max(1, args.games)
    games = {
        preset: [_scenes(preset, seed + 10_000 * i, args.seats) for seed in range(count)]
        for i, preset in enumerate(PRESETS)
    }
    painter = Painter()
    if not args.cold:
        for preset in PRESETS:
            for seed in (_WARM_SEED, _WARM_SEED + 1):  # never a timed game's id
                for scene in _scenes(preset, seed, args.seats):
                    painter.png(scene)
        painter.costs = Costs()
    profile = cProfile.Profile(time.thread_time) if args.profile else None
    clock = time.thread_time
    every_time: list[float] = []
    every_size: list[int] = []
    lines = []
    for preset, scenes_of_games in games.items():
        times: list[float] = []
        sizes: list[int] = []
        for scene in _interleaved(scenes_of_games, max(1, args.at_once)):
            if profile is not None:
                profile.enable()
            start = clock()
            png = painter.png(scene)
            times.append(clock() - start)
            if profile is not None:
                profile.disable()
            sizes.append(len(png))
        lines.append(_line(f"{preset}", times, sizes))
        every_time += times
        every_size += sizes
    load_end = os.getloadavg()
    c = painter.costs
    print(
        f"{args.seats}-seat games, {count} per preset, {max(1, args.at_once)} at once, every"
        f" other one in Russian; the picture"
        f" thread's CPU per move (Painter.png, time.thread_time)"
        f"{'' if args.cold else ', caches warm (two untimed games per preset first)'}"
    )
    for line in lines:
        print("  " + line)
    print("  " + _line("all", every_time, every_size))
    moves = c.whole + c.partial + c.unchanged
    print(
        f"  pictures: {c.whole} drawn whole, {c.partial} in part, {c.unchanged} unchanged"
        f" ({c.unchanged / moves:.0%}); {c.assembled} boxes (seat panels, pairs, emptied ones)"
        f" put together from kept parts; by stage per move: draw {c.draw / moves * 1000:.2f},"
        f" palette {c.convert / moves * 1000:.2f}, encode {c.encode / moves * 1000:.2f} ms;"
        f" PNG bands deflated again {c.rebuilt} from kept boxes, {c.inflated} inflated first"
    )
    mean_ms = statistics.fmean(every_time) * 1000
    largest_kb = max(every_size) / 1024
    verdict = "met" if mean_ms <= AIM_MS and largest_kb <= AIM_KB else "NOT met"
    if args.seats != SEATS:
        verdict = f"not measured ({args.seats} seats, the aim is for {SEATS})"
    print(
        f"  aim <= {AIM_MS:g} ms per move on average and <= {AIM_KB:g} KB: {verdict}"
        f" ({mean_ms:.2f} ms, largest {largest_kb:.1f} KB)"
    )
    print(
        "  load average (1, 5, 15 min) at start "
        + ", ".join(f"{x:.1f}" for x in load_start)
        + "; at end "
        + ", ".join(f"{x:.1f}" for x in load_end)
    )
    if profile is not None:
        pstats.Stats(profile).sort_stats(args.profile).print_stats(35)


if __name__ == "__main__":
    main()
