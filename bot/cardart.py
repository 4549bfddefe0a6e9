"""Card faces drawn by our own code, as PNG bytes: the pictures behind the card emojis.

Why draw instead of shipping PNGs: the faces are a function of (rank, suit, trump) and a font,
so one change to the design re-renders all 105 pictures consistently, and the emoji sync
(:mod:`bot.emojis`) notices the change from the bytes alone (their hash is in the emoji name).

Design, for reading at emoji size (Discord shows emojis at 22-48 px, from a 128 px upload):

* the card fills the whole height of the square; the rank takes the upper half and the suit
  symbol the lower half, both as large as fits, in bold DejaVu Sans (bundled in
  ``bot/assets/fonts`` with its licence; Pillow's default font has no suit symbols);
* hearts and diamonds are red, clubs and spades near-black, on a white card with a grey
  edge that stays visible on Discord's light and dark themes;
* a **trump** face is the same card on a pale gold ground with a thick gold frame and a gold
  star in the corner: the mark survives shrinking to 22 px (a thin line or a small letter
  would not), needs no extra emoji next to every card, and keeps rank and suit where the
  eye expects them. One trump variant per card costs 52 more emojis, far below the 2,000
  an application may own;
* the back is a dark blue card with a light lattice, for the talon and hidden hands.

Everything is pure and deterministic: the same arguments give the same bytes (Pillow writes no
timestamp into a PNG, the fonts are bundled rather than whatever the host has installed), which
is what lets the content hash decide whether an emoji must be uploaded again. Drawing happens
at four times the size and is scaled down once, because Pillow draws shape edges without
anti-aliasing.
"""

from __future__ import annotations

import io
from functools import lru_cache
from math import cos, pi, sin
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from engine.cards import RANK_LABELS, SUIT_SYMBOLS, Card

__all__ = [
    "BACK_COLOUR",
    "BLACK",
    "FACE_SIZE",
    "FONT_BOLD",
    "FONT_DIR",
    "FONT_REGULAR",
    "RED",
    "TRUMP_GOLD",
    "back_image",
    "back_png",
    "face_image",
    "face_png",
    "font",
    "suit_colour",
]

FONT_DIR = Path(__file__).resolve().parent / "assets" / "fonts"
FONT_REGULAR = FONT_DIR / "DejaVuSans.ttf"
FONT_BOLD = FONT_DIR / "DejaVuSans-Bold.ttf"

#: Side of the square emoji picture. Discord accepts up to 128x128 for emojis and scales down.
FACE_SIZE = 128
_SCALE = 4  # supersampling factor (see module docstring)

RED = (206, 32, 41, 255)
BLACK = (24, 24, 28, 255)
CARD_WHITE = (255, 255, 255, 255)
CARD_EDGE = (120, 124, 132, 255)
TRUMP_GROUND = (255, 243, 196, 255)
TRUMP_GOLD = (222, 160, 0, 255)
BACK_COLOUR = (28, 58, 140, 255)
BACK_LINES = (150, 180, 240, 255)
_CLEAR = (0, 0, 0, 0)

# Card proportions inside the square: full height, real-card-like width.
_CARD_W = 104
_CARD_H = 126
_RADIUS = 12


@lru_cache(maxsize=64)
def font(size: int, *, bold: bool = True) -> ImageFont.FreeTypeFont:
    """The bundled DejaVu Sans at ``size`` pixels (cached: loading a face costs ~1 ms)."""
    return ImageFont.truetype(str(FONT_BOLD if bold else FONT_REGULAR), size)


def suit_colour(suit: int) -> tuple[int, int, int, int]:
    """Red for diamonds and hearts, near-black for clubs and spades."""
    return RED if suit in (1, 2) else BLACK


def _card_box(size: int) -> tuple[int, int, int, int]:
    s = size / FACE_SIZE
    left = round((FACE_SIZE - _CARD_W) / 2 * s)
    top = round((FACE_SIZE - _CARD_H) / 2 * s)
    return left, top, left + round(_CARD_W * s) - 1, top + round(_CARD_H * s) - 1


def _fit_text(
    draw: ImageDraw.ImageDraw,
    text: str,
    box: tuple[int, int, int, int],
    colour: tuple[int, int, int, int],
    max_size: int,
) -> None:
    """Draw ``text`` centred in ``box``, at the largest size up to ``max_size`` that fits."""
    width, height = box[2] - box[0], box[3] - box[1]
    size = max_size
    while True:
        f = font(size)
        left, top, right, bottom = draw.textbbox((0, 0), text, font=f)
        if (right - left <= width and bottom - top <= height) or size <= 8:
            break
        size -= 2
    x = box[0] + (width - (right - left)) / 2 - left
    y = box[1] + (height - (bottom - top)) / 2 - top
    draw.text((round(x), round(y)), text, font=f, fill=colour)


def _star(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: tuple[int, ...]) -> None:
    """A five-pointed star drawn as a polygon (no font needed, identical on every host)."""
    points = []
    for i in range(10):
        radius = r if i % 2 == 0 else r * 0.45
        angle = -pi / 2 + i * pi / 5
        points.append((cx + radius * cos(angle), cy + radius * sin(angle)))
    draw.polygon(points, fill=fill)


def face_image(card: Card, *, trump: bool = False, size: int = FACE_SIZE) -> Image.Image:
    """The face of ``card`` as an RGBA image of ``size`` x ``size`` (transparent corners)."""
    big = size * _SCALE
    image = Image.new("RGBA", (big, big), _CLEAR)
    draw = ImageDraw.Draw(image)
    k = big / FACE_SIZE
    box = _card_box(big)
    ground = TRUMP_GROUND if trump else CARD_WHITE
    edge = TRUMP_GOLD if trump else CARD_EDGE
    edge_width = round((6 if trump else 2) * k)
    draw.rounded_rectangle(
        box, radius=round(_RADIUS * k), fill=ground, outline=edge, width=edge_width
    )
    colour = suit_colour(card.suit)
    inset = edge_width + round(3 * k)
    left, top, right, bottom = box[0] + inset, box[1] + inset, box[2] - inset, box[3] - inset
    middle = top + (bottom - top) * 0.48
    rank = RANK_LABELS[card.rank - 2]
    _fit_text(draw, rank, (left, top, right, round(middle)), colour, round(58 * k))
    _fit_text(
        draw, SUIT_SYMBOLS[card.suit], (left, round(middle), right, bottom), colour, round(64 * k)
    )
    if trump:
        # A gold star sitting on the top-right corner of the frame.
        _star(draw, box[2] - 6 * k, box[1] + 14 * k, 17 * k, (255, 255, 255, 255))
        _star(draw, box[2] - 6 * k, box[1] + 14 * k, 14 * k, TRUMP_GOLD)
    return image.resize((size, size), Image.Resampling.LANCZOS)


def back_image(*, size: int = FACE_SIZE) -> Image.Image:
    """The back of a card: dark blue with a light lattice and a white inner frame."""
    big = size * _SCALE
    image = Image.new("RGBA", (big, big), _CLEAR)
    draw = ImageDraw.Draw(image)
    k = big / FACE_SIZE
    box = _card_box(big)
    radius = round(_RADIUS * k)
    draw.rounded_rectangle(
        box, radius=radius, fill=BACK_COLOUR, outline=CARD_EDGE, width=round(2 * k)
    )
    inner = (
        box[0] + round(9 * k),
        box[1] + round(9 * k),
        box[2] - round(9 * k),
        box[3] - round(9 * k),
    )
    # Lattice on its own layer, clipped to the inner frame by a mask.
    lattice = Image.new("RGBA", (big, big), _CLEAR)
    ldraw = ImageDraw.Draw(lattice)
    step = round(16 * k)
    line = round(3 * k)
    for offset in range(-big, 2 * big, step):
        ldraw.line([(offset, 0), (offset + big, big)], fill=BACK_LINES, width=line)
        ldraw.line([(offset, big), (offset + big, 0)], fill=BACK_LINES, width=line)
    mask = Image.new("L", (big, big), 0)
    ImageDraw.Draw(mask).rounded_rectangle(inner, radius=round(6 * k), fill=255)
    image.paste(lattice, (0, 0), mask)
    draw.rounded_rectangle(
        inner, radius=round(6 * k), outline=(255, 255, 255, 255), width=round(3 * k)
    )
    return image.resize((size, size), Image.Resampling.LANCZOS)


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


@lru_cache(maxsize=128)
def face_png(card: Card, *, trump: bool = False) -> bytes:
    """PNG bytes of a 128 px face: the emoji upload. Cached, since the result never changes."""
    return _png(face_image(card, trump=trump))


@lru_cache(maxsize=1)
def back_png() -> bytes:
    """PNG bytes of a 128 px card back."""
    return _png(back_image())
