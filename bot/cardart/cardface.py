"""The one place that draws a playing card: its colours, its face, its back.

Two things show card faces: the application emojis on buttons and in text
(:mod:`bot.cardart.cardart`,
128 px squares shown at 22-48 px) and the table picture (:mod:`bot.pictures.cards`, 70×98
cards on the felt). They grew apart once, each with its own red, its own blue back and its own
font loading, so a change to one silently left the other behind. Everything a card looks like
now lives here, and the two callers only choose a size and add what is theirs (the emoji
upload, the table sprites' shadow and caching).

Two layouts, because the sizes ask for different things:

* the **emoji** face (:func:`emoji_face`) fills the whole height of the square; the rank takes
  the upper half and the suit symbol the lower half, both as large as fits, so both survive
  shrinking to 22 px. A trump is the same card on a pale gold ground with a thick gold frame
  and a gold star in the corner: a thin line or a small letter would not survive the shrink;
* the **table** face (:func:`table_face`, :func:`table_sideways_face`) is a real card: the
  index (rank over suit) in the corner and a large suit in the middle; a gold corner marks a
  trump, the thing players look for first.

Both share one palette and one font loader (bundled DejaVu Sans, Pillow's basic layout: with
libraqm glyphs land elsewhere, so an emoji drawn on a host with it would get another content
hash and be uploaded again). Both draw at several times their size and are scaled down once
(Pillow draws shape edges without anti-aliasing).

Everything is pure and deterministic: the same arguments give the same pixels (the fonts
are bundled in ``bot/assets/fonts`` with their licence rather than whatever the host has),
which is what lets the emoji sync decide from a content hash whether
an emoji must be uploaded again, and the table cache reuse a picture.
"""

from __future__ import annotations

import logging
from functools import lru_cache
from math import cos, pi, sin
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from engine.cards import RANK_LABELS, SUIT_SYMBOLS

__all__ = [
    "BACK_COLOUR",
    "BLACK",
    "EMOJI_SIZE",
    "FONT_DIR",
    "RED",
    "TRUMP_GOLD",
    "Font",
    "emoji_back",
    "emoji_face",
    "font",
    "suit_colour",
    "table_back",
    "table_face",
    "table_sideways_face",
]

log = logging.getLogger(__name__)

Colour = tuple[int, int, int, int]
Font = ImageFont.FreeTypeFont | ImageFont.ImageFont

FONT_DIR = Path(__file__).resolve().parent.parent / "assets" / "fonts"
_FONT_FILES = {False: "DejaVuSans.ttf", True: "DejaVuSans-Bold.ttf"}


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> Font:
    """DejaVu Sans at ``size`` pixels with Pillow's basic layout; Pillow's own font if the
    file is missing (ugly, but a broken install must not break the game).

    The basic layout engine on purpose: libraqm may or may not be installed on a host, and
    the two engines place glyphs differently, which would make the same card draw different
    pixels on different machines."""
    try:
        return ImageFont.truetype(
            str(FONT_DIR / _FONT_FILES[bold]), size, layout_engine=ImageFont.Layout.BASIC
        )
    except OSError:
        log.warning("bundled font %s is missing; using Pillow's default font", _FONT_FILES[bold])
        return ImageFont.load_default(size)


# --------------------------------------------------------------------------- colours
# One palette for every card the bot shows: a seven of hearts on a button is the same red as
# on the felt, a trump the same gold, a back the same blue.

RED: Colour = (200, 32, 40, 255)
BLACK: Colour = (24, 24, 28, 255)
PAPER: Colour = (252, 251, 247, 255)
TRUMP_GOLD: Colour = (232, 178, 28, 255)
BACK_COLOUR: Colour = (32, 72, 148, 255)
BACK_LINES: Colour = (214, 224, 245, 255)
BACK_INNER: Colour = (48, 96, 184, 255)
#: The edge of a table card, on green felt.
EDGE: Colour = (150, 150, 150, 255)
#: The edge of an emoji card: darker, so that it stays visible on Discord's light theme too.
EMOJI_EDGE: Colour = (120, 124, 132, 255)
#: The ground of a trump emoji (the table marks a trump by a gold corner instead: at 22 px a
#: corner would vanish, a whole pale gold card does not).
TRUMP_GROUND: Colour = (255, 243, 196, 255)
_CLEAR: Colour = (0, 0, 0, 0)


def suit_colour(suit: int) -> Colour:
    """Red for diamonds and hearts, near-black for clubs and spades."""
    return RED if suit in (1, 2) else BLACK


# --------------------------------------------------------------------------- emoji faces

#: Side of the square emoji picture. Discord accepts up to 128x128 for emojis and scales down.
EMOJI_SIZE = 128
_EMOJI_SCALE = 4  # supersampling factor (see module docstring)

# Card proportions inside the square: full height, real-card-like width.
_CARD_W = 104
_CARD_H = 126
_RADIUS = 12


def _card_box(size: int) -> tuple[int, int, int, int]:
    s = size / EMOJI_SIZE
    left = round((EMOJI_SIZE - _CARD_W) / 2 * s)
    top = round((EMOJI_SIZE - _CARD_H) / 2 * s)
    return left, top, left + round(_CARD_W * s) - 1, top + round(_CARD_H * s) - 1


def _fit_text(
    draw: ImageDraw.ImageDraw,
    text: str,
    box: tuple[int, int, int, int],
    colour: Colour,
    max_size: int,
) -> None:
    """Draw ``text`` centred in ``box``, at the largest size up to ``max_size`` that fits."""
    width, height = box[2] - box[0], box[3] - box[1]
    size = max_size
    while True:
        f = font(size, bold=True)
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


def emoji_face(
    card: int,
    *,
    trump: bool = False,
    size: int = EMOJI_SIZE,
    ranks: tuple[str, ...] = RANK_LABELS,
) -> Image.Image:
    """The emoji face of ``card`` as an RGBA image of ``size`` x ``size`` (transparent
    corners), its rank written with ``ranks`` (a language's letters, 2..A)."""
    rank_index, suit = card % 13, card // 13 & 3  # & 3: a twin (big fool) too
    big = size * _EMOJI_SCALE
    image = Image.new("RGBA", (big, big), _CLEAR)
    draw = ImageDraw.Draw(image)
    k = big / EMOJI_SIZE
    box = _card_box(big)
    ground = TRUMP_GROUND if trump else PAPER
    edge = TRUMP_GOLD if trump else EMOJI_EDGE
    edge_width = round((6 if trump else 2) * k)
    draw.rounded_rectangle(
        box, radius=round(_RADIUS * k), fill=ground, outline=edge, width=edge_width
    )
    colour = suit_colour(suit)
    inset = edge_width + round(3 * k)
    left, top, right, bottom = box[0] + inset, box[1] + inset, box[2] - inset, box[3] - inset
    middle = top + (bottom - top) * 0.48
    rank = ranks[rank_index]
    _fit_text(draw, rank, (left, top, right, round(middle)), colour, round(58 * k))
    _fit_text(draw, SUIT_SYMBOLS[suit], (left, round(middle), right, bottom), colour, round(64 * k))
    if trump:
        # A gold star sitting on the top-right corner of the frame.
        _star(draw, box[2] - 6 * k, box[1] + 14 * k, 17 * k, (255, 255, 255, 255))
        _star(draw, box[2] - 6 * k, box[1] + 14 * k, 14 * k, TRUMP_GOLD)
    return image.resize((size, size), Image.Resampling.LANCZOS)


def emoji_back(*, size: int = EMOJI_SIZE) -> Image.Image:
    """The emoji back of a card: dark blue with a light lattice and a white inner frame."""
    big = size * _EMOJI_SCALE
    image = Image.new("RGBA", (big, big), _CLEAR)
    draw = ImageDraw.Draw(image)
    k = big / EMOJI_SIZE
    box = _card_box(big)
    radius = round(_RADIUS * k)
    draw.rounded_rectangle(
        box, radius=radius, fill=BACK_COLOUR, outline=EMOJI_EDGE, width=round(2 * k)
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


# --------------------------------------------------------------------------- table cards

_TABLE_SCALE = 3


def _canvas(w: int, h: int) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    img = Image.new("RGBA", (w * _TABLE_SCALE, h * _TABLE_SCALE), (0, 0, 0, 0))
    return img, ImageDraw.Draw(img)


def _paper(draw: ImageDraw.ImageDraw, w: int, h: int, fill: tuple[int, ...]) -> None:
    s = _TABLE_SCALE
    draw.rounded_rectangle(
        (0, 0, w * s - 1, h * s - 1), radius=7 * s, fill=fill, outline=EDGE, width=s
    )


def _text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    face: Font,
    fill: Colour,
    anchor: str = "la",
) -> None:
    # Ranks and suit symbols are fixed strings the bundled font has: no guard needed here
    # (player names go through bot.pictures.fonts.draw_text, which never raises).
    draw.text(xy, text, font=face, fill=fill, anchor=anchor, stroke_width=0, stroke_fill=None)


def table_face(
    card: int,
    w: int,
    h: int,
    *,
    trump: bool = False,
    ranks: tuple[str, ...] = RANK_LABELS,
) -> Image.Image:
    """A face-up table card of ``w`` x ``h`` pixels (no shadow): rank and suit in the top-left
    corner, a large suit in the middle, a gold corner on a trump. ``ranks``: the 13 rank
    labels of the picture's language (:func:`bot.cardart.labels.rank_labels`)."""
    rank, suit = ranks[card % 13], SUIT_SYMBOLS[card // 13 & 3]  # & 3: a twin too
    colour = suit_colour(card // 13 & 3)
    s = _TABLE_SCALE
    img, draw = _canvas(w, h)
    _paper(draw, w, h, PAPER)
    # The index grows with the card (designed at 70 px wide): at the table picture's size it
    # must stay readable when Discord shows the picture 450 px wide.
    k = w / 70
    if trump:
        ww, corner = w * s, round(26 * k * s)
        draw.polygon([(ww - corner, 0), (ww - 1, 0), (ww - 1, corner)], fill=TRUMP_GOLD)
        draw.rounded_rectangle((0, 0, ww - 1, h * s - 1), radius=7 * s, outline=EDGE, width=s)
    rank_font = font(round((23 if len(rank) > 1 else 24) * k * s), bold=True)
    _text(draw, (round(5 * k * s), round(4 * k * s)), rank, rank_font, colour)
    _text(draw, (round(6 * k * s), round(29 * k * s)), suit, font(round(20 * k * s)), colour)
    centre = (w * s // 2 + round(6 * k * s), h * s // 2 + round(10 * k * s))
    _text(draw, centre, suit, font(round(44 * k * s)), colour, anchor="mm")
    return img.resize((w, h), Image.Resampling.LANCZOS)


def table_sideways_face(
    card: int, w: int, h: int, *, ranks: tuple[str, ...] = RANK_LABELS
) -> Image.Image:
    """The turned-up trump lying across under the talon, ``w`` x ``h`` (landscape): the index
    upright at the left end, the part that shows from under the talon."""
    rank, suit = ranks[card % 13], SUIT_SYMBOLS[card // 13 & 3]  # & 3: a twin too
    colour = suit_colour(card // 13 & 3)
    s = _TABLE_SCALE
    img, draw = _canvas(w, h)
    _paper(draw, w, h, PAPER)
    k = h / 70  # the index grows with the card, as on a face-up one
    rank_font = font(round((23 if len(rank) > 1 else 24) * k * s), bold=True)
    _text(draw, (round(17 * k * s), round(18 * k * s)), rank, rank_font, colour, anchor="mm")
    _text(
        draw,
        (round(17 * k * s), round(46 * k * s)),
        suit,
        font(round(24 * k * s)),
        colour,
        anchor="mm",
    )
    _text(
        draw,
        (w * s // 2 + round(8 * k * s), h * s // 2),
        suit,
        font(round(40 * k * s)),
        colour,
        anchor="mm",
    )
    return img.resize((w, h), Image.Resampling.LANCZOS)


def table_back(w: int, h: int, *, emblem: bool = True) -> Image.Image:
    """The back of a table card, ``w`` x ``h`` (no shadow). ``emblem=False`` for the small
    backs fanned in a seat's panel: only their left edge shows, and half an emblem reads as
    an arrow."""
    s = _TABLE_SCALE
    img, draw = _canvas(w, h)
    _paper(draw, w, h, BACK_COLOUR)
    inset = max(3, w // 10) * s
    draw.rounded_rectangle(
        (inset, inset, w * s - 1 - inset, h * s - 1 - inset),
        radius=4 * s,
        fill=BACK_INNER,
        outline=BACK_LINES,
        width=max(1, w // 30) * s,
    )
    if emblem:
        cx, cy = w * s // 2, h * s // 2
        r = min(w, h) * s // 4
        draw.polygon(
            [(cx, cy - r), (cx + r * 2 // 3, cy), (cx, cy + r), (cx - r * 2 // 3, cy)],
            fill=BACK_LINES,
        )
    return img.resize((w, h), Image.Resampling.LANCZOS)
