"""Card sprites at table size: faces, backs, the sideways trump, a soft shadow.

The cards themselves are drawn by :mod:`bot.cardart.cardface` (shared with the card emojis, so a
card
looks the same on a button and on the felt); this module fixes their table sizes, bakes in a
soft drop shadow and keeps every sprite in memory: a table picture is mostly pasting these,
which keeps a render in the tens of milliseconds. Sprites are RGBA with the shadow baked in,
so putting a card on the felt is one masked ``paste``.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageFilter

from engine.cards import RANK_LABELS

from ..cardart.cardface import suit_colour, table_back, table_face, table_sideways_face

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
    "sideways_mini_back",
    "suit_colour",
]

#: A table card, in pixels of the final picture: shown 450 px wide in Discord, its index is
#: still ~11 px high.
CARD_W, CARD_H = 96, 134
#: The small card backs fanned out in a seat's panel.
MINI_W, MINI_H = 28, 40
#: Margin around a sprite that holds its shadow; paste at (x - SHADOW, y - SHADOW).
SHADOW = 6


def _shadowed(small: Image.Image) -> Image.Image:
    """A card lying on the felt: the sprite with a soft drop shadow underneath."""
    w, h = small.size
    out = Image.new("RGBA", (w + 2 * SHADOW, h + 2 * SHADOW), (0, 0, 0, 0))
    alpha = Image.new("L", out.size, 0)
    alpha.paste(small.getchannel("A").point(lambda a: a * 90 // 255), (SHADOW + 1, SHADOW + 3))
    alpha = alpha.filter(ImageFilter.GaussianBlur(2.5))
    shade = Image.new("RGBA", out.size, (0, 0, 0, 255))
    shade.putalpha(alpha)
    shade.alpha_composite(small, (SHADOW, SHADOW))
    return shade


#: Every face of both languages' rank letters, plain and as a trump (2 x 52 x 2 = 208, 62 KB
#: each: 13 MB at most): a face missing costs about 25 ms to draw, a dozen moves' pictures.
@lru_cache(maxsize=256)
def face(card: int, trump: bool = False, ranks: tuple[str, ...] = RANK_LABELS) -> Image.Image:
    """A face-up card; a gold corner marks a trump (it is what players look for first).
    ``ranks``: the rank letters of the picture's language (В Д К Т in Russian)."""
    # card % 52: a second pack's twin (big fool) has its first-pack card's face
    return _shadowed(table_face(card % 52, CARD_W, CARD_H, trump=trump, ranks=ranks))


#: Every card of both languages' rank letters (2 x 52 = 104, 62 KB each: 6.5 MB at most):
#: each new game turns up a trump, so a short list missed on most games' first picture.
@lru_cache(maxsize=128)
def sideways_face(card: int, ranks: tuple[str, ...] = RANK_LABELS) -> Image.Image:
    """The turned-up trump lying across under the talon: landscape, with the index upright at
    the left end (the part that shows from under the talon)."""
    return _shadowed(table_sideways_face(card % 52, CARD_H, CARD_W, ranks=ranks))


@lru_cache(maxsize=4)
def back() -> Image.Image:
    """The back of a table-size card (the talon, the discard pile)."""
    return _shadowed(table_back(CARD_W, CARD_H))


@lru_cache(maxsize=4)
def mini_back() -> Image.Image:
    """A small back for a seat's hand (no shadow: they overlap tightly in a fan)."""
    return table_back(MINI_W, MINI_H, emblem=False)


@lru_cache(maxsize=2)
def sideways_mini_back() -> Image.Image:
    """A small back lying across: Magadan fool's closed cards, set apart from the hand."""
    return mini_back().transpose(Image.Transpose.ROTATE_90)


@lru_cache(maxsize=8)
def rotated_back(angle: int) -> Image.Image:
    """A back turned by ``angle`` degrees, for the untidy discard pile."""
    return back().rotate(angle, resample=Image.Resampling.BICUBIC, expand=True)
