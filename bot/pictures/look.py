"""The table picture's look: its size, where the seats and the columns go, its colours, and
the few drawing helpers every part of it uses (the felt, a card's paste, a wrapped caption).

Kept apart from the drawing of the seats (:mod:`.seats`) and of the whole table
(:mod:`.table`) so that each of those reads the same figures without importing the other.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from ..cardart.cardface import Font
from .cards import (
    SHADOW,
)
from .fonts import draw_text, fit, font, record, text_width

WIDTH, HEIGHT = 1000, 720
#: The smallest font size used (DejaVu Sans: capitals 23 px high, 10 px at 450 px wide).
MIN_TEXT = 31
_NAME = 32
_BIG = 34

PANEL_W, PANEL_H = 300, 140
_TOP_Y, _BOTTOM_Y = 22 + PANEL_H // 2, HEIGHT - 22 - PANEL_H // 2
#: The middle band between the rows of seats, and its centre line.
_BAND_TOP, _BAND_BOTTOM = 22 + PANEL_H, HEIGHT - 22 - PANEL_H
_CENTRE_Y = (_BAND_TOP + _BAND_BOTTOM) // 2
#: Centres of the talon column (left), the pairs (middle) and the discard column (right).
_LEFT_X, _RIGHT_X = 165, 835
_COLUMN_W = 262
_PAIRS_LEFT, _PAIRS_RIGHT = 302, 698

_BG = (43, 45, 49)
_RIM = (96, 62, 38)
_RIM_LIGHT = (124, 84, 52)
_FELT = (27, 94, 60)
_FELT_DARK = (20, 72, 46)
_PANEL = (16, 56, 37)
_PANEL_EDGE = (44, 112, 76)
_PANEL_OUT = (62, 66, 72)
_PANEL_FOOL = (104, 32, 36)
_GOLD = (245, 197, 66)
_PAPER = (252, 251, 247)
_WHITE = (244, 244, 240)
_DIM = (170, 176, 172)
_LABEL = (214, 232, 220)
_SHADOW_TEXT = (10, 30, 20)
#: Team 1 and team 2 (partnership games): a disc with the number and a stripe on the panel.
_TEAM_COLOURS = ((86, 156, 240), (236, 120, 70))

_TONE_COLOURS = {
    "attack": (255, 176, 64),
    "defend": (120, 190, 255),
    "take": (255, 120, 110),
    "throw": (250, 222, 120),
    "wait": (190, 204, 196),
    "out": (200, 200, 200),
    "fool": (255, 160, 150),
    "player": (190, 204, 196),
    "computer": (190, 204, 196),
    "free": (150, 180, 160),
}

# Panel centres: a row along the top, one along the bottom; lists run clockwise from the
# bottom (from seat 0 play passes to the left, up, across and down the right).
_B, _T = (500, _BOTTOM_Y), (500, _TOP_Y)
_BL2, _BR2, _TL2, _TR2 = (290, _BOTTOM_Y), (710, _BOTTOM_Y), (290, _TOP_Y), (710, _TOP_Y)
_BL3, _BR3, _TL3, _TR3 = (175, _BOTTOM_Y), (825, _BOTTOM_Y), (175, _TOP_Y), (825, _TOP_Y)
_SLOTS: dict[int, tuple[tuple[int, int], ...]] = {
    1: (_B,),
    2: (_B, _T),
    3: (_B, _TL2, _TR2),
    4: (_BL2, _TL2, _TR2, _BR2),
    5: (_B, _BL3, _TL2, _TR2, _BR3),
    6: (_B, _BL3, _TL3, _T, _TR3, _BR3),
}

#: Fixed tilts of the cards shown on the discard pile (deterministic "untidiness").
_DISCARD_ANGLES = (-14, 9, -4)


def seat_slots(count: int) -> tuple[tuple[int, int], ...]:
    """Where ``count`` panels go; more than six (never in a real game) wrap around an oval."""
    if count in _SLOTS:
        return _SLOTS[count]
    return tuple(
        (
            round(500 - 350 * math.sin(2 * math.pi * i / count)),
            round(_CENTRE_Y + 270 * math.cos(2 * math.pi * i / count)),
        )
        for i in range(count)
    )


@lru_cache(maxsize=2)
def _background() -> Image.Image:
    """The empty table (drawn at double size once for smooth rounded edges)."""
    s = 2
    big = Image.new("RGB", (WIDTH * s, HEIGHT * s), _BG)
    draw = ImageDraw.Draw(big)
    draw.rounded_rectangle((2 * s, 2 * s, (WIDTH - 2) * s, (HEIGHT - 2) * s), 60 * s, fill=_RIM)
    draw.rounded_rectangle(
        (6 * s, 6 * s, (WIDTH - 6) * s, (HEIGHT - 6) * s),
        56 * s,
        outline=_RIM_LIGHT,
        width=2 * s,
    )
    draw.rounded_rectangle(
        (11 * s, 11 * s, (WIDTH - 11) * s, (HEIGHT - 11) * s), 52 * s, fill=_FELT_DARK
    )
    draw.rounded_rectangle(
        (15 * s, 15 * s, (WIDTH - 15) * s, (HEIGHT - 15) * s), 48 * s, fill=_FELT
    )
    return big.resize((WIDTH, HEIGHT), Image.Resampling.LANCZOS)


def _paste(img: Image.Image, sprite: Image.Image, x: int, y: int) -> None:
    """Paste a card sprite whose visible card starts at (x, y) (the shadow margin around)."""
    img.paste(sprite, (x - SHADOW, y - SHADOW), sprite)
    record("card", (x, y, x + sprite.width - 2 * SHADOW, y + sprite.height - 2 * SHADOW))


def _wrap(text: str, face_: Font, width: int, lines: int = 2) -> list[str]:
    """``text`` broken at spaces into at most ``lines`` lines of ``width`` px (the last one
    cut with an ellipsis if need be): a caption keeps its full size instead of shrinking."""
    words = text.split()
    out: list[str] = []
    while words and len(out) < lines - 1:
        take = len(words)
        while take > 1 and text_width(" ".join(words[:take]), face_) > width:
            take -= 1
        out.append(" ".join(words[:take]))
        words = words[take:]
    if words:
        out.append(fit(" ".join(words), face_, width))
    return [line for line in out if line]


def _caption(
    draw: ImageDraw.ImageDraw,
    x: int,
    y: int,
    text: str,
    width: int = _COLUMN_W,
    colour: tuple[int, ...] = _LABEL,
) -> int:
    """A caption centred on ``x`` from ``y`` down, wrapped to two lines; returns its bottom."""
    face_ = font(MIN_TEXT)
    for line in _wrap(text, face_, width):
        draw_text(draw, (x, y), line, face_, colour, anchor="mt")
        y += 38
    return y
