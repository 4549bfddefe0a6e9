"""Card faces as PNG bytes: the pictures behind the card emojis.

Why draw instead of shipping PNGs: the faces are a function of (rank, suit, trump) and a font,
so one change to the design re-renders all 105 pictures consistently, and the emoji sync
(:mod:`bot.cardart.emojis`) notices the change from the bytes alone (their hash is in the emoji
name).

The drawing itself (colours, layout, the trump mark, the back) lives in
:mod:`bot.cardart.cardface`,
shared with the table picture so that a card looks the same on a button and on the felt. This
module only fixes the emoji size and turns the images into the PNG bytes that are uploaded:
Pillow writes no timestamp into a PNG, so the same card gives the same bytes and the same
content hash, and an emoji is uploaded again only when its picture really changed.
"""

from __future__ import annotations

import io
from functools import lru_cache

from PIL import Image

from engine.cards import RANK_LABELS, Card

from .cardface import (
    BACK_COLOUR,
    BLACK,
    EMOJI_SIZE,
    FONT_DIR,
    RED,
    TRUMP_GOLD,
    emoji_back,
    emoji_face,
    suit_colour,
)

__all__ = [
    "BACK_COLOUR",
    "BLACK",
    "FACE_SIZE",
    "FONT_DIR",
    "RED",
    "TRUMP_GOLD",
    "back_image",
    "back_png",
    "face_image",
    "face_png",
    "suit_colour",
]

#: Side of the square emoji picture. Discord accepts up to 128x128 for emojis and scales down.
FACE_SIZE = EMOJI_SIZE


def face_image(
    card: Card,
    *,
    trump: bool = False,
    size: int = FACE_SIZE,
    ranks: tuple[str, ...] = RANK_LABELS,
) -> Image.Image:
    """The face of ``card`` as an RGBA image of ``size`` x ``size`` (transparent corners),
    with the rank letters ``ranks``."""
    return emoji_face(int(card), trump=trump, size=size, ranks=ranks)


def back_image(*, size: int = FACE_SIZE) -> Image.Image:
    """The back of a card, as an emoji-sized RGBA image."""
    return emoji_back(size=size)


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


@lru_cache(maxsize=256)  # every emoji face (137) stays drawn
def face_png(card: Card, *, trump: bool = False, ranks: tuple[str, ...] = RANK_LABELS) -> bytes:
    """PNG bytes of a 128 px face: the emoji upload. Cached, since the result never changes."""
    return _png(face_image(card, trump=trump, ranks=ranks))


@lru_cache(maxsize=1)
def back_png() -> bytes:
    """PNG bytes of a 128 px card back."""
    return _png(back_image())
