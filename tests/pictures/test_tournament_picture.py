"""The tournament round picture (bot/pictures/tournament.py) at Discord's size, en and ru:
every text at least 18 px (8 px at 450 px wide), none overlapping another, all inside."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.game.tournaments import TournamentView
from bot.pictures.fonts import recording
from bot.pictures.tournament import WIDTH, render_tournament_png
from bot.rendering.tournament import points_text, tournament_scene
from bot.storage.tournaments import TournamentRow
from bot.tournaments import Entrant, Table, standings

NAMES = ["Анна Каренина", "Ben", "A very long display name that will not fit", "Dan", "Eva"]


def _view() -> TournamentView:
    entrants = tuple(
        Entrant(100 + i, name, 1400 - 20 * i, i, dropped=i == 4) for i, name in enumerate(NAMES)
    )
    tables = (
        Table(1, 1, (100, 101), {100: 1.0, 101: 0.0}, 1),
        Table(1, 2, (102, 103), {102: 0.5, 103: 0.5}, 2),
        Table(1, 3, (104,), {104: 1.0}),
        Table(2, 1, (100, 102), None, 3),
        Table(2, 2, (101, 104), None, 4),
        Table(2, 3, (103,), {103: 1.0}),
    )
    row = TournamentRow(3, 1, 2, 3, "running", "podkidnoy", "swiss", 3, 2, 0.0, 2, None, "en", None)
    return TournamentView(row, entrants, tables, tuple(standings(entrants, tables)))


def _overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("locale", ["en", "ru"])
@pytest.mark.parametrize("number", [2, None])
def test_round_and_final_pictures_read_at_discord_size(locale: str, number: int | None) -> None:
    scene = tournament_scene(_view(), locale, number)
    with recording() as drawn:
        png = render_tournament_png(scene)
    image = Image.open(io.BytesIO(png))
    assert image.width == WIDTH
    texts = [d for d in drawn if d.kind in ("text", "badge") and d.text.strip()]
    assert texts
    for d in texts:
        left, top, right, bottom = d.box
        assert left >= 0 and top >= 0 and right <= image.width and bottom <= image.height, d
    # avatars' initials are the only texts below 18 px
    small = [d for d in texts if d.size < 18 and len(d.text) > 2]
    assert not small, small
    for i, a in enumerate(texts):
        for b in texts[i + 1 :]:
            assert not _overlap(a.box, b.box), (a, b)
    words = " ".join(d.text for d in texts)
    assert ("Buchholz" if locale == "en" else "Бухгольц") in words
    if number is not None:
        assert ("Bye" if locale == "en" else "Пропуск") in words


def test_points_read_as_fractions() -> None:
    assert [points_text(v) for v in (0, 0.5, 1, 1.5, 2 / 3, 4 / 3, 0.25)] == [
        "0",
        "½",
        "1",
        "1½",
        "⅔",
        "1⅓",
        "¼",
    ]
