"""The bundled DejaVu Sans, and text helpers that never raise.

Player names are whatever Discord allows: Cyrillic, emoji, combining marks, very long. DejaVu
covers Latin, Cyrillic and the card suits; a glyph it lacks (most emoji) is left out; a
name with nothing drawable left is replaced by the table scene (see :func:`drawable`). What is
*not* acceptable is an exception in the middle of a move, so every text call here is guarded
and degrades to a shorter or plainer text.

Tests can record where every text and card lands (:func:`recording`): the layout is checked
for overlaps and for the smallest text over every preset, which no eye can do for 480 pictures.

The basic layout engine is used on purpose: libraqm may or may not be installed on a host,
and the two engines place glyphs differently, which would make the same state render
different bytes on different machines.
"""

from __future__ import annotations

import logging
import math
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

# One font loader for cards and names: cached, basic layout, Pillow's own font if the
# bundled file is missing.
from ..cardart.cardface import FONT_DIR, Font, font
from ..usertext import inert

__all__ = [
    "FONT_DIR",
    "Drawn",
    "draw_text",
    "drawable",
    "fit",
    "font",
    "has_glyph",
    "record",
    "recording",
    "safe_text",
    "text_width",
]

log = logging.getLogger(__name__)

#: A picture's text is cut to its room in pixels (:func:`fit`); this only bounds the work.
_PICTURE_CHARS = 1000


@dataclass(frozen=True, slots=True)
class Drawn:
    """One thing put on a picture, as a test sees it: ``kind`` is ``text`` (a caption or a
    name), ``badge`` (a number or symbol on its own disc, laid over a card on purpose) or
    ``card``; ``box`` its ink box (left, top, right, bottom); ``size`` a text's font size."""

    kind: str  # text, badge, card or panel (a seat's box)
    box: tuple[int, int, int, int]
    text: str = ""
    size: int = 0


#: Set only inside :func:`recording` (tests): the bot's render thread never pays for it.
_RECORD: ContextVar[list[Drawn] | None] = ContextVar("picture_record", default=None)


@contextmanager
def recording() -> Iterator[list[Drawn]]:
    """Collect every text and card drawn in this context (the layout tests use it)."""
    drawn: list[Drawn] = []
    token = _RECORD.set(drawn)
    try:
        yield drawn
    finally:
        _RECORD.reset(token)


def record(kind: str, box: tuple[float, float, float, float]) -> None:
    """Note a card (or a fan of them) or a seat's panel at ``box`` when recording; nothing
    otherwise."""
    drawn = _RECORD.get()
    if drawn is not None:
        drawn.append(Drawn(kind, (round(box[0]), round(box[1]), round(box[2]), round(box[3]))))


def _render(ch: str, face: Font) -> bytes:
    img = Image.new("L", (32, 32))
    ImageDraw.Draw(img).text((4, 4), ch, font=face, fill=255)
    return img.tobytes()


@lru_cache(maxsize=8192)
def has_glyph(ch: str, bold: bool = False) -> bool:
    """Whether DejaVu draws ``ch`` visibly (a character it lacks comes out as its empty box,
    the same picture as a private-use code point that no font has; a variation selector such
    as U+FE0F, which emoji names are full of, comes out as nothing at all)."""
    face = font(20, bold)
    try:
        ink = _render(ch, face)
        return ink != _render("\U0010fffd", face) and any(ink)
    except Exception:
        return False


def _kept(text: str, bold: bool) -> list[str]:
    return [
        ch
        for ch in text
        if unicodedata.category(ch) not in ("Cc", "Cf", "Cs", "Co", "Cn")
        and (ch.isspace() or has_glyph(ch, bold))
    ]


@lru_cache(maxsize=4096)
def drawable(text: str, bold: bool = False) -> bool:
    """Whether anything of ``text`` can be drawn visibly. An emoji-only name cannot: the
    table picture then shows a placeholder ("Player 2") rather than boxes, and so does a
    name of only invisible characters or combining marks. Cached: every scene asks it of
    every seat's name, on the event loop, at every table edit."""
    text = inert(text, "picture", limit=_PICTURE_CHARS, fallback="")
    return any(not ch.isspace() and not unicodedata.combining(ch) for ch in _kept(text, bold))


def safe_text(text: str, bold: bool = False) -> str:
    """What of ``text`` the font can draw, in the order it is read. First the picture form
    of :func:`bot.usertext.inert`: direction controls, zero-width characters and mark floods
    gone, a right-to-left run (a Hebrew or Arabic name) in visual order, because the basic
    layout draws left to right. Then dropped: control and format characters, lone surrogates
    (the encoder would raise), and glyphs DejaVu lacks or draws as nothing (most emoji and
    their variation selectors: "Carol 🎲" reads better as "Carol" than with a box), unless
    that would leave nothing, in which case the boxes at least show that a name is there
    (see :func:`drawable` for a placeholder). Every text on a picture passes here once, at
    the draw: the scenes carry names as typed, so no name is reordered twice."""
    text = inert(text, "picture", limit=_PICTURE_CHARS, fallback="")
    result = " ".join("".join(_kept(text, bold)).split())
    if result:
        return result
    return "".join(
        ch for ch in text if unicodedata.category(ch) not in ("Cc", "Cf", "Cs", "Co", "Cn")
    ).strip()


def text_width(text: str, face: Font) -> float:
    try:
        return float(face.getlength(text))
    except Exception:  # a glyph the font engine chokes on: count it as wide, never raise
        return 10.0 * len(text) * (getattr(face, "size", 12) / 10)


@lru_cache(maxsize=4096)
def fit(text: str, face: Font, width: float, bold: bool = False) -> str:
    """``text`` (what of it the font can draw) cut with an ellipsis to ``width`` pixels.
    Cached: a table picture fits the same names and roles again at every move, and the
    search measures the text many times (``face`` comes from the cached :func:`font`)."""
    text = safe_text(text, bold)
    if text_width(text, face) <= width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:  # the longest prefix that fits together with the ellipsis
        mid = (lo + hi + 1) // 2
        if text_width(text[:mid].rstrip() + "…", face) <= width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + "…"


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    face: Font,
    fill: tuple[int, ...],
    *,
    anchor: str = "la",
    stroke: int = 0,
    stroke_fill: tuple[int, ...] | None = None,
    badge: bool = False,
) -> None:
    """``ImageDraw.text`` that logs and skips instead of raising (see the module doc).
    ``badge``: a number or symbol on a disc of its own (recorded as such, see :class:`Drawn`)."""
    drawn = _RECORD.get()
    if drawn is not None and text.strip():
        try:
            left, top, right, bottom = draw.textbbox(
                xy, text, font=face, anchor=anchor, stroke_width=stroke
            )
            box = (round(left), round(top), round(right), round(bottom))
            size = int(getattr(face, "size", 0))
            drawn.append(Drawn("badge" if badge else "text", box, text, size))
        except Exception:  # recording is for tests; it must never break a drawing
            pass
    try:
        if stroke == 0 and draw.palette is None and _fast(draw, xy, text, face, fill, anchor):
            return
        draw.text(
            xy,
            text,
            font=face,
            fill=fill,
            anchor=anchor,
            stroke_width=stroke,
            stroke_fill=stroke_fill,
        )
    except Exception:
        log.warning("could not draw a text of %d characters; skipped", len(text))


#: Texts kept as rendered glyph masks (:func:`_mask`): the names, roles and counts of a few
#: hundred tables; a mask is a few KB.
TEXT_MASKS = 2048


@lru_cache(maxsize=TEXT_MASKS)
def _mask(
    text: str,
    face: ImageFont.FreeTypeFont,
    mode: str,
    anchor: str,
    ink: int,
    start: tuple[float, float],
) -> tuple[object, tuple[int, int]]:
    """The glyph mask of a one-line text and its offset, as ``ImageDraw.text`` makes them.
    Cached: rasterising a text with FreeType is the dearest part of redrawing a seat's
    panel, and a table shows the same names, roles and counts move after move."""
    return face.getmask2(text, mode, None, None, None, 0, anchor, ink, start, stroke_filled=True)


def _fast(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    face: Font,
    fill: tuple[int, ...],
    anchor: str,
) -> bool:
    """Draw a one-line text without a stroke the way ``ImageDraw.text`` does (its mask put
    on the image in the fill's colour), from a cached mask; False if the text needs
    ``ImageDraw.text`` itself (several lines, a bitmap font)."""
    if not isinstance(face, ImageFont.FreeTypeFont) or "\n" in text:
        return False
    ink = draw.draw.draw_ink(fill)
    x, y = xy
    start = (math.modf(x)[0], math.modf(y)[0])
    mask, offset = _mask(text, face, draw.fontmode, anchor, ink, start)
    draw.draw.draw_bitmap((int(x) + offset[0], int(y) + offset[1]), mask, ink)
    return True
