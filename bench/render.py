"""Table pictures: render time and PNG size for typical 2-, 4- and 6-player tables.

Each table is a seeded game stopped at a typical moment (an attack, everything beaten, a
pick-up, a transfer where the rules have one, the end), made by ``bot.pictures.samples``.
What is timed is what the worker thread does per new game version: drawing the frozen scene
and encoding the PNG (``render_png``), with the card sprites already in memory, as they are
after a bot's first picture. The first, cold render (sprites drawn) is printed separately, and
so is building the scene, the only part that runs on the event loop.

The smallest text drawn over all these tables is printed too (its font size and the height
of a capital in it, here and at Discord's ~450 px display width; the aim is 10 px there).

Whole games (``--games``, the first section): games of 2, 4 and 6 seats played out by a
seeded random policy (``bot.pictures.samples.sample_game``), the table picture drawn after
every move as the bot draws it (the painter of ``bot.pictures.painter``: only the layers that
changed, only the PNG bands they cross), and the same moves drawn the way the bot drew them
before (the whole picture, Pillow's fast octree palette, Pillow's PNG encoder at level 3).
Per move: CPU of the drawing thread (``time.thread_time``) split into draw / palette /
encode, and the PNG's bytes; averaged over every move of every game. The issue's aim for a
six-player table: <= 2 ms and <= 40 KB.

Formats (``--formats``, printed after the games): one six-seat picture stored whole in each
way the painter could store it (the bot's banded palette PNG, Pillow's PNG at levels 1, 3 and
6 and with ``optimize``, lossless WebP at its fastest and default methods), CPU per picture
and size, the median of a few pictures of a game.

Targets (2-core machine): under 50 ms and under 150 KB for a six-player table. The last line,
``six-player table: <ms> ms, <KB> KB``, gives the median render time over every six-player
moment and the largest of their PNGs. Before it, ``leaderboard picture`` and ``profile card``
give the median render time and size of the standings pictures (same targets). Figures
depend on the machine and its load: this script prints, never asserts.

    .venv/bin/python bench/render.py [--repeats 30] [--games 6] [--games-only] [--formats]
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image

from bot.pictures import cards as sprites
from bot.pictures import render_png, table_scene
from bot.pictures.fonts import font, recording
from bot.pictures.look import _background
from bot.pictures.painter import Painter
from bot.pictures.samples import sample_game, sample_session
from bot.pictures.standings import render_board_png, render_profile_png
from bot.pictures.standings_samples import sample_board, sample_profile
from bot.pictures.table import WIDTH, render_image

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


#: (preset, seats) of the whole games; the six-seat ones are the issue's aim.
GAME_TABLES = [("podkidnoy", 2), ("perevodnoy", 4), ("podkidnoy", 6), ("perevodnoy", 6)]
AIM_MS, AIM_KB = 2.0, 40.0


@dataclass
class PerMove:
    """Per-move CPU (seconds, the drawing thread's) by stage, and PNG bytes."""

    draw: list[float] = field(default_factory=list)
    palette: list[float] = field(default_factory=list)
    encode: list[float] = field(default_factory=list)
    size: list[int] = field(default_factory=list)

    def total(self) -> list[float]:
        return [a + b + c for a, b, c in zip(self.draw, self.palette, self.encode, strict=True)]

    def line(self, label: str) -> str:
        def ms(xs: list[float]) -> float:
            return statistics.fmean(xs) * 1000

        tot = self.total()
        return (
            f"{label:<7} draw {ms(self.draw):5.2f}  palette {ms(self.palette):5.2f}  "
            f"encode {ms(self.encode):5.2f}  = {ms(tot):5.2f} ms per move "
            f"(p90 {sorted(tot)[int(len(tot) * 0.9)] * 1000:5.2f}, max {max(tot) * 1000:5.2f})"
            f"  {statistics.fmean(self.size) / 1024:5.1f} KB (max {max(self.size) / 1024:.1f})"
        )


def _before(scene: object, out: PerMove) -> None:
    """The picture as the bot drew it before the painter: whole, octree palette, Pillow PNG
    at level 3."""
    clock = time.thread_time
    start = clock()
    rgb = render_image(scene)  # type: ignore[arg-type]
    drawn = clock()
    indexed = rgb.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    quantized = clock()
    buf = io.BytesIO()
    indexed.save(buf, "PNG", compress_level=3)
    done = clock()
    out.draw.append(drawn - start)
    out.palette.append(quantized - drawn)
    out.encode.append(done - quantized)
    out.size.append(len(buf.getvalue()))


def _game_scenes(preset: str, seats: int, seed: int, locale: str) -> list[object]:
    """The scene after every move of one seeded game (and its first, dealt position)."""
    return [table_scene(s) for s in sample_game(preset, seats, seed=seed, locale=locale)]


def _games(count: int) -> None:
    print(
        f"whole games: {count} per table size, the picture drawn after every move; CPU of the"
        " drawing thread per move, averaged over every move (p90 and max over moves), and"
        " the PNG size"
    )
    for preset, seats in GAME_TABLES:
        before, after = PerMove(), PerMove()
        painter = Painter()
        moves = 0
        for seed in range(count):
            scenes = _game_scenes(preset, seats, seed, "ru" if seed % 2 else "en")
            moves += len(scenes)
            for scene in scenes:
                _before(scene, before)
                c = painter.costs
                was = (c.draw, c.convert, c.encode)
                png = painter.png(scene)  # type: ignore[arg-type]
                after.draw.append(c.draw - was[0])
                after.palette.append(c.convert - was[1])
                after.encode.append(c.encode - was[2])
                after.size.append(len(png))
        c = painter.costs
        print(
            f"{preset} {seats} seats: {count} games, {moves} pictures; painter: {c.whole} drawn"
            f" whole, {c.partial} in part, {c.unchanged} unchanged"
        )
        print("  " + before.line("before"))
        print("  " + after.line("after"))
        if seats == 6:
            ms = statistics.fmean(after.total()) * 1000
            kb = max(after.size) / 1024
            verdict = "met" if ms <= AIM_MS and kb <= AIM_KB else "NOT met"
            print(f"  aim <= {AIM_MS:g} ms per move and <= {AIM_KB:g} KB: {verdict}")


def _formats() -> None:
    """One six-seat picture stored whole in every way measured (see the module doc)."""
    from bot.pictures.palette import to_palette
    from bot.pictures.png import encode_indexed
    from bot.pictures.table import BAND_EDGES

    scenes = _game_scenes("podkidnoy", 6, 0, "en")
    pictures = [render_image(scenes[i]) for i in range(10, len(scenes), len(scenes) // 6)]  # type: ignore[arg-type]
    indexed = [to_palette(rgb) for rgb in pictures]

    def pillow(image: Image.Image, fmt: str, **options: object) -> int:
        buf = io.BytesIO()
        image.save(buf, fmt, **options)
        return len(buf.getvalue())

    ways: list[tuple[str, object]] = [
        (
            "bot: palette PNG, ISA-L level 1 in bands",
            lambda i: len(encode_indexed(indexed[i], BAND_EDGES).png),
        ),
        ("Pillow palette PNG, zlib level 1", lambda i: pillow(indexed[i], "PNG", compress_level=1)),
        ("Pillow palette PNG, zlib level 3", lambda i: pillow(indexed[i], "PNG", compress_level=3)),
        ("Pillow palette PNG, zlib level 6", lambda i: pillow(indexed[i], "PNG", compress_level=6)),
        ("Pillow palette PNG, optimize", lambda i: pillow(indexed[i], "PNG", optimize=True)),
        (
            "lossless WebP, method 0 (RGB)",
            lambda i: pillow(pictures[i], "WEBP", lossless=True, method=0, quality=0),
        ),
        (
            "lossless WebP, method 4 (RGB)",
            lambda i: pillow(pictures[i], "WEBP", lossless=True, method=4),
        ),
    ]
    print(f"formats: a whole six-seat picture, median of {len(pictures)} pictures of a game")
    for label, store in ways:
        times, sizes = [], []
        for i in range(len(pictures)):
            start = time.thread_time()
            sizes.append(store(i))  # type: ignore[operator]
            times.append(time.thread_time() - start)
        print(
            f"  {label:<44} {statistics.median(times) * 1000:6.2f} ms"
            f"  {statistics.median(sizes) / 1024:5.1f} KB"
        )


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
    p.add_argument("--games", type=int, default=6, help="whole games per table size")
    p.add_argument("--games-only", action="store_true", help="only the whole games")
    p.add_argument("--formats", action="store_true", help="PNG levels and WebP, one picture")
    args = p.parse_args(argv)
    repeats = max(1, args.repeats)
    if args.games > 0:
        _games(args.games)
        print()
    if args.formats:
        _formats()
        print()
    if args.games_only:
        return
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
