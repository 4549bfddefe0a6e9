"""Hands face up under the table (review, replay with every hand shown): readable at
Discord's size and laid out without overlaps, in both languages."""

from __future__ import annotations

import pytest

from bot.cardart.labels import rank_labels
from bot.pictures.fonts import recording
from bot.pictures.hands import HandRow, Legend, hands_image
from bot.pictures.table import MIN_TEXT, WIDTH
from tests.pictures.test_layout import _overlap


def _rows(locale: str) -> tuple[HandRow, ...]:
    ranks = rank_labels(locale)
    return (
        HandRow("Alice", (0, 5, 14, 27, 40), ranks, 2, marks=((5, "yours"), (27, "better"))),
        HandRow("Борис с очень длинным именем, которое не влезет", tuple(range(9, 36)), ranks, 2),
        HandRow("Eve", (), ranks, 2, empty="нет карт" if locale == "ru" else "no cards"),
    )


@pytest.mark.parametrize("locale", ["en", "ru"])
def test_rows_and_legend_fit_and_never_overlap(locale: str) -> None:
    legend = (
        Legend("yours", "Ваш ход: побить 10♠ картой В♠" if locale == "ru" else "Your move: take"),
        Legend("better", "Лучший ход: сказать «бито»" if locale == "ru" else "Better move: done"),
    )
    with recording() as drawn:
        img = hands_image(_rows(locale), legend)
    texts = [d for d in drawn if d.kind == "text"]
    cards = [d for d in drawn if d.kind == "card"]
    assert len(cards) == 5 + 27 and img.width == WIDTH
    for d in texts:
        assert d.size >= MIN_TEXT
        assert d.box[0] >= 0 and d.box[2] <= img.width and d.box[3] <= img.height, d
        assert not any(_overlap(d.box, c.box) for c in cards), f"{d.text!r} lies on a card"
        if not d.text.startswith("Борис"):
            assert not d.text.endswith("…"), f"{d.text!r} is cut short"
    for c in cards:
        assert c.box[0] >= 0 and c.box[2] <= img.width and c.box[1] >= 0
