"""The leaderboard picture, the profile card and the achievement badges: they draw
deterministically, survive hostile names and empty data, and look the way they did when last
reviewed by eye (goldens at full size; small tolerance).

Regenerate the goldens after an intended change of the drawing, then look at them:

    python -m tests.pictures.test_standings_pictures --regenerate
"""

from __future__ import annotations

import io
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from bot.pictures.standings import (
    badge,
    initials,
    render_board,
    render_board_png,
    render_profile,
    render_profile_png,
)
from bot.pictures.standings_samples import sample_board, sample_profile
from bot.ratings.achievements import ACHIEVEMENTS

GOLDEN_DIR = Path(__file__).resolve().parent / "golden"
TOLERANCE = 24
MAX_DIFFERENT = 0.002
GOLDENS = {
    "leaderboard.png": lambda: render_board(sample_board()),
    "profile.png": lambda: render_profile(sample_profile()),
}


@pytest.mark.parametrize("name", sorted(GOLDENS))
def test_golden_images(name: str) -> None:
    path = GOLDEN_DIR / name
    assert path.exists(), f"missing golden {name}: see this module's docstring"
    got = GOLDENS[name]().convert("RGB")
    want = Image.open(path).convert("RGB")
    assert got.size == want.size
    diff = (
        ImageChops.difference(got, want).convert("L").point(lambda v: 255 if v > TOLERANCE else 0)
    )
    different = sum(diff.histogram()[255:]) / (got.width * got.height)
    assert different <= MAX_DIFFERENT, f"{name}: {different:.2%} of pixels differ"


def test_same_scene_same_bytes_and_small() -> None:
    for draw, scene in ((render_board_png, sample_board()), (render_profile_png, sample_profile())):
        png = draw(scene)  # type: ignore[operator]
        assert png == draw(scene)  # type: ignore[operator]
        assert len(png) < 150 * 1024
        assert Image.open(io.BytesIO(png)).width == 900


def test_hostile_names_and_empty_data_draw() -> None:
    board = sample_board()
    weird = tuple(
        replace(r, name=n)
        for r, n in zip(board.rows, ["", "🎲🎲", "\u202e" * 3, "x" * 300], strict=False)
    )
    render_board_png(replace(board, rows=weird))
    render_board_png(replace(board, rows=(), empty="Nobody has played enough rated games yet."))
    profile = sample_profile()
    render_profile_png(
        replace(profile, name="🎲", history=(), modes=(), rivals=(), achievements=())
    )
    render_profile_png(replace(profile, history=(1000,)))


def test_initials() -> None:
    assert initials("Anna Karenina") == "AK"
    assert initials("sasha_k") == "SK"
    assert initials("Олег Петров") == "ОП"
    assert initials("🎲") in ("?", "🎲")
    assert initials("") == "?"


def test_every_achievement_has_a_distinct_badge() -> None:
    pictures = {badge(a.key).tobytes() for a in ACHIEVEMENTS}
    assert len(pictures) == len(ACHIEVEMENTS)


def _regenerate() -> None:
    GOLDEN_DIR.mkdir(exist_ok=True)
    for name, draw in GOLDENS.items():
        draw().convert("RGB").save(GOLDEN_DIR / name, "PNG", optimize=True)
        print(f"wrote {GOLDEN_DIR / name}")


if __name__ == "__main__":
    if "--regenerate" in sys.argv:
        _regenerate()
    else:
        print(__doc__)
