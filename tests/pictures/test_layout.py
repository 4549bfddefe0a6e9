"""The table picture's layout at Discord's size, checked over every preset's samples.

Discord shows the picture about 450 px wide, 0.45 of its size. Every text drawn is recorded
(:func:`bot.pictures.fonts.recording`) with its ink box and font size, and so is every card:

* no text is smaller than ``MIN_TEXT`` (capitals at least 22 px high here, 10 px there);
* no caption or role is cut short with an ellipsis (only an overlong name may be);
* no two texts overlap, and no caption or name lies on a card (a count on its own disc,
  a "badge", is drawn over the talon or the discard pile on purpose);
* a text is either inside a seat's panel or clear of every panel;
* everything lies inside the picture.

The double-trump caption once overlapped a seat and a card: nobody saw it until a player did.
"""

from __future__ import annotations

import pytest

from bot.pictures import lobby_scene, table_scene
from bot.pictures.fonts import Drawn, font, recording
from bot.pictures.samples import STAGES, sample_lobby, sample_session
from bot.pictures.scene import Scene
from bot.pictures.table import HEIGHT, MIN_TEXT, WIDTH, render_png
from engine import PRESETS, RuleError, RuleSet

#: 10 px at 450 px wide.
MIN_CAP_HEIGHT = 22


def _overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def layout_problems(drawn: list[Drawn]) -> list[str]:
    """What is wrong with one picture's layout ([] if nothing)."""
    problems = []
    texts = [d for d in drawn if d.kind in ("text", "badge")]
    cards = [d for d in drawn if d.kind == "card"]
    panels = [d for d in drawn if d.kind == "panel"]
    for d in texts:
        if d.size < MIN_TEXT:
            problems.append(f"{d.text!r} is drawn at {d.size} px")
        if d.size == MIN_TEXT and d.text.endswith("…"):  # only a long name may be cut
            problems.append(f"{d.text!r} is cut short")
        left, top, right, bottom = d.box
        if left < 0 or top < 0 or right > WIDTH or bottom > HEIGHT:
            problems.append(f"{d.text!r} at {d.box} leaves the picture")
    for i, a in enumerate(texts):
        for b in texts[i + 1 :]:
            if _overlap(a.box, b.box):
                problems.append(f"{a.text!r} {a.box} overlaps {b.text!r} {b.box}")
        for panel in panels:
            inside = (
                panel.box[0] <= a.box[0]
                and panel.box[1] <= a.box[1]
                and a.box[2] <= panel.box[2]
                and a.box[3] <= panel.box[3]
            )
            if _overlap(a.box, panel.box) and not inside:
                problems.append(f"{a.text!r} {a.box} sticks out of a seat at {panel.box}")
        if a.kind == "text":
            for card in cards:
                if _overlap(a.box, card.box):
                    problems.append(f"{a.text!r} {a.box} lies on a card at {card.box}")
    return problems


def _drawn(scene: Scene) -> list[Drawn]:
    with recording() as drawn:
        render_png(scene)
    return drawn


def _sizes(preset: str) -> list[int]:
    sizes = []
    for players in (2, 3, 4, 5, 6):
        try:
            RuleSet.preset(preset, players=players)
        except RuleError:
            continue
        sizes.append(players)
    return sizes


def test_the_smallest_font_is_ten_pixels_high_at_discord_size() -> None:
    top, bottom = font(MIN_TEXT).getbbox("H")[1::2]
    assert bottom - top >= MIN_CAP_HEIGHT
    assert (bottom - top) * 450 / WIDTH >= 9.9


def test_the_layout_checker_sees_an_overlap() -> None:
    """The check below can fail: two captions in one place, a name on a card."""
    drawn = [
        Drawn("text", (0, 0, 50, 30), "a", MIN_TEXT),
        Drawn("text", (40, 10, 90, 40), "b", MIN_TEXT),
        Drawn("card", (80, 0, 120, 60)),
        Drawn("badge", (100, 20, 110, 30), "9", MIN_TEXT),
        Drawn("text", (200, 0, 250, 20), "small", 17),
        Drawn("text", (300, 0, 350, 30), "may thr…", MIN_TEXT),
        Drawn("panel", (400, 0, 500, 50)),
        Drawn("text", (410, 10, 450, 40), "inside", MIN_TEXT),
        Drawn("text", (480, 10, 520, 40), "across", MIN_TEXT),
    ]
    problems = layout_problems(drawn)
    assert len(problems) == 5, problems


#: The presets whose layout make check looks at (a table of each kind: plain, transfer, teams);
#: the sweep over the other presets is marked slow: make test draws a sample, CI all of it.
CHECK_PRESETS = ("podkidnoy", "perevodnoy", "teams-2v2")

CASES = [
    pytest.param(
        preset,
        players,
        stage,
        locale,
        marks=() if preset in CHECK_PRESETS else pytest.mark.slow,
    )
    for preset in PRESETS
    for players in _sizes(preset)[:: max(1, len(_sizes(preset)) - 1)]
    for stage in STAGES
    for locale in ("en", "ru")
    # Russian once per preset and size: the longer words, at the busiest moment
    if locale == "en" or stage == "defence"
]


@pytest.mark.parametrize(("preset", "players", "stage", "locale"), CASES)
def test_no_text_overlaps_and_none_is_small(
    preset: str, players: int, stage: str, locale: str
) -> None:
    session = sample_session(preset, players, stage, seed=5, tries=15, locale=locale)
    if session is None:
        return  # the rules have no such moment (test_table_picture checks which)
    scene = table_scene(session)
    problems = layout_problems(_drawn(scene))
    assert not problems, (preset, players, stage, problems)


@pytest.mark.parametrize("locale", ["en", "ru"])
@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6])
def test_lobby_layout(players: int, locale: str) -> None:
    scene = lobby_scene(sample_lobby(players, max_seats=6, locale=locale))
    problems = layout_problems(_drawn(scene))
    assert not problems, problems
