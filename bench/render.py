"""Table pictures: render time and PNG size for typical 2-, 4- and 6-player tables.

Each table is a seeded game stopped at a typical moment (an attack, everything beaten, a
pick-up, a transfer where the rules have one, the end), made by ``bot.pictures.samples``.
What is timed is what the worker thread does per new game version: drawing the frozen scene
and encoding the PNG (``render_png``), with the card sprites already in memory, as they are
after a bot's first picture. The first, cold render (sprites drawn) is printed separately, and
so is building the scene, the only part that runs on the event loop.

The smallest text drawn over all these tables is printed too (its font size and the height
of a capital in it, here and at Discord's ~450 px display width; the aim is 10 px there).

Targets (2-core machine): under 50 ms and under 150 KB for a six-player table. The last line,
``six-player table: <ms> ms, <KB> KB``, gives the median render time over every six-player
moment and the largest of their PNGs. Before it, ``leaderboard picture`` and ``profile card``
give the median render time and size of the standings pictures (same targets). Figures
depend on the machine and its load: this script prints, never asserts.

    .venv/bin/python bench/render.py [--repeats 30]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.pictures import cards as sprites
from bot.pictures import render_png, table_scene
from bot.pictures.fonts import font, recording
from bot.pictures.samples import sample_session
from bot.pictures.standings import render_board_png, render_profile_png
from bot.pictures.standings_samples import sample_board, sample_profile
from bot.pictures.table import WIDTH, _background

TARGET_MS = 50.0
TARGET_KB = 150.0
#: (preset, players); each is rendered at every moment it has.
TABLES = [("podkidnoy", 2), ("perevodnoy", 4), ("podkidnoy", 6), ("perevodnoy", 6)]
#: Catalogue variants whose picture draws more (own trumps, closed cards, face-down
#: defences, trump badge, scores): printed, and summed up in their own line, so that the
#: six-player line stays comparable with earlier runs.
VARIANT_TABLES = [
    ("double-trump", 4),
    ("magadan", 2),
    ("take-on-trust", 2),
    ("invisible", 2),
    ("trumpless", 2),
    ("point", 6),
    ("epaulet", 6),
]
MOMENTS = ("attack", "defence", "transfer", "pickup", "end")
#: Discord shows a picture about this wide in a channel.
DISCORD_WIDTH = 450


def _cold_render_ms() -> float:
    """One render with every sprite cache empty (the bot's very first picture)."""
    for cached in (
        sprites.face,
        sprites.sideways_face,
        sprites.back,
        sprites.mini_back,
        sprites.rotated_back,
        sprites.sideways_mini_back,
        _background,
    ):
        cached.cache_clear()
    session = sample_session("podkidnoy", 6, "defence", seed=11)
    assert session is not None
    start = time.perf_counter()
    render_png(table_scene(session))
    return (time.perf_counter() - start) * 1000


def _standings(repeats: int) -> list[str]:
    """The leaderboard picture (a full page of ten) and the profile card, warm."""
    lines = []
    for label, draw, scene in (
        ("leaderboard picture", render_board_png, sample_board()),
        ("profile card", render_profile_png, sample_profile()),
    ):
        png = draw(scene)  # type: ignore[operator]
        times = []
        for _ in range(repeats):
            start = time.perf_counter()
            png = draw(scene)  # type: ignore[operator]
            times.append((time.perf_counter() - start) * 1000)
        lines.append(f"{label}: {statistics.median(times):.1f} ms, {len(png) / 1024:.0f} KB")
    return lines


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeats", type=int, default=30, help="renders timed per table")
    args = p.parse_args(argv)
    repeats = max(1, args.repeats)
    print(f"first render, empty sprite caches: {_cold_render_ms():.1f} ms")
    print(
        f"render_png per table, {repeats} renders after a warm-up; ms median (p90),"
        " PNG size; scene = building the scene on the event loop"
    )
    six_times: list[float] = []
    six_sizes: list[int] = []
    variant_medians: list[float] = []
    variant_sizes: list[int] = []
    smallest = 10_000
    for preset, players in TABLES + VARIANT_TABLES:
        variant = (preset, players) in VARIANT_TABLES
        for moment in MOMENTS:
            session = sample_session(preset, players, moment, seed=11)
            if session is None:
                continue  # the rules have no such moment (a transfer in podkidnoy)
            start = time.perf_counter()
            scene = table_scene(session)
            scene_ms = (time.perf_counter() - start) * 1000
            with recording() as drawn:  # warm-up: this table's card faces
                png = render_png(scene)
            smallest = min([smallest, *(d.size for d in drawn if d.kind in ("text", "badge"))])
            times = []
            for _ in range(repeats):
                start = time.perf_counter()
                png = render_png(scene)
                times.append((time.perf_counter() - start) * 1000)
            times.sort()
            median = statistics.median(times)
            p90 = times[min(len(times) - 1, int(len(times) * 0.9))]
            print(
                f"{preset:<13} {players}p {moment:<8} {median:6.1f} ms ({p90:5.1f})"
                f"  {len(png) / 1024:6.1f} KB  scene {scene_ms:.2f} ms"
                f"  ({len(scene.pairs)} pairs on the table)"
            )
            if variant:
                variant_medians.append(median)
                variant_sizes.append(len(png))
            elif players == 6:
                six_times += times
                six_sizes.append(len(png))
    median = statistics.median(six_times)
    largest = max(six_sizes) / 1024
    verdict = "met" if median < TARGET_MS and largest < TARGET_KB else "NOT met"
    print(
        f"variant tables: slowest median {max(variant_medians):.1f} ms,"
        f" largest {max(variant_sizes) / 1024:.0f} KB"
    )
    top, bottom = font(smallest).getbbox("H")[1::2]
    cap = bottom - top
    print(
        f"smallest text: {smallest} px font, capitals {cap} px high;"
        f" {cap * DISCORD_WIDTH / WIDTH:.1f} px at Discord's {DISCORD_WIDTH} px width"
    )
    for line in _standings(repeats):
        print(line)
    print(f"targets < {TARGET_MS:g} ms and < {TARGET_KB:g} KB: {verdict}")
    print(f"six-player table: {median:.1f} ms, {largest:.0f} KB")


if __name__ == "__main__":
    main()
