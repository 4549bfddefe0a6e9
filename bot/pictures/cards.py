"""Card sprites at table size: faces, backs, the sideways trump, a soft shadow.

Each sprite is drawn once at three times its size and scaled down (smooth corners and edges
without per-frame cost), then kept in memory: a table picture is mostly pasting these, which
keeps a render in the tens of milliseconds. Sprites are RGBA with the shadow baked in, so
putting a card on the felt is one masked ``paste``.

These are the *table* card faces (large, index in the corner, a big suit in the middle); the
emoji-sized faces on buttons are drawn elsewhere for a different size and purpose.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw, ImageFilter

from engine.cards import RANK_LABELS, SUIT_SYMBOLS

from .fonts import draw_text, font

__all__ = [
    "CARD_H",
    "CARD_W",
    "MINI_H",
    "MINI_W",
    "SHADOW",
    "back",
    "face",
    "mini_back",
    "rotated_back",
    "sideways_face",
]

#: A table card, in pixels of the final picture.
CARD_W, CARD_H = 70, 98
#: The small card backs fanned out in a seat's panel.
MINI_W, MINI_H = 28, 40
#: Margin around a sprite that holds its shadow; paste at (x - SHADOW, y - SHADOW).
SHADOW = 6

_SCALE = 3
_RED = (200, 32, 40, 255)
_BLACK = (24, 24, 28, 255)
_PAPER = (252, 251, 247, 255)
_EDGE = (150, 150, 150, 255)
_BACK = (32, 72, 148, 255)
_BACK_LINE = (214, 224, 245, 255)
_BACK_INNER = (48, 96, 184, 255)
_TRUMP_MARK = (232, 178, 28, 255)


def suit_colour(suit: int) -> tuple[int, int, int, int]:
    """Diamonds and hearts are red, as on every deck."""
    return _RED if suit in (1, 2) else _BLACK


def _canvas(w: int, h: int) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    img = Image.new("RGBA", (w * _SCALE, h * _SCALE), (0, 0, 0, 0))
    return img, ImageDraw.Draw(img)


def _finish(big: Image.Image, w: int, h: int, shadow: bool = True) -> Image.Image:
    """Scale down and, for cards lying on the felt, add a soft drop shadow underneath."""
    small = big.resize((w, h), Image.Resampling.LANCZOS)
    if not shadow:
        return small
    out = Image.new("RGBA", (w + 2 * SHADOW, h + 2 * SHADOW), (0, 0, 0, 0))
    alpha = Image.new("L", out.size, 0)
    alpha.paste(small.getchannel("A").point(lambda a: a * 90 // 255), (SHADOW + 1, SHADOW + 3))
    alpha = alpha.filter(ImageFilter.GaussianBlur(2.5))
    shade = Image.new("RGBA", out.size, (0, 0, 0, 255))
    shade.putalpha(alpha)
    shade.alpha_composite(small, (SHADOW, SHADOW))
    return shade


def _paper(draw: ImageDraw.ImageDraw, w: int, h: int, fill: tuple[int, ...]) -> None:
    s = _SCALE
    draw.rounded_rectangle(
        (0, 0, w * s - 1, h * s - 1), radius=7 * s, fill=fill, outline=_EDGE, width=s
    )


@lru_cache(maxsize=64)
def face(card: int, trump: bool = False) -> Image.Image:
    """A face-up card: rank and suit in the top-left and bottom-right corners, a large suit
    in the middle; a gold corner marks a trump (it is what players look for first)."""
    rank, suit = RANK_LABELS[card % 13], SUIT_SYMBOLS[card // 13]
    colour = suit_colour(card // 13)
    s = _SCALE
    img, draw = _canvas(CARD_W, CARD_H)
    _paper(draw, CARD_W, CARD_H, _PAPER)
    if trump:
        w = CARD_W * s
        draw.polygon([(w - 26 * s, 0), (w - 1, 0), (w - 1, 26 * s)], fill=_TRUMP_MARK)
        draw.rounded_rectangle((0, 0, w - 1, CARD_H * s - 1), radius=7 * s, outline=_EDGE, width=s)
    rank_font = font((20 if len(rank) > 1 else 24) * s, bold=True)
    draw_text(draw, (5 * s, 4 * s), rank, rank_font, colour)
    draw_text(draw, (6 * s, 29 * s), suit, font(20 * s), colour)
    draw_text(
        draw,
        (CARD_W * s // 2 + 6 * s, CARD_H * s // 2 + 10 * s),
        suit,
        font(44 * s),
        colour,
        anchor="mm",
    )
    return _finish(img, CARD_W, CARD_H)


@lru_cache(maxsize=8)
def sideways_face(card: int) -> Image.Image:
    """The turned-up trump lying across under the talon: landscape, with the index upright at
    the left end (the part that shows from under the talon)."""
    rank, suit = RANK_LABELS[card % 13], SUIT_SYMBOLS[card // 13]
    colour = suit_colour(card // 13)
    s = _SCALE
    img, draw = _canvas(CARD_H, CARD_W)
    _paper(draw, CARD_H, CARD_W, _PAPER)
    rank_font = font((20 if len(rank) > 1 else 24) * s, bold=True)
    draw_text(draw, (17 * s, 18 * s), rank, rank_font, colour, anchor="mm")
    draw_text(draw, (17 * s, 46 * s), suit, font(24 * s), colour, anchor="mm")
    draw_text(
        draw, (CARD_H * s // 2 + 8 * s, CARD_W * s // 2), suit, font(40 * s), colour, anchor="mm"
    )
    return _finish(img, CARD_H, CARD_W)


def _back_pattern(draw: ImageDraw.ImageDraw, w: int, h: int, emblem: bool = True) -> None:
    s = _SCALE
    _paper(draw, w, h, _BACK)
    inset = max(3, w // 10) * s
    draw.rounded_rectangle(
        (inset, inset, w * s - 1 - inset, h * s - 1 - inset),
        radius=4 * s,
        fill=_BACK_INNER,
        outline=_BACK_LINE,
        width=max(1, w // 30) * s,
    )
    if not emblem:
        return
    cx, cy = w * s // 2, h * s // 2
    r = min(w, h) * s // 4
    draw.polygon(
        [(cx, cy - r), (cx + r * 2 // 3, cy), (cx, cy + r), (cx - r * 2 // 3, cy)],
        fill=_BACK_LINE,
    )


@lru_cache(maxsize=4)
def back() -> Image.Image:
    """The back of a table-size card (the talon, the discard pile)."""
    img, draw = _canvas(CARD_W, CARD_H)
    _back_pattern(draw, CARD_W, CARD_H)
    return _finish(img, CARD_W, CARD_H)


@lru_cache(maxsize=4)
def mini_back() -> Image.Image:
    """A small back for a seat's hand (no shadow: they overlap tightly in a fan)."""
    img, draw = _canvas(MINI_W, MINI_H)
    # No emblem: in a tight fan only the left edge of each card shows, and half an emblem
    # reads as an arrow.
    _back_pattern(draw, MINI_W, MINI_H, emblem=False)
    return _finish(img, MINI_W, MINI_H, shadow=False)


@lru_cache(maxsize=8)
def rotated_back(angle: int) -> Image.Image:
    """A back turned by ``angle`` degrees, for the untidy discard pile."""
    return back().rotate(angle, resample=Image.Resampling.BICUBIC, expand=True)
