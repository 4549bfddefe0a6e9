"""Hands face up under a table picture: the review's "your hand, your move and the better
one", and the replay's "Show all hands".

The table picture (:mod:`.table`) shows only what the channel may see: every hand is a fan
of backs. These pictures are for one reader only (the review is private; a replay shows
hands only of a game that is over, in a private message), so the hands are drawn face up in
rows below the table, a row per hand with its owner's name. Nothing here is built from a
live session: the caller passes the cards (its own hand in a review, every hand of a
finished game in a replay), which is the decision of who may see them, made where the
reader is known (bot/surfaces/review_views.py, replay_views.py).

A review marks the cards of the move made and of the better one: lifted out of the row and
framed, orange for the move made, blue for the better one (the two tones of attack and
defence on the table, told apart also by colour-blind readers), gold for a card of both; a
legend under the row says which is which and names both moves in words, so a move without
cards (take, done) is shown too. Sizes follow the table's: drawn 1000 px wide, read at 450
px, no text under :data:`~.table.MIN_TEXT`.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from .cards import CARD_H, CARD_W, SHADOW, face
from .fonts import draw_text, fit, font, record
from .png import encode
from .scene import Scene
from .table import MIN_TEXT, WIDTH, render_image

__all__ = ["HandRow", "Legend", "hands_image", "render_with_hands"]

_BG = (43, 45, 49)
_FELT = (27, 94, 60)
_FELT_EDGE = (44, 112, 76)
_WHITE = (244, 244, 240)
_DIM = (170, 176, 172)
#: The tones of the marks: the move made, the better one, a card of both.
TONES = {"yours": (255, 176, 64), "better": (120, 190, 255), "both": (245, 197, 66)}

_MARGIN = 24
_CAPTION = 54
#: How far a marked card is lifted out of its row.
_LIFT = 26
_GAP = 12
_MAX_STEP = CARD_W + 10
#: The least of a card that shows under the next one: its rank and suit index.
_MIN_STEP = 34
#: The width the cards of a row are laid out in.
_ROOM = WIDTH - 2 * _MARGIN - 16


@dataclass(frozen=True, slots=True)
class HandRow:
    """One hand, face up: whose it is and its cards in hand order."""

    label: str
    cards: tuple[int, ...]
    #: The cards' rank letters and the trump suit (the picture's language, the owner's trump).
    ranks: tuple[str, ...]
    trump: int
    #: Cards to mark, with the mark's tone (``yours``, ``better``, ``both``).
    marks: tuple[tuple[int, str], ...] = ()
    #: Said in the row when the hand is empty.
    empty: str = ""


@dataclass(frozen=True, slots=True)
class Legend:
    """A line under the rows: a tone's swatch and what it marks."""

    tone: str
    text: str


def _rows_of(count: int, width: int) -> list[int]:
    """How many cards go in each line of a row: as many as fit at the least step."""
    per_line = max(1, (width - CARD_W) // _MIN_STEP + 1)
    lines = max(1, -(-count // per_line))
    base, extra = divmod(count, lines)
    return [base + (1 if i < extra else 0) for i in range(lines)]


def _row_height(row: HandRow) -> int:
    if not row.cards:  # a line of text where the cards would be
        return _CAPTION + 40 + _GAP
    lines = len(_rows_of(len(row.cards), _ROOM))
    lift = _LIFT if row.marks else 0
    return _CAPTION + lift + lines * CARD_H + (lines - 1) * _GAP + 2 * _GAP


def _legend_height(legend: tuple[Legend, ...]) -> int:
    return len(legend) * 44 + (_GAP if legend else 0)


def _draw_row(img: Image.Image, draw: ImageDraw.ImageDraw, top: int, row: HandRow) -> int:
    """Draw ``row`` from ``top``; returns its bottom."""
    height = _row_height(row)
    box = (_MARGIN // 2, top + 4, WIDTH - _MARGIN // 2, top + height - 4)
    draw.rounded_rectangle(box, 18, fill=_FELT, outline=_FELT_EDGE, width=2)
    name_font = font(MIN_TEXT + 1, bold=True)
    draw_text(
        draw,
        (_MARGIN + 8, top + 12),
        fit(row.label, name_font, WIDTH - 3 * _MARGIN, bold=True),
        name_font,
        _WHITE,
    )
    y = top + _CAPTION + (_LIFT if row.marks else 0)
    if not row.cards:
        draw_text(draw, (_MARGIN + 8, top + _CAPTION), row.empty, font(MIN_TEXT), _DIM)
        return top + height
    marks = dict(row.marks)
    room = _ROOM
    start = 0
    for count in _rows_of(len(row.cards), room):
        line = row.cards[start : start + count]
        start += count
        step = min(_MAX_STEP, (room - CARD_W) / (count - 1)) if count > 1 else 0
        x0 = _MARGIN + 8
        for i, card in enumerate(line):
            x = round(x0 + i * step)
            tone = marks.get(card)
            cy = y - _LIFT if tone else y
            sprite = face(card, card // 13 & 3 == row.trump, row.ranks)
            img.paste(sprite, (x - SHADOW, cy - SHADOW), sprite)
            record("card", (x, cy, x + min(CARD_W, round(step) or CARD_W), cy + CARD_H))
            if tone:
                draw.rounded_rectangle(
                    (x - 4, cy - 4, x + CARD_W + 3, cy + CARD_H + 3),
                    10,
                    outline=TONES[tone],
                    width=5,
                )
        y += CARD_H + _GAP
    return top + height


def _draw_legend(draw: ImageDraw.ImageDraw, top: int, legend: tuple[Legend, ...]) -> None:
    face_ = font(MIN_TEXT)
    y = top
    for line in legend:
        colour = TONES.get(line.tone, _WHITE)
        draw.rounded_rectangle((_MARGIN, y + 6, _MARGIN + 30, y + 36), 6, fill=colour)
        text = fit(line.text, face_, WIDTH - 2 * _MARGIN - 46)
        draw_text(draw, (_MARGIN + 44, y + 21), text, face_, colour, anchor="lm")
        y += 44


def hands_image(rows: tuple[HandRow, ...], legend: tuple[Legend, ...] = ()) -> Image.Image:
    """The rows of hands (and the legend) on their own, :data:`~.table.WIDTH` wide."""
    height = sum(_row_height(r) for r in rows) + _legend_height(legend) + _GAP
    img = Image.new("RGB", (WIDTH, height), _BG)
    draw = ImageDraw.Draw(img)
    y = 0
    for row in rows:
        y = _draw_row(img, draw, y, row)
    if legend:
        _draw_legend(draw, y + _GAP, legend)
    return img


def render_with_hands(
    scene: Scene, rows: tuple[HandRow, ...], legend: tuple[Legend, ...] = ()
) -> bytes:
    """The table picture of ``scene`` with ``rows`` face up below it, as PNG bytes (the
    table's own palette and encoding: the same state gives the same pixels)."""
    table = render_image(scene)
    below = hands_image(rows, legend)
    whole = Image.new("RGB", (WIDTH, table.height + below.height), _BG)
    whole.paste(table, (0, 0))
    whole.paste(below, (0, table.height))
    return encode(whole)
